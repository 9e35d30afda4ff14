// One redaction for every output: tokens of every shape (ending in `-` or `_` included) go through every error
// path — the registry, config problems (a token-carrying BASE_URL without BOT_TOKEN), Bot API errors whose body
// echoes the request path (raw and URL-encoded), log lines, the demo's reading of the assistant's answer, and
// the CLI's own stderr — and neither the token, its secret half nor their URL-encoded forms come out.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { TOKEN_IN_TEXT } from '../../src/demo/create-demo-bot.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { HEARSAY_BIN } from '../support/cli.js';
import { lineCapture } from '../support/log-capture.js';

const cli = HEARSAY_BIN;
const SECRET_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'.split('');

/** `<bot id>:<35 characters>`, with `-` and `_` endings and starts as likely as any other. */
const tokens = fc
  .tuple(
    fc.bigInt({ min: 1n, max: 99_999_999_999n }),
    fc.array(fc.constantFrom(...SECRET_CHARS), { minLength: 34, maxLength: 34 }),
    fc.constantFrom('-', '_', 'A', 'z', '9'),
    fc.boolean(),
  )
  .map(([id, body, edge, atStart]) => `${id}:${atStart ? edge + body.join('') : body.join('') + edge}`);

/** Every form the token must not take in an output. */
function leakedForms(token: string): string[] {
  const [id, half] = [token.slice(0, token.indexOf(':')), token.slice(token.indexOf(':') + 1)];
  return [token, `${id}%3A${half}`, `${id}%3a${half}`, half, encodeURIComponent(token)];
}

function expectNoLeak(output: string, token: string): void {
  for (const form of leakedForms(token)) expect(output).not.toContain(form);
}

describe('the token never leaks, whatever its shape', () => {
  let echo: Server;
  let echoUrl: string;
  beforeAll(async () => {
    // A misbehaving proxy: its error pages echo the request path, once raw and once URL-encoded.
    echo = createServer((request, response) => {
      const path = request.url ?? '';
      const encoded = path.replace(/:/g, '%3A');
      if (path.endsWith('/getme')) response.writeHead(502).end(`<html>Bad gateway for ${encoded} (${path})</html>`);
      else
        response
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: false, error_code: 400, description: `no route ${encoded} ${path}` }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())));

  it('scrub removes the token, its secret half and their encoded forms from any text', () => {
    fc.assert(
      fc.property(tokens, fc.string(), (token, noise) => {
        const secrets = new Secrets();
        secrets.add(token);
        const text = leakedForms(token)
          .map((form) => `${noise}${form}${noise}`)
          .join(' /bot');
        expectNoLeak(secrets.scrub(text), token);
        // Each form on its own too: scrub looks for one probe per secret before it looks for every form.
        for (const form of leakedForms(token)) expectNoLeak(secrets.scrub(`${noise}${form}${noise}`), token);
      }),
      { numRuns: 300 },
    );
  });

  it('a secret whose forms share no part (a password with characters URL encoding changes) is found in each form', () => {
    const secrets = new Secrets();
    secrets.add('p@ss:w0rd/x', 4);
    for (const text of ['AUTH p@ss:w0rd/x refused', `AUTH ${encodeURIComponent('p@ss:w0rd/x')} refused`]) {
      expect(secrets.scrub(text)).toBe('AUTH <redacted> refused');
    }
  });

  it('a token-shaped string is redacted even when it was never registered (a pasted BASE_URL)', async () => {
    await fc.assert(
      fc.asyncProperty(tokens, async (token) => {
        const secrets = new Secrets();
        for (const base of [`https://api.telegram.org/bot${token}/getMe`, `http//api.telegram.org/bot${token}`, `not a url bot${token}`]) {
          const error = await loadConfig({ cwd: '/', env: { BASE_URL: base }, secrets }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(ConfigError);
          const printed = secrets.scrub((error as ConfigError).problems.map((p) => p.format()).join('\n'));
          expectNoLeak(printed, token);
          // Even unscrubbed, the message itself does not quote it.
          expect((error as ConfigError).problems.map((p) => p.format()).join('\n')).not.toContain(token);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('Bot API errors whose body echoes the path, and the log lines about them, carry no form of the token', async () => {
    await fc.assert(
      fc.asyncProperty(tokens, async (token) => {
        const secrets = new Secrets();
        secrets.add(token);
        const { destination, lines } = lineCapture();
        const logger = createLogger({ level: 'trace', destination, pretty: false, secrets });
        const client = new BotApiClient({ baseUrl: echoUrl, token, logger });
        try {
          for (const call of [() => client.getMe(), () => client.sendMessage({ chat_id: 1, text: 'x' })]) {
            const error = (await call().catch((e: unknown) => e)) as Error & { bodySnippet?: string; description?: string };
            expect(error).toBeInstanceOf(Error);
            logger.error({ err: error, body: error.bodySnippet, description: error.description }, 'call failed');
            expectNoLeak(`${error.message} ${error.bodySnippet ?? ''} ${error.description ?? ''}`, token);
          }
        } finally {
          await client.close();
        }
        expect(lines.join('')).toMatch(/call failed/);
        expectNoLeak(lines.join(''), token);
      }),
      { numRuns: 40 },
    );
  });

  it("the demo reads every token from the assistant's answer, whatever its last character", () => {
    fc.assert(
      fc.property(tokens, (token) => {
        const answer = `Done! Use this token to access the HTTP API:\n${token}\nKeep your token secure.`;
        expect(TOKEN_IN_TEXT.exec(answer)?.[0]).toBe(token);
        expect(TOKEN_IN_TEXT.exec(`${token}.`)?.[0]).toBe(token);
      }),
      { numRuns: 500 },
    );
  });

  it('hearsay run prints no form of the token on any failure it reports', async () => {
    const rules = await mkdtemp(join(tmpdir(), 'hearsay-redaction-'));
    await writeFile(join(rules, 'bot.yaml'), 'rules:\n  - id: hi\n    pattern: hi\n    reply: hello\n');
    const samples = fc.sample(tokens, 3);
    for (const token of [...samples, `123456:${'A'.repeat(34)}-`, `123456:${'A'.repeat(34)}_`]) {
      const cases: Array<Record<string, string>> = [
        // A pasted BASE_URL carrying the token, BOT_TOKEN unset: a config problem (exit 2).
        { BASE_URL: `https://api.telegram.org/bot${token}` },
        { BASE_URL: `::bot${token}` },
        // A proxy that echoes the path in its error page: the startup failure (exit 1).
        { BOT_TOKEN: token, BASE_URL: echoUrl, HEARSAY_LOG_LEVEL: 'debug', HEARSAY_LOG_FORMAT: 'json' },
      ];
      for (const env of cases) {
        const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
          execFile(
            process.execPath,
            [cli, 'run', '--rules', rules, '--data-dir', join(rules, 'data')],
            { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 },
            (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, text: `${stdout}${stderr}` }),
          );
        });
        expect(output.code, output.text).not.toBe(0);
        expect(output.text.length).toBeGreaterThan(10);
        expectNoLeak(output.text, token);
      }
    }
  }, 120_000);
});

describe('store passwords', () => {
  it('the password of any scheme://user:password@ URL is redacted, registered or not, in log lines too', () => {
    const secrets = new Secrets();
    expect(secrets.scrub('cannot reach redis://:pa55word@10.0.0.5:6379/0 (ECONNREFUSED)')).toBe(
      'cannot reach redis://:<redacted>@10.0.0.5:6379/0 (ECONNREFUSED)',
    );
    expect(secrets.scrub('"rediss://app:x%40y-z@host/1"')).toBe('"rediss://app:<redacted>@host/1"');
    expect(secrets.scrub('redis://host:6379/0 and https://example.com/a:b@c')).toBe('redis://host:6379/0 and https://example.com/a:b@c');
    const { destination, lines } = lineCapture();
    const logger = createLogger({ secrets, destination });
    secrets.add('short-pw', 4);
    logger.error({ url: 'redis://u:pa55word@h/0' }, 'store down; AUTH short-pw refused');
    expect(lines.join('')).not.toMatch(/pa55word|short-pw/);
    expect(lines.join('')).toContain('redis://u:<redacted>@h/0');
  });

  it('the user info runs to the last @ before the host: a password holding an unencoded @, / or : is cut whole', () => {
    const secrets = new Secrets();
    const url = 'redis://:Rp4ss-w0rd@with:col/on%2Fend@127.0.0.1:6379/0';
    expect(secrets.scrub(`cannot reach ${url} (ECONNREFUSED)`)).toBe('cannot reach redis://:<redacted>@127.0.0.1:6379/0 (ECONNREFUSED)');
    expect(secrets.scrub(JSON.stringify({ store: 'redis://user@corp:p@ss"w0rd@h:1/0', next: 'a@b' }))).toBe(
      '{"store":"redis://user@corp:<redacted>@h:1/0","next":"a@b"}',
    );
    const { destination, lines } = lineCapture();
    createLogger({ secrets, destination }).error({ store: url }, `store down at ${url}`);
    expect(lines.join('')).not.toMatch(/Rp4ss|with:col|on%2Fend/);
  });

  it('the escaped forms of a secret (inside JSON, util.inspect, or a JSON line holding either) are scrubbed too', () => {
    const password = 'pa\\ss-W0rd"x\'q';
    const secrets = new Secrets();
    secrets.add(password, 4);
    const inspected = inspect(['AUTH', password]);
    const texts = [inspected, JSON.stringify({ password }), JSON.stringify({ msg: inspected }), `debug: ${inspect({ password })}`];
    for (const text of texts) {
      const scrubbed = secrets.scrub(text);
      expect(scrubbed, text).toContain('<redacted>');
      expect(scrubbed).not.toMatch(/pa\\+ss|W0rd/);
    }
    const { destination, lines } = lineCapture();
    createLogger({ secrets, destination }).warn({ args: inspected }, `AUTH ${JSON.stringify(password)}`);
    expect(lines.join('')).not.toMatch(/W0rd/);
  });
});
