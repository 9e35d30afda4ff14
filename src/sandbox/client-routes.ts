// The user side of the sandbox (tests, benchmarks, a web chat page): send as a user, read a chat with a
// long poll, block a bot, and the same in groups. Messages to the assistant are answered at once; messages
// to a bot become updates.
import { randomInt } from 'node:crypto';
import type { Message } from '@grammyjs/types';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { badRequest } from './api-failure.js';
import { announceBlock } from './bot-membership.js';
import type { Assistant } from './assistant.js';
import type { CallbackQueries } from './callback-queries.js';
import { storeUserMessage } from './chat-messages.js';
import { changedSince, clientMessage, waitForChatChange } from './client-view.js';
import { groupRoutes, memberGroup, postInGroup } from './group-routes.js';
import { topicList } from './forum-topics.js';
import type { ChatRef } from './message-meta.js';
import { pressRoutes } from './press-routes.js';
import type { Peer, SandboxStore, SandboxUser } from './store.js';
import { userContents, type UserContent } from './user-content.js';

export interface ClientRoutesOptions {
  store: SandboxStore;
  assistant: Assistant;
  callbacks: CallbackQueries;
}

const MAX_WAIT_SECONDS = 60;
const SEND_BODY_LIMIT = 72 * 1024 * 1024;

/** An album's items as messages sharing one media_group_id. */
function albumOf(contents: UserContent[]): UserContent[] {
  const groupId = String(BigInt(randomInt(1, 2 ** 47)) * 100_000n + BigInt(randomInt(100_000)));
  return contents.map((content) => ({ ...content, media_group_id: groupId }));
}

/** The answer to a send: the message's id and chat, and every id of an album. */
function sentResult(sent: Message[]): Record<string, unknown> {
  const first = sent[0]!;
  return { message_id: first.message_id, chat_id: first.chat.id, ...(sent.length > 1 ? { message_ids: sent.map((message) => message.message_id) } : {}) };
}

export async function clientRoutes(app: FastifyInstance, { store, assistant, callbacks }: ClientRoutesOptions): Promise<void> {
  // Which sandbox this is: hearsay asks after a 401 to tell a restarted sandbox from a revoked token.
  app.get('/client/sandbox', async () => ({ ok: true, result: { instance: store.instance } }));

  // A photo or document comes as base64 in the JSON body: room for a 10 MB photo or a 50 MB document.
  app.post('/client/send', { bodyLimit: SEND_BODY_LIMIT }, async (request) => {
    const body = objectBody(request.body);
    const user = store.rememberUser(readUser(body.user));
    const contents = userContents(store.files, body);
    const messages = contents.length > 1 ? albumOf(contents) : contents;
    if (body.chat !== undefined) {
      const group = memberGroup(store, body.chat, user.id);
      const replyTo = body.reply_to === undefined ? undefined : positiveInteger(body.reply_to, 'reply_to');
      const topic = body.topic === undefined ? undefined : positiveInteger(body.topic, 'topic');
      const sent = messages.map((content) => postInGroup(store, group, user, content, replyTo, topic));
      return { ok: true, result: sentResult(sent) };
    }
    const peer = readPeer(store, body.to);
    const sent = messages.map((content) => storeUserMessage(store, user, peer, content));
    for (const message of sent) {
      if (peer.bot) peer.bot.queue.push(message);
      // The address the user reached the sandbox at, so the assistant's run hint works as shown.
      else assistant.handle(user, message.text ?? '', `${request.protocol}://${request.host}`);
    }
    return { ok: true, result: sentResult(sent) };
  });

  app.get('/client/messages', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const userId = positiveInteger(query.user, 'user');
    const after = query.after === undefined ? 0 : nonNegativeInteger(query.after, 'after');
    const changedAfter = query.changed_after === undefined ? undefined : nonNegativeInteger(query.changed_after, 'changed_after');
    const wait = query.wait === undefined ? 0 : Math.min(nonNegativeInteger(query.wait, 'wait'), MAX_WAIT_SECONDS);
    const { ref, all } = readChat(store, query, userId);
    const collect = () =>
      changedAfter === undefined
        ? all()
            .filter((message) => message.message_id > after)
            .map((message) => clientMessage(store, ref, message))
        : changedSince(store, ref, all(), changedAfter);
    if (collect().length === 0 && wait > 0) await waitForChatChange(store, ref, wait * 1000, closeListener(reply));
    return { ok: true, result: collect() };
  });

  app.get('/client/topics', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const group = memberGroup(store, query.chat, positiveInteger(query.user, 'user'));
    return { ok: true, result: topicList(group) };
  });

  await app.register(groupRoutes, { store, readUser, objectBody });
  await app.register(pressRoutes, { store, callbacks, readUser, readChat, closeListener });

  app.post('/client/block', async (request) => {
    const body = objectBody(request.body);
    const userId = positiveInteger(body.user, 'user');
    const peer = readPeer(store, body.bot);
    if (!peer.bot) throw badRequest('only bots can be blocked');
    if (typeof body.blocked !== 'boolean') throw badRequest('blocked must be true or false');
    const changed = store.isBlocked(userId, peer.bot.id) !== body.blocked;
    store.setBlocked(userId, peer.bot.id, body.blocked);
    const user = store.user(userId);
    if (changed && user && store.hasChat(userId, peer.bot.id)) announceBlock(peer.bot, user, body.blocked);
    return { ok: true, result: true };
  });
}

/** The chat a client request names: `chat` (a group the user is in) or `with` (a bot or BotMaker). */
export function readChat(store: SandboxStore, query: Record<string, unknown>, userId: number): { ref: ChatRef; all: () => Message[] } {
  if (query.chat !== undefined) {
    const group = memberGroup(store, query.chat, userId);
    return { ref: { userId: group.id, peer: '', groupId: group.id }, all: () => store.groupMessages(group.id) };
  }
  const peer = readPeer(store, query.with);
  return { ref: { userId, peer: peer.username, peerId: peer.id }, all: () => store.messages(userId, peer.id) };
}

/** Calls the listener if the client goes away before the answer is sent; returns a function that stops listening. */
export function closeListener(reply: FastifyReply): (listener: () => void) => () => void {
  return (listener) => {
    reply.raw.on('close', listener);
    return () => reply.raw.off('close', listener);
  };
}

export function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('expected a JSON object body');
  return body as Record<string, unknown>;
}

export function readUser(value: unknown): SandboxUser {
  if (!value || typeof value !== 'object') throw badRequest('user must be an object like {"id": 1001, "first_name": "Ann"}');
  const raw = value as Record<string, unknown>;
  const id = positiveInteger(raw.id, 'user.id');
  if (typeof raw.first_name !== 'string' || raw.first_name.length === 0) throw badRequest('user.first_name must be a non-empty string');
  const user: SandboxUser = { id, first_name: raw.first_name };
  for (const field of ['last_name', 'username', 'language_code'] as const) {
    const extra = raw[field];
    if (extra === undefined) continue;
    if (typeof extra !== 'string') throw badRequest(`user.${field} must be a string`);
    user[field] = extra;
  }
  return user;
}

export function readPeer(store: SandboxStore, value: unknown): Peer {
  if (typeof value !== 'string' || value.length === 0) throw badRequest('name the bot by its username, e.g. "to": "BotMaker"');
  const peer = store.peerByUsername(value);
  if (!peer) throw badRequest(`there is no bot with the username @${value.replace(/^@/, '')}; create it with /newbot in a chat with BotMaker`);
  return peer;
}

export function positiveInteger(value: unknown, name: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number <= 0) throw badRequest(`${name} must be a positive integer`);
  return number;
}

export function nonNegativeInteger(value: unknown, name: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) throw badRequest(`${name} must be a non-negative integer`);
  return number;
}
