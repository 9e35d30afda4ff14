// Flows and variables through decide(), with the state threaded between calls as a store would commit it:
// the booking flow of the conversations issue end to end, cancel, during_flows, done branches, timeouts
// (event and late message), hot reload of a flow or step, groups (per-user flows, shared chat variables).
import { describe, expect, it } from 'vitest';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { BotEvent } from '../../src/engine/events.js';
import { FLOW_ENDED_NOTICE, flowDeadline } from '../../src/engine/flows.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRuleSet } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { BOOKING } from './booking-rules.js';
import { message, messageEvent, type MessageOptions } from './messages.js';

const START = Date.UTC(2026, 10, 23, 8, 0, 0);
const MINUTE = 60_000;

/** One conversation of one user in one chat: each message is decided on the state the previous ones left. */
class Conversation {
  state: ConversationState = EMPTY_STATE;
  now = START;
  constructor(
    public ruleSet: RuleSet,
    private readonly options: MessageOptions = {},
  ) {}

  decide(event: BotEvent): Decision {
    const decision = decide(event, this.ruleSet, this.state, { botUsername: 'table_bot', now: () => this.now, random: () => 0 });
    this.state = applyStateChanges(this.state, decision.actions);
    return decision;
  }

  /** The texts the bot sends for one message. */
  say(text: string): string[] {
    return sent(this.decide(messageEvent(message(text, this.options))));
  }
}

const sent = (decision: Decision) => decision.actions.flatMap((a) => (a.type === 'send_message' ? [a.text] : []));

async function booking(yaml = BOOKING): Promise<RuleSet> {
  return withRuleDir({ 'bot.yaml': yaml }, (dir) => loadRuleSet(dir));
}

describe('the booking flow', () => {
  it('asks each step, retries a wrong answer, and books with the answers', async () => {
    const c = new Conversation(await booking());
    expect(c.say('/book')).toEqual(['For which date?']);
    expect(c.state.flow).toMatchObject({ flowId: 'booking', stepId: 'date', values: {} });
    expect(c.say('tomorrow')).toEqual(['A date like Friday or 24.12., please.']);
    expect(c.state.flow?.stepId).toBe('date');
    expect(c.say('Friday')).toEqual(['How many people?']);
    expect(c.say('13')).toEqual(['A number from 1 to 12, please.']);
    expect(c.say('2.5')).toEqual(['A number from 1 to 12, please.']);
    expect(c.say(' 4 ')).toEqual(['A table for 4 on Friday?']);
    expect(c.state.flow?.values).toEqual({ date: 'Friday', size: 4 });
    expect(c.say('maybe')).toEqual(['A table for 4 on Friday?']); // no retry text: the question again
    const done = c.decide(messageEvent(message('Ja!')));
    expect(sent(done)).toEqual(['Booked: 4 people on Friday.']);
    expect(done.ruleId).toBe('booking#done');
    expect(done.actions.filter((a) => a.type !== 'send_message')).toEqual([
      { type: 'set_state', scope: 'user', key: 'last_booking', value: 'Friday' },
      { type: 'set_flow', flow: null },
    ]);
    expect(c.state).toEqual({ user: { last_booking: 'Friday' }, chat: {}, flow: null });
  });

  it('"yes" out of the blue books nothing, and the second done branch answers a no', async () => {
    const c = new Conversation(await booking());
    expect(c.say('yes')).toEqual([]);
    c.say('/book');
    c.say('24.12.');
    c.say('2');
    expect(c.say('nein')).toEqual(['OK, nothing booked.']);
    expect(c.state).toEqual({ user: {}, chat: {}, flow: null });
  });

  it('cancel comes first at any step, even where the step would accept the word', async () => {
    const c = new Conversation(await booking());
    c.say('/book');
    c.say('friday');
    expect(c.say('please stop')).toEqual(['OK, booking cancelled.']);
    expect(c.state.flow).toBeNull();
    expect(c.say('yes')).toEqual([]);
  });

  it('during_flows rules answer inside the flow without moving it; other rules wait', async () => {
    const c = new Conversation(await booking());
    c.say('/book');
    const before = c.state;
    expect(c.say('/help')).toEqual(['Answer the question, or say cancel.']);
    expect(c.state).toEqual(before);
    // 'hi' is a rule outside the flow, but inside it is an answer to the date question (not accepted).
    expect(c.say('hi')).toEqual(['A date like Friday or 24.12., please.']);
  });

  it('a command addressed to another bot is ignored inside a flow', async () => {
    const c = new Conversation(await booking());
    c.say('/book');
    const before = c.state;
    expect(c.say('/help@other_bot')).toEqual([]);
    expect(c.state).toEqual(before);
  });
});

describe('variables', () => {
  it('remembers a name (set) and greets by it (when + {{var.user.name}})', async () => {
    const c = new Conversation(await booking());
    expect(c.say('hi')).toEqual(['Hi! Who are you?']);
    expect(c.say('my name is Ada')).toEqual(['Nice to meet you, Ada!']);
    expect(c.state.user).toEqual({ name: 'Ada' });
    expect(c.say('hi')).toEqual(['Hi again, Ada!']);
  });

  it('increments, unsets and compares numbers; the reply sees the values after set', async () => {
    const yaml = `
rules:
  - id: visit
    text: visit
    set: { user.visits: { increment: 1 }, chat.last: "{{user.first_name}}" }
    reply: "visit {{var.user.visits}} by {{var.chat.last}}"
  - id: regular
    text: status
    when: { user.visits: { gte: 3 } }
    reply: regular
  - id: few
    text: status
    when: { user.visits: { exists: true, lt: 3 }, chat.last: ada }
    reply: "few ({{var.user.visits}})"
  - id: none
    text: status
    when: { user.visits: { exists: false } }
    reply: no visits
  - id: forget
    text: forget
    set: { user.visits: { unset: true }, user.level: 7 }
    reply: "forgotten, level {{var.user.level}}"
`;
    const c = new Conversation(await booking(yaml));
    expect(c.say('status')).toEqual(['no visits']);
    const first = c.decide(messageEvent(message('visit')));
    expect(first.actions[0]).toEqual({ type: 'set_state', scope: 'user', key: 'visits', value: 1, increment: 1 });
    expect(sent(first)).toEqual(['visit 1 by Ada']);
    expect(c.say('status')).toEqual(['few (1)']);
    c.say('visit');
    expect(c.say('visit')).toEqual(['visit 3 by Ada']);
    expect(c.say('status')).toEqual(['regular']);
    expect(c.say('forget')).toEqual(['forgotten, level 7']);
    expect(c.state.user).toEqual({ level: 7 });
    expect(c.say('status')).toEqual(['no visits']);
  });

  it('cuts a value set from a template at 1024 characters; a longer free-text answer is retried', async () => {
    const yaml = `
rules:
  - id: note
    pattern: '^note (?<text>.+)$'
    set: { user.note: "{{match.text}}" }
    reply: ok
flows:
  - id: wish
    start: { command: wish }
    steps:
      - id: text
        ask: "Your wish?"
        retry: "Shorter, please."
    done:
      - reply: "Noted: {{flow.text}}"
`;
    const c = new Conversation(await booking(yaml));
    c.say(`note ${'x'.repeat(2000)}`);
    expect(c.state.user['note']).toBe('x'.repeat(1024));
    c.say('/wish');
    expect(c.say('y'.repeat(1025))).toEqual(['Shorter, please.']);
    expect(c.say('/start')).toEqual(['Shorter, please.']); // a command is not an answer
    expect(c.say('a pony')).toEqual(['Noted: a pony']);
  });

  it('names like constructor or __proto__ are plain variables', async () => {
    const yaml = `
rules:
  - id: set
    text: set
    set: { user.constructor: one, user.__proto__: two }
    reply: "{{var.user.constructor}} {{var.user.__proto__}} {{var.chat.toString}}."
`;
    const c = new Conversation(await booking(yaml));
    expect(c.say('set')).toEqual(['one two .']);
    expect(Object.keys(c.state.user).sort()).toEqual(['__proto__', 'constructor']);
  });
});

describe('timeouts', () => {
  it('a flow_timeout event ends a flow that is due, with the timeout reply, and nothing else', async () => {
    const ruleSet = await booking();
    const c = new Conversation(ruleSet);
    c.say('/book');
    c.now += 10 * MINUTE;
    c.say('friday'); // activity moves the deadline
    const timeout: BotEvent = { kind: 'flow_timeout', chat: { id: 42 }, from: { id: 42 } };
    expect(flowDeadline(c.state.flow!, ruleSet)).toBe(START + 25 * MINUTE);
    c.now = START + 24 * MINUTE;
    expect(c.decide(timeout)).toEqual({ ruleId: null, actions: [] });
    c.now = START + 25 * MINUTE;
    const decision = c.decide(timeout);
    expect(decision.ruleId).toBe('booking#timeout');
    expect(sent(decision)).toEqual(['Booking timed out; send /book to start again.']);
    expect(c.state.flow).toBeNull();
    expect(c.decide(timeout)).toEqual({ ruleId: null, actions: [] }); // a second timer finds nothing to end
  });

  it('a message after the deadline (the timer never fired) gets the timeout reply, then is answered outside the flow', async () => {
    const c = new Conversation(await booking());
    c.say('/book');
    c.now += 16 * MINUTE;
    expect(c.say('hi')).toEqual(['Booking timed out; send /book to start again.', 'Hi! Who are you?']);
    expect(c.state.flow).toBeNull();
  });
});

describe('hot reload', () => {
  it('a user in a step the new rules renamed leaves the flow with a notice; variables survive', async () => {
    const c = new Conversation(await booking());
    c.say('my name is Ada');
    c.say('/book');
    c.say('friday');
    c.ruleSet = await booking(BOOKING.replace('- id: size', '- id: people').replace(/flow\.size/g, 'flow.people'));
    expect(c.say('4')).toEqual([FLOW_ENDED_NOTICE]);
    expect(c.state.flow).toBeNull();
    expect(c.say('hi')).toEqual(['Hi again, Ada!']);
  });

  it('a user in a flow the new rules removed leaves it with a notice, and the message is still answered', async () => {
    const c = new Conversation(await booking());
    c.say('/book');
    c.ruleSet = await booking(BOOKING.slice(0, BOOKING.indexOf('\nflows:')));
    const decision = c.decide(messageEvent(message('hi')));
    expect(sent(decision)).toEqual([FLOW_ENDED_NOTICE, 'Hi! Who are you?']);
    expect(decision.ruleId).toBe('greet');
    expect(c.state.flow).toBeNull();
  });

  it('a user whose step survived the reload goes on with the new wording', async () => {
    const c = new Conversation(await booking());
    c.say('/book');
    c.ruleSet = await booking(BOOKING.replace('How many people?', 'How many guests?'));
    expect(c.say('friday')).toEqual(['How many guests?']);
  });
});

describe('groups', () => {
  it('flows are per user in a chat; chat variables are shared; questions ask that user for a reply', async () => {
    const yaml = `${BOOKING}
  - id: count
    start: { command: count }
    steps:
      - id: n
        ask: "How many?"
        accept: { number: {} }
    done:
      - set: { chat.total: { increment: 1 } }
        reply: "{{var.chat.total}} counts so far"
`;
    const ruleSet = await booking(yaml);
    const group = { chatType: 'group' as const, chatId: -100 };
    let chat: ConversationState['chat'] = {};
    const users = new Map<number, ConversationState>();
    const say = (userId: number, text: string) => {
      const msg = message(text, { ...group, firstName: `U${userId}` });
      const event = messageEvent({ ...msg, from: { ...msg.from!, id: userId } });
      const own = users.get(userId) ?? EMPTY_STATE;
      const decision = decide(event, ruleSet, { ...own, chat }, { botUsername: 'table_bot', now: () => START });
      const next = applyStateChanges({ ...own, chat }, decision.actions);
      users.set(userId, next);
      chat = next.chat;
      return decision;
    };
    const ask = say(1, '/count@table_bot');
    expect(ask.actions.find((a) => a.type === 'send_message')).toMatchObject({
      text: 'How many?',
      replyToMessageId: 7,
      replyMarkup: { force_reply: true, selective: true },
    });
    expect(sent(say(2, '/count'))).toEqual(['How many?']);
    expect(sent(say(1, '5'))).toEqual(['1 counts so far']);
    expect(users.get(2)!.flow).toMatchObject({ flowId: 'count', stepId: 'n' });
    expect(sent(say(2, '7'))).toEqual(['2 counts so far']);
    expect(chat).toEqual({ total: 2 });
  });
});
