// A bot's own membership, as the real service reports it with `my_chat_member` (on by default in
// allowed_updates): added to a group (when it is created, or later by a member), removed from one, blocked or
// unblocked by a user in its private chat. A bot added or removed later is also a service message in the
// group (`new_chat_members` / `left_chat_member`), which every bot of the group receives.
import type { ChatMember, ChatMemberUpdated, Message, User } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { peerAsSender, privateChat, userAsSender } from './chat-messages.js';
import { memberView } from './group-admins.js';
import { groupChat } from './group-chat.js';
import type { BotRecord, GroupRecord, SandboxStore, SandboxUser } from './store.js';

/** A member's status as a ChatMember object, for the changes that involve no rights (see group-admins.ts for those). */
export type MemberStatus = 'member' | 'left' | 'kicked';

/** The ChatMember of `user` with `status`; a kicked member is kicked for good (until_date 0). */
export function chatMemberOf(user: User, status: MemberStatus): ChatMember {
  return (status === 'kicked' ? { status, user, until_date: 0 } : { status, user }) as ChatMember;
}

/** The ChatMemberUpdated of `member` in `chat`, changed by `from` from one status to another. */
export function memberChange(chat: ChatMemberUpdated['chat'], from: User, member: User, before: MemberStatus, after: MemberStatus): ChatMemberUpdated {
  return {
    chat,
    from,
    date: Math.floor(Date.now() / 1000),
    old_chat_member: chatMemberOf(member, before),
    new_chat_member: chatMemberOf(member, after),
  } as ChatMemberUpdated;
}

/** The bots of a new group learn that they were added to it (by its first member), as members or administrators. */
export function announceNewGroup(store: SandboxStore, group: GroupRecord, creator: SandboxUser): void {
  for (const bot of botsOf(store, group)) {
    const change = memberChange(groupChat(group), userAsSender(creator), botUser(bot), 'left', 'member');
    bot.queue.pushMyChatMember({ ...change, new_chat_member: memberView(group, botUser(bot)) });
  }
}

/**
 * A member adds `bot` to the group, or removes it: the group gets the service message, every bot of the group
 * (the one added included, the one removed not) receives it, and `bot` gets its my_chat_member.
 */
export function changeBotMembership(store: SandboxStore, group: GroupRecord, by: SandboxUser, bot: BotRecord, change: 'add' | 'remove'): Message {
  if (!group.memberIds.has(by.id)) throw badRequest(`user ${by.id} is not a member of the group ${group.id}`);
  const present = group.botIds.has(bot.id);
  if (change === 'add' && present) throw badRequest(`@${bot.username} is already a member of the group ${group.id}`);
  if (change === 'remove' && !present) throw badRequest(`@${bot.username} is not a member of the group ${group.id}`);
  if (change === 'add') group.botIds.add(bot.id);
  else {
    group.botIds.delete(bot.id);
    group.admins.delete(bot.id);
  }
  const sender = userAsSender(by);
  const member = botUser(bot);
  const message = store.appendGroupMessage(group, (messageId, date) => ({
    message_id: messageId,
    from: sender,
    chat: groupChat(group),
    date,
    ...(change === 'add' ? { new_chat_members: [member] } : { left_chat_member: member }),
  })) as Message;
  for (const other of botsOf(store, group)) other.queue.push(message);
  // A bot removed from a supergroup is banned from it; from a basic group it has just left.
  const removed: MemberStatus = group.type === 'supergroup' ? 'kicked' : 'left';
  const [before, after]: [MemberStatus, MemberStatus] = change === 'add' ? ['left', 'member'] : ['member', removed];
  bot.queue.pushMyChatMember(memberChange(groupChat(group), sender, member, before, after));
  return message;
}

/** The user blocked (or unblocked) the bot in their private chat: the bot learns it from my_chat_member. */
export function announceBlock(bot: BotRecord, user: SandboxUser, blocked: boolean): void {
  const [before, after]: [MemberStatus, MemberStatus] = blocked ? ['member', 'kicked'] : ['kicked', 'member'];
  bot.queue.pushMyChatMember(memberChange(privateChat(user), userAsSender(user), botUser(bot), before, after));
}

function botUser(bot: BotRecord): User {
  return peerAsSender({ id: bot.id, name: bot.name, username: bot.username });
}

function botsOf(store: SandboxStore, group: GroupRecord): BotRecord[] {
  return store.allBots().filter((bot) => group.botIds.has(bot.id));
}
