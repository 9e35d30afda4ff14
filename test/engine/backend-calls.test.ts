// A rule's `call`: decide renders the request (values in the path and query percent-encoded, so a user cannot
// change the path) and pends on it; continueDecision picks the branch of `on` its result says — a listed status,
// else `ok` for a 2xx, else `error` — and answers it like a rule, with {{result.PATH}} and {{result.status_code}}.
// `notify` becomes a `backend` effect. Written as the issue writes them.
import { describe, expect, it } from 'vitest';
import type { EffectAction } from '../../src/engine/actions.js';
import { continueDecision, type BackendResult } from '../../src/engine/backend-calls.js';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { CallbackQueryEvent } from '../../src/engine/events.js';
import { EMPTY_STATE } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent } from './messages.js';

const ORDER_STATUS = `
rules:
  - id: order-status
    pattern: 'order\\s*#?\\s*(?<num>\\d{3,10})'
    call: { backend: shop, get: "/orders/{{match.num}}" }
    on:
      ok:    { reply: "Order {{match.num}}: {{result.status}}, expected {{result.eta}}." }   # any 2xx
      404:   { reply: "I can't find order {{match.num}}. Check the number on your receipt?" }
      error: { reply: "Our shop system isn't answering right now; please try again in a few minutes." }  # timeout, network, 5xx, bad JSON, open circuit
`;

const environment = { chats: new Set<string>(), backends: new Set(['shop', 'crm']), configFile: 'hearsay.yaml' };
const context = { botUsername: 'shop_bot', backends: new Map([['crm', { giveUpAfterMs: 3_600_000 }]]) };

async function load(yaml: string, env: typeof environment | undefined = environment) {
  return withRuleDir({ 'bot.yaml': yaml }, (dir) => loadRules(dir, undefined, env));
}

async function ruleSetOf(yaml: string) {
  const outcome = await load(yaml);
  expect(outcome.problems.filter((p) => p.severity === 'error').map((p) => p.format())).toEqual([]);
  return outcome.ruleSet!;
}

const texts = (decision: Decision) => decision.actions.flatMap((a) => (a.type === 'send_message' ? [a.text] : []));

describe('call: a rule that asks a backend', () => {
  it('pends on a GET of the filled path and answers from the branch its result picks', async () => {
    const ruleSet = await ruleSetOf(ORDER_STATUS);
    const asked = decide(messageEvent(message('where is order 4711?')), ruleSet, EMPTY_STATE, context);
    expect(asked.actions).toEqual([]);
    expect(asked.call?.request).toEqual({ backend: 'shop', method: 'GET', path: '/orders/4711', template: '/orders/{{match.num}}' });
    const answer = (result: BackendResult) => continueDecision(asked, result);
    expect(texts(answer({ status: 200, body: { status: 'shipped', eta: 'Friday' } }))).toEqual(['Order 4711: shipped, expected Friday.']);
    expect(texts(answer({ status: 404 }))).toEqual(["I can't find order 4711. Check the number on your receipt?"]);
    const down = "Our shop system isn't answering right now; please try again in a few minutes.";
    for (const result of [{ status: 500 }, { status: 409 }, { status: null, failure: 'timeout' }, { status: 200, failure: 'bad_json' }] as BackendResult[])
      expect(texts(answer(result))).toEqual([down]);
    // A path the answer lacks renders empty; the call is recorded for whoever explains the decision.
    const partial = answer({ status: 200, body: { status: 'packed' } });
    expect(texts(partial)).toEqual(['Order 4711: packed, expected .']);
    expect(partial.calls).toEqual([{ backend: 'shop', method: 'GET', template: '/orders/{{match.num}}', status: 200 }]);
    expect(partial.call).toBeUndefined();
  });

  it('percent-encodes what a user typed in the path and the query, so it stays one value', async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: lookup
    pattern: '^find (?<q>.+)$'
    call: { backend: shop, get: "/items/{{match.q}}?q={{match.q}}&lang=en" }
    on: { ok: { reply: "found" }, error: { reply: "no" } }
`);
    const asked = decide(messageEvent(message('find ../admin?x=1&y=2#top')), ruleSet, EMPTY_STATE, context);
    expect(asked.call?.request.path).toBe('/items/%2E%2E%2Fadmin%3Fx%3D1%26y%3D2%23top?q=..%2Fadmin%3Fx%3D1%26y%3D2%23top&lang=en');
  });

  it("answers a branch's per-language reply in the user's language", async () => {
    const ruleSet = await ruleSetOf(`
languages: { default: en, supported: [en, de] }
rules:
  - id: order-status
    pattern: '(order|bestellung)\\s*(?<num>\\d{3,10})'
    call: { backend: shop, get: "/orders/{{match.num}}" }
    on:
      ok: { reply: { en: "Order {{match.num}}: {{result.status}}.", de: "Bestellung {{match.num}}: {{result.status}}." } }
      error: { reply: { en: "The shop is down.", de: "Der Shop antwortet nicht." } }
`);
    const asked = (text: string, language: string) => {
      const sent = message(text);
      return decide(messageEvent({ ...sent, from: { ...sent.from!, language_code: language } }), ruleSet, EMPTY_STATE, context);
    };
    expect(texts(continueDecision(asked('bestellung 4711', 'de'), { status: 200, body: { status: 'unterwegs' } }))).toEqual(['Bestellung 4711: unterwegs.']);
    expect(texts(continueDecision(asked('bestellung 4711', 'de'), { status: 500 }))).toEqual(['Der Shop antwortet nicht.']);
    expect(texts(continueDecision(asked('order 4711', 'en'), { status: 200, body: { status: 'shipped' } }))).toEqual(['Order 4711: shipped.']);
  });

  it('reads dot paths, array indexes, the status and the whole answer; a branch sets variables from them', async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: basket
    command: basket
    set: { user.asked: "yes" }
    call: { backend: shop, post: "/baskets", body: { user: "{{user.id}}", items: ["{{args}}", 2, true, null] } }
    on:
      ok: { reply: "{{result.items.0.name}} ({{result.status_code}}) {{result.count}} {{result.items}}", set: { user.basket: "{{result.id}}" } }
      error: { reply: "status {{result.status_code}}" }
`);
    const asked = decide(messageEvent(message('/basket apples')), ruleSet, EMPTY_STATE, context);
    expect(asked.call?.request).toEqual({
      backend: 'shop',
      method: 'POST',
      path: '/baskets',
      template: '/baskets',
      body: { user: '42', items: ['apples', 2, true, null] },
    });
    expect(asked.actions).toEqual([{ type: 'set_state', scope: 'user', key: 'asked', value: 'yes' }]);
    const done = continueDecision(asked, { status: 201, body: { id: 'B-9', count: 2, items: [{ name: 'Apple' }, { name: 'Pear' }] } });
    expect(texts(done)).toEqual(['Apple (201) 2 [{"name":"Apple"},{"name":"Pear"}]']);
    expect(done.actions.filter((a) => a.type === 'set_state').map((a) => a.type === 'set_state' && [a.key, a.value])).toEqual([
      ['asked', 'yes'],
      ['basket', 'B-9'],
    ]);
    expect(texts(continueDecision(asked, { status: 503 }))).toEqual(['status 503']);
    expect(texts(continueDecision(asked, { status: null, failure: 'network' }))).toEqual(['status ']);
  });

  it('answers a button press from the branch: the press is answered in every outcome', async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: cancel-order
    callback: '^cancel:(?<num>\\d+)$'
    call: { backend: shop, delete: "/orders/{{match.num}}" }
    on:
      ok: { answer: "Cancelled", edit: "Order {{match.num}} is cancelled." }
      error: { answer: "Could not cancel it now", alert: true }
`);
    const press = {
      kind: 'callback_query',
      updateId: 3,
      id: 'q1',
      from: { id: 42, is_bot: false, first_name: 'Ada' },
      chat: { id: 42, type: 'private', first_name: 'Ada' },
      message: { message_id: 5, date: 1, chat: { id: 42, type: 'private', first_name: 'Ada' }, text: 'Your order' } as never,
      data: 'cancel:77',
    } as unknown as CallbackQueryEvent;
    const asked = decide(press, ruleSet, EMPTY_STATE, context);
    expect(asked.call?.request).toMatchObject({ method: 'DELETE', path: '/orders/77' });
    expect(continueDecision(asked, { status: 204 }).actions).toEqual([
      { type: 'answer_callback', callbackQueryId: 'q1', text: 'Cancelled' },
      { type: 'edit_message_text', chatId: 42, messageId: 5, text: 'Order 77 is cancelled.' },
    ]);
    expect(continueDecision(asked, { status: null, failure: 'circuit_open' }).actions).toEqual([
      { type: 'answer_callback', callbackQueryId: 'q1', text: 'Could not cancel it now', showAlert: true },
    ]);
  });

  it("notify: an outbox effect of kind backend, rendered now, in the chat's order for that backend, with the backend's give-up time", async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: hello
    command: start
    reply: "Welcome!"
    notify: { backend: crm, post: "/events", body: { event: started, user: "{{user.id}}" } }
`);
    const decision = decide(messageEvent(message('/start')), ruleSet, EMPTY_STATE, context);
    expect(decision.actions.map((a) => a.type)).toEqual(['send_message', 'effect']);
    expect(decision.actions[1]).toEqual({
      type: 'effect',
      kind: 'backend',
      payload: { backend: 'crm', method: 'POST', path: '/events', template: '/events', body: { event: 'started', user: '42' } },
      orderKey: 'backend:crm:chat:42',
      giveUpAfterMs: 3_600_000,
    } satisfies EffectAction);
  });
});

describe('hearsay check of calls', () => {
  const messagesOf = async (yaml: string, env?: typeof environment) =>
    (await load(yaml, env)).problems.map((p) => `${p.line}:${p.column} ${p.severity}: ${p.message}`);

  it('reports a backend the configuration does not declare, at its name', async () => {
    const problems = await messagesOf(ORDER_STATUS, { ...environment, backends: new Set(['crm']) });
    expect(problems).toEqual([
      "5:22 error: backend 'shop' is not declared in hearsay.yaml: add it under backends:, e.g. backends: { shop: { url: https://... } } (declared: crm)",
    ]);
  });

  it('reports {{result.…}} outside the branches of a call', async () => {
    const problems = await messagesOf(`
rules:
  - id: plain
    command: x
    reply: "status {{result.status}}"
`);
    expect(problems).toEqual([
      "5:12 error: {{result.status}} is only available in the branches of a call's `on` (it reads the backend's answer) (in the reply of rule 'plain')",
    ]);
  });

  it('reports a notify without the body its method sends, and warns of a call without an error branch', async () => {
    const problems = await messagesOf(`
rules:
  - id: n
    command: n
    reply: ok
    notify: { backend: crm, post: /events }
  - id: c
    command: c
    call: { backend: shop, get: /x }
    on: { ok: { reply: fine } }
`);
    expect(problems).toEqual([
      "6:13 error: the notify of rule 'n' is a POST without a body: give one (body: { ... }), since nobody reads the answer to learn it was empty",
      "10:9 warning: rule 'c' has no `error` branch: when shop does not answer (or answers an error), the user gets no answer; add error: { reply: ... }",
    ]);
  });

  it('refuses a reply beside a call (it belongs in a branch) and `on` without a call', async () => {
    const problems = await messagesOf(`
rules:
  - id: both
    command: b
    reply: "hi"
    call: { backend: shop, get: /x }
    on: { ok: { reply: fine }, error: { reply: down } }
  - id: lone
    command: l
    reply: "hi"
    on: { ok: { reply: fine } }
`);
    expect(problems).toEqual([
      "5:12 error: rule 'both' calls a backend, so what it says depends on the outcome: move `reply` into the branches of `on`",
      "11:9 error: `on` picks a branch by the outcome of a call, and rule 'lone' has no `call`: add one, or remove `on`",
    ]);
  });
});
