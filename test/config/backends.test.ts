// `backends:` in hearsay.yaml, as the issue writes it: `${NAME}` filled from the environment (or NAME_FILE) and
// registered as a secret, the defaults, plain http only to this machine unless allowed, and every problem at its
// file position without the secret in it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { Secrets } from '../../src/log/secrets.js';

const TOKEN = '123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const ISSUE = `# hearsay.yaml
backends:
  shop:
    url: https://shop.example.com/api          # base URL; http:// only for loopback addresses unless allow_http: true
    headers: { Authorization: "Bearer \${SHOP_API_TOKEN}" }   # \${NAME}: from the environment (or NAME_FILE), never logged
    timeout: 5s
    retries: 2                                  # for GET, and for POST/PUT/DELETE with the idempotency key
`;

let dir: string;
let secrets: Secrets;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-backends-config-'));
  secrets = new Secrets();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(file: string, env: Record<string, string> = {}) {
  await writeFile(join(dir, 'hearsay.yaml'), file);
  return loadConfig({ cwd: dir, env: { BOT_TOKEN: TOKEN, ...env }, secrets });
}

async function problemsOf(file: string, env: Record<string, string> = {}): Promise<string[]> {
  const error = await load(file, env).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems.map((p) => p.format());
}

describe('backends: in the configuration', () => {
  it('reads the issue example, fills ${SHOP_API_TOKEN} from the environment and registers it as a secret', async () => {
    const config = await load(ISSUE, { SHOP_API_TOKEN: 'tok_4242_secret' });
    expect(config.backends).toEqual({
      shop: {
        name: 'shop',
        url: 'https://shop.example.com/api',
        headers: { Authorization: 'Bearer tok_4242_secret' },
        timeoutMs: 5000,
        retries: 2,
        maxResponseBytes: 262_144,
        circuitBreaker: { failures: 5, coolDownMs: 30_000 },
        giveUpAfterMs: 86_400_000,
      },
    });
    expect(secrets.scrub('sent tok_4242_secret')).toBe('sent <redacted>');
    expect(secrets.scrub('header Bearer tok_4242_secret')).not.toContain('tok_4242_secret');
  });

  it('reads a secret from NAME_FILE, and takes every setting', async () => {
    await writeFile(join(dir, 'token.txt'), 'from-a-file\n');
    const config = await load(
      `backends:
  crm:
    url: http://127.0.0.1:9000/
    headers: { X-Api-Key: "\${CRM_KEY}" }
    timeout: 250ms
    retries: 0
    max_response_bytes: 4096
    circuit_breaker: { failures: 3, cool_down: 1m }
    give_up_after: 2h
`,
      { CRM_KEY_FILE: 'token.txt' },
    );
    expect(config.backends.crm).toEqual({
      name: 'crm',
      url: 'http://127.0.0.1:9000',
      headers: { 'X-Api-Key': 'from-a-file' },
      timeoutMs: 250,
      retries: 0,
      maxResponseBytes: 4096,
      circuitBreaker: { failures: 3, coolDownMs: 60_000 },
      giveUpAfterMs: 7_200_000,
    });
    expect(secrets.scrub('from-a-file')).toBe('<redacted>');
  });

  it('names a variable that is not set, at the header, never a value', async () => {
    expect(await problemsOf(ISSUE)).toEqual([
      'hearsay.yaml:5:31: backends.shop.headers.Authorization uses ${SHOP_API_TOKEN}, which is not set: set the environment variable SHOP_API_TOKEN (or SHOP_API_TOKEN_FILE to a file holding it)',
    ]);
  });

  it('refuses plain http to another machine unless allow_http, and a url with a query or a password', async () => {
    const problems = await problemsOf(`backends:
  a: { url: "http://shop.example.com/api" }
  b: { url: "http://shop.example.com/api", allow_http: true }
  c: { url: "http://localhost:8080" }
  d: { url: "https://user:pw@shop.example.com/?x=1" }
`);
    expect(problems).toEqual([
      'hearsay.yaml:2:13: backends.a.url is plain http:// to shop.example.com, so its headers and answers could be read on the way: use https://, or set allow_http: true if that is intended',
      "hearsay.yaml:5:13: backends.d.url takes no query or fragment: give the base, and the rest in each call's path (got 'https://user:<redacted>@shop.example.com/?x=1')",
      'hearsay.yaml:5:13: backends.d.url must not carry a user or password: send them in a header, e.g. Authorization',
    ]);
  });

  it('refuses what the schema does not know, at its position', async () => {
    const problems = await problemsOf(`backends:
  shop: { url: https://x.example, timeout: 5 seconds, retry: 2 }
`);
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expect(problems.join('\n')).toContain('hearsay.yaml:2:');
  });
});
