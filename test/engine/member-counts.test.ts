// member.* in the pure engine: the message count hearsay keeps (the message being answered counted), the join
// date of a member added by someone else (kept as that member's), nothing kept when no rule mentions member.*,
// and what `check` says of member.* in a rule that can answer in private chats.
import type { Update } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { compileRules, compileRulesCollecting } from '../../src/engine/compile.js';
import { decide } from '../../src/engine/decide.js';
import { toEvent, type BotEvent } from '../../src/engine/events.js';
import { EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { message, messageEvent } from './messages.js';

const BOT = 'kiez_bot';
const decideOn = (event: BotEvent, rules: Rule[], state: ConversationState = EMPTY_STATE) => decide(event, compileRules(rules), state, { botUsername: BOT });
const warnings = (rules: Rule[]) =>
  compileRulesCollecting(rules)
    .problems.filter((p) => p.severity === 'warning')
    .map((p) => p.message);

const COUNTED: Rule[] = [{ id: 'count', command: 'count', reply: 'You wrote {{var.member.messages}} here.', chat_types: ['supergroup'] }];

describe('member.messages and member.joined_at', () => {
  it('counts each message of a user in a group, the one answered included', () => {
    const decision = decideOn(messageEvent(message('/count', { chatType: 'supergroup' })), COUNTED, { ...EMPTY_STATE, member: { messages: 4 } });
    expect(decision.actions[0]).toEqual({ type: 'set_state', scope: 'member', key: 'messages', value: 5, increment: 1 });
    expect(decision.actions).toContainEqual(expect.objectContaining({ type: 'send_message', text: 'You wrote 5 here.' }));
  });

  it('counts nothing in a private chat, and nothing at all when no rule mentions member.*', () => {
    expect(decideOn(messageEvent(message('/count')), COUNTED).actions.some((a) => a.type === 'set_state')).toBe(false);
    const plain: Rule[] = [{ id: 'hi', text: 'hi', reply: 'Hello.' }];
    expect(decideOn(messageEvent(message('hi', { chatType: 'supergroup' })), plain).actions.some((a) => a.type === 'set_state')).toBe(false);
  });

  it("keeps the join date as the added member's, not as the adder's", () => {
    const chat = { id: -100, type: 'supergroup', title: 'Kiez' };
    const adder = { id: 1, is_bot: false, first_name: 'Ann' };
    const added = { id: 2, is_bot: false, first_name: 'Cem' };
    const update = { update_id: 3, message: { message_id: 9, date: 1_700_000_000, chat, from: adder, new_chat_members: [added] } } as Update;
    const decision = decideOn(toEvent(update)!, COUNTED);
    expect(decision.actions).toContainEqual({ type: 'set_state', scope: 'member', key: 'joined_at', value: 1_700_000_000, userId: 2 });
  });
});

describe('check: member.* where it means little', () => {
  it('warns of member.* in a rule that can answer in private chats, at the key', () => {
    const found = warnings([{ id: 'vote', command: 'vote', when: { 'member.voted': { exists: false } }, set: { 'member.voted': 1 }, reply: 'Counted.' }]);
    expect(found).toEqual([expect.stringMatching(/rule 'vote' uses member\.voted and can answer in private chats.*chat_types: \[group, supergroup\]/)]);
    expect(warnings([{ id: 'me', command: 'me', reply: '{{var.member.warnings}} warnings' }])).toEqual([
      expect.stringContaining('uses member.warnings and can answer in private chats'),
    ]);
  });

  it('says nothing for group-only rules and group events, nor of member.messages never being set', () => {
    expect(warnings(COUNTED)).toEqual([]);
    expect(warnings([{ id: 'hello', event: 'member_joined', set: { 'member.greeted': 1 }, reply: 'Welcome!' }])).toEqual([]);
  });
});
