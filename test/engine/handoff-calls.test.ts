// Hand-off from a backend call's outcome: `handoff: true` in a branch of `on` (a rule's, a button press rule's, a
// flow's done call) hands the user to a person after that branch's answer, and only for that outcome; `handoff`
// beside the call itself is a rule problem at its position (which outcome would it be?), and so is a branch's
// hand-off without the configuration's `handoff:` block.
import { describe, expect, it } from 'vitest';
import type { EffectAction } from '../../src/engine/actions.js';
import { continueDecision } from '../../src/engine/backend-calls.js';
import { decide, type DecideContext, type Decision } from '../../src/engine/decide.js';
import type { CallbackQueryEvent } from '../../src/engine/events.js';
import { HANDOFF_TOPIC_VARIABLE, HANDOFF_VARIABLE } from '../../src/engine/handoff.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent } from './messages.js';

const STAFF = -1001234567890;
const context: DecideContext = {
  botUsername: 'shop_bot',
  now: () => 1_000_000,
  handoff: { chatId: STAFF, idleMs: null, endWords: new Set(['done']) },
};
const configured = { chats: new Set(['staff']), backends: new Set(['shop']), handoff: true, configFile: 'hearsay.yaml' };

const ORDER = `
rules:
  - id: order-status
    pattern: 'order\\s*(?<num>\\d+)'
    call: { backend: shop, get: "/orders/{{match.num}}" }
    on:
      ok: { reply: "Order {{match.num}}: {{result.status}}." }
      error:
        reply: "Our shop system is down; a colleague will look it up for you."
        handoff: true
`;

async function load(yaml: string, environment: typeof configured | Omit<typeof configured, 'handoff'> = configured) {
  return withRuleDir({ 'bot.yaml': yaml }, (dir) => loadRules(dir, undefined, environment));
}

async function ruleSetOf(yaml: string) {
  const outcome = await load(yaml);
  expect(outcome.problems.filter((p) => p.severity === 'error').map((p) => p.format())).toEqual([]);
  return outcome.ruleSet!;
}

const effects = (decision: Decision) => decision.actions.filter((a): a is EffectAction => a.type === 'effect');
const opened = (decision: Decision) => effects(decision).filter((e) => (e.payload as { op?: string }).op === 'open');

describe('hand-off from the outcome of a backend call', () => {
  it("a rule's error branch hands off after its reply; the ok branch does not", async () => {
    const ruleSet = await ruleSetOf(ORDER);
    const asked = decide(messageEvent(message('order 4711', { firstName: 'Cleo' })), ruleSet, EMPTY_STATE, context);
    const down = continueDecision(asked, { status: null, failure: 'timeout' });
    expect(down.actions[0]).toEqual({ type: 'send_message', chatId: 42, text: 'Our shop system is down; a colleague will look it up for you.' });
    expect(down.actions[1]).toEqual({ type: 'set_state', scope: 'user', key: HANDOFF_VARIABLE, value: '1000000|order-status' });
    // The chat so far ends with the branch's reply (message 8 after the customer's 7).
    expect(opened(down)[0]!.payload).toMatchObject({ op: 'open', customer: 42, staff: STAFF, name: 'Cleo #42', history: [1, 2, 3, 4, 5, 6, 7, 8] });
    expect((opened(down)[0]!.payload as { header: string }).header).toContain('Rule: order-status');
    const fine = continueDecision(asked, { status: 200, body: { status: 'shipped' } });
    expect(fine.actions).toEqual([{ type: 'send_message', chatId: 42, text: 'Order 4711: shipped.' }]);
    // Handed off, the customer's next message goes to staff, not to the rules.
    const state: ConversationState = applyStateChanges(EMPTY_STATE, down.actions);
    const next = decide(messageEvent(message('order 4711')), ruleSet, state, context);
    expect(next.call).toBeUndefined();
    expect(effects(next).map((e) => (e.payload as { op: string }).op)).toEqual(['copy']);
  });

  it('a button press rule with a call hands off from its branch, answering the press', async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: refund
    callback: '^refund:(?<num>\\d+)$'
    call: { backend: shop, post: "/refunds", body: { order: "{{match.num}}" } }
    on:
      ok: { answer: "Refund started" }
      409: { answer: "A colleague takes over", reply: "This one needs a person; they'll write here.", handoff: true }
      error: { answer: "Try again later" }
`);
    const chat = { id: 42, type: 'private', first_name: 'Cleo' };
    const press = {
      kind: 'callback_query',
      updateId: 3,
      id: 'q1',
      from: { id: 42, is_bot: false, first_name: 'Cleo' },
      chat,
      message: { message_id: 5, date: 1, chat, text: 'Your order' } as never,
      data: 'refund:77',
    } as unknown as CallbackQueryEvent;
    const asked = decide(press, ruleSet, EMPTY_STATE, context);
    const conflict = continueDecision(asked, { status: 409 });
    expect(conflict.actions).toContainEqual({ type: 'answer_callback', callbackQueryId: 'q1', text: 'A colleague takes over' });
    expect(conflict.actions).toContainEqual({ type: 'set_state', scope: 'user', key: HANDOFF_VARIABLE, value: '1000000|refund' });
    // The chat so far ends with the message that held the button.
    expect(opened(conflict)[0]!.payload).toMatchObject({ op: 'open', customer: 42, history: [1, 2, 3, 4, 5] });
    expect(opened(continueDecision(asked, { status: 201 }))).toEqual([]);
  });

  it("a flow's done call hands off from the branch of its outcome", async () => {
    const ruleSet = await ruleSetOf(`
flows:
  - id: booking
    start: { command: book }
    steps:
      - id: size
        ask: "How many people?"
        accept: { pattern: '^\\d+$' }
    done:
      - call: { backend: shop, post: "/bookings", body: { size: "{{flow.size}}" } }
        on:
          ok: { reply: "Booked." }
          error: { reply: "I couldn't book it; a colleague takes over.", handoff: true }
`);
    let state: ConversationState = EMPTY_STATE;
    const first = decide(messageEvent(message('/book')), ruleSet, state, context);
    state = applyStateChanges(state, first.actions);
    const asked = decide(messageEvent(message('4')), ruleSet, state, context);
    const failed = continueDecision(asked, { status: 503 });
    expect(failed.actions.find((a) => a.type === 'send_message')).toMatchObject({ text: "I couldn't book it; a colleague takes over." });
    expect(applyStateChanges(state, failed.actions).user[HANDOFF_VARIABLE]).toBe('1000000|booking#done');
    expect(opened(failed)[0]!.payload).toMatchObject({ op: 'open', history: [1, 2, 3, 4, 5, 6, 7, 8] });
    expect(opened(continueDecision(asked, { status: 201 }))).toEqual([]);
  });

  it('handoff: false in a branch hands a handed-off user back', async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: resolved
    command: resolved
    during_handoff: true
    call: { backend: shop, get: "/tickets/latest" }
    on:
      ok: { reply: "Your ticket is closed; back with the bot.", handoff: false }
      error: { reply: "Still with a colleague." }
`);
    const handedOff: ConversationState = { user: { [HANDOFF_VARIABLE]: '1|human', [HANDOFF_TOPIC_VARIABLE]: 77 }, chat: {}, flow: null };
    const asked = decide(messageEvent(message('/resolved')), ruleSet, handedOff, context);
    const back = continueDecision(asked, { status: 200, body: {} });
    expect(back.actions).toContainEqual({ type: 'set_state', scope: 'user', key: HANDOFF_VARIABLE, value: null });
    expect(continueDecision(asked, { status: 500 }).actions.some((a) => a.type === 'set_state')).toBe(false);
  });

  it('handoff beside a call (rule or done branch) is a problem at its position; so is a branch hand-off without the handoff: block', async () => {
    const misplaced = await load(`
rules:
  - id: order-status
    pattern: 'order (?<num>\\d+)'
    call: { backend: shop, get: "/orders/{{match.num}}" }
    handoff: true
    on:
      error: { reply: "Down." }
flows:
  - id: booking
    start: { command: book }
    steps:
      - id: size
        ask: "How many?"
    done:
      - call: { backend: shop, post: "/bookings", body: { size: "{{flow.size}}" } }
        handoff: true
        on:
          error: { reply: "Down." }
`);
    expect(misplaced.problems.filter((p) => p.severity === 'error').map((p) => p.format())).toEqual([
      expect.stringMatching(
        /\/bot\.yaml:6:14: rule 'order-status' calls a backend, so whether it hands off depends on the outcome: move `handoff: true` into the branch of `on` that should hand off, e\.g\. error: /,
      ),
      expect.stringMatching(
        /\/bot\.yaml:17:18: done branch #1 of flow 'booking' calls a backend, so whether it hands off depends on the outcome: move `handoff: true`/,
      ),
    ]);
    const unconfigured = await load(ORDER, { chats: new Set(), backends: new Set(['shop']), configFile: 'hearsay.yaml' });
    expect(unconfigured.problems.map((p) => p.format().replace(/^.*\/bot\.yaml/, 'bot.yaml'))).toEqual([
      "bot.yaml:10:18: the error branch of rule 'order-status' hands off to a person, but hearsay.yaml has no handoff: block; add one, e.g. handoff: { chat: staff }",
    ]);
  });
});
