// The shipped demo bot in rules/ loads cleanly, every example reaches its rule, and it answers as documented.
import { describe, expect, it } from 'vitest';
import type { Update } from '@grammyjs/types';
import { continueDecision } from '../../src/engine/backend-calls.js';
import { decide } from '../../src/engine/decide.js';
import { toEvent } from '../../src/engine/events.js';
import { applyStateChanges, EMPTY_STATE } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { decideMessage, message, messageEvent, replyText } from '../engine/messages.js';

const rulesDir = new URL('../../rules', import.meta.url).pathname;

describe('demo bot in rules/', () => {
  it('loads with no problems, not even warnings', async () => {
    const outcome = await loadRules(rulesDir);
    expect(outcome.problems.map((p) => p.format())).toEqual([]);
    expect(outcome.files.length).toBeGreaterThanOrEqual(2);
    // Each flow's start is matched as a rule of its own.
    expect(outcome.ruleSet?.rules.length).toBe(outcome.ruleCount + outcome.ruleSet!.flows.size);
  });

  it('answers commands, patterns, keywords and the fallback', async () => {
    const { ruleSet } = await loadRules(rulesDir);
    const answer = (text: string, chatType: 'private' | 'group' = 'private') =>
      decideMessage(message(text, { chatType }), ruleSet!, 'corner_shop_bot', () => 0);
    expect(replyText(answer('/start'))).toContain('Welcome to the Corner Shop desk, Ada!');
    expect(replyText(answer('/help'))).toContain('/order <number>');
    // Order lookups ask the shop (a backend call) and answer from what it says.
    const lookup = answer('where is order 4711?');
    expect(lookup).toMatchObject({ ruleId: 'order-status', call: { request: { backend: 'shop', method: 'GET', path: '/orders/4711' } } });
    expect(continueDecision(lookup, { status: 200, body: { status: 'shipped', eta: 'Friday' } }).actions).toMatchObject([
      { type: 'send_message', text: 'Order 4711: shipped, expected Friday. You will get a tracking link by e-mail.', replyToMessageId: 7 },
    ]);
    expect(replyText(continueDecision(answer('/order 55'), { status: 404 }))).toBe(
      `I can't find an order "55". The number is on your receipt, e.g. /order 1234.`,
    );
    expect(answer('I want a refund').ruleId).toBe('refund');
    expect(answer('I want a refund', 'group').ruleId).toBe('refund-group');
    expect(replyText(answer('Hello'))).toBe('Hello, Ada!');
    expect(answer('tell me a joke').ruleId).toBe('fallback');
    expect(answer('/start@some_other_bot')).toEqual({ ruleId: null, actions: [] });
  });

  it('remembers the name and books a table, with the state kept between messages', async () => {
    const { ruleSet } = await loadRules(rulesDir);
    let state = EMPTY_STATE;
    const say = (text: string) => {
      // Monday 5 January 2026, 10:00 in Berlin: "Friday" is the 9th.
      const now = () => Date.parse('2026-01-05T10:00:00+01:00');
      const decision = decide(messageEvent(message(text)), ruleSet!, state, { botUsername: 'corner_shop_bot', random: () => 0, now });
      state = applyStateChanges(state, decision.actions);
      return replyText(decision);
    };
    expect(say('hi')).toBe('Hello, Ada!');
    expect(say("I'm Grace")).toBe('Nice to meet you, Grace! I will remember that.');
    expect(say('hello')).toBe('Hello again, Grace!');
    expect(say('/book')).toBe('For which day? (e.g. tomorrow, Friday or 24.12.)');
    expect(say('someday')).toBe('A day like tomorrow, Friday or 24.12., please.');
    expect(say('2026-01-04')).toBe('That day is over; which day from today on?');
    expect(say('4.1.')).toBe('We take bookings up to 60 days ahead.'); // 4 January 2027, the next one to come
    expect(say('/help')).toContain('/book - book a table');
    expect(say('Friday')).toBe('How many people?');
    expect(say('3')).toBe('A table for 3 on Friday, 9 January. Shall I book it? (yes/no)');
    expect(say('yes')).toBe('Booked: a table for 3 on Friday, 9 January, under the name Grace. See you!');
    expect(state.user).toEqual({ name: 'Grace', last_booking: '2026-01-09' });
    expect(say('yes')).toBe('Sorry, I did not get that. Try /help to see what I can do.');
    say('/book');
    expect(say('/cancel')).toBe('OK, booking cancelled.');
    expect(state.flow).toBeNull();
  });

  it('has a button menu and a poll: presses are answered, the poll counts votes in its message', async () => {
    const { ruleSet } = await loadRules(rulesDir);
    const menu = decideMessage(message('/menu'), ruleSet!, 'corner_shop_bot');
    expect(menu.actions[0]).toMatchObject({
      replyMarkup: { inline_keyboard: expect.arrayContaining([[{ text: 'Our website', url: 'https://example.com' }]]) },
    });
    const chat = { id: 42, type: 'private' as const, first_name: 'Ada' };
    const pressOn = (data: string, state = EMPTY_STATE) =>
      decide(
        toEvent({
          update_id: 1,
          callback_query: {
            id: 'q',
            chat_instance: 'c',
            from: { id: 42, is_bot: false, first_name: 'Ada' },
            data,
            message: { message_id: 3, date: 1, chat, text: 'm' },
          },
        } as Update)!,
        ruleSet!,
        state,
        { botUsername: 'corner_shop_bot' },
      );
    expect(pressOn('menu:hours').actions).toEqual([
      { type: 'answer_callback', callbackQueryId: 'q', text: expect.stringContaining('Monday'), showAlert: true },
    ]);
    const first = pressOn('vote:kiez');
    const after = applyStateChanges(EMPTY_STATE, first.actions);
    const second = pressOn('vote:kiez', after);
    expect(second.actions.find((a) => a.type === 'edit_message_text')).toMatchObject({
      messageId: 3,
      text: 'Where should the next meetup be?\nCafé Kiez: 2 · Park Café: 0',
      replyMarkup: {
        inline_keyboard: [
          [
            { text: 'Café Kiez', callback_data: 'vote:kiez' },
            { text: 'Park Café', callback_data: 'vote:park' },
          ],
        ],
      },
    });
  });

  it('sends its café menu as a photo and its place as a venue, and asks for a photo when a problem is reported', async () => {
    const { ruleSet } = await loadRules(rulesDir);
    const context = { botUsername: 'corner_shop_bot', random: () => 0, now: () => 1_000 };
    const cafe = decideMessage(message('/cafe', { entities: [{ type: 'bot_command', offset: 0, length: 5 }] }), ruleSet!, 'corner_shop_bot');
    expect(cafe.actions).toMatchObject([
      { type: 'send_media', media: { kind: 'photo', source: { kind: 'file', name: 'menu.jpg' } }, caption: expect.stringContaining("Today's menu") },
    ]);
    const where = decideMessage(message('Where are you?'), ruleSet!, 'corner_shop_bot');
    expect(where.actions).toMatchObject([{ type: 'send_media', media: { kind: 'location', title: 'Corner Shop', address: 'Torstr. 1, Berlin' } }]);
    let state = EMPTY_STATE;
    const say = (update: object) => {
      const decision = decide(toEvent({ update_id: 1, message: { ...message(undefined), ...update } } as Update)!, ruleSet!, state, context);
      state = applyStateChanges(state, decision.actions);
      return replyText(decision);
    };
    const photo = { photo: [{ file_id: 'AgACAgIAAxkBAAIBZ2demo', file_unique_id: 'u', width: 40, height: 30 }] };
    expect(say(photo)).toContain('send /report first');
    expect(say({ text: '/report', entities: [{ type: 'bot_command', offset: 0, length: 7 }] })).toBe('What went wrong? A few words, please.');
    expect(say({ text: 'The door is broken' })).toContain('Please send a photo');
    expect(say({ text: 'here it is' })).toContain('A photo, please');
    expect(say(photo)).toBe('Thank you, Ada! We have your report ("The door is broken") with its photo and will get back to you.');
    expect(say({ location: { latitude: 52.5, longitude: 13.4 } })).toContain('You are at 52.5, 13.4');
  });
});
