// A user joins or leaves a group (POST /client/groups/:id/join and /leave). As on the real service, the group
// gets a service message (`new_chat_members` / `left_chat_member`) that every bot in it receives whatever its
// privacy mode, and administrator bots that listed `chat_member` in allowed_updates also get a `chat_member`
// update. A member who leaves is no longer an administrator.
import type { ChatJoinRequest, ChatMemberUpdated, Message } from '@grammyjs/types';
import { badRequest, forbidden } from './api-failure.js';
import { isBanned } from './permissions.js';
import { userAsSender } from './chat-messages.js';
import { groupChat } from './group-chat.js';
import type { GroupRecord, SandboxStore, SandboxUser } from './store.js';

export type MembershipChange = 'join' | 'leave';

/**
 * Adds the user to the group or removes them, stores the service message and queues the updates for the
 * group's bots. Joining a group one is in, or leaving one one is not in, is a 400 and changes nothing.
 */
export function changeMembership(store: SandboxStore, group: GroupRecord, user: SandboxUser, change: MembershipChange): Message {
  const member = group.memberIds.has(user.id);
  if (change === 'join' && member) throw badRequest(`user ${user.id} is already a member of the group ${group.id}`);
  if (change === 'leave' && !member) throw badRequest(`user ${user.id} is not a member of the group ${group.id}`);
  if (change === 'join' && isBanned(group, user.id)) throw forbidden(`user ${user.id} is banned from the group ${group.id}`);
  // The member list changes first, so a reader woken by the service message already sees the new membership.
  if (change === 'join') group.memberIds.add(user.id);
  else {
    group.memberIds.delete(user.id);
    group.admins.delete(user.id);
  }
  const sender = userAsSender(user);
  const message = store.appendGroupMessage(group, (messageId, date) => ({
    message_id: messageId,
    from: sender,
    chat: groupChat(group),
    date,
    ...(change === 'join' ? { new_chat_members: [sender] } : { left_chat_member: sender }),
  })) as Message;
  const update = chatMemberUpdate(group, user, change, message.date);
  for (const bot of store.allBots()) {
    if (!group.botIds.has(bot.id)) continue;
    bot.queue.push(message);
    // As on the real service, only administrators learn of other members' changes.
    if (group.admins.has(bot.id)) bot.queue.pushChatMember(update);
  }
  return message;
}

/**
 * A user asks to join a group that approves new members: the request waits for an administrator, and every
 * administrator bot with can_invite_users gets a chat_join_request update. Asking twice is a 400.
 */
export function requestToJoin(store: SandboxStore, group: GroupRecord, user: SandboxUser): void {
  if (group.memberIds.has(user.id)) throw badRequest(`user ${user.id} is already a member of the group ${group.id}`);
  if (isBanned(group, user.id)) throw forbidden(`user ${user.id} is banned from the group ${group.id}`);
  if (group.joinRequests.has(user.id)) throw badRequest(`user ${user.id} already asked to join the group ${group.id}; an administrator decides`);
  const date = Math.floor(Date.now() / 1000);
  group.joinRequests.set(user.id, { user, date });
  const request = { chat: groupChat(group), from: userAsSender(user), user_chat_id: user.id, date } as ChatJoinRequest;
  for (const bot of store.allBots()) {
    if (group.botIds.has(bot.id) && (group.admins.get(bot.id)?.can_invite_users ?? false)) bot.queue.pushChatJoinRequest(request);
  }
}

/** The `chat_member` update of a user who joined or left on their own (so `from` is the member). */
function chatMemberUpdate(group: GroupRecord, user: SandboxUser, change: MembershipChange, date: number): ChatMemberUpdated {
  const member = userAsSender(user);
  const [before, after] = change === 'join' ? (['left', 'member'] as const) : (['member', 'left'] as const);
  return {
    chat: groupChat(group),
    from: member,
    date,
    old_chat_member: { status: before, user: member },
    new_chat_member: { status: after, user: member },
  } as ChatMemberUpdated;
}
