// Test helper shared by every suite that needs the messaging service: starts a sandbox on 127.0.0.1:0 and
// drives it as a user would, over HTTP (creating bots through the BotMaker conversation, sending, reading).
import type { Message } from '@grammyjs/types';
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
  { title, members, bots = [], type = 'group' }: { title: string; members: HarnessUser[]; bots?: string[]; type?: 'group' | 'supergroup' },
): Promise<number> {
  const body = { title, type, bots, members: members.map((member) => ({ first_name: `User${member.id}`, ...member })) };
  const result = await clientCall<{ chat_id: number }>(baseUrl, '/client/groups', { method: 'POST', body: JSON.stringify(body) });
  return result.chat_id;
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
