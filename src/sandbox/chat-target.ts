// The chat a Bot API call names by `chat_id`, checked as the real service checks it: a user who wrote to the
// bot (private chat) or a group the bot is in, with the service's 400 and 403 descriptions.
import type { Message } from '@grammyjs/types';
import { badRequest, forbidden } from './api-failure.js';
import type { ChatRef } from './message-meta.js';
import { integerParam, type Params } from './params.js';
import type { BotRecord, GroupRecord, SandboxStore, SandboxUser } from './store.js';

export type ChatTarget = { kind: 'private'; user: SandboxUser; ref: ChatRef } | { kind: 'group'; group: GroupRecord; ref: ChatRef };

/**
 * Resolves `chat_id` for `bot`. With `write` (sending, chat actions), a user who blocked the bot or never
 * wrote to it is refused with 403, as for sendmessage.
 */
export function targetChat(store: SandboxStore, bot: BotRecord, params: Params, { write }: { write: boolean }): ChatTarget {
  const rawChatId = params.chat_id;
  if (rawChatId === undefined || rawChatId === null || rawChatId === '') throw badRequest('chat_id is empty');
  const chatId = integerParam(params, 'chat_id');
  const group = chatId === undefined || chatId >= 0 ? undefined : store.group(chatId);
  if (group) {
    if (!group.botIds.has(bot.id)) throw forbidden(`bot is not a member of the ${group.type} chat`);
    return { kind: 'group', group, ref: { userId: group.id, peer: '', groupId: group.id } };
  }
  const user = chatId === undefined ? undefined : store.user(chatId);
  if (!user) throw badRequest('chat not found');
  if (write && store.isBlocked(user.id, bot.id)) throw forbidden('bot was blocked by the user');
  if (write && !store.hasChat(user.id, bot.id)) throw forbidden("bot can't initiate conversation with a user");
  if (!store.hasChat(user.id, bot.id)) throw badRequest('chat not found');
  return { kind: 'private', user, ref: { userId: user.id, peer: bot.username, peerId: bot.id } };
}

/** The messages of the chat, oldest first. */
export function chatMessagesOf(store: SandboxStore, target: ChatTarget, botId: number): Message[] {
  return target.kind === 'group' ? store.groupMessages(target.group.id) : store.messages(target.user.id, botId);
}
