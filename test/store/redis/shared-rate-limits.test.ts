// The sending limits shared through Redis, as real `hearsay run` replicas against the sandbox with the
// service's limits switched on (30 messages per second per bot, 1 per second per chat): three replicas
// answering a burst from 150 chats at once stay together within the per-bot limit, as measured by the
// sandbox when each message arrives — no 429, and no second in which more than 30 messages arrived.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun, versionedRules, writeRules, type RunProcess } from '../../e2e/run-process.js';
import { ReplyLedger } from '../../support/reply-ledger.js';
import { sendmessageCount } from '../../support/in-process-service.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../../support/sandbox-harness.js';

const CHATS = 150;
const PER_BOT_PER_SECOND = 30;

describe('rate limits shared by replicas', () => {
  let sandbox: StartedSandbox;
  let redis: RedisServer;
  const runs: RunProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimits: true });
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(runs.map((run) => run.stop('SIGKILL')));
    await sandbox?.close();
    await redis?.close();
  });

  it('three replicas answering 150 chats at once stay within 30 messages per second together: no 429', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9_997, name: 'Shared', username: `shared_limits_${process.pid}_bot` });
    const rules = await writeRules(versionedRules('v1'));
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const arrivals: number[] = [];
    const stopWatching = sandbox.sandbox.onMessage(({ peer, message }) => {
      if (peer.toLowerCase() === bot.username.toLowerCase() && message.from?.is_bot) arrivals.push(performance.now());
    });
    const launch = async (): Promise<RunProcess> => {
      const run = startRun({
        env: {
          BOT_TOKEN: bot.token,
          BASE_URL: sandbox.baseUrl,
          HEARSAY_RULES: rules.dir,
          HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-shared-limits-')),
          HEARSAY_MODE: 'polling',
          HEARSAY_POLLING_TIMEOUT: '2',
          HEARSAY_STORE: redis.url,
          HEARSAY_LOG_LEVEL: 'info',
          // Defaults of the service's limits: rate_limits.enabled is on unless switched off.
        },
      });
      runs.push(run);
      await run.waitForLine(/hearsay is running/, 20_000);
      return run;
    };
    await Promise.all([launch(), launch(), launch()]);
    await expect.poll(() => runs.filter((run) => run.lines.some((line) => /holds the polling lease/.test(line))).length, { timeout: 20_000 }).toBe(1);

    await Promise.all(Array.from({ length: CHATS }, (_, chat) => sendAsUser(sandbox.baseUrl, 40_000 + chat, bot.username, `burst ${chat}`)));
    await ledger.waitForReplies(CHATS, 60_000);
    stopWatching();

    // Every replica sent some of them: the limit held for the three together, not for one doing all the work.
    for (const run of runs) expect(run.lines.filter((line) => /"update handled"/.test(line)).length).toBeGreaterThan(0);
    // One sendmessage per reply: the sandbox never refused one with 429.
    expect(await sendmessageCount(sandbox.baseUrl, bot.username)).toBe(CHATS);
    arrivals.sort((a, b) => a - b);
    let busiest = 0;
    for (let first = 0, last = 0; last < arrivals.length; last++) {
      while (arrivals[last]! - arrivals[first]! >= 1000) first++;
      busiest = Math.max(busiest, last - first + 1);
    }
    expect(busiest).toBeLessThanOrEqual(PER_BOT_PER_SECOND);
    ledger.close();
  }, 120_000);
});
