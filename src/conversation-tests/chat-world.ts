// Turns a test's steps into the updates the service would send the bot: messages with the entities the
// service detects, presses of buttons the bot showed, members joining and leaving. Groups keep the
// service's privacy mode (the bot sees commands, mentions of it and replies to its messages), and a user
// answering a force_reply question of the bot replies to it, as their client does.
import type { Chat, ForceReply, Message, Update, User } from '@grammyjs/types';
import { withDetectedEntities } from '../markup/auto-entities.js';
import { visibleToBot } from '../sandbox/group-chat.js';
import type { BotApiDouble, FoundButton } from './bot-api-double.js';
import type { TestChat, TestUser } from './model.js';

/** The bot's own identity in the updates (its id never collides with test users' default ids). */
export const TEST_BOT_ID = 7000000001;

/** What a step turned into: an update for the bot, none (privacy mode hid it), or a problem with the step itself. */
export type StepUpdate =
  { readonly kind: 'updates'; readonly updates: readonly Update[] } | { readonly kind: 'unseen' } | { readonly kind: 'problem'; readonly message: string };

export class ChatWorld {
  private updateId = 0;
  private callbackId = 0;

  constructor(
    private readonly api: BotApiDouble,
    private readonly clock: { readonly now: number },
    private readonly botUsername: string,
  ) {}

  /** The chat's id for this user (a private chat's id is the user's). */
  chatId(chat: TestChat, user: TestUser): number {
    return chat.type === 'private' ? user.id : chat.id;
  }

  /** A user's text message; a reply to the bot's latest message with `reply`, or to its pending force_reply question. */
  say(user: TestUser, chat: TestChat, text: string, reply: boolean): StepUpdate {
    const chatId = this.chatId(chat, user);
    const entities = withDetectedEntities(text, []);
    const replyTo = reply ? this.latestBotMessage(chatId) : this.forceReplyFor(chatId, user);
    if (reply && !replyTo) return { kind: 'problem', message: 'reply: true, but the bot has sent nothing in this chat to reply to' };
    const message = {
      message_id: this.api.nextMessageId(chatId),
      date: this.date(),
      chat: this.chatOf(chat, user),
      from: asUser(user),
      text,
      ...(entities.length > 0 ? { entities } : {}),
      ...(replyTo ? { reply_to_message: replyTo } : {}),
    } as Update.NonChannel & Message.TextMessage;
    this.api.recordUserMessage(message);
    if (chat.type !== 'private' && chat.privacy && !visibleToBot(message, { id: TEST_BOT_ID, username: this.botUsername })) return { kind: 'unseen' };
    return { kind: 'updates', updates: [{ update_id: this.nextUpdateId(), message }] };
  }

  /** A press of a button the bot showed in this chat: an inline button (a callback query), else a reply-keyboard button (its text is sent). */
  press(user: TestUser, chat: TestChat, by: 'text' | 'data', value: string): StepUpdate & { callbackQueryId?: string; pressed?: FoundButton } {
    const chatId = this.chatId(chat, user);
    const found = this.api.findInlineButton(chatId, by, value);
    if (found) {
      const id = `cq${++this.callbackId}`;
      const message = { ...found.message.message, text: found.message.text } as Message;
      const query = { id, from: asUser(user), chat_instance: `ci${chatId}`, message, ...(found.data !== undefined ? { data: found.data } : {}) };
      return { kind: 'updates', updates: [{ update_id: this.nextUpdateId(), callback_query: query }], callbackQueryId: id, pressed: found };
    }
    const keyboard = this.api.currentReplyKeyboard(chatId);
    const texts = keyboard?.keyboard.flat().map((b) => (typeof b === 'string' ? b : b.text)) ?? [];
    if (by === 'text' && texts.includes(value)) return this.say(user, chat, value, false);
    const shown = this.buttonsShown(chatId);
    const what = by === 'data' ? `with data '${value}'` : `'${value}'`;
    return {
      kind: 'problem',
      message: `no button ${what} in this chat${shown.length > 0 ? ` (buttons shown: ${shown.join(', ')})` : ' (the bot has shown no buttons)'}`,
    };
  }

  /** Users joined or left a group: the service messages every bot in the group receives, privacy mode or not (one per user who leaves). */
  members(kind: 'join' | 'leave', users: readonly TestUser[], chat: TestChat): StepUpdate {
    const message = (from: TestUser, change: object) =>
      ({ message_id: this.api.nextMessageId(chat.id), date: this.date(), chat: this.chatOf(chat, from), from: asUser(from), ...change }) as Update.NonChannel &
        Message;
    const messages =
      kind === 'join' ? [message(users[0]!, { new_chat_members: users.map(asUser) })] : users.map((user) => message(user, { left_chat_member: asUser(user) }));
    return { kind: 'updates', updates: messages.map((m) => ({ update_id: this.nextUpdateId(), message: m })) };
  }

  private buttonsShown(chatId: number): string[] {
    const texts = new Set<string>();
    for (const entry of this.api.history(chatId)) {
      if (!entry.fromBot || !entry.markup) continue;
      if ('inline_keyboard' in entry.markup) for (const b of entry.markup.inline_keyboard.flat()) texts.add(`'${b.text}'`);
    }
    for (const b of this.api.currentReplyKeyboard(chatId)?.keyboard.flat() ?? []) texts.add(`'${typeof b === 'string' ? b : b.text}'`);
    return [...texts];
  }

  private latestBotMessage(chatId: number): Message | undefined {
    return [...this.api.history(chatId)].reverse().find((m) => m.fromBot)?.message;
  }

  /**
   * The bot's force_reply question this user's app is still answering: the newest one for them (selective:
   * replying to their message) since they last wrote in the chat; answering it ends reply mode.
   */
  private forceReplyFor(chatId: number, user: TestUser): Message | undefined {
    for (const entry of [...this.api.history(chatId)].reverse()) {
      if (!entry.fromBot) {
        if (entry.message.from?.id === user.id) return undefined;
        continue;
      }
      const markup = entry.markup;
      if (!markup || !('force_reply' in markup)) continue;
      if (!(markup as ForceReply).selective || entry.message.reply_to_message?.from?.id === user.id) return entry.message;
    }
    return undefined;
  }

  private chatOf(chat: TestChat, user: TestUser): Chat {
    if (chat.type === 'private') return { id: user.id, type: 'private', first_name: user.first_name, ...(user.username ? { username: user.username } : {}) };
    return { id: chat.id, type: chat.type, title: chat.title } as Chat;
  }

  private date(): number {
    return Math.floor(this.clock.now / 1000);
  }

  private nextUpdateId(): number {
    return ++this.updateId;
  }
}

function asUser(user: TestUser): User {
  return {
    id: user.id,
    is_bot: false,
    first_name: user.first_name,
    ...(user.last_name !== undefined ? { last_name: user.last_name } : {}),
    ...(user.username !== undefined ? { username: user.username } : {}),
    ...(user.language_code !== undefined ? { language_code: user.language_code } : {}),
  };
}
