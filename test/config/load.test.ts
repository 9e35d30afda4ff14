import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { Secrets } from '../../src/log/secrets.js';

const TOKEN = '123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems.map((p) => p.format());
}

const load = (opts: { file?: string; env?: Record<string, string>; flags?: Record<string, string | boolean>; configPath?: string } = {}) =>
  (async () => {
    if (opts.file !== undefined) await writeFile(join(dir, 'hearsay.yaml'), opts.file);
    return loadConfig({ cwd: dir, env: { BOT_TOKEN: TOKEN, ...opts.env }, flags: opts.flags ?? {}, configPath: opts.configPath, secrets: new Secrets() });
  })();

describe('config layering', () => {
  it('has a sensible default for everything but the token', async () => {
    const config = await load();
    expect(config.baseUrl).toBe('https://api.telegram.org');
    expect(config.mode).toBe('polling');
    expect(config.rulesPath).toBe(join(dir, 'rules'));
    expect(config.polling.timeoutSeconds).toBe(30);
    expect(config.webhook.listen).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(config.admin.listen).toBeNull();
    expect(config.configFile).toBeNull();
    expect(config.webhook.path).toMatch(/^\/hearsay\/[0-9a-f]{32}$/);
    expect(config.webhook.path).not.toContain(TOKEN.split(':')[1]);
  });

  it('reads hearsay.yaml from the working directory; environment overrides it; flags override both', async () => {
    const file = 'polling:\n  timeout: 5\n  limit: 10\nlog:\n  level: debug\nrules: my-rules\n';
    let config = await load({ file });
    expect(config.polling).toMatchObject({ timeoutSeconds: 5, limit: 10 });
    expect(config.log.level).toBe('debug');
    expect(config.rulesPath).toBe(join(dir, 'my-rules'));
    expect(config.configFile).toBe(join(dir, 'hearsay.yaml'));

    config = await load({ file, env: { HEARSAY_POLLING_TIMEOUT: '7', HEARSAY_LOG_LEVEL: 'warn' } });
    expect(config.polling.timeoutSeconds).toBe(7);
    expect(config.log.level).toBe('warn');
    expect(config.polling.limit).toBe(10);

    config = await load({ file, env: { HEARSAY_POLLING_TIMEOUT: '7' }, flags: { 'polling.timeout': '9', 'log.level': 'error' } });
    expect(config.polling.timeoutSeconds).toBe(9);
    expect(config.log.level).toBe('error');
  });

  it('switches to webhook mode with the fixed variable names and builds the public URL from url + path', async () => {
    const config = await load({
      env: {
        HEARSAY_MODE: 'webhook',
        HEARSAY_WEBHOOK_URL: 'https://bot.example.com/base/',
        HEARSAY_WEBHOOK_LISTEN: '[::1]:9000',
        HEARSAY_WEBHOOK_SECRET: 'my_secret-123',
        HEARSAY_WEBHOOK_PATH: '/hook',
        BASE_URL: 'http://127.0.0.1:8081/',
      },
    });
    expect(config.mode).toBe('webhook');
    expect(config.webhook.publicUrl).toBe('https://bot.example.com/base/hook');
    expect(config.webhook.listen).toEqual({ host: '::1', port: 9000 });
    expect(config.webhook.secret).toBe('my_secret-123');
    expect(config.webhook.secretGenerated).toBe(false);
    expect(config.baseUrl).toBe('http://127.0.0.1:8081');
  });

  it('generates a webhook secret of the allowed alphabet when none is configured, and registers secrets', async () => {
    const secrets = new Secrets();
    const config = await loadConfig({ cwd: dir, env: { BOT_TOKEN: TOKEN }, secrets });
    expect(config.webhook.secret).toMatch(/^[A-Za-z0-9_-]{16,256}$/);
    expect(secrets.scrub(`a ${TOKEN} b ${config.webhook.secret}`)).toBe('a <redacted> b <redacted>');
  });

  it('reads the token from BOT_TOKEN_FILE', async () => {
    await writeFile(join(dir, 'token'), `${TOKEN}\n`);
    const config = await loadConfig({ cwd: dir, env: { BOT_TOKEN_FILE: 'token' }, secrets: new Secrets() });
    expect(config.token).toBe(TOKEN);
  });

  it('remembers which variable the token came from, to point at it when the service rejects it', async () => {
    expect((await load()).tokenSource).toBe('BOT_TOKEN');
    await writeFile(join(dir, 'token.txt'), `${TOKEN}\n`);
    expect((await loadConfig({ cwd: dir, env: { BOT_TOKEN_FILE: 'token.txt' }, secrets: new Secrets() })).tokenSource).toBe('BOT_TOKEN_FILE');
  });

  it('refuses a base_url with /bot<token> pasted in, without echoing the token', async () => {
    const problems = await problemsOf(load({ env: { BASE_URL: `https://api.telegram.org/bot${TOKEN}/` } }));
    expect(problems).toEqual([
      'environment variable BASE_URL: base_url must be the API root without /bot<token>, such as https://api.telegram.org; the token goes in BOT_TOKEN or BOT_TOKEN_FILE',
    ]);
    expect(problems.join('\n')).not.toContain(TOKEN.split(':')[1]);
    // A proxy path that merely starts with "bot" is a legitimate root.
    expect((await load({ env: { BASE_URL: 'https://proxy.example.com/botapi' } })).baseUrl).toBe('https://proxy.example.com/botapi');
  });

  it('resolves paths written in the config file relative to that file', async () => {
    await writeFile(join(dir, 'elsewhere.yaml'), 'rules: ./bot-rules\n');
    const config = await loadConfig({ cwd: '/', configPath: join(dir, 'elsewhere.yaml'), env: { BOT_TOKEN: TOKEN }, secrets: new Secrets() });
    expect(config.rulesPath).toBe(join(dir, 'bot-rules'));
  });
});

describe('config errors name the setting and where it came from', () => {
  it('points at the file position of a wrong value', async () => {
    const problems = await problemsOf(load({ file: 'polling:\n  timeout: 99\ningress:\n  mode: poll\n' }));
    expect(problems).toContain('hearsay.yaml:2:12: polling.timeout must be at most 50 (got 99)');
    expect(problems).toContain("hearsay.yaml:4:9: ingress.mode must be one of: polling, webhook (got 'poll')");
  });

  it('suggests the nearest key for an unknown one, at the key position', async () => {
    const problems = await problemsOf(load({ file: 'polling:\n  timout: 5\n' }));
    expect(problems).toEqual(["hearsay.yaml:2:3: unknown key 'timout' in 'polling'; did you mean 'timeout'?"]);
  });

  it('refuses a token in the config file and says where the token belongs', async () => {
    const problems = await problemsOf(load({ file: 'base_url: https://x.example\ntoken: 1:abc\n' }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^hearsay\.yaml:2:1: the bot token is never read from the config file.*BOT_TOKEN or BOT_TOKEN_FILE/);
  });

  it('reports invalid YAML with its position', async () => {
    const problems = await problemsOf(load({ file: 'polling:\n  timeout: [1,\n' }));
    expect(problems[0]).toMatch(/^hearsay\.yaml:\d+:\d+: invalid YAML/);
  });

  it('reports a file that is not a mapping', async () => {
    const problems = await problemsOf(load({ file: '- a\n- b\n' }));
    expect(problems).toEqual(['hearsay.yaml:1:1: the config file must be a mapping of settings (key: value)']);
  });

  it('names the environment variable of a wrong value', async () => {
    const problems = await problemsOf(
      load({ env: { HEARSAY_POLLING_TIMEOUT: 'soon', HEARSAY_MODE: 'carrier-pigeon', HEARSAY_POLLING_DELETE_WEBHOOK: 'maybe' } }),
    );
    expect(problems).toContain("environment variable HEARSAY_POLLING_TIMEOUT: polling.timeout must be an integer (got 'soon')");
    expect(problems).toContain("environment variable HEARSAY_MODE: ingress.mode must be one of: polling, webhook (got 'carrier-pigeon')");
    expect(problems).toContain("environment variable HEARSAY_POLLING_DELETE_WEBHOOK: polling.delete_webhook must be true or false (got 'maybe')");
  });

  it('names the flag of a wrong value', async () => {
    const problems = await problemsOf(load({ flags: { 'webhook.listen': 'localhost', base_url: 'ftp://x' } }));
    expect(problems).toContain("option --webhook-listen: webhook.listen must be host:port, such as 127.0.0.1:8080 or [::1]:8080 (got 'localhost')");
    expect(problems).toContain("option --base-url: base_url must be an http:// or https:// URL, such as https://api.telegram.org (got 'ftp://x')");
  });

  it('never echoes a malformed webhook secret', async () => {
    const problems = await problemsOf(load({ env: { HEARSAY_WEBHOOK_SECRET: 'has spaces and $ymbols' } }));
    expect(problems).toEqual(['environment variable HEARSAY_WEBHOOK_SECRET: webhook.secret must be 1 to 256 characters of A-Z a-z 0-9 _ -']);
  });

  it('serves a webhook.url with its own path at that path, unless webhook.path says otherwise', async () => {
    const env = { HEARSAY_MODE: 'webhook', HEARSAY_WEBHOOK_URL: 'https://bot.example.com/bots/hook' };
    const plain = await load({ env });
    expect(plain.webhook.publicUrl).toBe('https://bot.example.com/bots/hook');
    expect(plain.webhook.path).toBe('/bots/hook');
    const both = await load({ env: { ...env, HEARSAY_WEBHOOK_PATH: '/in' } });
    expect(both.webhook.publicUrl).toBe('https://bot.example.com/bots/hook/in');
    expect(both.webhook.path).toBe('/in');
    const bare = await load({ env: { ...env, HEARSAY_WEBHOOK_URL: 'https://bot.example.com/' } });
    expect(bare.webhook.path).toMatch(/^\/hearsay\/[0-9a-f]{32}$/);
    expect(bare.webhook.publicUrl).toBe(`https://bot.example.com${bare.webhook.path}`);
  });

  it('refuses a rate limit below one message every 100 seconds, which would only look like a hang', async () => {
    const problems = await problemsOf(
      load({
        env: {
          HEARSAY_RATE_LIMITS_PER_CHAT_PER_SECOND: '0.000001',
          HEARSAY_RATE_LIMITS_OVERALL_PER_SECOND: '0.001',
          HEARSAY_RATE_LIMITS_PER_GROUP_PER_MINUTE: '0.1',
        },
      }),
    );
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/HEARSAY_RATE_LIMITS_PER_CHAT_PER_SECOND: .*at least 0\.01/);
    expect((await load({ env: { HEARSAY_RATE_LIMITS_PER_CHAT_PER_SECOND: '0.01' } })).rateLimits?.perChatPerSecond).toBe(0.01);
  });

  it('requires webhook.url in webhook mode, naming where the mode was set', async () => {
    const problems = await problemsOf(load({ flags: { 'ingress.mode': 'webhook' } }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^option --mode: ingress.mode is webhook but webhook.url is not set/);
  });

  it('requires both TLS files or neither', async () => {
    const problems = await problemsOf(load({ file: 'webhook:\n  tls:\n    cert: cert.pem\n' }));
    expect(problems).toEqual(['hearsay.yaml:3:11: webhook.tls.cert is set but webhook.tls.key is not: give both the certificate and the key, or neither']);
  });

  it('fails on a missing explicitly named config file', async () => {
    const problems = await problemsOf(load({ configPath: 'nope.yaml' }));
    expect(problems).toEqual([`option --config: ${join(dir, 'nope.yaml').replace(dir + '/', '')}: file not found`]);
  });

  it('asks for a token when there is none, and never prints one', async () => {
    const problems = await problemsOf(loadConfig({ cwd: dir, env: {}, secrets: new Secrets() }));
    expect(problems[0]).toMatch(/no bot token: set BOT_TOKEN/);
    const both = await problemsOf(loadConfig({ cwd: dir, env: { BOT_TOKEN: TOKEN, BOT_TOKEN_FILE: 'x' }, secrets: new Secrets() }));
    expect(both).toEqual(['environment variable BOT_TOKEN_FILE: set either BOT_TOKEN or BOT_TOKEN_FILE, not both']);
    const spaced = await problemsOf(loadConfig({ cwd: dir, env: { BOT_TOKEN: '123:abc def/xyz' }, secrets: new Secrets() }));
    expect(spaced.join('\n')).not.toContain('abc def');
  });

  it('reports every problem from every layer at once', async () => {
    const problems = await problemsOf(load({ file: 'polling:\n  limit: 0\n', env: { HEARSAY_DELIVERY_CONCURRENCY: '0' }, flags: { 'log.level': 'loud' } }));
    expect(problems).toHaveLength(3);
  });
});

describe('handoff:', () => {
  it('resolves the staff chat through chats:, reads idle and the end words (default done, /done)', async () => {
    const config = await load({ file: 'chats:\n  staff: -1001234567890\nhandoff:\n  chat: staff\n  idle: 2h\n' });
    expect(config.handoff).toEqual({ chatId: -1001234567890, idleMs: 7_200_000, end: ['done', '/done'] });
    expect((await load({ file: 'handoff: { chat: -1005, end: [finished] }\n' })).handoff).toEqual({ chatId: -1005, idleMs: null, end: ['finished'] });
    expect((await load({ file: 'chats: {}\n' })).handoff).toBeNull();
  });

  it('refuses a chat name chats: does not declare, at handoff.chat, and a malformed idle', async () => {
    expect(await problemsOf(load({ file: 'chats:\n  staff: -1001\nhandoff:\n  chat: sales\n' }))).toEqual([
      "hearsay.yaml:4:9: handoff.chat names 'sales', which is not declared under chats: (declared: staff); add it, e.g. chats: { sales: -1001234567890 }",
    ]);
    const idle = await problemsOf(load({ file: 'handoff:\n  chat: -1001\n  idle: soon\n' }));
    expect(idle.join('\n')).toMatch(/hearsay\.yaml:3:9: .*idle/);
  });
});
