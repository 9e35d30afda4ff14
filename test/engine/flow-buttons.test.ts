// Choice steps of flows show their options as buttons, and a press of one chooses it as if typed: through
// decide(), with the state threaded as a store would commit it; stale buttons, other members' presses,
// reply keyboards, `buttons: none` and ids too long for plain callback data.
import type { Message } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { choiceData } from '../../src/engine/ask.js';
import type { SendMessageAction } from '../../src/engine/actions.js';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { BotEvent } from '../../src/engine/events.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRuleSet } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { BOOKING } from './booking-rules.js';
import { message, messageEvent, pressEvent, type MessageOptions } from './messages.js';

class Conversation {
  state: ConversationState = EMPTY_STATE;
  constructor(
    readonly ruleSet: RuleSet,
    readonly options: MessageOptions = {},
  ) {}
  decide(event: BotEvent): Decision {
    const decision = decide(event, this.ruleSet, this.state, { botUsername: 'table_bot', now: () => 0, random: () => 0 });
    this.state = applyStateChanges(this.state, decision.actions);
    return decision;
  }
  say(text: string): Decision {
    return this.decide(messageEvent(message(text, this.options)));
  }
  /** A press by user `userId` of a button with `data` on the bot's message 50, which replied to the user's message 7. */
  press(data: string, userId = 42): Decision {
    const chat = this.options.chatType === 'group' ? { id: -100, type: 'group', title: 'The Group' } : { id: 42, type: 'private', first_name: 'Ada' };
    const question = { message_id: 50, date: 1, chat, text: 'q', reply_to_message: { message_id: 7, date: 1, chat, text: 'a' } } as unknown as Message;
    const from = { id: userId, is_bot: false, first_name: 'Ada' };
    return this.decide(pressEvent(data, question, { from }));
  }
}

const sends = (d: Decision) => d.actions.filter((a): a is SendMessageAction => a.type === 'send_message');
const answers = (d: Decision) => d.actions.filter((a) => a.type === 'answer_callback');
const booking = (yaml = BOOKING) => withRuleDir({ 'bot.yaml': yaml }, (dir) => loadRuleSet(dir));

async function atConfirm(yaml?: string, options?: MessageOptions): Promise<{ c: Conversation; question: SendMessageAction }> {
  const c = new Conversation(await booking(yaml), options);
  c.say('/book');
  c.say('Friday');
  const question = sends(c.say('4'))[0]!;
  return { c, question };
}

describe('choice steps with buttons', () => {
  it('the question shows the options as inline buttons, and a press chooses one: one empty answer, then the flow goes on', async () => {
    const { c, question } = await atConfirm();
    expect(question.text).toBe('A table for 4 on Friday?');
    expect(question.replyMarkup).toEqual({
      inline_keyboard: [
        [
          { text: 'yes', callback_data: 'booking#confirm:0' },
          { text: 'no', callback_data: 'booking#confirm:1' },
        ],
      ],
    });
    const decision = c.press('booking#confirm:0');
    expect(decision.ruleId).toBe('booking#done');
    expect(decision.actions[0]).toEqual({ type: 'answer_callback', callbackQueryId: 'cq' });
    expect(answers(decision)).toHaveLength(1);
    expect(sends(decision).map((s) => s.text)).toEqual(['Booked: 4 people on Friday.']);
    expect(c.state.flow).toBeNull();
    expect(c.state.user).toEqual({ last_booking: 'Friday' });
  });

  it('typing the option still works; a press of a stale button (the step moved on) only stops the spinner', async () => {
    const { c } = await atConfirm();
    expect(sends(c.say('no')).map((s) => s.text)).toEqual(['OK, nothing booked.']);
    expect(c.press('booking#confirm:0')).toEqual({ ruleId: null, actions: [{ type: 'answer_callback', callbackQueryId: 'cq' }] });
    expect(c.state.user).toEqual({});
  });

  it('in a group the buttons reply to the member; another member pressing them chooses nothing', async () => {
    const { c, question } = await atConfirm(undefined, { chatType: 'group' });
    expect(question).toMatchObject({ chatId: -100, replyToMessageId: 7, replyMarkup: { inline_keyboard: [[{ text: 'yes' }, { text: 'no' }]] } });
    // Member 43 has no flow in this chat (their state is their own): the press is only answered.
    const other = new Conversation(c.ruleSet, { chatType: 'group' });
    expect(other.press('booking#confirm:0', 43).actions).toEqual([{ type: 'answer_callback', callbackQueryId: 'cq' }]);
    expect(sends(c.press('booking#confirm:1')).map((s) => s.text)).toEqual(['OK, nothing booked.']);
  });

  it('a press moves to the next step, whose question (no choice) asks that member for a reply in a group', async () => {
    const yaml = BOOKING.replace(/accept: \{ pattern: .*\n/, 'accept: { choice: { friday: [], saturday: [] } }\n');
    const c = new Conversation(await booking(yaml), { chatType: 'group' });
    expect(sends(c.say('/book'))[0]!.replyMarkup).toMatchObject({ inline_keyboard: [[{ text: 'friday' }, { text: 'saturday' }]] });
    const next = sends(c.press('booking#date:1'))[0]!;
    expect(next).toMatchObject({ text: 'How many people?', replyToMessageId: 7, replyMarkup: { force_reply: true, selective: true } });
    expect(c.state.flow).toMatchObject({ stepId: 'size', values: { date: 'saturday' } });
  });

  it('buttons: keyboard shows a one-time reply keyboard; buttons: none shows nothing', async () => {
    const keyboard = await atConfirm(BOOKING.replace('accept: { choice:', 'buttons: keyboard\n        accept: { choice:'));
    expect(keyboard.question.replyMarkup).toEqual({ keyboard: [[{ text: 'yes' }, { text: 'no' }]], one_time_keyboard: true, resize_keyboard: true });
    expect(sends(keyboard.c.say('yes')).map((s) => s.text)).toEqual(['Booked: 4 people on Friday.']);
    const none = await atConfirm(BOOKING.replace('accept: { choice:', 'buttons: none\n        accept: { choice:'));
    expect(none.question.replyMarkup).toBeUndefined();
  });

  it('flow and step ids too long for plain callback data are named by a hash, and the press still chooses', async () => {
    const flowId = 'f'.repeat(40);
    const stepId = 's'.repeat(30);
    const yaml = `flows:\n  - id: ${flowId}\n    start: { command: go }\n    steps:\n      - id: ${stepId}\n        ask: "Sure?"\n        accept: { choice: { "yes": [], "no": [] } }\n    done:\n      - reply: "You said {{flow.${stepId}}}"\n`;
    const c = new Conversation(await booking(yaml));
    const data = (sends(c.say('/go'))[0]!.replyMarkup as { inline_keyboard: { callback_data: string }[][] }).inline_keyboard[0]![1]!.callback_data;
    expect(data).toBe(choiceData(flowId, stepId, 1));
    expect(data).toMatch(/^#[0-9a-f]{8}:1$/);
    expect(sends(c.press(data)).map((s) => s.text)).toEqual(['You said no']);
  });
});
