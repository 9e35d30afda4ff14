// The user side of groups: create a group of users and bots (some of them administrators), join or leave one,
// post in it as a member, read it, add a bot to it or remove one, promote a member. Reached through POST
// /client/groups (and /:id/join, /:id/leave, /:id/add-bot, /:id/remove-bot, /:id/promote) and the `chat` form
// of /client/send and /client/messages.
import type { FastifyInstance } from 'fastify';
import type { Message } from '@grammyjs/types';
import { badRequest, forbidden } from './api-failure.js';
import { announceNewGroup, changeBotMembership } from './bot-membership.js';
import { botAsUser, promote, readRights } from './group-admins.js';
import { deliverToGroupBots, storeGroupUserMessage } from './group-chat.js';
import { changeMembership, requestToJoin, type MembershipChange } from './group-membership.js';
import { sendRefusal } from './permissions.js';
import { userAsSender } from './chat-messages.js';
import type { AdminRights, BotRecord, GroupRecord, GroupType, SandboxStore, SandboxUser } from './store.js';
import { sendingThread, topicFields } from './forum-topics.js';

const MAX_TITLE_LENGTH = 128;

export interface GroupRoutesOptions {
  store: SandboxStore;
  readUser(value: unknown): SandboxUser;
  objectBody(body: unknown): Record<string, unknown>;
}

export async function groupRoutes(app: FastifyInstance, { store, readUser, objectBody }: GroupRoutesOptions): Promise<void> {
  app.post('/client/groups', async (request) => {
    const body = objectBody(request.body);
    const title = body.title;
    if (typeof title !== 'string' || title.trim() === '') throw badRequest('title must be a non-empty string');
    if (title.length > MAX_TITLE_LENGTH) throw badRequest(`title must be at most ${MAX_TITLE_LENGTH} characters`);
    const type = groupType(body);
    if (!Array.isArray(body.members) || body.members.length === 0) {
      throw badRequest('members must be a non-empty list of users like {"id": 1001, "first_name": "Ann"}');
    }
    const members = body.members.map((member) => store.rememberUser(readUser(member)));
    const botNames = body.bots ?? [];
    if (!Array.isArray(botNames)) throw badRequest('bots must be a list of bot usernames');
    const botIds = botNames.map((name) => {
      const bot = typeof name === 'string' ? store.peerByUsername(name)?.bot : undefined;
      if (!bot) throw badRequest(`there is no bot with the username @${String(name).replace(/^@/, '')}`);
      return bot.id;
    });
    const memberIds = members.map((member) => member.id);
    const admins = readAdmins(store, body.admins, memberIds, botIds);
    if (body.join_by_request !== undefined && typeof body.join_by_request !== 'boolean') throw badRequest('join_by_request must be true or false');
    const group = store.createGroup(title, type as GroupType, memberIds, botIds);
    group.joinByRequest = body.join_by_request === true;
    for (const [id, rights] of admins) if (id !== group.creatorId) group.admins.set(id, rights);
    if (body.forum === true) group.topics = new Map();
    announceNewGroup(store, group, members[0]!);
    return { ok: true, result: { chat_id: group.id } };
  });

  const membershipRoute = (change: MembershipChange) => async (request: { params: unknown; body: unknown }) => {
    const body = objectBody(request.body);
    const user = readUser(body.user);
    const group = knownGroup(store, (request.params as { id: string }).id);
    // A group that approves new members takes a request instead; an administrator decides.
    if (change === 'join' && group.joinByRequest && !group.memberIds.has(user.id)) {
      requestToJoin(store, group, store.rememberUser(user));
      return { ok: true, result: { chat_id: group.id, pending: true } };
    }
    const message = changeMembership(store, group, store.rememberUser(user), change);
    return { ok: true, result: { message_id: message.message_id, chat_id: group.id } };
  };
  app.post('/client/groups/:id/join', membershipRoute('join'));
  app.post('/client/groups/:id/leave', membershipRoute('leave'));

  // A member adds a bot to the group or removes it.
  const botRoute = (change: 'add' | 'remove') => async (request: { params: unknown; body: unknown }) => {
    const body = objectBody(request.body);
    const by = store.rememberUser(readUser(body.user));
    const bot = typeof body.bot === 'string' ? store.peerByUsername(body.bot)?.bot : undefined;
    if (!bot) throw badRequest(`there is no bot with the username @${String(body.bot ?? '').replace(/^@/, '')}`);
    const group = knownGroup(store, (request.params as { id: string }).id);
    const message = changeBotMembership(store, group, by, bot, change);
    return { ok: true, result: { message_id: message.message_id, chat_id: group.id } };
  };
  app.post('/client/groups/:id/add-bot', botRoute('add'));
  app.post('/client/groups/:id/remove-bot', botRoute('remove'));

  // The group's creator promotes a member or a bot of the group (all rights unless told), or demotes them
  // (rights that are all false).
  app.post('/client/groups/:id/promote', async (request) => {
    const body = objectBody(request.body);
    const group = knownGroup(store, (request.params as { id: string }).id);
    const target = adminTarget(store, body);
    promote(store, group, target.kind === 'bot' ? botAsUser(target.bot) : userAsSender(target.user), readRights(body.rights));
    return { ok: true, result: true };
  });
}

type AdminTarget = { kind: 'user'; user: SandboxUser } | { kind: 'bot'; bot: BotRecord };

/** The member an `admins` entry or a promotion names: `{"user": <id>}` or `{"bot": "<username>"}`. */
function adminTarget(store: SandboxStore, entry: Record<string, unknown>): AdminTarget {
  if (typeof entry.bot === 'string') {
    const bot = store.peerByUsername(entry.bot)?.bot;
    if (!bot) throw badRequest(`there is no bot with the username @${entry.bot.replace(/^@/, '')}`);
    return { kind: 'bot', bot };
  }
  const id = typeof entry.user === 'object' && entry.user !== null ? (entry.user as { id?: unknown }).id : entry.user;
  const user = typeof id === 'number' ? store.user(id) : undefined;
  if (!user) throw badRequest('name the administrator as {"user": <user id>} (a member of the group) or {"bot": "<bot username>"}');
  return { kind: 'user', user };
}

/** The `admins` of a new group, each a member or one of its bots, with their rights (all unless given). */
function readAdmins(store: SandboxStore, value: unknown, memberIds: number[], botIds: number[]): Map<number, AdminRights> {
  const admins = new Map<number, AdminRights>();
  if (value === undefined) return admins;
  if (!Array.isArray(value)) throw badRequest('admins must be a list like [{"user": 1001}, {"bot": "my_bot", "rights": {"can_delete_messages": true}}]');
  for (const raw of value) {
    const entry = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const target = adminTarget(store, entry);
    const id = target.kind === 'bot' ? target.bot.id : target.user.id;
    const inGroup = target.kind === 'bot' ? botIds.includes(id) : memberIds.includes(id);
    if (!inGroup)
      throw badRequest(
        `administrator ${target.kind === 'bot' ? `@${target.bot.username}` : id} must also be listed in ${target.kind === 'bot' ? 'bots' : 'members'}`,
      );
    admins.set(id, readRights(entry.rights));
  }
  return admins;
}

/** The type a new group asks for: `group` by default, `supergroup` with `"forum": true` (which only a supergroup can have). */
function groupType(body: Record<string, unknown>): string {
  if (body.forum !== undefined && typeof body.forum !== 'boolean') throw badRequest('forum must be true or false');
  const type = body.type ?? (body.forum === true ? 'supergroup' : 'group');
  if (type !== 'group' && type !== 'supergroup') throw badRequest('type must be "group" or "supergroup"');
  if (body.forum === true && type !== 'supergroup')
    throw badRequest('only a supergroup can have topics: leave out "type" or give "supergroup" with "forum": true');
  return type;
}

function knownGroup(store: SandboxStore, chat: unknown): GroupRecord {
  const id = typeof chat === 'string' && /^-\d+$/.test(chat.trim()) ? Number(chat) : chat;
  const group = typeof id === 'number' ? store.group(id) : undefined;
  if (!group) throw badRequest(`there is no group with the chat id ${String(chat)}; create one with POST /client/groups`);
  return group;
}

/** The group named by a client request, which `userId` must be a member of. */
export function memberGroup(store: SandboxStore, chat: unknown, userId: number): GroupRecord {
  const group = knownGroup(store, chat);
  if (!group.memberIds.has(userId)) throw badRequest(`user ${userId} is not a member of the group ${group.id}`);
  return group;
}

/**
 * The user posts `content` in the group (optionally replying to one of its messages; in a forum, in topic
 * `topicId`, or the topic of the message replied to); bots get what privacy mode lets through.
 */
export function postInGroup(
  store: SandboxStore,
  group: GroupRecord,
  user: SandboxUser,
  content: Record<string, unknown>,
  replyToId?: number,
  topicId?: number,
): Message {
  const replyTo = replyToId === undefined ? undefined : store.groupMessages(group.id).find((message) => message.message_id === replyToId);
  if (replyToId !== undefined && !replyTo) throw badRequest(`there is no message ${replyToId} in the group ${group.id}`);
  // A restricted member is refused as the service refuses their app.
  const refusal = sendRefusal(group, user.id, content);
  if (refusal) throw forbidden(refusal);
  if (topicId !== undefined && !group.topics) throw badRequest(`the group ${group.id} has no topics (create it with "forum": true)`);
  const thread = sendingThread(group, user.id, topicId, replyTo)?.id;
  const message = storeGroupUserMessage(store, group, user, content, replyTo, topicFields(store, group, thread, replyTo));
  deliverToGroupBots(store, group, message);
  return message;
}
