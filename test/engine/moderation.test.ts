// A rule's moderation in the pure engine: the calls it decides around its replies (delete and restrict before
// the warning, the reply pinned after), the member it acts on, what the checker refuses, and the events about the
// bot's own status and join requests (with the user._blocked mark).
import type { Message, Update } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { compileRules, compileRulesCollecting } from '../../src/engine/compile.js';
import { decide } from '../../src/engine/decide.js';
import { toEvent, updateKindsFor, type BotEvent } from '../../src/engine/events.js';
import { EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { message, messageEvent, pressEvent } from './messages.js';

const BOT = 'kiez_bot';
const NOW = 1_700_000_000_000;
const decideOn = (event: BotEvent, rules: Rule[], state: ConversationState = EMPTY_STATE) =>
  decide(event, compileRules(rules), state, { botUsername: BOT, now: () => NOW });
const problems = (rules: Rule[]) => compileRulesCollecting(rules).problems.map((problem) => problem.message);

describe('moderation actions', () => {
  it('deletes the message and restricts its sender before the warning, for the time given', () => {
    const rules: Rule[] = [
      {
        id: 'links',
        pattern: 'https?://',
        chat_types: ['supergroup'],
        delete: true,
        restrict: { for: '1h' },
        reply: '{{user.first_name}} is muted for an hour.',
      },
    ];
    const decision = decideOn(messageEvent(message('see https://spam.example', { chatType: 'supergroup', chatId: -1001 })), rules);
    expect(decision.actions).toEqual([
      { type: 'moderate', method: 'deletemessage', chatId: -1001, params: { message_id: 7 } },
      {
        type: 'moderate',
        method: 'restrictchatmember',
        chatId: -1001,
        params: expect.objectContaining({
          user_id: 42,
          until_date: NOW / 1000 + 3600,
          use_independent_chat_permissions: true,
          permissions: expect.objectContaining({ can_send_messages: false }),
        }),
      },
      { type: 'send_message', chatId: -1001, text: 'Ada is muted for an hour.' },
    ]);
  });

  it('ban for good or for a while, unban only a banned user, unrestrict gives every permission back', () => {
    const event = messageEvent(message('x', { chatType: 'supergroup', chatId: -1001 }));
    const calls = (rule: Partial<Rule>) =>
      decideOn(event, [{ id: 'r', text: 'x', ...rule } as Rule]).actions.map((action) =>
        action.type === 'moderate' ? [action.method, action.params] : action.type,
      );
    expect(calls({ ban: true })).toEqual([['banchatmember', { user_id: 42, until_date: 0 }]]);
    expect(calls({ ban: { for: '1d' } })).toEqual([['banchatmember', { user_id: 42, until_date: NOW / 1000 + 86_400 }]]);
    expect(calls({ unban: true })).toEqual([['unbanchatmember', { user_id: 42, only_if_banned: true }]]);
    const [[, lifted]] = calls({ unrestrict: true }) as [[string, { permissions: Record<string, boolean> }]];
    expect(Object.values(lifted.permissions).every(Boolean)).toBe(true);
    expect(calls({ restrict: { until_changed: true } })).toEqual([['restrictchatmember', expect.objectContaining({ until_date: 0 })]]);
  });

  it('pin: reply pins the reply once it is sent (the reply is marked), message pins the triggering message', () => {
    const event = messageEvent(message('/rules', { chatType: 'supergroup', chatId: -1001 }));
    const pinReply = decideOn(event, [{ id: 'rules', command: 'rules', reply: 'Be kind.', pin: true }]).actions;
    expect(pinReply).toEqual([
      { type: 'send_message', chatId: -1001, text: 'Be kind.', pinned: true },
      { type: 'moderate', method: 'pinchatmessage', chatId: -1001, params: {}, pinsReply: true },
    ]);
    const pinMessage = decideOn(event, [{ id: 'rules', command: 'rules', pin: 'message' }]).actions;
    expect(pinMessage).toEqual([{ type: 'moderate', method: 'pinchatmessage', chatId: -1001, params: { message_id: 7 } }]);
  });

  it('the checker refuses actions that cannot apply, saying why', () => {
    expect(problems([{ id: 'a', command: 'x', approve: true }])).toEqual([
      "`approve` answers a join request, and rule 'a' is not an `event: join_request` rule: remove it",
    ]);
    expect(problems([{ id: 'b', event: 'member_joined', delete: true, reply: 'hi' }])).toEqual([
      "`delete` removes the message that triggered rule 'b', and an `event: member_joined` has none: remove it",
    ]);
    expect(problems([{ id: 'c', command: 'x', pin: 'reply' }])[0]).toMatch(/`pin: reply` pins the reply of rule 'c', which has none/);
    expect(problems([{ id: 'd', command: 'x', restrict: { for: '10s' }, reply: 'x' }])[0]).toMatch(/treats less than 30 seconds as for good/);
    expect(problems([{ id: 'g', callback: '^x$', delete: true, answer: 'x' }])).toEqual([
      "`delete` removes the message that triggered rule 'g', and a button press has none: remove it",
    ]);
    expect(problems([{ id: 'e', command: 'x', chat_types: ['private'], ban: true, reply: 'x' }])[0]).toMatch(
      /rule 'e' answers only in private chats, where there is no member to ban/,
    );
  });
});

describe('moderation on a button press', () => {
  it('lifts the restriction of the user who pressed (a captcha) after answering the press, before the reply, and pins the reply last', () => {
    const question = { message_id: 5, date: 1_700_000_000, chat: { id: -1001, type: 'supergroup', title: 'Kiez' }, text: 'Press' } as Message;
    const press = pressEvent('human', question, { from: { id: 43, is_bot: false, first_name: 'Ben' }, id: 'q1' });
    const rules: Rule[] = [
      { id: 'human', callback: '^human$', unrestrict: true, answer: 'Welcome!', reply: '{{user.first_name}} may talk now.', pin: 'reply' },
    ];
    const kinds = decideOn(press, rules).actions.map((a) => (a.type === 'moderate' ? `${a.method}${a.pinsReply ? ' reply' : ''}` : a.type));
    expect(kinds).toEqual(['answer_callback', 'restrictchatmember', 'send_message', 'pinchatmessage reply']);
    const lift = decideOn(press, rules).actions[1] as unknown as { params: { user_id: number; permissions: Record<string, boolean> } };
    expect(lift.params.user_id).toBe(43);
    expect(Object.values(lift.params.permissions).every(Boolean)).toBe(true);
  });
});

describe('events about the bot and the group', () => {
  const user = { id: 42, is_bot: false, first_name: 'Ada' };
  const bot = { id: 7, is_bot: true, first_name: 'Kiez', username: BOT };
  const myChange = (chat: object, before: string, after: string) =>
    toEvent({
      update_id: 3,
      my_chat_member: { chat, from: user, date: 1_700_000_000, old_chat_member: { status: before, user: bot }, new_chat_member: { status: after, user: bot } },
    } as unknown as Update)!;
  const privateChat = { id: 42, type: 'private', first_name: 'Ada' };
  const group = { id: -1001, type: 'supergroup', title: 'Kiez' };

  it('blocked and unblocked mark the user (user._blocked) and answer event rules; writing again clears the mark', () => {
    const rules: Rule[] = [{ id: 'gone', event: 'blocked', set: { 'chat.blocks': { increment: 1 } } }];
    const blocked = decideOn(myChange(privateChat, 'member', 'kicked'), rules);
    expect(blocked.ruleId).toBe('gone');
    expect(blocked.actions).toEqual([
      { type: 'set_state', scope: 'user', key: '_blocked', value: 1_700_000_000 },
      { type: 'set_state', scope: 'chat', key: 'blocks', value: 1, increment: 1 },
    ]);
    const marked = { ...EMPTY_STATE, user: { _blocked: 1_700_000_000 } };
    expect(decideOn(myChange(privateChat, 'kicked', 'member'), [], marked).actions).toEqual([
      { type: 'set_state', scope: 'user', key: '_blocked', value: null },
    ]);
    expect(decideOn(messageEvent(message('hi')), [], marked).actions).toEqual([{ type: 'set_state', scope: 'user', key: '_blocked', value: null }]);
  });

  it('bot_added and bot_removed answer in the group; a promotion is no event', () => {
    const rules: Rule[] = [{ id: 'hello', event: 'bot_added', reply: 'Hello, {{user.first_name}} added me.' }];
    const added = decideOn(myChange(group, 'left', 'member'), rules);
    expect(added.actions).toEqual([{ type: 'send_message', chatId: -1001, text: 'Hello, Ada added me.' }]);
    expect(myChange(group, 'member', 'left')).toMatchObject({ kind: 'bot_status', status: 'bot_removed' });
    expect(myChange(group, 'member', 'administrator')).toBeNull();
  });

  it('join_request: approve lets the user in; updateKindsFor asks for chat_join_request and my_chat_member', () => {
    const rules: Rule[] = [{ id: 'door', event: 'join_request', approve: true }];
    const request = toEvent({ update_id: 4, chat_join_request: { chat: group, from: user, user_chat_id: 42, date: 1_700_000_000 } } as unknown as Update)!;
    expect(decideOn(request, rules).actions).toEqual([{ type: 'moderate', method: 'approvechatjoinrequest', chatId: -1001, params: { user_id: 42 } }]);
    expect(updateKindsFor(compileRules(rules))).toEqual(['message', 'callback_query', 'my_chat_member', 'chat_join_request']);
    expect(updateKindsFor(compileRules([{ id: 'x', text: 'x', reply: 'y' }]))).toEqual(['message', 'callback_query', 'my_chat_member']);
  });
});
