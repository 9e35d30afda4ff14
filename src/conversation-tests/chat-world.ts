// Turns a test's steps into the updates the service would send the bot: messages with the entities the
// service detects, presses of buttons the bot showed, members joining, leaving and asking to join. Groups keep the
// service's privacy mode (the bot sees commands, mentions of it and replies to its messages), and a user
// answering a force_reply question of the bot replies to it, as their client does.
import type { Chat, ChatJoinRequest, Message, Update, User } from '@grammyjs/types';
import { withDetectedEntities } from '../markup/auto-entities.js';
import { visibleToBot } from '../sandbox/group-chat.js';
import { withoutReply, type BotApiDouble } from './bot-api-double.js';
import type { ChatHistory, FoundButton } from './chat-history.js';
import type { TestChat, TestUser } from './model.js';

/** The bot's own identity in the updates (its id never collides with test users' default ids). */
export const TEST_BOT_ID = 7000000001;

/**
 * What a step turned into: an update for the bot, none (privacy mode hid it, or the service refused the message of
 * a muted or banned member: `refused` says why), or a problem with the step itself.
 */
export type StepUpdate =
  | { readonly kind: 'updates'; readonly updates: readonly Update[] }
  | { readonly kind: 'unseen' }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'problem'; readonly message: string };

export class ChatWorld {
  private callbackId = 0;

  constructor(
    private readonly api: BotApiDouble,
    private readonly clock: { readonly now: number },
    private readonly botUsername: string,
  ) {}

  /** The service's refusal of a message of a muted or banned member (it never reaches the chat or the bot). */
  private refused(user: TestUser, chat: TestChat): StepUpdate | undefined {
    const refusal = chat.type === 'private' ? undefined : this.api.refusal(chat.id, user.id);
    if (!refusal) return undefined;
    return { kind: 'refused', message: `the service refused ${user.key}'s message: ${user.key} is ${refusal.why} in ${chat.key} ${refusal.until}` };
  }

  /** The chat's id for this user (a private chat's id is the user's). */
  chatId(chat: TestChat, user: TestUser): number {
    return chat.type === 'private' ? user.id : chat.id;
  }

  /**
   * A user's text message; a reply to the bot's latest message with `reply`, or to its pending force_reply
   * question; in the hand-off topic of `topicOf` (a forum's topic the bot named after them) when given.
   */
  say(user: TestUser, chat: TestChat, text: string, reply: boolean, topicOf?: TestUser): StepUpdate {
    const chatId = this.chatId(chat, user);
    const thread = topicOf ? this.api.forum.topicOfUser(chatId, topicOf.id) : undefined;
    if (topicOf && thread === undefined)
      return { kind: 'problem', message: `${topicOf.key} has no topic in ${chat.key}: the bot opens one when it hands them off` };
    const refused = this.refused(user, chat);
    if (refused) return refused;
    const entities = withDetectedEntities(text, []);
    const history = this.api.history(chatId);
    const replyTo = reply ? history.latestBotMessage() : history.pendingQuestion(user.id);
    if (reply && !replyTo) return { kind: 'problem', message: 'reply: true, but the bot has sent nothing in this chat to reply to' };
    const message = {
      message_id: this.api.nextMessageId(chatId),
      date: this.date(),
      chat: this.chatOf(chat, user),
      from: asUser(user),
      text,
      ...(entities.length > 0 ? { entities } : {}),
      ...(replyTo ? { reply_to_message: withoutReply(replyTo) } : {}),
      ...(thread !== undefined ? { message_thread_id: thread, is_topic_message: true } : {}),
    } as Update.NonChannel & Message.TextMessage;
    this.api.recordUserMessage(message);
    // An administrator bot receives every message of its group, privacy mode or not (as on the service).
    if (chat.type !== 'private' && chat.privacy && !chat.adminRights && !visibleToBot(message, { id: TEST_BOT_ID, username: this.botUsername }))
      return { kind: 'unseen' };
    return { kind: 'updates', updates: [{ update_id: this.nextUpdateId(), message }] };
  }

  /** A user's photo, document, location … (`fields`, with its caption); in a group the bot sees it outside privacy mode or as an administrator. */
  send(user: TestUser, chat: TestChat, fields: Readonly<Record<string, unknown>>): StepUpdate {
    const refused = this.refused(user, chat);
    if (refused) return refused;
    const chatId = this.chatId(chat, user);
    const replyTo = this.api.history(chatId).pendingQuestion(user.id);
    const message = {
      message_id: this.api.nextMessageId(chatId),
      date: this.date(),
      chat: this.chatOf(chat, user),
      from: asUser(user),
      ...fields,
      ...(replyTo ? { reply_to_message: withoutReply(replyTo) } : {}),
    } as unknown as Message;
    this.api.recordUserMessage(message);
    if (chat.type !== 'private' && chat.privacy && !chat.adminRights && !visibleToBot(message, { id: TEST_BOT_ID, username: this.botUsername }))
      return { kind: 'unseen' };
    return { kind: 'updates', updates: [{ update_id: this.nextUpdateId(), message } as Update] };
  }

  /** A press of a button the bot showed in this chat: an inline button (a callback query), else a reply-keyboard button (its text is sent). */
  press(user: TestUser, chat: TestChat, by: 'text' | 'data' | 'suggestion', value: string): StepUpdate & { callbackQueryId?: string; pressed?: FoundButton } {
    const chatId = this.chatId(chat, user);
    const history = this.api.history(chatId);
    if (by === 'suggestion') {
      const data = history.suggestionData(value);
      if (data !== undefined) return this.press(user, chat, 'data', data);
      const offered = history.suggestionsOffered();
      return {
        kind: 'problem',
        message: `no suggestion of rule '${value}' in this chat${offered.length > 0 ? ` (suggested: ${offered.join(', ')})` : ' (the bot has suggested nothing)'}`,
      };
    }
    const found = history.findInlineButton(by, value);
    if (found) {
      const id = `cq${++this.callbackId}`;
      const message = { ...found.message.message, text: found.message.text } as Message;
      const query = { id, from: asUser(user), chat_instance: `ci${chatId}`, message, ...(found.data !== undefined ? { data: found.data } : {}) };
      return { kind: 'updates', updates: [{ update_id: this.nextUpdateId(), callback_query: query }], callbackQueryId: id, pressed: found };
    }
    const keyboard = history.currentReplyKeyboard();
    const texts = keyboard?.keyboard.flat().map((b) => (typeof b === 'string' ? b : b.text)) ?? [];
    if (by === 'text' && texts.includes(value)) return this.say(user, chat, value, false);
    const shown = this.buttonsShown(history);
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
    this.api.noteMembers(
      chat.id,
      users.map((user) => user.id),
      kind === 'join',
    );
    return { kind: 'updates', updates: messages.map((m) => ({ update_id: this.nextUpdateId(), message: m })) };
  }

  /**
   * A user asks to join a group: an administrator bot with can_invite_users gets a chat_join_request (any other bot
   * nothing, as on the service); asking again before the bot answered, or as a member, is a problem with the step.
   */
  requestJoin(user: TestUser, chat: TestChat): StepUpdate {
    const group = this.chatOf(chat, user);
    const asked = this.api.askToJoin(group, asUser(user));
    if (asked === 'waiting') return { kind: 'problem', message: `${user.key} already asked to join ${chat.key}, and the bot has not answered yet` };
    if (asked === 'member')
      return {
        kind: 'problem',
        message: `${user.key} is a member of ${chat.key} (wrote there, joined or was let in): the service takes no join request from a member`,
      };
    if (!chat.adminRights?.has('can_invite_users')) return { kind: 'unseen' };
    const request = { chat: group, from: asUser(user), user_chat_id: user.id, date: this.date() } as ChatJoinRequest;
    return { kind: 'updates', updates: [{ update_id: this.nextUpdateId(), chat_join_request: request }] };
  }

  private buttonsShown(history: ChatHistory): string[] {
    const texts = new Set(history.inlineButtonTexts().map((text) => `'${text}'`));
    for (const b of history.currentReplyKeyboard()?.keyboard.flat() ?? []) texts.add(`'${typeof b === 'string' ? b : b.text}'`);
    return [...texts];
  }

  private chatOf(chat: TestChat, user: TestUser): Chat {
    if (chat.type === 'private') return { id: user.id, type: 'private', first_name: user.first_name, ...(user.username ? { username: user.username } : {}) };
    return { id: chat.id, type: chat.type, title: chat.title, ...(chat.forum ? { is_forum: true } : {}) } as Chat;
  }

  private date(): number {
    return Math.floor(this.clock.now / 1000);
  }

  private nextUpdateId(): number {
    return this.api.nextUpdateId();
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
