// A bot's message of any content (text, photo, location, a copy…) stored in a private chat or a group, with
// what every sending method shares: the chat checked as the service checks it, the message replied to
// (reply_parameters or the older reply_to_message_id), the reply markup, message_thread_id, and the
// optional sending limits. Content comes in as the Message fields it adds (`text`/`entities`, `photo`, …).
import type { Message } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { peerAsSender, privateChat } from './chat-messages.js';
import { chatMessagesOf, targetChat, type ChatTarget } from './chat-target.js';
import { groupChat } from './group-chat.js';
import type { StoredMarkup } from './message-meta.js';
import type { MethodContext } from './method-context.js';
import { booleanParam, integerParam, jsonParam, type Params } from './params.js';
import { readReplyMarkup } from './reply-markup.js';
import { sendingThread, topicFields } from './forum-topics.js';

/** What a message carries besides its content. */
export interface MessageExtras {
  readonly replyTo?: Message | undefined;
  readonly markup?: StoredMarkup | undefined;
  /** The topic of a forum group the message goes to (checked: it exists, and is open or the sender may manage topics). */
  readonly threadId?: number | undefined;
  readonly mediaGroupId?: string | undefined;
  /** A forward: whose message it was and when it was first sent. */
  readonly forwardedFrom?: { readonly origin: Record<string, unknown>; readonly legacy: Record<string, unknown> } | undefined;
}

/** Where a sending method's message goes and with what, read from its parameters. */
export interface Sending {
  readonly target: ChatTarget;
  readonly extras: MessageExtras;
}

/**
 * The target chat, the message replied to, the reply markup and the topic of a sending method, with the
 * service's refusals (`chat_id is empty`, `chat not found`, the 403s, `message to be replied not found`).
 */
export function prepareSending(context: MethodContext, params: Params, { markup = true }: { markup?: boolean } = {}): Sending {
  const { store, bot } = context;
  if (params.chat_id === undefined || params.chat_id === null || params.chat_id === '') throw badRequest('chat_id is empty');
  const replyMarkup = markup ? readReplyMarkup(params) : undefined;
  const target = targetChat(store, bot, params, { write: true });
  const replyTo = repliedMessage(params);
  const original = replyTo === undefined ? undefined : chatMessagesOf(store, target, bot.id).find((m) => m.message_id === replyTo.messageId);
  if (replyTo !== undefined && !original && !replyTo.allowWithout) throw badRequest('message to be replied not found');
  const threadId = target.kind === 'group' ? sendingThread(target.group, bot.id, threadIdOf(params), original)?.id : undefined;
  return { target, extras: { replyTo: original, markup: replyMarkup, threadId } };
}

/** Stores the bot's message of `content` where `sending` says (counted by the optional sending limits). */
export function sendContent(context: MethodContext, sending: Sending, content: Record<string, unknown>): Message {
  admitOnce(context, sending);
  return storeBotMessage(context, sending.target, content, sending.extras);
}

/** Counts one send to the target against the optional sending limits (429 beyond them). */
export function admitOnce({ limiter, bot }: MethodContext, { target }: Sending): void {
  limiter.admit(bot.id, target.kind === 'group' ? target.group.id : target.user.id);
}

/** Stores a message of `content` from the calling bot in `target`; an inline keyboard is part of the Message, other markup is kept beside it. */
export function storeBotMessage(
  { store, bot }: Pick<MethodContext, 'store' | 'bot'>,
  target: ChatTarget,
  content: Record<string, unknown>,
  extras: MessageExtras,
): Message {
  const build = (messageId: number, date: number): Message => {
    const message: Record<string, unknown> = {
      message_id: messageId,
      from: peerAsSender({ id: bot.id, name: bot.name, username: bot.username }),
      chat: target.kind === 'group' ? groupChat(target.group) : privateChat(target.user),
      date,
    };
    if (extras.forwardedFrom) Object.assign(message, { forward_origin: extras.forwardedFrom.origin }, extras.forwardedFrom.legacy);
    if (extras.replyTo) message.reply_to_message = extras.replyTo;
    if (target.kind === 'group') Object.assign(message, topicFields(store, target.group, extras.threadId, extras.replyTo));
    if (extras.mediaGroupId !== undefined) message.media_group_id = extras.mediaGroupId;
    Object.assign(message, content);
    if (extras.markup?.kind === 'inline') message.reply_markup = extras.markup.markup;
    return message as unknown as Message;
  };
  if (target.kind === 'group') return store.appendGroupMessage(target.group, build, extras.markup);
  return store.appendMessage(target.user.id, { id: bot.id, name: bot.name, username: bot.username, bot }, build, extras.markup);
}

/** `message_thread_id` as every sending method takes it (a forum topic; groups without topics ignore it). */
export function threadIdOf(params: Params): number | undefined {
  const id = integerParam(params, 'message_thread_id');
  return id !== undefined && id > 0 ? id : undefined;
}

function repliedMessage(params: Params): { messageId: number; allowWithout: boolean } | undefined {
  const parameters = jsonParam(params, 'reply_parameters') as { message_id?: unknown; allow_sending_without_reply?: unknown } | undefined;
  if (parameters && typeof parameters === 'object' && typeof parameters.message_id === 'number') {
    return { messageId: parameters.message_id, allowWithout: parameters.allow_sending_without_reply === true };
  }
  const legacy = integerParam(params, 'reply_to_message_id');
  return legacy === undefined ? undefined : { messageId: legacy, allowWithout: booleanParam(params, 'allow_sending_without_reply') };
}
