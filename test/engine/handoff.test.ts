// Hand-off in the engine: a rule's `handoff: true` starts it (state, the topic's opening, the idle timer); a
// handed-off customer's messages are relayed and the bot says nothing but its during_handoff rules; a staff
// message in the customer's topic (or in reply to a named copy) is relayed back, an end word ends it; the
// bot's own forum_topic_created tells the staff chat whose topic it is; a signal ends it in the customer's turn.
import type { Message, Update } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import type { EffectAction } from '../../src/engine/actions.js';
import { compileRules } from '../../src/engine/compile.js';
import { decide, type DecideContext } from '../../src/engine/decide.js';
import { toEvent } from '../../src/engine/events.js';
import { HANDOFF_TOPIC_VARIABLE, HANDOFF_VARIABLE, topicOwnerVariable } from '../../src/engine/handoff.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { compileText } from '../../src/engine/languages.js';
import { message, messageEvent } from './messages.js';
import { applyStateChanges } from '../../src/engine/state.js';
import { loadRuleSet } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';

const STAFF = -1001234567890;
const context: DecideContext = {
  botUsername: 'desk_bot',
  now: () => 1_000_000,
  handoff: { chatId: STAFF, idleMs: 7_200_000, endWords: new Set(['done', '/done']) },
};
const rules: Rule[] = [
  { id: 'human', keywords: ['human'], handoff: true, reply: 'Asked a colleague.' },
  { id: 'status', command: 'status', during_handoff: true, when: { handoff: true }, reply: 'On it.' },
  { id: 'help', fallback: true, reply: 'I help with orders.' },
];
const handoffEnd = compileText("You're back with the bot.", { trigger: 'fallback' }, 'x', { error: () => undefined, warning: () => undefined })!;
const ruleSet = { ...compileRules(rules), handoffEnd };
const handedOff: ConversationState = { user: { [HANDOFF_VARIABLE]: '1|human', [HANDOFF_TOPIC_VARIABLE]: 77 }, chat: {}, flow: null };
const effects = (actions: readonly { type: string }[]) => actions.filter((a): a is EffectAction => a.type === 'effect');

function staffMessage(text: string | undefined, extra: Partial<Message> = {}): Message {
  return {
    message_id: 500,
    date: 1,
    chat: { id: STAFF, type: 'supergroup', title: 'Staff' },
    from: { id: 9, is_bot: false, first_name: 'Sam' },
    ...(text !== undefined ? { text } : {}),
    ...extra,
  } as Message;
}
const eventOf = (msg: Message) => toEvent({ update_id: 1, message: msg } as Update)!;

describe('hand-off in decide', () => {
  it('a handoff: true rule answers, marks the chat, opens the topic with header and history, and starts the idle timer', () => {
    const decision = decide(messageEvent(message('I want a human', { firstName: 'Cleo', username: 'cleo' })), ruleSet, EMPTY_STATE, context);
    expect(decision.actions[0]).toEqual({ type: 'send_message', chatId: 42, text: 'Asked a colleague.' });
    expect(decision.actions[1]).toEqual({ type: 'set_state', scope: 'user', key: HANDOFF_VARIABLE, value: '1000000|human' });
    const [open, idle] = effects(decision.actions);
    expect(open).toMatchObject({
      kind: 'handoff',
      orderKey: 'chat:42',
      payload: { op: 'open', customer: 42, staff: STAFF, name: 'Cleo (@cleo) #42', history: [1, 2, 3, 4, 5, 6, 7, 8] },
    });
    expect((open!.payload as { header: string }).header).toContain('Hand-off: Cleo (@cleo, id 42)');
    expect(idle).toEqual({
      type: 'effect',
      kind: 'handoff',
      payload: { op: 'idle', customer: 42 },
      orderKey: 'chat:42',
      dueAt: 1_000_000 + 7_200_000,
      replaceKey: 'handoff-idle:42',
    });
  });

  it('a handed-off customer: relayed without a word, except during_handoff rules; when: { handoff } reads the state', () => {
    const relayed = decide(messageEvent(message('hello? are you there?')), ruleSet, handedOff, context);
    expect(relayed.ruleId).toBe('handoff#customer');
    expect(relayed.actions).toEqual([
      expect.objectContaining({
        type: 'effect',
        kind: 'handoff',
        orderKey: 'chat:42',
        payload: expect.objectContaining({ op: 'copy', message_id: 7, text: 'hello? are you there?' }),
      }),
    ]);
    const photo = eventOf({ ...message(undefined), photo: [{ file_id: 'p', file_unique_id: 'u', width: 1, height: 1 }], caption: 'broken' } as Message);
    expect(effects(decide(photo, ruleSet, handedOff, context).actions)[0]!.payload).toMatchObject({ op: 'copy', caption: 'broken' });
    expect(decide(messageEvent(message('/status')), ruleSet, handedOff, context).actions).toEqual([{ type: 'send_message', chatId: 42, text: 'On it.' }]);
    // Not handed off: /status's `when` fails and the fallback answers.
    expect(decide(messageEvent(message('/status')), ruleSet, EMPTY_STATE, context).actions).toEqual([
      { type: 'send_message', chatId: 42, text: 'I help with orders.' },
    ]);
  });

  it("staff: the bot's own forum_topic_created names the owner; a message in the topic is relayed (idle restarts); an end word ends it", () => {
    const created = staffMessage(undefined, {
      message_id: 77,
      from: { id: 1, is_bot: true, first_name: 'Desk', username: 'desk_bot' },
      forum_topic_created: { name: 'Cleo (@cleo) #42', icon_color: 1 },
    } as Partial<Message>);
    expect(decide(eventOf(created), ruleSet, EMPTY_STATE, context).actions).toEqual([
      { type: 'set_state', scope: 'chat', key: topicOwnerVariable(77), value: 42 },
    ]);
    const staffState: ConversationState = { user: {}, chat: { [topicOwnerVariable(77)]: 42 }, flow: null };
    const inTopic = { message_thread_id: 77, is_topic_message: true } as Partial<Message>;
    const answer = decide(eventOf(staffMessage('Hi Cleo', inTopic)), ruleSet, staffState, context);
    expect(effects(answer.actions).map((e) => [e.payload, e.orderKey, e.replaceKey])).toEqual([
      [{ op: 'relay', customer: 42, staff: STAFF, message_id: 500 }, 'chat:42', undefined],
      [{ op: 'idle', customer: 42 }, 'chat:42', 'handoff-idle:42'],
    ]);
    expect(effects(decide(eventOf(staffMessage('  DONE ', inTopic)), ruleSet, staffState, context).actions)[0]!.payload).toEqual({
      op: 'end',
      customer: 42,
      by: 'Sam',
    });
    // Without topics: a reply to the bot's named copy.
    const copy = staffMessage('Cleo (@cleo, id 42):\nhello', { from: { id: 1, is_bot: true, first_name: 'Desk', username: 'desk_bot' } } as Partial<Message>);
    const reply = decide(eventOf(staffMessage('On its way', { reply_to_message: copy } as Partial<Message>)), ruleSet, EMPTY_STATE, context);
    expect(effects(reply.actions)[0]!.payload).toMatchObject({ op: 'relay', customer: 42 });
    // Anything else in the staff group goes to the rules, but staff chatter gets no fallback (see below).
    expect(decide(eventOf(staffMessage('lunch?')), ruleSet, EMPTY_STATE, context).actions).toEqual([]);
  });

  it("an end signal in the customer's turn: state cleared, a line in the topic and the topic closed, the timer dropped, handoff_end sent", () => {
    const signal = { kind: 'handoff_signal', chat: { id: 42 }, from: { id: 42 }, signal: 'end', by: 'Sam' } as const;
    const decision = decide(signal, ruleSet, handedOff, context);
    expect(decision.actions).toEqual([
      { type: 'set_state', scope: 'user', key: HANDOFF_VARIABLE, value: null },
      {
        type: 'effect',
        kind: 'message',
        payload: { method: 'sendmessage', params: { chat_id: STAFF, text: 'Back with the bot (ended by Sam).', message_thread_id: 77 } },
        orderKey: `chat:${STAFF}`,
      },
      { type: 'effect', kind: 'message', payload: { method: 'closeforumtopic', params: { chat_id: STAFF, message_thread_id: 77 } }, orderKey: `chat:${STAFF}` },
      { type: 'cancel_effects', replaceKeys: ['handoff-idle:42'] },
      { type: 'send_message', chatId: 42, text: "You're back with the bot." },
    ]);
    // Already back with the bot (a repeated attempt): nothing.
    expect(decide(signal, ruleSet, EMPTY_STATE, context).actions).toEqual([]);
  });

  it('staff chatter in the staff group gets no fallback; a rule that matches still answers there', () => {
    const general = (text: string) => eventOf(staffMessage(text));
    expect(decide(general('anyone seen the new returns form?'), ruleSet, EMPTY_STATE, context).actions).toEqual([]);
    expect(decide(general('/status'), ruleSet, handedOff, context).actions).toEqual([{ type: 'send_message', chatId: STAFF, text: 'On it.' }]);
    // Elsewhere the fallback answers as usual.
    expect(decide(messageEvent(message('anyone there?')), ruleSet, EMPTY_STATE, context).actions).toEqual([
      { type: 'send_message', chatId: 42, text: 'I help with orders.' },
    ]);
  });

  it('a flow whose done branch says handoff: true hands the user off when it ends there, after its reply', async () => {
    const yaml = `
flows:
  - id: claim
    start: { command: claim }
    steps:
      - id: order
        ask: "Which order?"
        accept: { pattern: '^\\d+$' }
    done:
      - reply: "Thanks, a colleague takes over for order {{flow.order}}."
        handoff: true
`;
    const flows = await withRuleDir({ 'bot.yaml': yaml }, (dir) => loadRuleSet(dir));
    let state: ConversationState = EMPTY_STATE;
    const say = (text: string) => {
      const decision = decide(messageEvent(message(text)), flows, state, context);
      state = applyStateChanges(state, decision.actions);
      return decision;
    };
    say('/claim');
    const done = say('123');
    expect(done.ruleId).toBe('claim#done');
    expect(done.actions.find((a) => a.type === 'send_message')).toMatchObject({ text: 'Thanks, a colleague takes over for order 123.' });
    expect(effects(done.actions)[0]!.payload).toMatchObject({ op: 'open', customer: 42, history: [1, 2, 3, 4, 5, 6, 7, 8] });
    expect(state.user[HANDOFF_VARIABLE]).toBe('1000000|claim#done');
  });

  it('a handed-off customer who blocks the bot (my_chat_member): the hand-off ends at once, one line for staff, nothing to them', () => {
    const blocked = toEvent({
      update_id: 2,
      my_chat_member: {
        chat: { id: 42, type: 'private', first_name: 'Cleo' },
        from: { id: 42, is_bot: false, first_name: 'Cleo' },
        date: 5,
        old_chat_member: { status: 'member', user: { id: 1, is_bot: true, first_name: 'Desk' } },
        new_chat_member: { status: 'kicked', until_date: 0, user: { id: 1, is_bot: true, first_name: 'Desk' } },
      },
    } as Update)!;
    const decision = decide(blocked, ruleSet, handedOff, context);
    expect(decision.actions).toContainEqual({ type: 'set_state', scope: 'user', key: HANDOFF_VARIABLE, value: null });
    const lines = effects(decision.actions).map((e) => (e.payload as { params: { text?: string } }).params.text);
    expect(lines).toEqual(['Back with the bot (the customer blocked the bot; nothing more reaches them).', undefined]);
    expect(decision.actions.some((a) => a.type === 'send_message')).toBe(false);
    // Not handed off: only the block is marked.
    expect(effects(decide(blocked, ruleSet, EMPTY_STATE, context).actions)).toEqual([]);
  });

  it('{{handoff.topic_link}}: the link to a known topic at once; a send before the topic is known waits for it in the customer turn', () => {
    const linking = compileRules([
      { id: 'human', keywords: ['human'], handoff: true, reply: 'Yours: {{handoff.topic_link}}', send: { to: STAFF, text: 'New: {{handoff.topic_link}}' } },
    ]);
    const known = { ...handedOff, user: { [HANDOFF_TOPIC_VARIABLE]: 77 } };
    const again = decide(messageEvent(message('human')), linking, known, context);
    expect(again.actions[0]).toMatchObject({ type: 'send_message', text: 'Yours: https://t.me/c/1234567890/77' });
    expect(effects(again.actions).find((e) => e.kind === 'message')!.payload).toMatchObject({ params: { text: 'New: https://t.me/c/1234567890/77' } });
    const first = decide(messageEvent(message('human')), linking, EMPTY_STATE, context);
    expect(first.actions[0]).toMatchObject({ type: 'send_message', text: 'Yours: ' });
    // The topic opens first, then the send, both in the customer's order.
    expect(effects(first.actions).map((e) => [(e.payload as { op: string }).op, e.orderKey])).toEqual([
      ['open', 'chat:42'],
      ['idle', 'chat:42'],
      ['send', 'chat:42'],
    ]);
    expect(effects(first.actions)[2]!.payload).toMatchObject({ op: 'send', customer: 42, staff: STAFF, method: 'sendmessage', params: { chat_id: STAFF } });
  });
});
