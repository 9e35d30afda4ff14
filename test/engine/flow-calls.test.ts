// Flows that ask a backend: a done branch's `call` (the booking: the flow is left, the reply waits for the
// backend and picks its `on` branch), and a step whose answer a backend accepts (2xx: taken, its JSON readable as
// {{flow.STEP.PATH}} later; anything else: asked again) — a chain of two calls in one update included.
import { describe, expect, it } from 'vitest';
import { continueDecision, type BackendResult } from '../../src/engine/backend-calls.js';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { BOOKING_FLOW } from '../support/booking-flow.js';
import { message, messageEvent } from './messages.js';

const BOOKING = `
flows:
${BOOKING_FLOW}      - reply: "OK, not booked."
`;

const RETURNS = `
flows:
  - id: returns
    start: { command: return }
    steps:
      - id: order
        ask: "Which order number?"
        accept: { call: { backend: shop, get: "/orders/{{answer}}" } }
        retry: "I can't find that order; the number is on your receipt."
      - id: reason
        ask: "Why are you returning {{flow.order.item.name}} (order {{flow.order}})?"
    done:
      - call: { backend: shop, post: "/returns", body: { order: "{{flow.order}}", sku: "{{flow.order.item.sku}}", reason: "{{flow.reason}}" } }
        on:
          ok: { reply: "Return {{result.id}} for {{flow.order.item.name}} is open." }
          error: { reply: "Please try again later." }
`;

async function ruleSetOf(yaml: string): Promise<RuleSet> {
  const outcome = await withRuleDir({ 'bot.yaml': yaml }, (dir) =>
    loadRules(dir, undefined, { chats: new Set(), backends: new Set(['shop']), configFile: 'hearsay.yaml' }),
  );
  expect(outcome.problems.map((p) => p.format())).toEqual([]);
  return outcome.ruleSet!;
}

/** One user's conversation: each message decided on the state the previous ones left, calls answered by `backend`. */
class Conversation {
  state: ConversationState = EMPTY_STATE;
  readonly requests: unknown[] = [];
  constructor(
    private readonly ruleSet: RuleSet,
    private readonly backend: (path: string) => BackendResult,
  ) {}

  say(text: string): string[] {
    let decision: Decision = decide(messageEvent(message(text)), this.ruleSet, this.state, { botUsername: 'bot', now: () => 1000 });
    while (decision.call) {
      this.requests.push(decision.call.request);
      decision = continueDecision(decision, this.backend(`${decision.call.request.method} ${decision.call.request.path}`));
    }
    this.state = applyStateChanges(this.state, decision.actions);
    return decision.actions.flatMap((a) => (a.type === 'send_message' ? [a.text] : []));
  }
}

describe('a done branch that calls a backend', () => {
  it('leaves the flow, posts the answers and replies from the branch of its outcome', async () => {
    const ruleSet = await ruleSetOf(BOOKING);
    for (const [result, reply] of [
      [{ status: 201, body: { reference: 'B-17' } }, 'Booked! Your reference is B-17.'],
      [{ status: 409 }, 'That slot was just taken. Send /book to pick another.'],
      [{ status: null, failure: 'timeout' }, "I couldn't book it right now; a colleague will call you."],
    ] as const) {
      const c = new Conversation(ruleSet, () => result);
      c.say('/book');
      c.say('Friday');
      expect(c.say('4')).toEqual(['A table for 4 on Friday?']);
      expect(c.say('y')).toEqual([reply]);
      expect(c.requests).toEqual([
        { backend: 'shop', method: 'POST', path: '/bookings', template: '/bookings', body: { date: 'Friday', size: '4', user: '42' } },
      ]);
      expect(c.state.flow).toBeNull();
      expect(c.state.user.booking).toBe(result.status === 201 ? 'B-17' : undefined);
    }
    // The other branch calls nothing.
    const c = new Conversation(ruleSet, () => ({ status: 500 }));
    for (const text of ['/book', 'Friday', '2']) c.say(text);
    expect(c.say('n')).toEqual(['OK, not booked.']);
    expect(c.requests).toEqual([]);
  });
});

describe('a step whose answer a backend accepts', () => {
  const shop = (path: string): BackendResult => {
    if (path === 'GET /orders/4711') return { status: 200, body: { item: { name: 'Camera', sku: 'C-1' } } };
    if (path === 'POST /returns') return { status: 201, body: { id: 'R-3' } };
    return { status: 404 };
  };

  it('asks again on anything but a 2xx, keeps the JSON of a 2xx, and reads it in later steps and the done call', async () => {
    const c = new Conversation(await ruleSetOf(RETURNS), shop);
    expect(c.say('/return')).toEqual(['Which order number?']);
    expect(c.say('12')).toEqual(["I can't find that order; the number is on your receipt."]);
    expect(c.state.flow).toMatchObject({ stepId: 'order', values: {} });
    expect(c.say('4711')).toEqual(['Why are you returning Camera (order 4711)?']);
    expect(c.state.flow).toMatchObject({ stepId: 'reason', values: { order: '4711' }, results: { order: { item: { name: 'Camera', sku: 'C-1' } } } });
    // The last answer finishes the flow, whose done branch calls again: two steps of one update, one call.
    expect(c.say('too small')).toEqual(['Return R-3 for Camera is open.']);
    expect(c.requests.at(-1)).toEqual({
      backend: 'shop',
      method: 'POST',
      path: '/returns',
      template: '/returns',
      body: { order: '4711', sku: 'C-1', reason: 'too small' },
    });
    expect(c.state.flow).toBeNull();
  });

  it('encodes the answer in the path, and a backend that is down asks again', async () => {
    const c = new Conversation(await ruleSetOf(RETURNS), () => ({ status: null, failure: 'network' }));
    c.say('/return');
    expect(c.say('1/../../admin')).toEqual(["I can't find that order; the number is on your receipt."]);
    expect(c.requests).toEqual([{ backend: 'shop', method: 'GET', path: '/orders/1%2F%2E%2E%2F%2E%2E%2Fadmin', template: '/orders/{{answer}}' }]);
  });

  it('check: {{flow.STEP.PATH}} only for a step a backend accepted, {{answer}} only in such a call', async () => {
    const outcome = await withRuleDir(
      {
        'bot.yaml': `
flows:
  - id: f
    start: { command: f }
    steps:
      - id: a
        ask: "A? {{answer}}"
      - id: b
        ask: "{{flow.a.x}}"
    done:
      - reply: "{{flow.b}}"
`,
      },
      (dir) => loadRules(dir),
    );
    expect(outcome.problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      "7: {{answer}} is only available in the call of a flow step's accept (it is the answer being checked) (in the question of step 'a' of flow 'f')",
      "9: {{flow.a.x}}: step 'a' of flow 'f' keeps only its answer ({{flow.a}}); a path reads the JSON of a step whose accept is a backend call (in the question of step 'b' of flow 'f')",
    ]);
  });
});

describe('a date step next to a step a backend accepted', () => {
  const DATED = `
timezone: Europe/Berlin
flows:
  - id: pickup
    start: { command: pickup }
    steps:
      - id: order
        ask: "Which order?"
        accept: { call: { backend: shop, get: "/orders/{{answer}}" } }
      - id: day
        ask: "Which day do you collect {{flow.order.item.name}}?"
        accept: { date: { from: today, to: 60d } }
    done:
      - call: { backend: shop, post: "/pickups", body: { order: "{{flow.order}}", day: "{{flow.day.iso}}", batch: "{{flow.order.iso}}" } }
        on:
          ok: { reply: "{{flow.order.item.name}} waits for you on {{flow.day}} ({{flow.day.iso}}, batch {{flow.order.iso}})." }
          error: { reply: "Please try again later." }
        remind: { id: pickup, at: "{{flow.day.iso}} 10:00", reply: "Collect {{flow.order.item.name}} today." }
`;

  it('reads .iso of the date step as kept, and .iso of the called step as a path into its JSON', async () => {
    const shop = (path: string): BackendResult =>
      path === 'GET /orders/4711' ? { status: 200, body: { item: { name: 'Camera' }, iso: 'B7' } } : { status: 201, body: {} };
    const c = new Conversation(await ruleSetOf(DATED), shop);
    c.say('/pickup');
    expect(c.say('4711')).toEqual(['Which day do you collect Camera?']);
    // The clock stands at 1970-01-01 01:00 in Berlin: tomorrow is Friday 2 January.
    expect(c.say('tomorrow')).toEqual(['Camera waits for you on Friday, 2 January (1970-01-02, batch B7).']);
    expect(c.requests.at(-1)).toMatchObject({ path: '/pickups', body: { order: '4711', day: '1970-01-02', batch: 'B7' } });
  });

  it("sets the done branch's reminder before its call, with the flow's answers and the backend's JSON", async () => {
    const ruleSet = await ruleSetOf(DATED);
    const shop = (): BackendResult => ({ status: 200, body: { item: { name: 'Camera' } } });
    let state: ConversationState = EMPTY_STATE;
    let decision: Decision | undefined;
    for (const text of ['/pickup', '4711', 'tomorrow']) {
      decision = decide(messageEvent(message(text)), ruleSet, state, { botUsername: 'bot', now: () => 1000 });
      while (decision.call) decision = continueDecision(decision, shop());
      state = applyStateChanges(state, decision.actions);
    }
    const reminder = decision!.actions.find((a) => a.type === 'effect');
    // 10:00 in Berlin on 2 January 1970 is 09:00 UTC.
    expect(reminder).toMatchObject({ dueAt: Date.UTC(1970, 0, 2, 9), payload: { params: { text: 'Collect Camera today.' } } });
  });
});
