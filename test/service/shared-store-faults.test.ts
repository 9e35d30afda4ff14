// A service on the Redis store, as a real `hearsay run` process against the sandbox and a real redis-server,
// when Redis fails in the ways a reconnect does not show: a server that stops answering (kill -STOP) is an
// outage like one that is gone, and a server that comes back without its data is reported, not papered over.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunProcess } from '../e2e/run-process.js';
import { postToWebhook, setUpBot, textUpdate } from '../reliability/bot-process.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

describe('a service on the Redis store, when Redis fails quietly', () => {
  let sandbox: StartedSandbox;
  let redis: RedisServer;
  const running: RunProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ webhook: { retryBaseMs: 50, retryMaxMs: 300 } });
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
  });
  afterAll(async () => {
    await sandbox?.close();
    await redis?.close();
  });

  const healthOf = async (base: string) => {
    const response = await fetch(`${base}/healthz`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const metricsOf = async (base: string) => (await fetch(`${base}/metrics`)).text();

  it('a hung Redis (kill -STOP) is an outage: /healthz 503 store_unavailable, the gauge 0, logged once; back by itself after kill -CONT', async () => {
    const bot = await setUpBot(sandbox, 'webhook', running);
    const ledger = new ReplyLedger(sandbox.sandbox, bot.bot.username);
    const run = await bot.launch({ env: { HEARSAY_STORE: redis.url } });
    const base = bot.webhookUrl.replace(/\/hook$/, '');
    await sendAsUser(sandbox.baseUrl, 911, bot.bot.username, 'before');
    await ledger.waitForReplies(1, 15_000);

    redis.pause();
    try {
      // Nothing has to be sent: the replica's own lease renewal meets the silence (within the command timeout).
      await run.waitForLine(/the Redis store is unavailable/, 20_000);
      expect(await healthOf(base)).toMatchObject({ status: 503, body: { status: 'unavailable', store_unavailable: 'ETIMEDOUT' } });
      const metrics = await metricsOf(base);
      expect(metrics).toMatch(/^hearsay_store_available 0$/m);
      expect(metrics).toMatch(/^hearsay_errors_total\{kind="store_unavailable"\} [1-9]/m);
      expect(await postToWebhook(bot.webhookUrl, JSON.stringify(textUpdate(9_100_001, 912, 'direct')))).toBe(503);
      // Sent while Redis is stopped: the sandbox redelivers until a replica accepts it.
      await sendAsUser(sandbox.baseUrl, 911, bot.bot.username, 'during');
      expect((await healthOf(base)).status).toBe(503);
    } finally {
      redis.resume();
    }

    await run.waitForLine(/the Redis store is available again/, 15_000);
    await ledger.waitForReplies(2, 20_000);
    expect(ledger.replies.get(911)).toEqual(['v1: before', 'v1: during']);
    expect(await healthOf(base)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await metricsOf(base)).toMatch(/^hearsay_store_available 1$/m);
    expect(run.lines.filter((l) => /the Redis store is unavailable/.test(l))).toHaveLength(1);
    expect(run.lines.filter((l) => /the Redis store is available again/.test(l))).toHaveLength(1);
    ledger.close();
  }, 60_000);
});
