// Crash safety in polling mode: `kill -9` of the real `hearsay run` process at seeded random points of a
// 5,000-update stream, restarted each time with the same data directory. Every update must be answered,
// in order per chat, and only updates the journal itself names as "in doubt" may be answered twice.
import { describe, expect, it } from 'vitest';
import { sendAsUser } from '../support/sandbox-harness.js';
import { versionedRules, type RunProcess } from '../e2e/run-process.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { inDoubtUpdateIds } from '../support/in-doubt.js';
import { killSchedule, playKills, setUpCrashBot } from './crash-run.js';

const USERS = 50;
const PER_USER = 100;
const TOTAL = USERS * PER_USER;
const SEED = Number(process.env.HEARSAY_CRASH_SEED ?? 20240607);

describe('crash safety (polling)', () => {
  const { sandbox, running } = sandboxAndRuns();

  it(`answers each of ${TOTAL} updates once and in order through 4 kill -9 restarts (seed ${SEED})`, async () => {
    const crashBot = { ownerId: 100, name: 'Crash', username: 'crash_polling_bot', rules: versionedRules('v1'), ingress: { HEARSAY_POLLING_TIMEOUT: '1' } };
    const { bot, ledger, launch } = await setUpCrashBot(sandbox, running, crashBot);
    const schedule = killSchedule(SEED, 4, 300, TOTAL - 800);

    const users = Array.from({ length: USERS }, (_, i) => 20_000 + i);
    const sending = Promise.all(
      users.map(async (user) => {
        for (let i = 0; i < PER_USER; i++) await sendAsUser(sandbox.baseUrl, user, bot.username, `u${user} n${i}`);
      }),
    );

    const runs: RunProcess[] = [];
    const reached = (count: number) => ledger.waitForReplies(count, 30_000);
    const last = await playKills({ schedule, runs, launch, reached, sending, total: TOTAL });
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
    expect(duplicates).toBeLessThanOrEqual(schedule.kills.length * 32);
    console.info(`crash test: ${schedule.kills.length} kills at ${schedule.kills.join(', ')} replies; ${inDoubt.size} in doubt; ${duplicates} answered twice`);
    for (const run of runs) {
      expect(run.lines.join('\n')).not.toContain(bot.token);
    }
    ledger.close();
  }, 90_000);
});
