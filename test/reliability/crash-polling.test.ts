// Crash safety in polling mode: `kill -9` of the real `hearsay run` process at seeded random points of a
// 5,000-update stream, restarted each time with the same data directory. Every update must be answered,
// in order per chat, and only updates the journal itself names as "in doubt" may be answered twice.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';
import { startRun, versionedRules, writeRules, type RunProcess } from '../e2e/run-process.js';
import { inDoubtUpdateIds } from '../support/in-doubt.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { seededRandom } from './seeded-random.js';

const USERS = 50;
const PER_USER = 100;
const TOTAL = USERS * PER_USER;
const SEED = Number(process.env.HEARSAY_CRASH_SEED ?? 20240607);

describe('crash safety (polling)', () => {
  let sandbox: StartedSandbox;
  const running: RunProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop('SIGKILL')));
    await sandbox?.close();
  });

  it(`answers each of ${TOTAL} updates once and in order through 4 kill -9 restarts (seed ${SEED})`, async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 100, name: 'Crash', username: 'crash_polling_bot' });
    const rules = await writeRules(versionedRules('v1'));
    const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-crash-data-'));
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const random = seededRandom(SEED);
    const kills = Array.from({ length: 4 }, () => Math.floor(300 + random() * (TOTAL - 800))).sort((a, b) => a - b);
    // The sandbox shares this process: a kill right when it stores a reply would always land before the
    // engine hears back, which no real crash does. A seeded pause unties the kill from the sandbox.
    const pauses = kills.map(() => Math.floor(random() * 40));

    const launch = async () => {
      const run = startRun({
        env: {
          BOT_TOKEN: bot.token,
          BASE_URL: sandbox.baseUrl,
          HEARSAY_RULES: rules.dir,
          HEARSAY_DATA_DIR: dataDir,
          HEARSAY_POLLING_TIMEOUT: '1',
          HEARSAY_LOG_LEVEL: 'warn',
          HEARSAY_RATE_LIMITS_ENABLED: 'false',
        },
      });
      running.push(run);
      return run;
    };

    const users = Array.from({ length: USERS }, (_, i) => 20_000 + i);
    const sending = Promise.all(
      users.map(async (user) => {
        for (let i = 0; i < PER_USER; i++) await sendAsUser(sandbox.baseUrl, user, bot.username, `u${user} n${i}`);
      }),
    );

    const runs: RunProcess[] = [];
    for (const [k, at] of kills.entries()) {
      const run = await launch();
      runs.push(run);
      await ledger.waitForReplies(at, 30_000);
      await new Promise((resolve) => setTimeout(resolve, pauses[k]));
      run.child.kill('SIGKILL');
      await run.exited;
    }
    const last = await launch();
    runs.push(last);
    await sending;
    await ledger.waitForReplies(TOTAL, 30_000);
    // Grace for a late duplicate.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await last.stop('SIGTERM')).toBe(0);

    // The journal names the updates whose reply may have gone out just before a kill.
    const inDoubt = inDoubtUpdateIds(runs);
    const updateIdOf = new Map(ledger.sent.map((entry) => [`${entry.userId}|${entry.text}`, entry.updateId]));
    let duplicates = 0;
    for (const user of users) {
      const replies = ledger.replies.get(user) ?? [];
      const expected = Array.from({ length: PER_USER }, (_, i) => `v1: u${user} n${i}`);
      // Every update answered, in order (a duplicate, when there is one, follows its first answer).
      expect(replies.filter((text, i) => replies.indexOf(text) === i)).toEqual(expected);
      for (const text of ledger.duplicatesFor(user)) {
        duplicates += 1;
        const updateId = updateIdOf.get(`${user}|${text.slice('v1: '.length)}`);
        expect(inDoubt.has(updateId!), `update ${updateId} ("${text}") answered twice but not reported in doubt`).toBe(true);
      }
    }
    // Bounded by what was in flight at each kill (delivery.concurrency = 32).
    expect(duplicates).toBeLessThanOrEqual(kills.length * 32);
    console.info(`crash test: ${kills.length} kills at ${kills.join(', ')} replies; ${inDoubt.size} in doubt; ${duplicates} answered twice`);
    for (const run of runs) {
      expect(run.lines.join('\n')).not.toContain(bot.token);
    }
    ledger.close();
  }, 90_000);
});
