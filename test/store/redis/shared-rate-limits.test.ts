// The sending limits shared through Redis, as real `hearsay run` replicas against the sandbox with the
// service's limits switched on (30 messages per second per bot, 1 per second per chat): three replicas
// answering a burst from 150 chats at once stay together within the per-bot limit, as measured by the
// sandbox when each message arrives — no 429, and no second in which more than 30 messages arrived.
// Both ingress modes: polling (one leader polls, all answer) and webhook (a round-robin forwarder in front of
// the three spreads the service's POSTs over them, as a load balancer behind the one public URL would).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun, versionedRules, writeRules, type RunProcess } from '../../e2e/run-process.js';
import { ReplyLedger } from '../../support/reply-ledger.js';
import { sendmessageCount } from '../../support/in-process-service.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { startRoundRobinBalancer, type RoundRobinBalancer } from '../../support/round-robin-balancer.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../../support/sandbox-harness.js';

const CHATS = 150;
const PER_BOT_PER_SECOND = 30;
const REPLICAS = 3;
const WEBHOOK_SECRET = 'shared_limits-Secret_42';

/** The most arrivals (ms timestamps) within any one second. */
function busiestSecond(arrivals: number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let busiest = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while (sorted[last]! - sorted[first]! >= 1000) first++;
    busiest = Math.max(busiest, last - first + 1);
  }
  return busiest;
}

describe('rate limits shared by replicas', () => {
  let sandbox: StartedSandbox;
  let redis: RedisServer;
  let forwarder: RoundRobinBalancer | undefined;
  const runs: RunProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimits: true, webhook: { retryBaseMs: 50, retryMaxMs: 400 } });
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(runs.map((run) => run.stop('SIGKILL')));
    await forwarder?.close();
    await sandbox?.close();
    await redis?.close();
  });

  /** Three replicas of one bot on the shared Redis store, each with its own data dir and `env` on top; resolves once all run. */
  async function launchReplicas(token: string, env: (replica: number) => Record<string, string>): Promise<RunProcess[]> {
    const rules = await writeRules(versionedRules('v1'));
    const launch = async (replica: number): Promise<RunProcess> => {
      const run = startRun({
        env: {
          BOT_TOKEN: token,
          BASE_URL: sandbox.baseUrl,
          HEARSAY_RULES: rules.dir,
          HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-shared-limits-')),
          HEARSAY_STORE: redis.url,
          // Each replica takes at most this many chats at a time, well under the 150, so that all three answer
          // some (with the Redis store's default, 64, two of them could take the whole burst).
          HEARSAY_DELIVERY_CONCURRENCY: '32',
          HEARSAY_LOG_LEVEL: 'info',
          // Defaults of the service's limits: rate_limits.enabled is on unless switched off.
          ...env(replica),
        },
      });
      runs.push(run);
      await run.waitForLine(/hearsay is running/, 20_000);
      return run;
    };
    return Promise.all(Array.from({ length: REPLICAS }, (_, replica) => launch(replica)));
  }

  /**
   * Sends one message from each of 150 chats at once and checks what the sandbox saw: every chat answered exactly once,
   * one sendmessage per reply (never a 429), no replica told of a refusal, and never more than 30 arrivals in a second.
   */
  async function expectBurstWithinLimit(botUsername: string, replicas: RunProcess[]): Promise<void> {
    const ledger = new ReplyLedger(sandbox.sandbox, botUsername);
    const arrivals: number[] = [];
    const stopWatching = sandbox.sandbox.onMessage(({ peer, message }) => {
      if (peer.toLowerCase() === botUsername.toLowerCase() && message.from?.is_bot) arrivals.push(performance.now());
    });
    await Promise.all(Array.from({ length: CHATS }, (_, chat) => sendAsUser(sandbox.baseUrl, 40_000 + chat, botUsername, `burst ${chat}`)));
    await ledger.waitForReplies(CHATS, 60_000);
    stopWatching();
    ledger.close();

    for (let chat = 0; chat < CHATS; chat++) expect(ledger.replies.get(40_000 + chat)).toEqual([`v1: burst ${chat}`]);
    // Every replica sent some of them: the limit held for the three together, not for one doing all the work.
    for (const run of replicas) expect(run.lines.filter((line) => /"update handled"/.test(line)).length).toBeGreaterThan(0);
    // One sendmessage per reply: the sandbox never refused one with 429, and no replica had to retry one.
    expect(await sendmessageCount(sandbox.baseUrl, botUsername)).toBe(CHATS);
    for (const run of replicas) expect(run.lines.filter((line) => /failed; retrying|Too Many Requests|retry_after/i.test(line))).toEqual([]);
    expect(busiestSecond(arrivals)).toBeLessThanOrEqual(PER_BOT_PER_SECOND);
  }

  it('three replicas answering 150 chats at once stay within 30 messages per second together: no 429', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9_997, name: 'Shared', username: `shared_limits_${process.pid}_bot` });
    const replicas = await launchReplicas(bot.token, () => ({ HEARSAY_MODE: 'polling', HEARSAY_POLLING_TIMEOUT: '2' }));
    await expect.poll(() => replicas.filter((run) => run.lines.some((line) => /holds the polling lease/.test(line))).length, { timeout: 20_000 }).toBe(1);
    await expectBurstWithinLimit(bot.username, replicas);
  }, 120_000);

  it('three webhook replicas behind one round-robin URL, each accepting some of the POSTs, stay within 30 messages per second together: no 429', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9_996, name: 'Shared hook', username: `shared_limits_hook_${process.pid}_bot` });
    forwarder = await startRoundRobinBalancer();
    const publicUrl = forwarder.url;
    const replicas = await launchReplicas(bot.token, () => ({
      HEARSAY_MODE: 'webhook',
      HEARSAY_WEBHOOK_URL: publicUrl,
      HEARSAY_WEBHOOK_LISTEN: '127.0.0.1:0',
      HEARSAY_WEBHOOK_PATH: '/hook',
      HEARSAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    }));
    for (const run of replicas) {
      const listening = JSON.parse(await run.waitForLine(/"webhook server listening"/)) as { listen: string };
      forwarder.backends.push(listening.listen);
    }

    await expectBurstWithinLimit(bot.username, replicas);
    // The forwarder really spread the service's POSTs: each replica accepted some of the 150 updates.
    expect(forwarder.backends).toHaveLength(REPLICAS);
    for (const backend of forwarder.backends) expect(forwarder.accepted.get(backend) ?? 0).toBeGreaterThan(0);
    expect([...forwarder.accepted.values()].reduce((sum, count) => sum + count, 0)).toBe(CHATS);
    for (const run of replicas) expect(run.lines.join('\n')).not.toContain(WEBHOOK_SECRET);
  }, 120_000);
});
