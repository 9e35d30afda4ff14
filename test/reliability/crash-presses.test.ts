// Crash safety of button presses, in polling and in webhook mode: users alternate a message and a press of the button under their menu
// while the real `hearsay run` process is killed with SIGKILL at seeded random points and started again on
// the same data directory. Both count in one variable, so every reply, press answer and edit says where it
// stands in the chat's order. Every press must be answered (answercallbackquery accepted) exactly once and
// its edit applied once, in order with the chat's messages; only updates the journal names as in doubt may
// be handled twice (and the service refuses a second answer of a press, and an edit that changes nothing).
import { describe, expect, it } from 'vitest';
import { pressButton, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { inDoubtUpdateIds } from '../support/in-doubt.js';
import { type SeenEntry } from '../support/reply-ledger.js';
import { freePort, webhookEnv, type RunProcess } from '../e2e/run-process.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { killSchedule, playKills, setUpCrashBot } from './crash-run.js';

const USERS = 20;
const CYCLES = 25;
/** Each user's menu, then per cycle one reply and one answered press. */
const TOTAL = USERS * (1 + 2 * CYCLES);
const SEED = Number(process.env.HEARSAY_CRASH_SEED ?? 20261124);

const RULES = `
rules:
  - id: menu
    command: menu
    reply: "menu"
    buttons: [[{ text: "tap", data: "tap" }]]
  - id: tick
    pattern: '^tick \\d+$'
    set: { user.n: { increment: 1 } }
    reply: "tick {{var.user.n}}"
  - id: tap
    callback: '^tap$'
    set: { user.n: { increment: 1 } }
    answer: "tap {{var.user.n}}"
    edit: "tapped at {{var.user.n}}"
    buttons: [[{ text: "tap", data: "tap" }]]
`;

/** What a user sees, in order: the menu, then per cycle i the reply to `tick i` and the answer to the press. */
function expectedTimeline(): SeenEntry[] {
  const cycles = Array.from({ length: CYCLES }, (_, i): SeenEntry[] => [
    { kind: 'reply', text: `tick ${2 * i + 1}` },
    { kind: 'answer', text: `tap ${2 * i + 2}` },
  ]);
  return [{ kind: 'reply', text: 'menu' }, ...cycles.flat()];
}

describe('crash safety of button presses', () => {
  // Presses wait in the queue through the restarts: long enough that none expires unanswered on the way.
  const { sandbox, running } = sandboxAndRuns({ callbackTimeoutMs: 120_000, webhook: { retryBaseMs: 50, retryMaxMs: 300 } });

  it.each([
    ['polling', 900],
    ['webhook', 910],
  ] as const)(
    `%s: answers every press once, edits once and keeps order with messages through 3 kill -9 restarts (${TOTAL} updates, seed ${SEED})`,
    async (mode, owner) => {
      const port = await freePort();
      // Webhook mode: the same port at every start; the sandbox retries deliveries while the process is down.
      const ingress: Record<string, string> =
        mode === 'polling' ? { HEARSAY_POLLING_TIMEOUT: '1' } : { HEARSAY_MODE: 'webhook', ...webhookEnv(port, 'crash_presses-Secret_9') };
      const crashBot = { ownerId: owner, name: 'CrashPresses', username: `crash_presses_${mode}_bot`, rules: RULES, ingress };
      const { bot, ledger, launch } = await setUpCrashBot(sandbox, running, crashBot);
      const schedule = killSchedule(SEED, 3, USERS + 100, TOTAL - USERS - 400);

      const runs: RunProcess[] = [launch()];
      const users = Array.from({ length: USERS }, (_, i) => 40_000 + i);
      const menus = await Promise.all(
        users.map(async (user) => {
          await sendAsUser(sandbox.baseUrl, user, bot.username, '/menu');
          const [menu] = await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, timeoutMs: 30_000 });
          return menu!.message_id;
        }),
      );
      const sending = Promise.all(
        users.map(async (user, u) => {
          for (let i = 0; i < CYCLES; i++) {
            await sendAsUser(sandbox.baseUrl, user, bot.username, `tick ${i}`);
            await pressButton(sandbox.baseUrl, user, { messageId: menus[u]!, data: 'tap', to: bot.username });
          }
        }),
      );
      const reached = (count: number) => ledger.waitForHandled(count, 60_000);
      const last = await playKills({ schedule, runs, launch, reached, sending, total: TOTAL });
      expect(await last.stop('SIGTERM')).toBe(0);

      const inDoubt = inDoubtUpdateIds(runs);
      const twice = { replies: 0, answers: 0, edits: 0 };
      for (const user of users) {
        // Replies and answers once each, in the chat's order; a message handled twice repeats its reply at once.
        const seen = ledger.seen.get(user) ?? [];
        const once = seen.filter((entry, i) => i === 0 || entry.kind !== 'reply' || entry.text !== seen[i - 1]!.text);
        expect(once).toEqual(expectedTimeline());
        const messages = ledger.sent.filter((entry) => entry.userId === user);
        for (const [i, entry] of seen.entries()) {
          if (i === 0 || entry.kind !== 'reply' || entry.text !== seen[i - 1]!.text) continue;
          twice.replies += 1;
          const update = entry.text === 'menu' ? messages[0]! : messages.find((m) => `tick ${2 * Number(m.text.slice(5)) + 1}` === entry.text)!;
          expect(inDoubt.has(update.updateId), `update ${update.updateId} ("${entry.text}") answered twice but not reported in doubt`).toBe(true);
        }

        // Each press: one accepted answer with its count; a second try (refused) only for a press in doubt.
        const presses = ledger.presses.filter((press) => press.userId === user);
        expect(presses).toHaveLength(CYCLES);
        for (const [i, press] of presses.entries()) {
          const calls = ledger.answers.get(press.callbackQueryId) ?? [];
          expect(calls.filter((call) => call.ok).map((call) => call.text)).toEqual([`tap ${2 * i + 2}`]);
          if (calls.length > 1) {
            twice.answers += 1;
            expect(inDoubt.has(press.updateId), `press ${press.updateId} answered ${calls.length} times but not reported in doubt`).toBe(true);
          }
        }

        // Each press's edit applied once, in order; an edit tried again (refused: nothing changes) only for a press in doubt.
        const edits = ledger.edits.get(user) ?? [];
        expect(edits.filter((call) => call.ok).map((call) => call.text)).toEqual(presses.map((_, i) => `tapped at ${2 * i + 2}`));
        for (const call of edits.filter((c) => !c.ok)) {
          const press = presses[(Number(call.text.slice('tapped at '.length)) - 2) / 2]!;
          twice.edits += 1;
          expect(call.description).toMatch(/message is not modified/);
          expect(inDoubt.has(press.updateId), `press ${press.updateId} edited twice but not reported in doubt`).toBe(true);
        }
      }
      // Bounded by what was in flight at each kill (delivery.concurrency = 32).
      expect(twice.replies + twice.answers).toBeLessThanOrEqual(schedule.kills.length * 32);
      console.info(
        `crash-presses (${mode}): kills after ${schedule.kills.join(', ')} handled; ${inDoubt.size} in doubt; handled twice: ${twice.replies} messages, ${twice.answers} presses (${twice.edits} edits refused as unchanged)`,
      );
      for (const run of runs) expect(run.lines.join('\n')).not.toContain(bot.token);
      // The updates came the way the mode says.
      const info = (await (await fetch(`${sandbox.baseUrl}/bot${bot.token}/getwebhookinfo`)).json()) as { result: { url: string } };
      expect(info.result.url).toBe(mode === 'webhook' ? `http://127.0.0.1:${port}/hook` : '');
      ledger.close();
    },
    150_000,
  );
});
