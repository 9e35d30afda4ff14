// Crash safety of polling past a busy chat: one user sends 600 messages at once, which the per-chat sending limit
// (50 a second here) spreads over 12 s, so polling stores that chat's backlog and fetches past it while 20 other
// users write. The real `hearsay run` is killed with `kill -9` at seeded points and started again on the same data
// directory: every message is answered, in order per chat, twice only when the journal names it in doubt, and a
// restart handles the stored updates it finds.
import { describe, expect, it } from 'vitest';
import { sendAsUser } from '../support/sandbox-harness.js';
import { versionedRules, type RunProcess } from '../e2e/run-process.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { inDoubtUpdateIds } from '../support/in-doubt.js';
import { killSchedule, playKills, setUpCrashBot } from './crash-run.js';

const BURST = 600;
const OTHERS = 20;
const PER_OTHER = 10;
const TOTAL = BURST + OTHERS * PER_OTHER;
const SEED = Number(process.env.HEARSAY_CRASH_SEED ?? 20240929);

describe('crash safety (polling past a busy chat)', () => {
  const { sandbox, running } = sandboxAndRuns();

  it(`answers a ${BURST}-message burst and ${OTHERS} other users once each, in order, through 3 kill -9 restarts (seed ${SEED})`, async () => {
    const crashBot = {
      ownerId: 101,
      name: 'CrashBusy',
      username: 'crash_busy_chat_bot',
      rules: versionedRules('v1'),
      ingress: {
        HEARSAY_POLLING_TIMEOUT: '1',
        HEARSAY_LOG_LEVEL: 'info',
        HEARSAY_RATE_LIMITS_ENABLED: 'true',
        HEARSAY_RATE_LIMITS_PER_CHAT_PER_SECOND: '50',
        HEARSAY_RATE_LIMITS_OVERALL_PER_SECOND: '100',
      },
    };
    const { bot, ledger, launch } = await setUpCrashBot(sandbox, running, crashBot);
    const schedule = killSchedule(SEED, 3, 150, BURST - 300);
    const busy = 62_000;
    const others = Array.from({ length: OTHERS }, (_, i) => 62_100 + i);

    const runs: RunProcess[] = [launch()];
    await runs[0]!.waitForLine(/hearsay is running/, 20_000);
    const sending = (async () => {
      for (let i = 0; i < BURST; i++) await sendAsUser(sandbox.baseUrl, busy, bot.username, `b${i}`);
      await Promise.all(
        others.map(async (user) => {
          for (let i = 0; i < PER_OTHER; i++) await sendAsUser(sandbox.baseUrl, user, bot.username, `u${user} n${i}`);
        }),
      );
    })();
    const reached = (count: number) => ledger.waitForReplies(count, 60_000);
    const last = await playKills({ schedule, runs, launch, reached, sending, total: TOTAL });
    expect(await last.stop('SIGTERM')).toBe(0);

    const inDoubt = inDoubtUpdateIds(runs);
    const updateIdOf = new Map(ledger.sent.map((entry) => [`${entry.userId}|${entry.text}`, entry.updateId]));
    let duplicates = 0;
    const expectations: Array<[number, string[]]> = [
      [busy, Array.from({ length: BURST }, (_, i) => `v1: b${i}`)],
      ...others.map((user): [number, string[]] => [user, Array.from({ length: PER_OTHER }, (_, i) => `v1: u${user} n${i}`)]),
    ];
    for (const [user, expected] of expectations) {
      const replies = ledger.replies.get(user) ?? [];
      expect(replies.filter((text, i) => replies.indexOf(text) === i)).toEqual(expected);
      for (const text of ledger.duplicatesFor(user)) {
        duplicates += 1;
        const updateId = updateIdOf.get(`${user}|${text.slice('v1: '.length)}`);
        expect(inDoubt.has(updateId!), `update ${updateId} ("${text}") answered twice but not reported in doubt`).toBe(true);
      }
    }
    // The kills found stored updates, and the next run handled them first.
    const replayed = runs.flatMap((run) => run.lines.filter((line) => /acknowledged by the previous run but not handled/.test(line)));
    expect(replayed.length).toBeGreaterThan(0);
    expect(runs.flatMap((run) => run.lines.filter((line) => /started a new update id sequence/.test(line)))).toEqual([]);
    console.info(
      `busy-chat crash test: kills at ${schedule.kills.join(', ')} replies; ${replayed.length} restarts replayed stored updates; ${inDoubt.size} in doubt; ${duplicates} answered twice`,
    );
    ledger.close();
  }, 150_000);
});
