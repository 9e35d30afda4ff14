// The moderation methods of the Bot API, with the rights checks and descriptions of the real service:
// restrictchatmember and unbanchatmember (supergroups only), banchatmember, approvechatjoinrequest and
// declinechatjoinrequest. Each change is announced as the service announces it: a service message in the
// group for a member removed, chat_member to administrator bots, my_chat_member to a bot whose own status
// changed (group-admins.ts).
import type { Message, User } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { userAsSender } from './chat-messages.js';
import { targetChat } from './chat-target.js';
import { announceMemberChange, botAsUser, hasRight, isAdmin, memberView } from './group-admins.js';
import { groupChat } from './group-chat.js';
import { changeMembership } from './group-membership.js';
import type { MethodContext } from './method-context.js';
import { booleanParam, integerParam, type Params } from './params.js';
import { readPermissions, untilDate } from './permissions.js';
import type { AdminRights, GroupRecord, SandboxStore } from './store.js';

const NO_RESTRICT_RIGHTS = 'not enough rights to restrict/unrestrict chat member';

/** The group of a moderation call, the user it names, and the calling bot's right checked. */
interface Moderated {
  group: GroupRecord;
  user: User;
  actor: User;
}

/**
 * Checks a moderation call as the service does: the user id, the chat (a group the bot is in; `onlyIn`, the
 * refusal when the method is for supergroups only), the user, then the bot's `right` (`refusal` without it).
 */
function moderated(context: MethodContext, params: Params, right: keyof AdminRights, refusal: string, onlyIn?: string): Moderated {
  const { store, bot } = context;
  const userId = integerParam(params, 'user_id') ?? 0;
  if (userId <= 0) throw badRequest('invalid user_id specified');
  const target = targetChat(store, bot, params, { write: true });
  if (target.kind !== 'group') throw badRequest(onlyIn ?? "chat member status can't be changed in private chats");
  const { group } = target;
  if (onlyIn && group.type !== 'supergroup') throw badRequest(onlyIn);
  const known = store.user(userId);
  if (!known) throw badRequest('user not found');
  if (!hasRight(group, bot.id, right)) throw badRequest(refusal);
  return { group, user: userAsSender(known), actor: botAsUser(bot) };
}

/** restrictchatmember: new permissions for a member until a date (all permissions true lifts the restriction). */
export function restrictChatMember(context: MethodContext, params: Params): true {
  const permissions = readPermissions(params);
  const { group, user, actor } = moderated(context, params, 'can_restrict_members', NO_RESTRICT_RIGHTS, 'method is available only for supergroups');
  if (isAdmin(group, user.id)) throw badRequest('user is an administrator of the chat');
  const before = memberView(group, user);
  if (Object.values(permissions).every(Boolean)) group.restricted.delete(user.id);
  else group.restricted.set(user.id, { permissions, until: untilDate(params) });
  announceMemberChange(context.store, group, before, memberView(group, user), actor);
  return true;
}

/** banchatmember: removes the user from the group (a service message says so) and keeps them out until a date. */
export function banChatMember(context: MethodContext, params: Params): true {
  const { store } = context;
  const { group, user, actor } = moderated(context, params, 'can_restrict_members', NO_RESTRICT_RIGHTS);
  refuseAdmins(group, user.id);
  const before = memberView(group, user);
  group.banned.set(user.id, group.type === 'supergroup' ? untilDate(params) : 0);
  group.restricted.delete(user.id);
  // In a basic group the service always deletes the member's messages; in a supergroup only when asked.
  if (group.type === 'group' || booleanParam(params, 'revoke_messages')) removeMessagesOf(store, group, user.id);
  removeMember(store, group, user, actor);
  announceMemberChange(store, group, before, memberView(group, user), actor);
  return true;
}

/**
 * unbanchatmember: the user may join again. As the real service documents, a user who is in the group is
 * removed from it too, unless only_if_banned.
 */
export function unbanChatMember(context: MethodContext, params: Params): true {
  const { store } = context;
  const { group, user, actor } = moderated(
    context,
    params,
    'can_restrict_members',
    NO_RESTRICT_RIGHTS,
    'method is available for supergroup and channel chats only',
  );
  const banned = group.banned.has(user.id) && memberView(group, user).status === 'kicked';
  if (booleanParam(params, 'only_if_banned') && !banned) return true;
  refuseAdmins(group, user.id);
  const before = memberView(group, user);
  group.banned.delete(user.id);
  group.restricted.delete(user.id);
  removeMember(store, group, user, actor);
  const after = memberView(group, user);
  if (before.status !== after.status) announceMemberChange(store, group, before, after, actor);
  return true;
}

/** approvechatjoinrequest: the user who asked to join becomes a member. */
export function approveChatJoinRequest(context: MethodContext, params: Params): true {
  const { group, user } = moderated(context, params, 'can_invite_users', 'CHAT_ADMIN_REQUIRED');
  if (group.memberIds.has(user.id)) throw badRequest('USER_ALREADY_PARTICIPANT');
  const request = group.joinRequests.get(user.id);
  if (!request) throw badRequest('HIDE_REQUESTER_MISSING');
  group.joinRequests.delete(user.id);
  changeMembership(context.store, group, request.user, 'join');
  return true;
}

/** declinechatjoinrequest: the request is dropped; the user stays out. */
export function declineChatJoinRequest(context: MethodContext, params: Params): true {
  const { group, user } = moderated(context, params, 'can_invite_users', 'CHAT_ADMIN_REQUIRED');
  if (!group.joinRequests.delete(user.id)) throw badRequest('HIDE_REQUESTER_MISSING');
  return true;
}

function refuseAdmins(group: GroupRecord, userId: number): void {
  if (userId === group.creatorId) throw badRequest("can't remove chat owner");
  if (group.admins.has(userId)) throw badRequest('user is an administrator of the chat');
}

/** Takes the user out of the group's members, with the service message the group's other bots receive. */
function removeMember(store: SandboxStore, group: GroupRecord, user: User, actor: User): void {
  if (!group.memberIds.delete(user.id)) return;
  group.admins.delete(user.id);
  const message = store.appendGroupMessage(group, (messageId, date) => ({
    message_id: messageId,
    from: actor,
    chat: groupChat(group),
    date,
    left_chat_member: user,
  })) as Message;
  for (const other of store.allBots()) if (other.id !== actor.id && group.botIds.has(other.id)) other.queue.push(message);
}

function removeMessagesOf(store: SandboxStore, group: GroupRecord, userId: number): void {
  const ref = { userId: group.id, peer: '', groupId: group.id };
  for (const message of store.groupMessages(group.id).filter((m) => m.from?.id === userId)) store.removeMessage(ref, message.message_id);
}
