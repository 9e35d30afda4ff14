// The chat a Bot API call names by `chat_id`, checked as the real service checks it: a user who wrote to the
// bot (private chat; or whose join request to a group the bot administers waits) or a group the bot is in, with the
// service's 400 and 403 descriptions.
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
  // As on the service, an administrator bot may write first to a user whose join request waits (for 5 minutes).
  const opened = store.hasChat(user.id, bot.id) || (write && asksToJoin(store, bot, user.id));
  if (write && !opened) throw forbidden("bot can't initiate conversation with a user");
  if (!opened) throw badRequest('chat not found');
  return { kind: 'private', user, ref: { userId: user.id, peer: bot.username, peerId: bot.id } };
}

/** How long after a join request the bot may write to the user first (the service's ChatJoinRequest.user_chat_id). */
const JOIN_REQUEST_CONTACT_S = 5 * 60;

/** Whether the user has a join request of at most 5 minutes waiting in a group where the bot may answer it. */
function asksToJoin(store: SandboxStore, bot: BotRecord, userId: number): boolean {
  const now = Math.floor(Date.now() / 1000);
  return store.allGroups().some((group) => {
    const request = group.joinRequests.get(userId);
    return (
      request !== undefined && now - request.date <= JOIN_REQUEST_CONTACT_S && group.botIds.has(bot.id) && group.admins.get(bot.id)?.can_invite_users === true
    );
  });
}

/** The messages of the chat, oldest first. */
export function chatMessagesOf(store: SandboxStore, target: ChatTarget, botId: number): Message[] {
  return target.kind === 'group' ? store.groupMessages(target.group.id) : store.messages(target.user.id, botId);
}
