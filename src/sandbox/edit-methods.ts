// editmessagetext, editmessagereplymarkup and deletemessage on messages of private chats and groups, with the
// real service's checks and descriptions. As on the real service, an edit without reply_markup removes the
// message's inline keyboard, and an edit that changes nothing is refused ("message is not modified").
import type { InlineKeyboardMarkup, Message, MessageEntity } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { chatMessagesOf, targetChat, type ChatTarget } from './chat-target.js';
import type { MethodContext } from './method-context.js';
import type { MessageMeta, StoredMarkup } from './message-meta.js';
import { integerParam, stringParam, type Params } from './params.js';
import { readReplyMarkup } from './reply-markup.js';
import { messageText } from './send-message.js';
const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

interface Located {
  target: ChatTarget;
  message: Message;
  meta: MessageMeta;
}

/** editmessagetext: new text (parse_mode as for sendmessage) and optionally a new inline keyboard. */
export function editMessageText(context: MethodContext, params: Params): Message {
  const { text, entities } = messageText(params);
  const keyboard = inlineMarkup(params);
  const { target, message, meta } = editable(context, params);
  if (message.text === undefined) throw badRequest('there is no text in the message to edit');
  const sameEntities = JSON.stringify(message.entities ?? []) === JSON.stringify(entities);
  if (message.text === text && sameEntities && sameKeyboard(message.reply_markup, keyboard)) throw badRequest(NOT_MODIFIED);
  return applyEdit(context, target, message, meta, { text, entities, keyboard });
}

/** editmessagereplymarkup: a new inline keyboard, or none. */
export function editMessageReplyMarkup(context: MethodContext, params: Params): Message {
  const keyboard = inlineMarkup(params);
  const { target, message, meta } = editable(context, params);
  if (sameKeyboard(message.reply_markup, keyboard)) throw badRequest(NOT_MODIFIED);
  return applyEdit(context, target, message, meta, { text: message.text ?? '', entities: message.entities ?? [], keyboard });
}

/** deletemessage: removes the message for everyone in the chat. */
export function deleteMessage({ store, bot }: MethodContext, params: Params): true {
  if (params.chat_id === undefined || params.chat_id === '') throw badRequest('chat identifier is not specified');
  const messageId = integerParam(params, 'message_id') ?? 0;
  if (messageId === 0) throw badRequest('message identifier is not specified');
  const target = targetChat(store, bot, params, { write: false });
  const message = chatMessagesOf(store, target, bot.id).find((candidate) => candidate.message_id === messageId);
  if (!message) throw badRequest('message to delete not found');
  // Bots delete anything in private chats; in groups only their own messages (they are never admins here).
  if (target.kind === 'group' && message.from?.id !== bot.id) throw badRequest("message can't be deleted");
  store.removeMessage(target.ref, messageId);
  return true;
}

function inlineMarkup(params: Params): InlineKeyboardMarkup | undefined {
  const markup: StoredMarkup | undefined = readReplyMarkup(params);
  if (markup && markup.kind !== 'inline') throw badRequest('inline keyboard expected');
  return markup?.markup as InlineKeyboardMarkup | undefined;
}

/** The bot's own message named by chat_id and message_id (inline messages do not exist in the sandbox). */
function editable({ store, bot }: MethodContext, params: Params): Located {
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

function applyEdit(
  { store }: MethodContext,
  target: ChatTarget,
  message: Message,
  meta: MessageMeta,
  { text, entities, keyboard }: { text: string; entities: MessageEntity[]; keyboard: InlineKeyboardMarkup | undefined },
): Message {
  const editable = message as Message & { text?: string; entities?: MessageEntity[]; edit_date?: number; reply_markup?: InlineKeyboardMarkup };
  meta.edits.push({
    text: editable.text ?? '',
    ...(editable.reply_markup ? { reply_markup: editable.reply_markup } : {}),
    ...(editable.edit_date !== undefined ? { edit_date: editable.edit_date } : {}),
  });
  editable.text = text;
  if (entities.length > 0) editable.entities = entities;
  else delete editable.entities;
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

function sameKeyboard(current: InlineKeyboardMarkup | undefined, next: InlineKeyboardMarkup | undefined): boolean {
  return JSON.stringify(current ?? null) === JSON.stringify(next ?? null);
}
