// editmessagetext, editmessagereplymarkup, deletemessage and deletemessages on messages of private chats and
// groups, with the real service's checks and descriptions (a group's others' messages only with the right to). As on the real service, an edit without
// reply_markup removes the message's inline keyboard, and an edit that changes nothing is refused ("message
// is not modified"). The caption and media edits (media-edits.ts) share `editable` and `applyEdit`.
import type { InlineKeyboardMarkup, Message } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { chatMessagesOf, targetChat, type ChatTarget } from './chat-target.js';
import { hasRight, isAdmin } from './group-admins.js';
import type { MethodContext } from './method-context.js';
import type { MessageMeta, StoredMarkup } from './message-meta.js';
import { integerParam, jsonParam, stringParam, type Params } from './params.js';
import { readReplyMarkup } from './reply-markup.js';
import { messageText } from './send-message.js';

export const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
const MAX_DELETE = 100;
/** Bots delete messages up to 48 hours old. */
const DELETE_WINDOW_SECONDS = 48 * 3600;

/** A message found for an edit: its chat, the Message and what the sandbox keeps beside it. */
export interface Located {
  target: ChatTarget;
  message: Message;
  meta: MessageMeta;
}

/** editmessagetext: new text (parse_mode or entities as for sendmessage) and optionally a new inline keyboard. */
export function editMessageText(context: MethodContext, params: Params): Message {
  const { text, entities } = messageText(params);
  const keyboard = inlineMarkup(params);
  const located = editable(context, params);
  const { message } = located;
  if (message.text === undefined) throw badRequest('there is no text in the message to edit');
  const sameEntities = JSON.stringify(message.entities ?? []) === JSON.stringify(entities);
  if (message.text === text && sameEntities && sameKeyboard(message.reply_markup, keyboard)) throw badRequest(NOT_MODIFIED);
  return applyEdit(context, located, { text, entities: entities.length > 0 ? entities : undefined }, keyboard);
}

/** editmessagereplymarkup: a new inline keyboard, or none. */
export function editMessageReplyMarkup(context: MethodContext, params: Params): Message {
  const keyboard = inlineMarkup(params);
  const located = editable(context, params);
  if (sameKeyboard(located.message.reply_markup, keyboard)) throw badRequest(NOT_MODIFIED);
  return applyEdit(context, located, {}, keyboard);
}

/** deletemessage: removes the message for everyone in the chat. */
export function deleteMessage({ store, bot }: MethodContext, params: Params): true {
  if (params.chat_id === undefined || params.chat_id === '') throw badRequest('chat identifier is not specified');
  const messageId = integerParam(params, 'message_id') ?? 0;
  if (messageId === 0) throw badRequest('message identifier is not specified');
  const target = targetChat(store, bot, params, { write: false });
  const message = chatMessagesOf(store, target, bot.id).find((candidate) => candidate.message_id === messageId);
  if (!message) throw badRequest('message to delete not found');
  const refusal = deleteRefusal(target, message, bot.id);
  if (refusal) throw badRequest(refusal);
  store.removeMessage(target.ref, messageId);
  return true;
}

/**
 * deletemessages: up to 100 messages of one chat; those missing are skipped, as the service skips them, and
 * any the bot may not delete makes the whole call fail.
 */
export function deleteMessages({ store, bot }: MethodContext, params: Params): true {
  const ids = jsonParam(params, 'message_ids');
  if (ids === undefined || ids === '') throw badRequest('message identifiers are not specified');
  if (!Array.isArray(ids)) throw badRequest('expected an Array of message identifiers');
  if (ids.length > MAX_DELETE) throw badRequest('too many message identifiers specified');
  if (ids.length === 0) throw badRequest('message identifiers are not specified');
  if (ids.some((id) => typeof id !== 'number' && !(typeof id === 'string' && /^\d+$/.test(id)))) throw badRequest('message identifier must be a Number');
  const target = targetChat(store, bot, params, { write: false });
  const messages = chatMessagesOf(store, target, bot.id);
  const found = ids.map((id) => messages.find((candidate) => candidate.message_id === Number(id))).filter((m): m is Message => m !== undefined);
  const refusal = found.map((message) => deleteRefusal(target, message, bot.id)).find((why) => why !== undefined);
  if (refusal) throw badRequest(refusal);
  for (const message of found) store.removeMessage(target.ref, message.message_id);
  return true;
}

/**
 * Why the bot may not delete the message, in the service's words, or undefined when it may: nothing older than
 * 48 hours; in private chats anything; in groups its own messages, and others' as an administrator of a basic
 * group or with can_delete_messages in a supergroup.
 */
function deleteRefusal(target: ChatTarget, message: Message, botId: number): string | undefined {
  if (Math.floor(Date.now() / 1000) - message.date > DELETE_WINDOW_SECONDS) return "message can't be deleted for everyone";
  if (target.kind !== 'group' || message.from?.id === botId) return undefined;
  const { group } = target;
  const allowed = group.type === 'group' ? isAdmin(group, botId) : hasRight(group, botId, 'can_delete_messages');
  return allowed ? undefined : "message can't be deleted";
}

/** The inline keyboard of an edit (any other markup is refused), or undefined for none. */
export function inlineMarkup(params: Params): InlineKeyboardMarkup | undefined {
  const markup: StoredMarkup | undefined = readReplyMarkup(params);
  if (markup && markup.kind !== 'inline') throw badRequest('inline keyboard expected');
  return markup?.markup as InlineKeyboardMarkup | undefined;
}

/** The bot's own message named by chat_id and message_id (inline messages do not exist in the sandbox). */
export function editable({ store, bot }: MethodContext, params: Params): Located {
  const messageId = integerParam(params, 'message_id') ?? 0;
  if ((params.chat_id === undefined || params.chat_id === '') && messageId === 0) {
    if ((stringParam(params, 'inline_message_id') ?? '') === '') throw badRequest('message identifier is not specified');
    throw badRequest('MESSAGE_ID_INVALID');
  }
  const target = targetChat(store, bot, params, { write: false });
  const message = chatMessagesOf(store, target, bot.id).find((candidate) => candidate.message_id === messageId);
  const meta = message && store.messageMeta(target.ref, messageId);
  if (!message || !meta) throw badRequest('message to edit not found');
  // Only the bot's own messages can be edited, and not those that brought a reply keyboard.
  if (message.from?.id !== bot.id || (meta.markup && meta.markup.kind !== 'inline')) throw badRequest("message can't be edited");
  return { target, message, meta };
}

/**
 * Changes the message in place: each field of `changes` set (undefined deletes it), the inline keyboard
 * replaced (none removes it), `edit_date` set; the earlier version is kept for the client API.
 */
export function applyEdit(
  { store }: MethodContext,
  { target, message, meta }: Located,
  changes: Record<string, unknown>,
  keyboard: InlineKeyboardMarkup | undefined,
): Message {
  const editable = message as unknown as Record<string, unknown> & { edit_date?: number; reply_markup?: InlineKeyboardMarkup };
  const earlier: Record<string, unknown> = {};
  // The text stays in every earlier version of a text message, as the client API always showed it (entities do not).
  for (const field of editable.text !== undefined ? ['text', ...Object.keys(changes)] : Object.keys(changes)) {
    if (editable[field] !== undefined && !field.endsWith('entities') && !(field in earlier)) earlier[field] = editable[field];
  }
  if (editable.reply_markup) earlier.reply_markup = editable.reply_markup;
  if (editable.edit_date !== undefined) earlier.edit_date = editable.edit_date;
  meta.edits.push(earlier);
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) delete editable[field];
    else editable[field] = value;
  }
  editable.edit_date = Math.floor(Date.now() / 1000);
  if (keyboard) {
    editable.reply_markup = keyboard;
    meta.markup = { kind: 'inline', markup: keyboard };
  } else {
    delete editable.reply_markup;
    delete meta.markup;
  }
  store.changed(target.ref, 'edited', message.message_id);
  return structuredClone(message);
}

export function sameKeyboard(current: InlineKeyboardMarkup | undefined, next: InlineKeyboardMarkup | undefined): boolean {
  return JSON.stringify(current ?? null) === JSON.stringify(next ?? null);
}
