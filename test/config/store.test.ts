// The `store` setting: the file store unless told otherwise; a Redis URL from the file, HEARSAY_STORE or
// --store; the password from the URL, HEARSAY_STORE_PASSWORD or HEARSAY_STORE_PASSWORD_FILE, registered as a
// secret at once and absent from every problem message.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { Secrets } from '../../src/log/secrets.js';
import { HEARSAY_BIN } from '../support/cli.js';

const TOKEN = '123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const cli = HEARSAY_BIN;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-store-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const load = (opts: { file?: string; env?: Record<string, string>; flags?: Record<string, string>; secrets?: Secrets } = {}) =>
  (async () => {
    if (opts.file !== undefined) await writeFile(join(dir, 'hearsay.yaml'), opts.file);
    return loadConfig({ cwd: dir, env: { BOT_TOKEN: TOKEN, ...opts.env }, flags: opts.flags ?? {}, secrets: opts.secrets ?? new Secrets() });
  })();

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems.map((p) => p.format());
}

describe('store setting', () => {
  it('is the file store by default', async () => {
    expect((await load()).store).toEqual({ kind: 'file' });
  });

  it('handles 32 chats at once on the file store and 64 on a Redis store unless delivery.concurrency says otherwise', async () => {
    expect((await load()).delivery.concurrency).toBe(32);
    expect((await load({ env: { HEARSAY_STORE: 'redis://127.0.0.1:6379' } })).delivery.concurrency).toBe(64);
    expect((await load({ env: { HEARSAY_STORE: 'redis-cluster://127.0.0.1:7000,127.0.0.1:7001' } })).delivery.concurrency).toBe(64);
    const file = 'store: redis://127.0.0.1:6379\ndelivery:\n  concurrency: 32\n';
    expect((await load({ file })).delivery.concurrency).toBe(32);
    expect((await load({ file, flags: { 'delivery.concurrency': '8' } })).delivery.concurrency).toBe(8);
  });

  it('takes a Redis URL from the file, the environment over the file, the flag over both', async () => {
    const file = 'store: redis://cache.internal:6380/2\n';
    expect((await load({ file })).store).toEqual({
      kind: 'redis',
      url: 'redis://cache.internal:6380/2',
      host: 'cache.internal',
      port: 6380,
      nodes: [{ host: 'cache.internal', port: 6380 }],
      cluster: false,
      db: 2,
      tls: false,
      username: null,
      password: null,
    });
    expect((await load({ file, env: { HEARSAY_STORE: 'rediss://r.example.com' } })).store).toMatchObject({
      tls: true,
      port: 6379,
      db: 0,
      host: 'r.example.com',
    });
    const flagged = await load({ file, env: { HEARSAY_STORE: 'rediss://r.example.com' }, flags: { store: 'file' } });
    expect(flagged.store).toEqual({ kind: 'file' });
  });

  it('reads the password from HEARSAY_STORE_PASSWORD, from a file, or from the URL, and registers it as a secret', async () => {
    const secrets = new Secrets();
    const fromEnv = await load({ env: { HEARSAY_STORE: 'redis://127.0.0.1:6379/0', HEARSAY_STORE_PASSWORD: 'pw-from-env' }, secrets });
    expect(fromEnv.store).toMatchObject({ password: 'pw-from-env', url: 'redis://127.0.0.1:6379/0' });
    expect(secrets.scrub('AUTH pw-from-env')).toBe('AUTH <redacted>');

    await writeFile(join(dir, 'redis-password'), 'pw from file\n');
    const fromFile = await load({ env: { HEARSAY_STORE: 'redis://127.0.0.1/0', HEARSAY_STORE_PASSWORD_FILE: 'redis-password' } });
    expect(fromFile.store).toMatchObject({ password: 'pw from file' });

    const urlSecrets = new Secrets();
    const fromUrl = await load({ file: 'store: rediss://app:s%40lted-pw@r.example.com:6390/1\n', secrets: urlSecrets });
    expect(fromUrl.store).toMatchObject({ username: 'app', password: 's@lted-pw', url: 'rediss://r.example.com:6390/1' });
    expect(urlSecrets.scrub('password s@lted-pw')).toBe('password <redacted>');
  });

  it('reports a wrong store URL without showing its password', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { HEARSAY_STORE: 'mysql://u:hunter2pw@db/1' },
        /HEARSAY_STORE: store must be file, redis:\/\/host:port\/db, rediss:\/\/host:port\/db or redis-cluster:\/\/host1:port1,host2:port2 \(got 'mysql:\/\/u:<redacted>@db\/1'\)/,
      ],
      [{ HEARSAY_STORE: 'redis://:hunter2pw@host/cache' }, /the path must be a database number/],
      [{ HEARSAY_STORE: 'redis://:hunter2pw@host/0', HEARSAY_STORE_PASSWORD: 'hunter2pw' }, /already carries a password; set it in one place only/],
      [{ HEARSAY_STORE: 'redis://host/0', HEARSAY_STORE_PASSWORD: 'hunter2pw', HEARSAY_STORE_PASSWORD_FILE: 'x' }, /set either HEARSAY_STORE_PASSWORD or/],
      [{ HEARSAY_STORE: 'redis://host/0', HEARSAY_STORE_PASSWORD_FILE: 'missing-file' }, /cannot read the store password file missing-file \(ENOENT\)/],
    ];
    for (const [env, expected] of cases) {
      const problems = await problemsOf(load({ env }));
      expect(problems.join('\n')).toMatch(expected);
      expect(problems.join('\n')).not.toContain('hunter2pw');
    }
  });

  it('a password holding an unencoded @ shows in none of the three messages about the URL: its user info runs to the last @', async () => {
    const password = 'Rp4ss-w0rd@with:col/on%2Fend';
    const urls: Array<[string, RegExp]> = [
      [`redis://:${password}@127.0.0.1:6379/0`, /store must be file, redis:\/\/host:port\/db/],
      [`redis://:${password.replace(':', '')}@127.0.0.1:6379/0`, /the path must be a database number/],
      [`redis://:${password.replace(':', '?')}@127.0.0.1:6379/0`, /takes no query or fragment/],
    ];
    for (const [url, expected] of urls) {
      const secrets = new Secrets();
      const message = (await problemsOf(load({ env: { HEARSAY_STORE: url }, secrets }))).join('\n');
      expect(message).toMatch(expected);
      expect(message).toContain(`(got 'redis://:<redacted>@127.0.0.1:6379/0')`);
      expect(message).toMatch(/a password holding \/ \? or # must be percent-encoded in the URL, or set in HEARSAY_STORE_PASSWORD/);
      expect(message).not.toMatch(/Rp4ss|with.?col|on%2Fend|on\/end/);
      // Registered whole, as written and decoded, before anything could echo it.
      const written = url.slice('redis://:'.length, url.lastIndexOf('@'));
      expect(secrets.scrub(`AUTH ${written} / ${decodeURIComponent(written)}`)).toBe('AUTH <redacted> / <redacted>');
    }
    // A password whose only odd character is @ is what a URL parser reads too: the URL works.
    expect((await load({ env: { HEARSAY_STORE: 'redis://:p@ss@127.0.0.1:6379/0' } })).store).toMatchObject({ password: 'p@ss', host: '127.0.0.1' });
  });

  it('takes a Redis Cluster as redis-cluster://host1:port1,host2:port2, its password handled and hidden as for redis://', async () => {
    const secrets = new Secrets();
    const cluster = await load({ file: 'store: redis-cluster://app:s%40lted-pw@10.0.0.1:7000,node-b:7001,[::1]:7002/\n', secrets });
    expect(cluster.store).toEqual({
      kind: 'redis',
      url: 'redis-cluster://10.0.0.1:7000,node-b:7001,[::1]:7002',
      host: '10.0.0.1',
      port: 7000,
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'node-b', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      cluster: true,
      db: 0,
      tls: false,
      username: 'app',
      password: 's@lted-pw',
    });
    expect(secrets.scrub('password s@lted-pw s%40lted-pw')).toBe('password <redacted> <redacted>');
    const fromEnv = await load({ env: { HEARSAY_STORE: 'rediss-cluster://r1.example.com', HEARSAY_STORE_PASSWORD: 'pw-from-env' } });
    expect(fromEnv.store).toMatchObject({ tls: true, cluster: true, nodes: [{ host: 'r1.example.com', port: 6379 }], password: 'pw-from-env' });
    const cases: Array<[string, RegExp]> = [
      ['redis-cluster://:hunter2pw@h1:7000,h2:7001/3', /a Redis Cluster has only database 0/],
      ['redis-cluster://:hunter2pw@h1:7000,,h2:7001', /takes a comma-separated list of host:port and nothing else/],
      ['redis-cluster://:hunter2pw@h1:7000,h2:notaport', /takes a comma-separated list of host:port/],
      ['redis-cluster://:hunter2pw@h1:7000?x=1', /takes a comma-separated list of host:port/],
    ];
    for (const [url, expected] of cases) {
      const message = (await problemsOf(load({ env: { HEARSAY_STORE: url } }))).join('\n');
      expect(message).toMatch(expected);
      expect(message).toContain("(got 'redis-cluster://:<redacted>@h1:7000");
      expect(message).not.toContain('hunter2pw');
    }
    const twice = await problemsOf(load({ env: { HEARSAY_STORE: 'redis-cluster://:hunter2pw@h1:7000', HEARSAY_STORE_PASSWORD: 'hunter2pw' } }));
    expect(twice.join('\n')).toMatch(/already carries a password; set it in one place only/);
  });

  it('in webhook mode with a Redis store, asks for a webhook secret shared by the replicas', async () => {
    const env = { HEARSAY_STORE: 'redis://127.0.0.1/0', HEARSAY_MODE: 'webhook', HEARSAY_WEBHOOK_URL: 'https://bot.example.com' };
    expect((await problemsOf(load({ env }))).join('\n')).toMatch(/set webhook.secret \(HEARSAY_WEBHOOK_SECRET\) to one value shared by every replica/);
    expect((await load({ env: { ...env, HEARSAY_WEBHOOK_SECRET: 'shared_secret-1' } })).store.kind).toBe('redis');
  });

  it('hearsay run never prints a store password, whether it comes from the URL or the environment', async () => {
    const rules = join(dir, 'rules');
    await writeFile(join(dir, 'bot.yaml'), 'rules:\n  - id: hi\n    pattern: hi\n    reply: hello\n');
    const runs: Array<{ args: string[]; env: Record<string, string> }> = [
      { args: ['--store', 'redis://:Sup3r-secret-pw@127.0.0.1:1/nope'], env: {} },
      { args: ['--store', 'redis://user:Sup3r-secret-pw@127.0.0.1:1/0', '--polling-timeout', 'x'], env: {} },
      { args: [], env: { HEARSAY_STORE: 'redis://127.0.0.1:1/0', HEARSAY_STORE_PASSWORD: 'Sup3r-secret-pw', HEARSAY_POLLING_LIMIT: '0' } },
    ];
    for (const { args, env } of runs) {
      const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
        execFile(
          process.execPath,
          [cli, 'run', '--rules', join(dir, 'bot.yaml'), '--data-dir', join(rules, 'data'), ...args],
          { env: { PATH: process.env.PATH ?? '', BOT_TOKEN: TOKEN, ...env }, timeout: 20_000 },
          (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, text: `${stdout}${stderr}` }),
        );
      });
      expect(output.code, output.text).toBe(2);
      expect(output.text).toMatch(/store|polling/);
      expect(output.text).not.toContain('Sup3r-secret-pw');
    }
  }, 60_000);
});
