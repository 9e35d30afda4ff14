// Helpers that read a chat back from the sandbox and check what the bot answered, exactly once each.
import { expect } from 'vitest';
import { chatMessages, waitForBotReplies } from '../support/sandbox-harness.js';

/** All the bot's messages to `userId`, oldest first, after waiting for `count` of them. */
export async function botRepliesTo(baseUrl: string, bot: string, userId: number, count: number, timeoutMs = 15_000): Promise<string[]> {
  const replies = await waitForBotReplies(baseUrl, { userId, bot, count, timeoutMs });
  // A little grace: a duplicate answer would arrive right after the expected ones.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const all = await chatMessages(baseUrl, userId, bot);
  const fromBot = all.filter((m) => m.from?.is_bot).map((m) => m.text ?? '');
  expect(fromBot.slice(0, replies.length)).toEqual(replies.map((m) => m.text ?? ''));
  return fromBot;
}

export async function fetchText(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}
