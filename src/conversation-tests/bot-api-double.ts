// An in-memory stand-in for the Bot API methods a bot under test calls (sendMessage, editMessageText,
// answerCallbackQuery; topics, copies and forwards for a hand-off in forum-double.ts, media in media-double.ts,
// moderation and join requests in moderation-double.ts): it records every call as an output, in order, and keeps each chat's messages with
// their keyboards (and the rule that sent each, for coverage) so that a test can press a button the bot showed.
// No network; message ids are numbered per chat as the service does, shared with the users' messages.
import type { Chat, InlineKeyboardMarkup, Message, Update, User } from '@grammyjs/types';
import type { ReplyMarkup } from '../engine/actions.js';
import { SUGGESTION_DATA } from '../engine/suggestions.js';
import { ChatHistory, type LookupCounter } from './chat-history.js';
import { isModerationMethod, moderationOutput, PendingJoinRequests, SilencedMembers, type ModerationOutput } from './moderation-double.js';
import { ForumDouble, type ForumHost } from './forum-double.js';
import { isMediaMethod, MediaDouble } from './media-double.js';

/** Whether `markup` holds suggestion buttons (`suggest:`). */
function isSuggestionMarkup(markup: ReplyMarkup | undefined): boolean {
  return (
    !!markup &&
    'inline_keyboard' in markup &&
    markup.inline_keyboard.some((row) => row.some((b) => 'callback_data' in b && SUGGESTION_DATA.test(b.callback_data ?? '')))
  );
}

/** One thing the bot did that a user could see (or that stops a button spinning). */
export type RecordedOutput =
  | {
      readonly kind: 'message';
      readonly chatId: number;
      readonly messageId: number;
      readonly text: string;
      readonly replyMarkup?: ReplyMarkup;
      readonly replyToMessageId?: number;
      /** The rules this message offers as suggestions (`suggest:`), by id, best first. */
      readonly suggestions?: readonly string[];
      /** The topic it went into (message_thread_id), in a supergroup with topics. */
      readonly threadId?: number;
      /** Where it went as the test names it (its chat, the user whose topic), filled in by the runner; `elsewhere`: not the step's chat. */
      readonly in?: string;
      readonly topicOf?: string;
      readonly elsewhere?: boolean;
    }
  | { readonly kind: 'edit'; readonly chatId: number; readonly messageId: number; readonly text: string; readonly replyMarkup?: InlineKeyboardMarkup }
  | { readonly kind: 'answer'; readonly callbackQueryId: string; readonly text?: string; readonly showAlert?: boolean }
  | ModerationOutput;

export interface SendParams {
  chat_id: number | string;
  text: string;
  parse_mode?: string;
  disable_notification?: boolean;
  reply_parameters?: { message_id: number };
  reply_markup?: ReplyMarkup;
  message_thread_id?: number;
}

export interface EditParams {
  chat_id?: number | string;
  message_id?: number;
  text: string;
  parse_mode?: string;
  reply_markup?: InlineKeyboardMarkup;
}

export interface AnswerParams {
  callback_query_id: string;
  text?: string;
  show_alert?: boolean;
}

/** Thrown for a call the real service would refuse (so a bot bug shows as a failed step, not a silent pass). */
export class BotApiDoubleError extends Error {
  override readonly name = 'BotApiDoubleError';
}

export class BotApiDouble implements LookupCounter, ForumHost {
  readonly outputs: RecordedOutput[] = [];
  /** Supergroups with topics and the hand-off's copies between chats. */
  readonly forum = new ForumDouble(this);
  /** Service messages for the bot (a topic it created, a member it let in), oldest first, until the driver hands them in. */
  readonly serviceUpdates: Update[] = [];
  /** Photos, documents, locations … the bot sends, recorded as messages that name them. */
  private readonly media = new MediaDouble(this);
  /** Join requests (`request_join`) waiting for the bot's answer. */
  private readonly joinRequests = new PendingJoinRequests();
  private readonly silenced = new SilencedMembers();
  /** History entries examined by look-ups so far (a step's cost must not grow with the chat). */
  entriesVisited = 0;
  private readonly chats = new Map<number, ChatHistory>();
  private readonly lastIds = new Map<number, number>();
  private deciding: string | null = null;
  private updateCount = 0;
  /** The rules the decision being performed offers as suggestions, if it does. */
  private suggesting: readonly string[] | undefined;

  /** The bot's administrator rights per chat (none: it is no administrator there). */
  private readonly adminRights = new Map<number, ReadonlySet<string>>();
  /** The test's name for each user id, for moderation outputs. */
  private readonly userKeys = new Map<number, string>();

  constructor(
    private readonly identity: { readonly id: number; readonly username: string; readonly first_name: string },
    private readonly clock: { readonly now: number },
  ) {}

  /** The next message id in a chat (users' and the bot's messages share the numbering). */
  nextMessageId(chatId: number): number {
    const id = (this.lastIds.get(chatId) ?? 0) + 1;
    this.lastIds.set(chatId, id);
    return id;
  }

  /** The next update id: the users' updates and the service messages the bot receives share the numbering. */
  nextUpdateId(): number {
    return ++this.updateCount;
  }

  /** The bot as a message's sender. */
  get bot(): User {
    return { id: this.identity.id, is_bot: true, first_name: this.identity.first_name, username: this.identity.username };
  }

  date(): number {
    return Math.floor(this.clock.now / 1000);
  }

  /** Names the rule whose decision the next calls perform (null: none matched), so each message knows who sent it. */
  attributeTo(ruleId: string | null, suggested?: readonly string[]): void {
    this.deciding = ruleId;
    this.suggesting = suggested;
  }

  /** Makes the bot an administrator of `chatId` with `rights`, and names the test's users (for moderation outputs). */
  setUp(chats: ReadonlyMap<number, ReadonlySet<string>>, users: ReadonlyMap<number, string>): void {
    for (const [chatId, rights] of chats) this.adminRights.set(chatId, rights);
    for (const [id, key] of users) this.userKeys.set(id, key);
  }

  /** Remembers a user's message, so the bot can reply to it and the chat's history stays in order. */
  recordUserMessage(message: Message): void {
    this.history(message.chat.id).add({ message, fromBot: false, text: message.text ?? '' });
    // Whoever writes in a group is in it.
    if (message.chat.type !== 'private' && message.from) this.joinRequests.note(message.chat.id, message.from.id, true);
  }

  /** Users joined or left a group (a `join` or `leave` step). */
  noteMembers(chatId: number, userIds: readonly number[], inGroup: boolean): void {
    for (const id of userIds) this.joinRequests.note(chatId, id, inGroup);
  }

  /** The chat's messages and what the runner looks up in them. */
  history(chatId: number): ChatHistory {
    let history = this.chats.get(chatId);
    if (!history) this.chats.set(chatId, (history = new ChatHistory(this)));
    return history;
  }

  async sendMessage(params: SendParams): Promise<Message.TextMessage> {
    const chatId = Number(params.chat_id);
    const known = this.history(chatId);
    const replyTo = params.reply_parameters ? known.get(params.reply_parameters.message_id) : undefined;
    const chat = known.messages[0]?.message.chat ?? { id: chatId, type: 'private', first_name: '' };
    const message = {
      message_id: this.nextMessageId(chatId),
      date: this.date(),
      chat,
      from: this.bot,
      text: params.text,
      ...(params.message_thread_id !== undefined ? { message_thread_id: params.message_thread_id, is_topic_message: true } : {}),
      ...(replyTo ? { reply_to_message: withoutReply(replyTo.message) } : {}),
      ...(params.reply_markup && 'inline_keyboard' in params.reply_markup ? { reply_markup: params.reply_markup } : {}),
    } as Message.TextMessage;
    // The decision's suggestions belong to the message that carries their buttons.
    const suggestions = this.suggesting && isSuggestionMarkup(params.reply_markup) ? this.suggesting : undefined;
    known.add({
      message,
      fromBot: true,
      text: params.text,
      sentBy: this.deciding,
      ...(params.reply_markup ? { markup: params.reply_markup } : {}),
      ...(suggestions ? { suggestions } : {}),
    });
    this.outputs.push({
      kind: 'message',
      chatId,
      messageId: message.message_id,
      text: params.text,
      ...(params.reply_markup ? { replyMarkup: params.reply_markup } : {}),
      ...(replyTo ? { replyToMessageId: replyTo.message.message_id } : {}),
      ...(suggestions ? { suggestions } : {}),
      ...(params.message_thread_id !== undefined ? { threadId: params.message_thread_id } : {}),
    });
    return message;
  }

  async editMessageText(params: EditParams): Promise<Message.TextMessage | true> {
    const chatId = Number(params.chat_id);
    const history = this.history(chatId);
    const target = params.message_id === undefined ? undefined : history.get(params.message_id);
    if (!target || !target.fromBot) throw new BotApiDoubleError(`Bad Request: message to edit not found (chat ${chatId}, message ${params.message_id})`);
    target.text = params.text;
    target.sentBy = this.deciding;
    history.setInlineKeyboard(target, params.reply_markup);
    this.outputs.push({
      kind: 'edit',
      chatId,
      messageId: target.message.message_id,
      text: params.text,
      ...(params.reply_markup ? { replyMarkup: params.reply_markup } : {}),
    });
    return { ...target.message, text: params.text } as Message.TextMessage;
  }

  /** The client's generic call, as the outbox's performers (and "typing…") make it: the methods above by name; any other is refused. */
  call(method: string, params: unknown): Promise<unknown> {
    if (method === 'sendmessage') return this.sendMessage(params as SendParams);
    if (method === 'editmessagetext') return this.editMessageText(params as EditParams);
    if (method === 'answercallbackquery') return this.answerCallbackQuery(params as AnswerParams);
    // "typing…", shown while a user waits for a backend: nothing to record.
    if (method === 'sendchataction') return Promise.resolve(true);
    if (isModerationMethod(method)) return this.moderate(method, params as Record<string, unknown>);
    if (isMediaMethod(method)) return this.media.send(method, params as Record<string, unknown>);
    const forum = this.forum.call(method, params as Record<string, unknown>);
    if (forum) return forum;
    return Promise.reject(new BotApiDoubleError(`Not Found: the conversation tests do not know the method ${method}`));
  }

  /** A moderation call: recorded when the bot has the right in the chat, refused with the service's words when not. */
  private moderate(method: string, params: Record<string, unknown>): Promise<true> {
    const context = {
      rights: this.adminRights.get(Number(params.chat_id)),
      now: this.clock.now,
      userName: (id: number) => this.userKeys.get(id) ?? String(id),
    };
    const output = moderationOutput(method, params, context);
    if (typeof output === 'string') return Promise.reject(new BotApiDoubleError(output));
    if (output.kind === 'member' && (output.change === 'approved' || output.change === 'declined')) {
      const request = this.joinRequests.answer(params);
      if (typeof request === 'string') return Promise.reject(new BotApiDoubleError(request));
      // As on the service, the approved user joins: the group's service message reaches the bot after this update.
      if (output.change === 'approved') {
        this.joinRequests.note(request.chat.id, request.user.id, true);
        this.queueServiceMessage(request.chat, request.user, { new_chat_members: [request.user] });
      }
    }
    // A banned member is out of the group (until unbanned and back).
    if (output.kind === 'member' && output.change === 'banned') this.joinRequests.note(Number(params.chat_id), Number(params.user_id), false);
    this.outputs.push(output);
    this.silenced.note(output, Number(params.user_id), this.clock.now);
    return Promise.resolve(true);
  }

  /** Why the service refuses the user's message in the group now (muted or banned until …); undefined when it takes it. */
  refusal(chatId: number, userId: number): ReturnType<SilencedMembers['refusal']> {
    return this.silenced.refusal(chatId, userId, this.clock.now);
  }

  /** A user asks to join a group (`request_join`): 'waiting' when they already asked and wait, 'member' when they are in it. */
  askToJoin(chat: Chat, user: User): 'asked' | 'waiting' | 'member' {
    return this.joinRequests.ask(chat, user);
  }

  /** Queues a service message of a chat (from `from`) for the bot, as an update the driver hands in next. */
  queueServiceMessage(chat: Chat, from: User, fields: Record<string, unknown>): void {
    const message = { message_id: this.nextMessageId(chat.id), date: this.date(), chat, from, ...fields } as unknown as Message;
    this.serviceUpdates.push({ update_id: this.nextUpdateId(), message } as Update);
  }

  async answerCallbackQuery(params: AnswerParams): Promise<true> {
    this.outputs.push({
      kind: 'answer',
      callbackQueryId: params.callback_query_id,
      ...(params.text !== undefined ? { text: params.text } : {}),
      ...(params.show_alert ? { showAlert: true } : {}),
    });
    return true;
  }
}

/**
 * A replied-to message as the service includes it: without its own reply_to_message (one level only), so a long
 * exchange of replies does not nest every earlier message into each update.
 */
export function withoutReply(message: Message): Message {
  if (!('reply_to_message' in message)) return message;
  const { reply_to_message: _dropped, ...rest } = message;
  return rest as Message;
}
