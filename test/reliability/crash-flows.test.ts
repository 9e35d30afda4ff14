// Crash safety of conversation state: users count with `set: { increment }` and fill a two-step flow over
// and over while the real `hearsay run` process is killed with SIGKILL at seeded random points and started
// again on the same data directory. Every reply must come once and in order (only updates the journal
// names as in doubt may be answered twice, identically): a `set` applied twice would skip a count, a lost
// one would repeat it, and a lost or doubled flow step would ask the wrong question.
import { describe, expect, it } from 'vitest';
import { sendAsUser } from '../support/sandbox-harness.js';
import { type RunProcess } from '../e2e/run-process.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { inDoubtUpdateIds } from '../support/in-doubt.js';
import { killSchedule, playKills, setUpCrashBot } from './crash-run.js';

const USERS = 20;
const CYCLES = 15;
const PER_CYCLE = 4;
const TOTAL = USERS * CYCLES * PER_CYCLE;
const SEED = Number(process.env.HEARSAY_CRASH_SEED ?? 20261123);

const RULES = `
rules:
  - id: tick
    pattern: '^tick \\d+$'
    set: { user.count: { increment: 1 } }
    reply: "count {{var.user.count}}"
flows:
  - id: form
    start: { command: form }
    steps:
      - id: a
        ask: "form {{var.user.count}}: a?"
        accept: { number: {} }
      - id: b
        ask: "b after {{flow.a}}?"
        accept: { number: {} }
    done:
      - set: { user.forms: { increment: 1 } }
        reply: "form {{var.user.forms}}: {{flow.a}} then {{flow.b}}"
`;

/** What one user sends in cycle i, and what the bot must answer to each. */
function cycle(i: number): { send: string[]; expect: string[] } {
  return {
    send: [`tick ${i}`, `/form ${i}`, String(i), String(i + 100)],
    expect: [`count ${i + 1}`, `form ${i + 1}: a?`, `b after ${i}?`, `form ${i + 1}: ${i} then ${i + 100}`],
  };
}

describe('crash safety of conversation state (polling)', () => {
  const { sandbox, running } = sandboxAndRuns();

  it(`keeps counts and flow steps exact through 3 kill -9 restarts (${TOTAL} updates, seed ${SEED})`, async () => {
    const crashBot = { ownerId: 700, name: 'CrashFlows', username: 'crash_flows_bot', rules: RULES, ingress: { HEARSAY_POLLING_TIMEOUT: '1' } };
    const { bot, ledger, launch } = await setUpCrashBot(sandbox, running, crashBot);
    const schedule = killSchedule(SEED, 3, 150, TOTAL - 400);

    const users = Array.from({ length: USERS }, (_, i) => 30_000 + i);
    const sending = Promise.all(
      users.map(async (user) => {
        for (let i = 0; i < CYCLES; i++) for (const text of cycle(i).send) await sendAsUser(sandbox.baseUrl, user, bot.username, text);
      }),
    );
    const runs: RunProcess[] = [];
    const reached = (count: number) => ledger.waitForReplies(count, 60_000);
    const last = await playKills({ schedule, runs, launch, reached, sending, total: TOTAL });
    expect(await last.stop('SIGTERM')).toBe(0);

    const inDoubt = inDoubtUpdateIds(runs);
    let duplicates = 0;
    for (const user of users) {
      const expected = Array.from({ length: CYCLES }, (_, i) => cycle(i).expect).flat();
      const replies = ledger.replies.get(user) ?? [];
      // Every reply once, in order; a reply given twice is the same text again, right after the first.
      const once = replies.filter((text, i) => i === 0 || text !== replies[i - 1]);
      expect(once).toEqual(expected);
      const sent = ledger.sent.filter((entry) => entry.userId === user);
      for (let i = 1; i < replies.length; i++) {
        if (replies[i] !== replies[i - 1]) continue;
        duplicates += 1;
        const update = sent[expected.indexOf(replies[i]!)]!.updateId;
        expect(inDoubt.has(update), `update ${update} ("${replies[i]}") answered twice but not reported in doubt`).toBe(true);
      }
    }
    console.info(`crash-flows: kills after ${schedule.kills.join(', ')} replies; ${inDoubt.size} in doubt; ${duplicates} answered twice`);
    ledger.close();
  }, 120_000);
});
