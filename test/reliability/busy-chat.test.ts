// One busy chat must not stall the others in polling mode: a user sends 1,000 messages at once, which hearsay's
// per-chat sending limit (20 a second here) spreads over 50 seconds, then three other users write. They must be
// answered while the burst is still being worked through, within far fewer of its replies than before (the
// others waited for 900 of them), with the file store, with the Redis store, and with two replicas polling on
// Redis; the burst's replies so far stay in order.
// Real HTTP against the sandbox, the real service in this process, a real redis-server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyLedger } from '../support/reply-ledger.js';
import { startInProcess, type InProcessService } from '../support/in-process-service.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const BURST = 1000;
const OTHERS = [61_001, 61_002, 61_003];
/** The burst is 50 s long at this rate: the others must not wait for it. */
const SETTINGS = {
  HEARSAY_RATE_LIMITS_PER_CHAT_PER_SECOND: '20',
  HEARSAY_DELIVERY_SHUTDOWN_TIMEOUT: '1',
  HEARSAY_LOG_LEVEL: 'warn',
};

describe('one busy chat in polling mode', () => {
  let sandbox: StartedSandbox;
  let redis: RedisServer;
  let bots = 0;

  beforeAll(async () => {
    sandbox = await startSandbox();
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await sandbox?.close();
    await redis?.close();
  });

  /** Runs the burst against `replicas` services of a new bot; resolves with how many burst replies went out while the others waited. */
  async function burstAndOthers(replicas: number, env: Record<string, string>): Promise<{ burstWhileWaiting: number }> {
    bots += 1;
    const burstUser = 60_000 + bots;
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 59_000 + bots, name: 'Busy', username: `busy_chat_${bots}_bot` });
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const services: InProcessService[] = [];
    try {
      for (let i = 0; i < replicas; i++) services.push(await startInProcess(sandbox.baseUrl, bot.token, { ...SETTINGS, ...env }));
      for (let i = 0; i < BURST; i++) await sendAsUser(sandbox.baseUrl, burstUser, bot.username, `burst ${i}`);
      const othersSent = Date.now();
      const burstAtSend = (ledger.replies.get(burstUser) ?? []).length;
      for (const user of OTHERS) await sendAsUser(sandbox.baseUrl, user, bot.username, `hello from ${user}`);

      const othersAnswered = () => OTHERS.every((user) => (ledger.replies.get(user) ?? []).length > 0);
      await expect.poll(othersAnswered, { timeout: 60_000, interval: 20 }).toBe(true);
      const burstAnswered = (ledger.replies.get(burstUser) ?? []).length;
      const waitedMs = Date.now() - othersSent;
      for (const user of OTHERS) expect(ledger.replies.get(user)).toEqual([`v1: hello from ${user}`]);
      // What the burst got so far: its first replies, once each and in order.
      const expected = Array.from({ length: BURST }, (_, i) => `v1: burst ${i}`);
      expect(ledger.replies.get(burstUser)).toEqual(expected.slice(0, burstAnswered));
      console.info(
        `busy chat (${replicas} × ${env.HEARSAY_STORE ? 'redis' : 'file'}): the others were answered within ${waitedMs} ms, ` +
          `while the burst went from ${burstAtSend} to ${burstAnswered} of ${BURST} replies`,
      );
      // Still being worked through.
      expect(burstAnswered).toBeLessThan(BURST);
      return { burstWhileWaiting: burstAnswered - burstAtSend };
    } finally {
      await Promise.all(services.map(({ service }) => service.stop()));
      ledger.close();
    }
  }

  it('file store: three other users are answered while a 1,000-message burst is still being answered', async () => {
    const { burstWhileWaiting } = await burstAndOthers(1, {});
    // Before: nobody else was fetched until fewer than polling.limit (100) of the burst were left (900 replies later).
    expect(burstWhileWaiting).toBeLessThan(300);
  }, 120_000);

  it('Redis store: the same', async () => {
    const { burstWhileWaiting } = await burstAndOthers(1, { HEARSAY_STORE: redis.url });
    expect(burstWhileWaiting).toBeLessThan(300);
  }, 120_000);

  it('two replicas polling on Redis: the same', async () => {
    const { burstWhileWaiting } = await burstAndOthers(2, { HEARSAY_STORE: redis.url });
    expect(burstWhileWaiting).toBeLessThan(300);
  }, 120_000);
});
