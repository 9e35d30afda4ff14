// Updates become the engine's events: text messages, button presses and membership changes, each with the
// per-chat key that orders it; everything else is ignored (null) and keyed as before.
import { describe, expect, it } from 'vitest';
import type { Update } from '../../src/api/types.js';
import { chatKeyOf, toEvent } from '../../src/engine/events.js';

const ada = { id: 42, is_bot: false, first_name: 'Ada' };
const bob = { id: 43, is_bot: false, first_name: 'Bob' };
const group = { id: -100123, type: 'supergroup' as const, title: 'Shop' };
const update = (body: object, id = 1) => ({ update_id: id, ...body }) as Update;

describe('toEvent', () => {
  it('a text message becomes a message event with its chat and sender', () => {
    const message = { message_id: 7, date: 1, chat: group, from: ada, text: 'hi' };
    expect(toEvent(update({ message }, 9))).toEqual({ kind: 'message', updateId: 9, chat: group, from: ada, message });
  });

  it('a message sent on behalf of a chat has no sender', () => {
    const event = toEvent(update({ message: { message_id: 7, date: 1, chat: group, sender_chat: group, text: 'hi' } }));
    expect(event?.kind).toBe('message');
    expect(event?.from).toBeUndefined();
  });

  it('a button press becomes a callback_query event in the chat of the message the button was on', () => {
    const message = { message_id: 8, date: 1, chat: group, text: 'menu' };
    expect(toEvent(update({ callback_query: { id: 'cq', from: ada, chat_instance: 'ci', data: 'buy:1', message } }, 3))).toEqual({
      kind: 'callback_query',
      updateId: 3,
      id: 'cq',
      from: ada,
      message,
      chat: group,
      data: 'buy:1',
    });
  });

  it('a press on a message sent in inline mode has no chat, and a game button no data', () => {
    expect(toEvent(update({ callback_query: { id: 'cq', from: ada, chat_instance: 'ci', inline_message_id: 'im', game_short_name: 'g' } }))).toEqual({
      kind: 'callback_query',
      updateId: 1,
      id: 'cq',
      from: ada,
      inlineMessageId: 'im',
    });
  });

  it('new_chat_members and left_chat_member service messages become member events', () => {
    const joined = { message_id: 9, date: 1, chat: group, from: ada, new_chat_members: [ada, bob] };
    expect(toEvent(update({ message: joined }))).toEqual({
      kind: 'member_joined',
      updateId: 1,
      chat: group,
      from: ada,
      members: [ada, bob],
      source: 'message',
      date: 1,
      message: joined,
    });
    const left = { message_id: 10, date: 1, chat: group, from: ada, left_chat_member: bob };
    expect(toEvent(update({ message: left }))).toMatchObject({ kind: 'member_left', from: ada, members: [bob], source: 'message' });
  });

  it('a chat_member update is an event when membership changes or a member is newly restricted', () => {
    const change = (from: object, to: object) => update({ chat_member: { chat: group, from: ada, date: 1, old_chat_member: from, new_chat_member: to } });
    const left = { status: 'left', user: bob };
    const member = { status: 'member', user: bob };
    const kicked = { status: 'kicked', user: bob, until_date: 0 };
    const restrictedIn = { status: 'restricted', user: bob, is_member: true, until_date: 0 };
    const restrictedOut = { ...restrictedIn, is_member: false };
    const admin = { status: 'administrator', user: bob, can_be_edited: false };
    expect(toEvent(change(left, member))).toEqual({
      kind: 'member_joined',
      updateId: 1,
      chat: group,
      from: ada,
      members: [bob],
      source: 'chat_member',
      date: 1,
    });
    expect(toEvent(change(restrictedOut, restrictedIn))?.kind).toBe('member_joined');
    expect(toEvent(change(member, kicked))?.kind).toBe('member_left');
    expect(toEvent(change(restrictedIn, left))?.kind).toBe('member_left');
    expect(toEvent(change(member, admin))).toBeNull();
    // A member newly restricted (still in the group) is its own event; a restriction changed again is none.
    expect(toEvent(change(member, restrictedIn))?.kind).toBe('member_restricted');
    expect(toEvent(change(restrictedIn, restrictedIn))).toBeNull();
  });

  it('ignores edits, channel posts and other update kinds; a message with neither text nor media is an other_message', () => {
    const dice = { message_id: 7, date: 1, chat: group, from: ada, dice: { emoji: '🎲', value: 3 } };
    // No rule answers it, a hand-off relays it.
    expect(toEvent(update({ message: dice }))).toMatchObject({ kind: 'other_message', chat: group, from: ada, message: dice });
    // A photo is an event of its own (media rules answer it; a hand-off relays it too).
    expect(toEvent(update({ message: { ...dice, dice: undefined, photo: [] } }))).toMatchObject({ kind: 'media', media: 'photo', chat: group, from: ada });
    expect(toEvent(update({ edited_message: { message_id: 7, date: 1, edit_date: 2, chat: group, from: ada, text: 'hi' } }))).toBeNull();
    expect(toEvent(update({ channel_post: { message_id: 7, date: 1, chat: { id: -1009, type: 'channel', title: 'C' }, text: 'hi' } }))).toBeNull();
    expect(toEvent(update({ inline_query: { id: 'iq', from: ada, query: 'x', offset: '' } }))).toBeNull();
    // The bot's own membership is an event (bot_added); its promotion is none.
    expect(
      toEvent(update({ my_chat_member: { chat: group, from: ada, date: 1, old_chat_member: { status: 'left' }, new_chat_member: { status: 'member' } } })),
    ).toMatchObject({ kind: 'bot_status', status: 'bot_added' });
    expect(
      toEvent(
        update({ my_chat_member: { chat: group, from: ada, date: 1, old_chat_member: { status: 'member' }, new_chat_member: { status: 'administrator' } } }),
      ),
    ).toBeNull();
  });
});

describe('chatKeyOf', () => {
  it('keys messages, button presses and member events by their chat, so one chat stays in order', () => {
    const key = chatKeyOf(update({ message: { message_id: 7, date: 1, chat: group, from: ada, text: 'hi' } }));
    expect(key).toBe('chat:-100123');
    expect(chatKeyOf(update({ callback_query: { id: 'cq', from: ada, chat_instance: 'ci', message: { message_id: 8, date: 1, chat: group } } }))).toBe(key);
    expect(chatKeyOf(update({ message: { message_id: 9, date: 1, chat: group, from: ada, new_chat_members: [bob] } }))).toBe(key);
    const leftViaChatMember = {
      chat: group,
      from: bob,
      date: 1,
      old_chat_member: { status: 'member', user: bob },
      new_chat_member: { status: 'left', user: bob },
    };
    expect(chatKeyOf(update({ chat_member: leftViaChatMember }))).toBe(key);
  });

  it('keys a press on an inline-mode message by the user who pressed', () => {
    expect(chatKeyOf(update({ callback_query: { id: 'cq', from: ada, chat_instance: 'ci', inline_message_id: 'im', data: 'x' } }))).toBe('user:42');
  });

  it('keys an ignored update by the chat it names, else by its own id', () => {
    expect(chatKeyOf(update({ edited_message: { message_id: 7, date: 1, edit_date: 2, chat: group, text: 'hi' } }))).toBe('chat:-100123');
    expect(chatKeyOf(update({ inline_query: { id: 'iq', from: ada, query: 'x', offset: '' } }, 77))).toBe('update:77');
  });
});
