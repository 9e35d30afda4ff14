// Buttons through decide(): inline keyboards and reply keyboards on replies (templates rendered), callback
// rules answering presses with an answer, an edit and a reply, conditions and state, and the one promise
// every press gets: exactly one answer_callback, whatever the rules.
import type { Message } from '@grammyjs/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRules } from '../../src/engine/compile.js';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { CallbackQueryEvent } from '../../src/engine/events.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { message, messageEvent, pressEvent, type MessageOptions } from './messages.js';

const BOT = 'shop_bot';
const set = (...rules: Rule[]) => compileRules(rules);
const onMessage = (ruleSet: RuleSet, text: string, options?: MessageOptions) =>
  decide(messageEvent(message(text, options)), ruleSet, EMPTY_STATE, { botUsername: BOT, random: () => 0 });

const user = { id: 42, is_bot: false, first_name: 'Ada' };
const privateChat = { id: 42, type: 'private' as const, first_name: 'Ada' };
const group = { id: -100, type: 'group' as const, title: 'The Group' };

/** A press of a button with `data` on message 9 of `chat` (date 0: a message too old for the bot to see). */
function press(data: string | undefined, options: { chat?: typeof privateChat | typeof group; date?: number; id?: string } = {}): CallbackQueryEvent {
  const chat = options.chat ?? privateChat;
  const question = { message_id: 9, date: options.date ?? 1_700_000_000, chat, text: 'Where should the next meetup be?' } as Message;
  return pressEvent(data, question, { from: user, id: options.id ?? 'cq-1', updateId: 5 });
}
const onPress = (ruleSet: RuleSet, event: CallbackQueryEvent, state: ConversationState = EMPTY_STATE): Decision =>
  decide(event, ruleSet, state, { botUsername: BOT, random: () => 0 });

const POLL: Rule[] = [
  {
    id: 'poll',
    command: 'poll',
    reply: 'Where should the next meetup be?',
    buttons: [
      [
        { text: 'Café Kiez', data: 'vote:kiez' },
        { text: 'Park Café', data: 'vote:park' },
      ],
      [{ text: 'Our website', url: 'https://example.com' }],
    ],
  },
  { id: 'vote', callback: '^vote:(?<choice>\\w+)$', answer: 'Thanks!', edit: 'You chose {{match.choice}}.' },
];

describe('keyboards on replies', () => {
  it('a rule with buttons sends its reply with the inline keyboard', () => {
    const decision = onMessage(set(...POLL), '/poll');
    expect(decision.actions).toEqual([
      {
        type: 'send_message',
        chatId: 42,
        text: 'Where should the next meetup be?',
        replyMarkup: {
          inline_keyboard: [
            [
              { text: 'Café Kiez', callback_data: 'vote:kiez' },
              { text: 'Park Café', callback_data: 'vote:park' },
            ],
            [{ text: 'Our website', url: 'https://example.com' }],
          ],
        },
      },
    ]);
  });

  it('button texts, data and links are templates; data rendered past 64 bytes is cut there, empty data becomes a dash', () => {
    const ruleSet = set({
      id: 'menu',
      pattern: '^menu (?<item>.*)$',
      reply: 'Menu',
      buttons: [
        [
          { text: 'Hi {{user.first_name}}', data: 'pick:{{match.item}}' },
          { text: 'Profile', url: 'https://example.com/u/{{user.id}}' },
        ],
        [{ text: '{{match.item}}', data: '{{var.user.none}}' }],
      ],
    });
    const markup = (
      onMessage(ruleSet, `menu ${'ü'.repeat(40)}`).actions[0] as {
        replyMarkup: { inline_keyboard: { text: string; callback_data?: string; url?: string }[][] };
      }
    ).replyMarkup;
    const [first, second] = markup.inline_keyboard;
    expect(first![0]).toEqual({ text: 'Hi Ada', callback_data: `pick:${'ü'.repeat(29)}` }); // 5 + 29 × 2 = 63 bytes; one more would be 65
    expect(Buffer.byteLength(first![0]!.callback_data!)).toBeLessThanOrEqual(64);
    expect(first![1]).toEqual({ text: 'Profile', url: 'https://example.com/u/42' });
    expect(second![0]).toEqual({ text: 'ü'.repeat(40), callback_data: '-' });
  });

  it('a reply keyboard is one-time and resized by default; the long form can say otherwise; remove takes it away', () => {
    const ruleSet = set(
      { id: 'start', command: 'start', reply: 'Which language?', keyboard: [['English', 'Deutsch']] },
      { id: 'sticky', command: 'sticky', reply: 'Pick', keyboard: { rows: [['A'], ['B']], one_time: false, resize: false, placeholder: 'A or B' } },
      { id: 'done', text: 'English', reply: 'OK', keyboard: 'remove' },
    );
    expect(onMessage(ruleSet, '/start').actions[0]).toMatchObject({
      replyMarkup: { keyboard: [[{ text: 'English' }, { text: 'Deutsch' }]], one_time_keyboard: true, resize_keyboard: true },
    });
    expect((onMessage(ruleSet, '/sticky').actions[0] as { replyMarkup: unknown }).replyMarkup).toEqual({
      keyboard: [[{ text: 'A' }], [{ text: 'B' }]],
      input_field_placeholder: 'A or B',
    });
    expect((onMessage(ruleSet, 'English').actions[0] as { replyMarkup: unknown }).replyMarkup).toEqual({ remove_keyboard: true });
  });
});

describe('presses', () => {
  it('a callback rule answers the press with its toast and edits the message that held the buttons (which loses them)', () => {
    expect(onPress(set(...POLL), press('vote:kiez'))).toEqual({
      ruleId: 'vote',
      actions: [
        { type: 'answer_callback', callbackQueryId: 'cq-1', text: 'Thanks!' },
        { type: 'edit_message_text', chatId: 42, messageId: 9, text: 'You chose kiez.' },
      ],
    });
  });

  it('a press no rule matches, or without data, gets one empty answer so the button stops spinning', () => {
    const ruleSet = set(...POLL);
    expect(onPress(ruleSet, press('vote:'))).toEqual({ ruleId: null, actions: [{ type: 'answer_callback', callbackQueryId: 'cq-1' }] });
    expect(onPress(ruleSet, press(undefined))).toEqual({ ruleId: null, actions: [{ type: 'answer_callback', callbackQueryId: 'cq-1' }] });
    // A message rule never answers a press, even one whose text would match.
    expect(onPress(set({ id: 'fb', fallback: true, reply: 'x' }, { id: 'p', pattern: 'vote', reply: 'y' }), press('vote:kiez')).actions).toHaveLength(1);
  });

  it('alert shows the answer as a dialog; the edit can carry new buttons and the parse mode escapes inserted values', () => {
    const ruleSet = set({
      id: 'count',
      callback: '^count:(?<n>.+)$',
      answer: 'Counted {{match.n}}',
      alert: true,
      parse_mode: 'HTML',
      edit: '<b>Count</b>: {{match.n}}',
      buttons: [[{ text: '+1', data: 'count:{{match.n}}+1' }]],
    });
    expect(onPress(ruleSet, press('count:<1>')).actions).toEqual([
      { type: 'answer_callback', callbackQueryId: 'cq-1', text: 'Counted <1>', showAlert: true },
      {
        type: 'edit_message_text',
        chatId: 42,
        messageId: 9,
        text: '<b>Count</b>: &lt;1&gt;',
        parseMode: 'HTML',
        replyMarkup: { inline_keyboard: [[{ text: '+1', callback_data: 'count:<1>+1' }]] },
      },
    ]);
  });

  it('a callback rule can set variables, reply in the chat (with a keyboard) and read the presser and the data', () => {
    const ruleSet = set({
      id: 'lang',
      callback: '^lang:(\\w+)$',
      set: { 'user.lang': '{{match.1}}' },
      reply: '{{user.first_name}} speaks {{var.user.lang}} ({{text}})',
      reply_to_message: true,
      keyboard: 'remove',
    });
    expect(onPress(ruleSet, press('lang:de', { chat: group })).actions).toEqual([
      { type: 'set_state', scope: 'user', key: 'lang', value: 'de' },
      { type: 'answer_callback', callbackQueryId: 'cq-1' },
      { type: 'send_message', chatId: -100, text: 'Ada speaks de (lang:de)', replyToMessageId: 9, replyMarkup: { remove_keyboard: true } },
    ]);
  });

  it('conditions choose among callback rules: chat_types, when on state; the first that holds wins', () => {
    const ruleSet = set(
      { id: 'in-group', callback: '^go$', chat_types: ['group'], answer: 'group' },
      { id: 'known', callback: '^go$', when: { 'user.name': { exists: true } }, answer: 'hi {{var.user.name}}' },
      { id: 'anyone', callback: 'go', answer: 'anyone' },
    );
    const answerText = (d: Decision) => (d.actions[0] as { text?: string }).text;
    expect(answerText(onPress(ruleSet, press('go', { chat: group })))).toBe('group');
    expect(answerText(onPress(ruleSet, press('go'), { user: { name: 'Ada' }, chat: {}, flow: null }))).toBe('hi Ada');
    expect(answerText(onPress(ruleSet, press('GO')))).toBe('anyone'); // case-insensitive by default, searched anywhere
    expect(answerText(onPress(ruleSet, press('no-go-zone')))).toBe('anyone');
  });

  it('a button on a message the bot can no longer see is answered but not edited', () => {
    expect(onPress(set(...POLL), press('vote:park', { date: 0 })).actions).toEqual([{ type: 'answer_callback', callbackQueryId: 'cq-1', text: 'Thanks!' }]);
  });

  it('every press gets exactly one answer_callback, whatever the rules, the data and the state', () => {
    const ruleSet = set(
      ...POLL,
      { id: 'r', callback: '^(?<a>[a-c]+):(?<b>\\d*)$', answer: '{{match.a}}', reply: 'r {{match.b}}', set: { 'chat.n': { increment: 1 } } },
      { id: 'e', callback: '^e', edit: 'edited', buttons: [[{ text: 'again', data: 'e' }]] },
      { id: 'known', callback: '.', when: { 'user.x': 1 }, answer: 'x' },
    );
    fc.assert(
      fc.property(
        fc.option(fc.stringMatching(/^[a-ev:ok0-9]{0,8}$/), { nil: undefined }),
        fc.boolean(),
        fc.constantFrom(privateChat, group),
        (data, known, chat) => {
          const state = known ? { user: { x: 1 }, chat: {}, flow: null } : EMPTY_STATE;
          const answers = onPress(ruleSet, press(data, { chat }), state).actions.filter((a) => a.type === 'answer_callback');
          expect(answers).toHaveLength(1);
        },
      ),
    );
  });
});
