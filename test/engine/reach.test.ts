// Several messages per trigger, member events and the mentioned condition, through rule files and decide.
import type { Message, Update } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { decide, type Decision } from '../../src/engine/decide.js';
import { toEvent, updateKindsFor, type BotEvent } from '../../src/engine/events.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { EMPTY_STATE } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent } from './messages.js';

const BOT = 'club_bot';

async function load(yaml: string): Promise<RuleSet> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => {
    const outcome = await loadRules(dir);
    if (!outcome.ruleSet) throw new Error(outcome.problems.map((p) => p.format('bot.yaml')).join('\n'));
    return outcome.ruleSet;
  });
}
const run = (event: BotEvent, ruleSet: RuleSet, random = () => 0): Decision => decide(event, ruleSet, EMPTY_STATE, { botUsername: BOT, random });
const sends = (decision: Decision) => decision.actions.filter((action) => action.type === 'send_message');

const group = { id: -100, type: 'group' as const, title: 'Club' };
const ann = { id: 5, is_bot: false, first_name: 'Ann', language_code: 'de' };
const joined = (members: object[], updateId = 1): BotEvent =>
  toEvent({ update_id: updateId, message: { message_id: 30, date: 1, chat: group, from: members[0], new_chat_members: members } } as Update)!;

describe('several messages per trigger', () => {
  it('messages are all sent, in order, each with its own options; a reply list still picks one at random', async () => {
    const ruleSet = await load(`
rules:
  - id: welcome
    command: start
    messages:
      - "Welcome, {{user.first_name}}!"
      - reply: "<b>Opening hours</b>: 9 to 5"
        parse_mode: HTML
        disable_notification: true
      - reply: ["Ask me anything.", "What can I do for you?"]
        reply_to_message: true
  - id: random
    text: roll
    reply: [one, two]
`);
    const decision = run(messageEvent(message('/start', { entities: [{ type: 'bot_command', offset: 0, length: 6 }] })), ruleSet, () => 0.9);
    expect(decision.ruleId).toBe('welcome');
    expect(sends(decision)).toEqual([
      { type: 'send_message', chatId: 42, text: 'Welcome, Ada!' },
      { type: 'send_message', chatId: 42, text: '<b>Opening hours</b>: 9 to 5', parseMode: 'HTML', disableNotification: true },
      { type: 'send_message', chatId: 42, text: 'What can I do for you?', replyToMessageId: 7 },
    ]);
    expect(sends(run(messageEvent(message('roll')), ruleSet, () => 0.9)).map((s) => s.type === 'send_message' && s.text)).toEqual(['two']);
  });

  it("each message of a sequence carries its own buttons or keyboard; the rule's own go on the last message", async () => {
    const ruleSet = await load(`
rules:
  - id: tour
    command: tour
    messages:
      - reply: "Pick a topic"
        buttons: [[{ text: "Prices", data: prices }]]
      - reply: "Or answer with a word"
        keyboard: [["yes", "no"]]
      - "That is all."
  - id: closing
    command: close
    messages: ["One", "Two"]
    keyboard: remove
`);
    const command = (text: string) => messageEvent(message(text, { entities: [{ type: 'bot_command', offset: 0, length: text.length }] }));
    expect(sends(run(command('/tour'), ruleSet))).toEqual([
      { type: 'send_message', chatId: 42, text: 'Pick a topic', replyMarkup: { inline_keyboard: [[{ text: 'Prices', callback_data: 'prices' }]] } },
      {
        type: 'send_message',
        chatId: 42,
        text: 'Or answer with a word',
        replyMarkup: { keyboard: [[{ text: 'yes' }, { text: 'no' }]], one_time_keyboard: true, resize_keyboard: true },
      },
      { type: 'send_message', chatId: 42, text: 'That is all.' },
    ]);
    expect(sends(run(command('/close'), ruleSet))).toEqual([
      { type: 'send_message', chatId: 42, text: 'One' },
      { type: 'send_message', chatId: 42, text: 'Two', replyMarkup: { remove_keyboard: true } },
    ]);
  });

  it('reply and messages together is an error with its position', async () => {
    await expect(load('rules:\n  - id: both\n    text: x\n    reply: a\n    messages: [b, c]\n')).rejects.toThrow(
      "bot.yaml:5:15: rule 'both' has both reply and messages: give one (messages sends each of its entries in order)",
    );
  });
});

describe('member events', () => {
  const RULES = `
languages: { default: en, supported: [en, de] }
rules:
  - id: hello
    event: member_joined
    reply: { en: "Welcome to {{chat.title}}, {{user.first_name}}!", de: "Willkommen in {{chat.title}}, {{user.first_name}}!" }
  - id: bye
    event: member_left
    chat_types: [group, supergroup]
    reply: "Goodbye, {{user.first_name}}."
  - id: anything
    fallback: true
    reply: "?"
`;

  it('greets each member who joined, in their language, with {{user.*}} the member; the bot itself is not greeted', async () => {
    const ruleSet = await load(RULES);
    const bob = { id: 6, is_bot: false, first_name: 'Bob' };
    const self = { id: 9, is_bot: true, first_name: 'Club', username: 'Club_Bot' };
    const decision = run(joined([ann, bob, self]), ruleSet);
    expect(decision.ruleId).toBe('hello');
    expect(sends(decision)).toEqual([
      { type: 'send_message', chatId: -100, text: 'Willkommen in Club, Ann!' },
      { type: 'send_message', chatId: -100, text: 'Welcome to Club, Bob!' },
    ]);
  });

  it('says goodbye from a left_chat_member message or a chat_member update; without an event rule nothing answers', async () => {
    const ruleSet = await load(RULES);
    const left = toEvent({ update_id: 2, message: { message_id: 31, date: 1, chat: group, from: ann, left_chat_member: ann } } as Update)!;
    expect(sends(run(left, ruleSet))).toEqual([{ type: 'send_message', chatId: -100, text: 'Goodbye, Ann.' }]);
    const update = {
      update_id: 3,
      chat_member: { chat: group, from: ann, date: 1, old_chat_member: { status: 'member', user: ann }, new_chat_member: { status: 'left', user: ann } },
    } as Update;
    expect(sends(run(toEvent(update)!, ruleSet))).toEqual([{ type: 'send_message', chatId: -100, text: 'Goodbye, Ann.' }]);
    const none = await load('rules:\n  - id: f\n    fallback: true\n    reply: "?"\n');
    expect(run(joined([ann]), none)).toEqual({ ruleId: null, actions: [] });
  });

  it('a join that arrives twice (service message, then chat_member) is greeted once; a later join again', async () => {
    const ruleSet = await load(RULES);
    const bob = { id: 6, is_bot: false, first_name: 'Bob' };
    const memberUpdate = (updateId: number, date: number, from: string, to: string) =>
      toEvent({
        update_id: updateId,
        chat_member: { chat: group, from: bob, date, old_chat_member: { status: from, user: bob }, new_chat_member: { status: to, user: bob } },
      } as Update)!;
    let state = EMPTY_STATE;
    const step = (event: BotEvent) => {
      const decision = decide(event, ruleSet, state, { botUsername: BOT, random: () => 0 });
      for (const action of decision.actions) {
        if (action.type === 'set_state' && action.scope === 'chat') state = { ...state, chat: { ...state.chat, [action.key]: action.value! } };
      }
      return sends(decision).map((send) => send.text);
    };
    const serviceJoin = toEvent({ update_id: 1, message: { message_id: 30, date: 1000, chat: group, from: bob, new_chat_members: [bob] } } as Update)!;
    expect(step(serviceJoin)).toEqual(['Welcome to Club, Bob!']);
    expect(step(memberUpdate(2, 1000, 'left', 'member'))).toEqual([]);
    expect(step(memberUpdate(3, 1100, 'member', 'left'))).toEqual(['Goodbye, Bob.']);
    const serviceLeave = toEvent({ update_id: 4, message: { message_id: 31, date: 1100, chat: group, from: bob, left_chat_member: bob } } as Update)!;
    expect(step(serviceLeave)).toEqual([]);
    expect(step(memberUpdate(5, 1200, 'left', 'member'))).toEqual(['Welcome to Club, Bob!']);
    // Without the state, each copy would be answered.
    expect(sends(run(memberUpdate(6, 1200, 'left', 'member'), ruleSet))).toHaveLength(1);
  });

  it('the bot asks for chat_member updates only when a rule answers member events', async () => {
    expect(updateKindsFor(await load(RULES))).toEqual(['message', 'callback_query', 'my_chat_member', 'chat_member']);
    expect(updateKindsFor(await load('rules:\n  - id: f\n    fallback: true\n    reply: "?"\n'))).toEqual(['message', 'callback_query', 'my_chat_member']);
  });

  it('{{args}} is refused in an event rule (there is no command)', async () => {
    await expect(load('rules:\n  - id: j\n    event: member_joined\n    reply: "hi {{args}}"\n')).rejects.toThrow(
      '{{args}} is only available in command rules',
    );
  });
});

describe('mentioned', () => {
  const RULES = `
rules:
  - id: price
    keywords: [price]
    mentioned: true
    reply: "It costs 5 euros."
`;
  const inGroup = (text: string, extra: Partial<Message> = {}) => messageEvent({ ...message(text, { chatType: 'group' }), ...extra } as Message);

  it('answers only when the message names the bot (any case) or replies to one of its messages', async () => {
    const ruleSet = await load(RULES);
    expect(run(inGroup('price?'), ruleSet).ruleId).toBeNull();
    expect(run(inGroup('@Club_Bot price?', { entities: [{ type: 'mention', offset: 0, length: 9 }] }), ruleSet).ruleId).toBe('price');
    expect(run(inGroup('@other_bot price?', { entities: [{ type: 'mention', offset: 0, length: 10 }] }), ruleSet).ruleId).toBeNull();
    const botMessage = { message_id: 3, date: 1, chat: group, from: { id: 9, is_bot: true, first_name: 'Club', username: 'club_bot' }, text: 'Hi' };
    expect(run(inGroup('and the price?', { reply_to_message: botMessage } as Partial<Message>), ruleSet).ruleId).toBe('price');
  });

  it('in a group, "hi @the_bot" reaches a `text: hi` rule: its own mention is not part of the text', async () => {
    const ruleSet = await load(
      'rules:\n  - id: hi\n    text: hi\n    reply: "Hello!"\n  - id: price\n    keywords: [price]\n    mentioned: true\n    reply: "5 euros"\n',
    );
    expect(run(inGroup('hi @Club_Bot', { entities: [{ type: 'mention', offset: 3, length: 9 }] }), ruleSet).ruleId).toBe('hi');
    expect(run(inGroup('@club_bot   hi'), ruleSet).ruleId).toBe('hi'); // no entities: the word itself counts
    expect(run(inGroup('price @club_bot'), ruleSet).ruleId).toBe('price');
    expect(run(inGroup('hi @other_bot', { entities: [{ type: 'mention', offset: 3, length: 10 }] }), ruleSet).ruleId).toBeNull();
    expect(run(inGroup('hi @club_botty'), ruleSet).ruleId).toBeNull();
  });
});
