// The store password in what a real hearsay process prints: with `DEBUG=ioredis:*` the Redis client dumps
// its commands (AUTH and its password among them) escaped as util.inspect writes strings, and a URL whose
// password holds an unencoded `@` is echoed by the configuration messages. Neither the password nor any of its
// forms (as is, URL-encoded, escaped) may come out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { runCli } from '../e2e/run-process.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';

const TOKEN = '123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
// A backslash and a quote: both change when the string is escaped; an @ and a colon: both are URL syntax.
const PASSWORD = 'Rp4ss\\w0rd"@with:col';

/** Every form of the password that must not appear in an output. */
function formsOf(password: string): string[] {
  const escaped = [JSON.stringify(password).slice(1, -1), inspect(password).slice(1, -1)];
  return [password, encodeURIComponent(password), ...escaped, ...escaped.map((form) => JSON.stringify(form).slice(1, -1)), 'Rp4ss', 'w0rd'];
}

describe('the store password in a process’s output', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer({ args: ['--requirepass', PASSWORD] });
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('DEBUG=ioredis:* dumps AUTH with the password escaped: redacted, whether it came from the environment or the URL', async () => {
    const address = `127.0.0.1:${redis.port}/0`;
    const settings: Array<Record<string, string>> = [
      { HEARSAY_STORE: `redis://${address}`, HEARSAY_STORE_PASSWORD: PASSWORD },
      { HEARSAY_STORE: `redis://:${encodeURIComponent(PASSWORD)}@${address}` },
    ];
    for (const store of settings) {
      const result = await runCli(['state', 'show', '--user', '5'], { BOT_TOKEN: TOKEN, DEBUG: 'ioredis:*', ...store });
      const output = `${result.stdout}${result.stderr}`;
      expect(result.code, output).toBe(0);
      // The client did dump the command that carries the password: the test sees what it means to see.
      expect(output).toMatch(/ioredis:redis write command.* -> (hello|auth)\(.*<redacted>/);
      for (const form of formsOf(PASSWORD)) expect(output).not.toContain(form);
    }
  }, 30_000);

  it('a URL whose password holds an unencoded @ is refused without any of it in the message', async () => {
    const result = await runCli(['run', '--store', 'redis://:Rp4ss-w0rd@with:col/on%2Fend@127.0.0.1:6379/0'], { BOT_TOKEN: TOKEN });
    const output = `${result.stdout}${result.stderr}`;
    expect(result.code, output).toBe(2);
    expect(output).toContain(`(got 'redis://:<redacted>@127.0.0.1:6379/0')`);
    expect(output).not.toMatch(/Rp4ss|with:col|on%2Fend|on\/end/);
  }, 30_000);
});
