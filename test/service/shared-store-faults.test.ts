// A service on the Redis store, as a real `hearsay run` process against the sandbox and a real redis-server,
// when Redis fails in the ways a reconnect does not show: a server that stops answering (kill -STOP) is an
// outage like one that is gone, and a server that comes back without its data is reported, not papered over.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postToWebhook, setUpBot, textUpdate } from '../reliability/bot-process.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { sendAsUser } from '../support/sandbox-harness.js';
import { useRedisStoreSetup } from './redis-store-setup.js';

describe('a service on the Redis store, when Redis fails quietly', () => {
  const setup = useRedisStoreSetup();

  const healthOf = async (base: string) => {
    const response = await fetch(`${base}/healthz`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const metricsOf = async (base: string) => (await fetch(`${base}/metrics`)).text();

  it('a hung Redis (kill -STOP) is an outage: /healthz 503 store_unavailable, the gauge 0, logged once; back by itself after kill -CONT', async () => {
    const { sandbox, redis, running } = setup;
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

  it('a Redis that comes back empty is reported at error level with the accepted updates it lost, and counted; persistence is checked again', async () => {
    const { sandbox, redis, running } = setup;
    const bot = await setUpBot(sandbox, 'webhook', running);
    const ledger = new ReplyLedger(sandbox.sandbox, bot.bot.username);
    const run = await bot.launch({ env: { HEARSAY_STORE: redis.url, HEARSAY_LOG_FORMAT: 'json' } });
    const base = bot.webhookUrl.replace(/\/hook$/, '');
    expect(await metricsOf(base)).toMatch(/^hearsay_store_data_lost_total 0$/m);
    await sendAsUser(sandbox.baseUrl, 921, bot.bot.username, 'hello');
    await ledger.waitForReplies(1, 15_000);
    // Ten messages at once from that user, each answered 200 once stored; then Redis dies at once, its disk lost,
    // and stays away long enough for every one of them not yet sending to be given up to the store (the inbox).
    const burst = Array.from({ length: 10 }, (_, i) => `burst ${i}`);
    const posted = await Promise.all(burst.map((text, i) => postToWebhook(bot.webhookUrl, JSON.stringify(textUpdate(9_200_000 + i, 921, text)))));
    expect(posted).toEqual(burst.map(() => 200));
    await redis.kill();
    rmSync(join(redis.dir, 'appendonlydir'), { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Started again without persistence.
    await redis.start(['--appendonly', 'no']);
    const lost = JSON.parse(await run.waitForLine(/the store lost its data/, 20_000)) as {
      level: number;
      store: string;
      updates_lost: number;
      update_ids: number[];
    };
    expect(lost).toMatchObject({ level: 50, store: redis.url });
    const warning = JSON.parse(await run.waitForLine(/does not write every change to disk/, 10_000)) as Record<string, unknown>;
    expect(warning).toMatchObject({ level: 40, appendonly: 'no' });
    expect(await metricsOf(base)).toMatch(/^hearsay_store_data_lost_total 1$/m);

    // What was being sent is still answered; what only the store held is gone, and the line counted exactly those.
    await sendAsUser(sandbox.baseUrl, 922, bot.bot.username, 'after');
    await expect.poll(() => ledger.replies.get(922), { timeout: 20_000, interval: 100 }).toEqual(['v1: after']);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const answered = (ledger.replies.get(921) ?? []).slice(1);
    expect(lost.updates_lost).toBeGreaterThan(0);
    // The line counts exactly the messages that were never answered, and names them.
    expect(answered.length + lost.updates_lost).toBe(burst.length);
    const answeredIds = answered.map((reply) => 9_200_000 + Number(reply.replace('v1: burst ', '')));
    expect(lost.update_ids).toEqual(burst.map((_, i) => 9_200_000 + i).filter((id) => !answeredIds.includes(id)));
    expect(run.lines.filter((l) => /the store lost its data/.test(l))).toHaveLength(1);
    ledger.close();
    // Back to a Redis that keeps its writes, for whatever runs next.
    await redis.kill();
    await redis.start();
  }, 60_000);
});
