// Test helper shared by every suite that needs the messaging service: starts a sandbox on 127.0.0.1:0 and
// drives it as a user would, over HTTP (creating bots through the BotMaker conversation, sending, reading).
import type { Message, MessageEntity } from '@grammyjs/types';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export interface StartedSandbox {
  baseUrl: string;
  sandbox: Sandbox;
  close(): Promise<void>;
}

export interface HarnessUser {
  id: number;
  first_name?: string;
  username?: string;
  last_name?: string;
  language_code?: string;
}

export async function startSandbox(options?: SandboxOptions): Promise<StartedSandbox> {
  const sandbox = await createSandbox(options);
  const baseUrl = await sandbox.listen({ host: '127.0.0.1', port: 0 });
  return { baseUrl, sandbox, close: () => sandbox.close() };
}

/** Sends `text` as the user to a bot or to BotMaker; returns the stored message's id and chat id. */
export async function sendAsUser(baseUrl: string, user: number | HarnessUser, to: string, text: string): Promise<{ message_id: number; chat_id: number }> {
  const sender = typeof user === 'number' ? { id: user } : user;
  const body = { user: { first_name: `User${sender.id}`, ...sender }, to, text };
  return clientCall(baseUrl, '/client/send', { method: 'POST', body: JSON.stringify(body) });
}

/** The chat's messages newer than `after`, both directions (long-polls up to `waitSeconds`). */
export async function chatMessages(baseUrl: string, userId: number, peer: string, after = 0, waitSeconds = 0): Promise<Message[]> {
  const query = new URLSearchParams({ user: String(userId), with: peer, after: String(after), wait: String(waitSeconds) });
  return clientCall(baseUrl, `/client/messages?${query}`, { method: 'GET' });
}

/**
 * Waits until `bot` has sent `count` messages newer than `after` in its chat with the user, and returns
 * them (oldest first). Rejects with the messages seen so far when `timeoutMs` passes.
 */
export async function waitForBotReplies(
  baseUrl: string,
  { userId, bot, after = 0, count = 1, timeoutMs = 5000 }: { userId: number; bot: string; after?: number; count?: number; timeoutMs?: number },
): Promise<Message[]> {
  const page = (cursor: number, waitSeconds: number) => chatMessages(baseUrl, userId, bot, cursor, waitSeconds);
  return waitForRepliesIn(page, { bot, after, count, timeoutMs, where: `to user ${userId}` });
}

/** Long-polls a chat's pages (`page(after, waitSeconds)`) until `bot` has sent `count` messages newer than `after`. */
async function waitForRepliesIn(
  page: (after: number, waitSeconds: number) => Promise<Message[]>,
  { bot, after, count, timeoutMs, where }: { bot: string; after: number; count: number; timeoutMs: number; where: string },
): Promise<Message[]> {
  const deadline = Date.now() + timeoutMs;
  const wanted = bot.replace(/^@/, '').toLowerCase();
  const replies: Message[] = [];
  let cursor = after;
  for (;;) {
    const remaining = deadline - Date.now();
    const waitSeconds = Math.max(0, Math.min(5, Math.ceil(remaining / 1000)));
    const messages = await page(cursor, remaining > 0 ? waitSeconds : 0);
    for (const message of messages) {
      cursor = Math.max(cursor, message.message_id);
      if (message.from?.is_bot && message.from.username?.toLowerCase() === wanted) replies.push(message);
    }
    if (replies.length >= count) return replies.slice(0, count);
    if (Date.now() >= deadline) {
      throw new Error(`expected ${count} replies from @${bot} ${where}, got ${replies.length}: ${JSON.stringify(replies.map((m) => m.text))}`);
    }
    if (messages.length === 0 && waitSeconds === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends `text` to BotMaker and returns its answer. */
export async function askAssistant(baseUrl: string, user: number | HarnessUser, text: string): Promise<string> {
  const userId = typeof user === 'number' ? user : user.id;
  const sent = await sendAsUser(baseUrl, user, 'BotMaker', text);
  const [answer] = await waitForBotReplies(baseUrl, { userId, bot: 'BotMaker', after: sent.message_id, count: 1, timeoutMs: 5000 });
  return answer?.text ?? '';
}

/** BotMaker's answer to `text` with its entities (the code blocks of a new bot's answer). */
export async function assistantAnswer(baseUrl: string, user: number | HarnessUser, text: string): Promise<{ text: string; entities: MessageEntity[] }> {
  const userId = typeof user === 'number' ? user : user.id;
  const sent = await sendAsUser(baseUrl, user, 'BotMaker', text);
  const [answer] = await waitForBotReplies(baseUrl, { userId, bot: 'BotMaker', after: sent.message_id, count: 1, timeoutMs: 5000 });
  return { text: answer?.text ?? '', entities: (answer as { entities?: MessageEntity[] } | undefined)?.entities ?? [] };
}

/** The texts of a message's `pre` blocks, in order. */
export function codeBlocks(text: string, entities: readonly MessageEntity[]): string[] {
  return entities.filter((e) => e.type === 'pre').map((e) => text.slice(e.offset, e.offset + e.length));
}

/** Creates a bot through the real /newbot conversation and reads the token from BotMaker's answer. */
export async function createBotViaAssistant(
  baseUrl: string,
  { userId, name, username }: { userId: number; name: string; username: string },
): Promise<{ token: string; username: string; id: number }> {
  await askAssistant(baseUrl, userId, '/newbot');
  await askAssistant(baseUrl, userId, name);
  const answer = await askAssistant(baseUrl, userId, username);
  const match = /(\d+):[A-Za-z0-9_-]{35}/.exec(answer);
  if (!match) throw new Error(`BotMaker did not create @${username}: ${answer}`);
  return { token: match[0], username: username.replace(/^@/, ''), id: Number(match[1]) };
}

async function clientCall<T>(baseUrl: string, path: string, init: { method: string; body?: string }): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: init.body ? { 'content-type': 'application/json' } : {},
  });
  const envelope = (await response.json()) as { ok: boolean; result?: T; description?: string };
  if (!envelope.ok) throw new Error(`sandbox ${init.method} ${path.split('?')[0]} failed: ${response.status} ${envelope.description}`);
  return envelope.result as T;
}

/** Creates a group of users and bots through POST /client/groups; returns its (negative) chat id. */
export async function createGroup(
  baseUrl: string,
  {
    title,
    members,
    bots = [],
    type = 'group',
    admins,
  }: { title: string; members: HarnessUser[]; bots?: string[]; type?: 'group' | 'supergroup'; admins?: GroupAdmin[] },
): Promise<number> {
  const body = { title, type, bots, members: members.map((member) => ({ first_name: `User${member.id}`, ...member })), ...(admins ? { admins } : {}) };
  const result = await clientCall<{ chat_id: number }>(baseUrl, '/client/groups', { method: 'POST', body: JSON.stringify(body) });
  return result.chat_id;
}

/** An administrator of a group as POST /client/groups and /promote name one, with optional rights (all by default). */
export type GroupAdmin = ({ user: number } | { bot: string }) & { rights?: Record<string, boolean> };

/** Promotes a member or bot of the group (POST /client/groups/<id>/promote); rights that are all false demote. */
export async function promoteInGroup(baseUrl: string, chatId: number, admin: GroupAdmin): Promise<void> {
  await clientCall(baseUrl, `/client/groups/${chatId}/promote`, { method: 'POST', body: JSON.stringify(admin) });
}

/** Posts `text` in the group as the user (a member), optionally replying to one of the group's messages. */
export async function sendToGroup(
  baseUrl: string,
  user: number | HarnessUser,
  chatId: number,
  text: string,
  replyTo?: number,
): Promise<{ message_id: number; chat_id: number }> {
  const sender = typeof user === 'number' ? { id: user } : user;
  const body = { user: { first_name: `User${sender.id}`, ...sender }, chat: chatId, text, ...(replyTo !== undefined ? { reply_to: replyTo } : {}) };
  return clientCall(baseUrl, '/client/send', { method: 'POST', body: JSON.stringify(body) });
}

/** The user joins (`join`) or leaves (`leave`) the group through POST /client/groups/:id/join or /leave. */
export async function changeGroupMembership(
  baseUrl: string,
  user: HarnessUser,
  chatId: number,
  change: 'join' | 'leave',
): Promise<{ message_id: number; chat_id: number }> {
  const body = { user: { first_name: `User${user.id}`, ...user } };
  return clientCall(baseUrl, `/client/groups/${chatId}/${change}`, { method: 'POST', body: JSON.stringify(body) });
}

/** The group's messages newer than `after`, as member `userId` sees them (long-polls up to `waitSeconds`). */
export async function groupMessages(baseUrl: string, userId: number, chatId: number, after = 0, waitSeconds = 0): Promise<Message[]> {
  const query = new URLSearchParams({ user: String(userId), chat: String(chatId), after: String(after), wait: String(waitSeconds) });
  return clientCall(baseUrl, `/client/messages?${query}`, { method: 'GET' });
}

/**
 * Waits until `bot` has posted `count` messages newer than `after` in the group, and returns them (oldest
 * first). Rejects with the messages seen so far when `timeoutMs` passes.
 */
export async function waitForGroupReplies(
  baseUrl: string,
  {
    userId,
    chatId,
    bot,
    after = 0,
    count = 1,
    timeoutMs = 5000,
  }: { userId: number; chatId: number; bot: string; after?: number; count?: number; timeoutMs?: number },
): Promise<Message[]> {
  const page = (cursor: number, waitSeconds: number) => groupMessages(baseUrl, userId, chatId, cursor, waitSeconds);
  return waitForRepliesIn(page, { bot, after, count, timeoutMs, where: `in group ${chatId}` });
}

/** A message as GET /client/messages shows it to the user (reply markup of any kind, edits, the last press). */
export type ClientMessage = Message & {
  revision: number;
  deleted?: true;
  edits?: Array<{ text: string }>;
  callback_answer?: { callback_query_id: string; data: string; status: 'pending' | 'answered' | 'expired'; text?: string; show_alert?: boolean };
};

/** Presses a button of message `messageId` as the user (by callback `data` or label `text`); `wait` seconds for the bot's answer. */
export async function pressButton(
  baseUrl: string,
  user: number | HarnessUser,
  press: { messageId: number; data?: string; text?: string; to?: string; chat?: number; wait?: number },
): Promise<{ callback_query_id?: string; message_id: number; answer?: ClientMessage['callback_answer']; url?: string }> {
  const sender = typeof user === 'number' ? { id: user } : user;
  const { messageId, ...rest } = press;
  const body = { user: { first_name: `User${sender.id}`, ...sender }, message_id: messageId, ...rest };
  return clientCall(baseUrl, '/client/press', { method: 'POST', body: JSON.stringify(body) });
}

/**
 * Long-polls the private chat's changes (new, edited, pressed or deleted messages) until `until` holds for
 * the chat's messages as they are then; returns them. Rejects with what was seen when `timeoutMs` passes.
 */
export async function waitForChat(
  baseUrl: string,
  { userId, peer, until, timeoutMs = 5000 }: { userId: number; peer: string; until: (messages: ClientMessage[]) => boolean; timeoutMs?: number },
): Promise<ClientMessage[]> {
  const deadline = Date.now() + timeoutMs;
  const messages = new Map<number, ClientMessage>();
  let revision = 0;
  for (;;) {
    const remaining = deadline - Date.now();
    const query = new URLSearchParams({
      user: String(userId),
      with: peer,
      changed_after: String(revision),
      wait: String(Math.max(0, Math.min(5, Math.ceil(remaining / 1000)))),
    });
    const changed = await clientCall<ClientMessage[]>(baseUrl, `/client/messages?${query}`, { method: 'GET' });
    for (const message of changed) {
      revision = Math.max(revision, message.revision);
      if (message.deleted) messages.delete(message.message_id);
      else messages.set(message.message_id, message);
    }
    const current = [...messages.values()].sort((a, b) => a.message_id - b.message_id);
    if (until(current)) return current;
    if (Date.now() >= deadline)
      throw new Error(`the chat of user ${userId} with @${peer} never reached the expected state: ${JSON.stringify(current.map((m) => m.text))}`);
  }
}

/** Adds a fault rule to the sandbox (POST /client/faults: which bot and method fail, how, how often); rejects when the sandbox refuses it. */
export async function injectFault(baseUrl: string, rule: object): Promise<void> {
  const response = await fetch(`${baseUrl}/client/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
  if (response.status !== 200) throw new Error(`fault refused: ${await response.text()}`);
}

/** Drops every fault rule the sandbox still holds (DELETE /client/faults). */
export async function clearFaults(baseUrl: string): Promise<void> {
  await fetch(`${baseUrl}/client/faults`, { method: 'DELETE' });
}

/** What the chat shows besides messages: the bot's chat action, the reply keyboard in force, the command menu. */
export async function chatState(
  baseUrl: string,
  userId: number,
  peer: string,
): Promise<{ action: { action: string } | null; reply_keyboard: unknown; commands: Array<{ command: string; description: string }>; menu_button: unknown }> {
  const query = new URLSearchParams({ user: String(userId), with: peer });
  return clientCall(baseUrl, `/client/chat-state?${query}`, { method: 'GET' });
}
