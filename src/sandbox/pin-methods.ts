// pinchatmessage, unpinchatmessage and unpinallchatmessages. In a group the bot needs can_pin_messages, as on
// the real service (`not enough rights to manage pinned messages in the chat`); a pin posts the service
// message `pinned_message`, which the group's other bots receive. getchat shows the latest pinned message.
import type { Message } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { chatMessagesOf, targetChat, type ChatTarget } from './chat-target.js';
import { botAsUser, hasRight } from './group-admins.js';
import { groupChat } from './group-chat.js';
import type { MethodContext } from './method-context.js';
import { integerParam, type Params } from './params.js';

const NO_PIN_RIGHTS = 'not enough rights to manage pinned messages in the chat';

/** pinchatmessage: pins a message of the chat. */
export function pinChatMessage(context: MethodContext, params: Params): true {
  const { store, bot } = context;
  const { target, message } = located(context, params, 'message to pin not found');
  if (target.kind === 'group' && !hasRight(target.group, bot.id, 'can_pin_messages')) throw badRequest(NO_PIN_RIGHTS);
  const pins = store.pins(target.ref);
  if (pins.includes(message.message_id)) pins.splice(pins.indexOf(message.message_id), 1);
  pins.push(message.message_id);
  if (target.kind === 'group') {
    const { group } = target;
    const actor = botAsUser(bot);
    const notice = store.appendGroupMessage(group, (messageId, date) => ({
      message_id: messageId,
      from: actor,
      chat: groupChat(group),
      date,
      pinned_message: message,
    })) as Message;
    for (const other of store.allBots()) if (other.id !== bot.id && group.botIds.has(other.id)) other.queue.push(notice);
  }
  return true;
}

/** unpinchatmessage: unpins the message named, or the latest pinned one. */
export function unpinChatMessage(context: MethodContext, params: Params): true {
  const { store, bot } = context;
  const target = targetChat(store, bot, params, { write: true });
  if (target.kind === 'group' && !hasRight(target.group, bot.id, 'can_pin_messages')) throw badRequest(NO_PIN_RIGHTS);
  const messageId = integerParam(params, 'message_id');
  if (messageId !== undefined && messageId > 0) {
    if (!chatMessagesOf(store, target, bot.id).some((m) => m.message_id === messageId)) throw badRequest('message to unpin not found');
  }
  const pins = store.pins(target.ref);
  const unpinned = messageId !== undefined && messageId > 0 ? messageId : pins.at(-1);
  if (unpinned !== undefined && pins.includes(unpinned)) pins.splice(pins.indexOf(unpinned), 1);
  return true;
}

/** unpinallchatmessages: unpins every message of the chat. */
export function unpinAllChatMessages(context: MethodContext, params: Params): true {
  const { store, bot } = context;
  const target = targetChat(store, bot, params, { write: true });
  if (target.kind === 'group' && !hasRight(target.group, bot.id, 'can_pin_messages')) throw badRequest(NO_PIN_RIGHTS);
  store.pins(target.ref).length = 0;
  return true;
}

function located({ store, bot }: MethodContext, params: Params, notFound: string): { target: ChatTarget; message: Message } {
  const target = targetChat(store, bot, params, { write: true });
  const messageId = integerParam(params, 'message_id') ?? 0;
  if (messageId <= 0) throw badRequest('message identifier is not specified');
  const message = chatMessagesOf(store, target, bot.id).find((candidate) => candidate.message_id === messageId);
  if (!message) throw badRequest(notFound);
  return { target, message };
}
