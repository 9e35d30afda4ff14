// Group administrators: the group's creator (status `creator`, every right) and the users and bots promoted
// with rights (status `administrator`), and every other member's status (restricted, kicked, member, left),
// as ChatMember objects shaped the way the real service shapes them
// (the rights a basic group has no use for, such as can_manage_topics, left out there). A bot promoted or
// demoted learns it from my_chat_member; administrator bots that asked for chat_member learn of the others.
import type { ChatMember, ChatMemberUpdated, User } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { peerAsSender, userAsSender } from './chat-messages.js';
import { groupChat } from './group-chat.js';
import { isBanned, permissionsView, restrictionOf, type Permissions } from './permissions.js';
import type { AdminRights, BotRecord, GroupRecord, SandboxStore } from './store.js';

/** Every right an administrator can hold, in the order the service lists them. */
export const RIGHT_NAMES: readonly (keyof AdminRights)[] = [
  'can_manage_chat',
  'can_change_info',
  'can_delete_messages',
  'can_invite_users',
  'can_restrict_members',
  'can_pin_messages',
  'can_manage_topics',
  'can_promote_members',
  'can_manage_video_chats',
  'can_post_stories',
  'can_edit_stories',
  'can_delete_stories',
  'can_manage_tags',
  'is_anonymous',
];

/** Every right but anonymity: what an administrator promoted without a list of rights holds. */
export function allRights(): AdminRights {
  return Object.fromEntries(RIGHT_NAMES.map((name) => [name, name !== 'is_anonymous'])) as unknown as AdminRights;
}

/**
 * The rights a client request gives: all of them when `value` is absent; otherwise each right named takes
 * its value and the others are false. An unknown name or a value other than true/false is a 400.
 */
export function readRights(value: unknown): AdminRights {
  if (value === undefined) return allRights();
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest('rights must be an object like {"can_delete_messages": true}');
  const rights = Object.fromEntries(RIGHT_NAMES.map((name) => [name, false])) as unknown as AdminRights;
  for (const [name, given] of Object.entries(value)) {
    if (!(RIGHT_NAMES as readonly string[]).includes(name)) throw badRequest(`unknown right "${name}"; the rights are ${RIGHT_NAMES.join(', ')}`);
    if (typeof given !== 'boolean') throw badRequest(`rights.${name} must be true or false`);
    rights[name as keyof AdminRights] = given;
  }
  return rights;
}

/** Whether `id` (a user or a bot) administers the group: its creator or a promoted member. */
export function isAdmin(group: GroupRecord, id: number): boolean {
  return id === group.creatorId || group.admins.has(id);
}

/** Whether `id` holds `right` in the group (the creator holds every right). */
export function hasRight(group: GroupRecord, id: number, right: keyof AdminRights): boolean {
  return id === group.creatorId || group.admins.get(id)?.[right] === true;
}

/** The rights as the service shows them for this kind of group (can_manage_topics only in supergroups). */
export function rightsView(rights: AdminRights, group: Pick<GroupRecord, 'type'>): Record<string, boolean> {
  const shown = RIGHT_NAMES.filter((name) => name !== 'can_manage_topics' || group.type === 'supergroup');
  return Object.fromEntries(shown.map((name) => [name, rights[name]]));
}

/** The ChatMember of `user` in the group: creator, administrator with its rights, kicked (banned), restricted, member, or left. */
export function memberView(group: GroupRecord, user: User): ChatMember {
  if (user.id === group.creatorId && group.memberIds.has(user.id)) return { status: 'creator', user, is_anonymous: false } as ChatMember;
  const rights = group.admins.get(user.id);
  if (rights) {
    return {
      status: 'administrator',
      user,
      can_be_edited: false,
      ...rightsView(rights, group),
      can_manage_voice_chats: rights.can_manage_video_chats,
    } as unknown as ChatMember;
  }
  if (isBanned(group, user.id)) return { status: 'kicked', user, until_date: group.banned.get(user.id) } as ChatMember;
  const inGroup = user.is_bot ? group.botIds.has(user.id) : group.memberIds.has(user.id);
  const restriction = restrictionOf(group, user.id);
  if (restriction && group.type === 'supergroup') {
    const permissions = permissionsView(restriction.permissions as Permissions);
    return { status: 'restricted', user, until_date: restriction.until, ...permissions, is_member: inGroup } as unknown as ChatMember;
  }
  return { status: inGroup ? 'member' : 'left', user } as ChatMember;
}

/** The User object of a participant (a sandbox user or a bot), or undefined for an unknown id. */
export function participantUser(store: SandboxStore, id: number): User | undefined {
  const bot = store.allBots().find((candidate) => candidate.id === id);
  if (bot) return botAsUser(bot);
  const user = store.user(id);
  return user ? userAsSender(user) : undefined;
}

export function botAsUser(bot: BotRecord): User {
  return peerAsSender({ id: bot.id, name: bot.name, username: bot.username });
}

/**
 * Promotes a member of the group (a user or a bot) to administrator with `rights`, or demotes them to a
 * plain member when no right is true; done by the group's creator. A bot learns of its own change from
 * my_chat_member, administrator bots that asked for chat_member of everyone else's.
 */
export function promote(store: SandboxStore, group: GroupRecord, target: User, rights: AdminRights): void {
  const inGroup = target.is_bot ? group.botIds.has(target.id) : group.memberIds.has(target.id);
  if (!inGroup) throw badRequest(`${target.is_bot ? `@${target.username}` : `user ${target.id}`} is not a member of the group ${group.id}`);
  if (target.id === group.creatorId) throw badRequest(`user ${target.id} created the group ${group.id} and holds every right already`);
  const before = memberView(group, target);
  if (RIGHT_NAMES.some((name) => rights[name])) group.admins.set(target.id, rights);
  else group.admins.delete(target.id);
  announceMemberChange(store, group, before, memberView(group, target));
}

/** Tells the group's bots that a member's status changed (by the group's creator): my_chat_member to the member itself, chat_member to admin bots. */
export function announceMemberChange(store: SandboxStore, group: GroupRecord, before: ChatMember, after: ChatMember, by?: User): void {
  const creator = store.user(group.creatorId);
  const from = by ?? (creator ? userAsSender(creator) : before.user);
  const change = { chat: groupChat(group), from, date: Math.floor(Date.now() / 1000), old_chat_member: before, new_chat_member: after } as ChatMemberUpdated;
  for (const bot of store.allBots()) {
    if (bot.id === after.user.id) bot.queue.pushMyChatMember(change);
    else if (group.botIds.has(bot.id) && isAdmin(group, bot.id)) bot.queue.pushChatMember(change);
  }
}

/**
 * getchatadministrators' list: the creator, then the administrators in the order they were promoted; bots
 * other than `callerId` only with `returnBots`, as on the real service.
 */
export function administrators(store: SandboxStore, group: GroupRecord, callerId: number, returnBots: boolean): ChatMember[] {
  const ids = [...(group.memberIds.has(group.creatorId) ? [group.creatorId] : []), ...group.admins.keys()];
  return ids
    .map((id) => participantUser(store, id))
    .filter((user): user is User => user !== undefined && (!user.is_bot || returnBots || user.id === callerId))
    .map((user) => memberView(group, user));
}
