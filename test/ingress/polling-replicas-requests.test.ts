// What a polling leader asks Redis per update at a low rate, as a real `hearsay run` process against the sandbox
// and a real redis-server: one update at a time, each answered before the next is sent. The lease is renewed on its
// own schedule (every third of it), not before each confirming getupdates; the inbox's backlog is asked for only
// once the counts the leader knows near a limit; an update it can start at once is kept as it is stored (no claim,
// no begin of its own); an update finished when every stored update was this replica's wakes no claim (nothing can
// be claimable then); and the confirmed offset is recorded at most once a second.
// Counted with INFO commandstats: calls, not time.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun, versionedRules, writeRules, type RunProcess } from '../e2e/run-process.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { commandCalls, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const UPDATES = 30;
/** How often an idle replica looks for stored updates (CLAIM_IDLE_MAX_MS). */
const IDLE_CLAIM_MS = 100;

describe("a polling leader's requests to Redis at a low rate", () => {
  let sandbox: StartedSandbox;
  let redis: RedisServer;
  let admin: Redis;
  let run: RunProcess | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox();
    redis = await startRedisServer();
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    await run?.stop('SIGKILL');
    admin?.disconnect();
    await sandbox?.close();
    await redis?.close();
  });

  it('renews the lease on its schedule, asks for the backlog rarely, and keeps what it fetches: no claim, one script to store and begin', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9_997, name: 'Calls', username: `poll_calls_${process.pid}_bot` });
    const rules = await writeRules(versionedRules('v1'));
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    run = startRun({
      env: {
        BOT_TOKEN: bot.token,
        BASE_URL: sandbox.baseUrl,
        HEARSAY_RULES: rules.dir,
        HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-poll-calls-')),
        HEARSAY_MODE: 'polling',
        HEARSAY_POLLING_TIMEOUT: '2',
        HEARSAY_STORE: redis.url,
        HEARSAY_LOG_LEVEL: 'info',
        HEARSAY_RATE_LIMITS_ENABLED: 'false',
      },
    });
    await run.waitForLine(/this replica holds the polling lease/, 20_000);
    // A first update answered: the process is warm and the leader has looked at the backlog once.
    await sendAsUser(sandbox.baseUrl, 41_000, bot.username, 'warm');
    await ledger.waitForReplies(1, 20_000);

    const before = await commandCalls(admin);
    const started = performance.now();
    for (let i = 0; i < UPDATES; i++) {
      await sendAsUser(sandbox.baseUrl, 41_000 + (i % 3), bot.username, `m${i}`);
      await ledger.waitForReplies(2 + i, 20_000);
    }
    const elapsedMs = performance.now() - started;
    const after = await commandCalls(admin);
    const delta = (command: string) => (after[command] ?? 0) - (before[command] ?? 0);

    // Before, each confirming getupdates also renewed the lease and asked for the backlog, and each finished update
    // woke a claim that found nothing.
    const leaseRounds = Math.ceil(elapsedMs / (8000 / 3)) + 1;
    expect(delta('pexpire'), 'lease renewals (the renewal script is the only PEXPIRE)').toBeLessThanOrEqual(leaseRounds);
    // The backlog (ZCARD of the unclaimed and HLEN of the inbox) is not asked for before each getupdates; commits
    // count their done ids at every 16th update id (a ZCARD too).
    expect(delta('zcard'), 'looks at the backlog').toBeLessThanOrEqual(5);
    // A claim is a ZRANGE of the unclaimed: the leader, alone, keeps each update it fetches (it can start it at once),
    // so only the idle looks claim (one per update before).
    const idleLooks = Math.ceil(elapsedMs / IDLE_CLAIM_MS);
    expect(delta('zrange'), `claims over ${Math.round(elapsedMs)} ms`).toBeLessThanOrEqual(idleLooks + 3);
    // Scripts: each update is stored and begun in one, then committed (stored, claimed, begun and committed before);
    // the confirmed offset is recorded at most once a second.
    const offsetRecords = Math.ceil(elapsedMs / 1000) + 1;
    expect(delta('evalsha'), 'scripts run').toBeLessThanOrEqual(2 * UPDATES + leaseRounds + idleLooks + offsetRecords + 3);
    ledger.close();
  }, 120_000);
});
