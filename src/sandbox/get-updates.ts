// getupdates as the real service runs it: allowed_updates (the last given list applies), confirm by offset,
// answer at once when updates are pending, otherwise long-poll. Only a new poll that is about to wait ends a
// waiting one (409), and a second 409 within 3 s is held back 3 s, which keeps two instances from spinning.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Update } from '@grammyjs/types';
import { conflict } from './api-failure.js';
import type { MethodContext } from './method-context.js';
import { clampedInteger, integerParam, type Params } from './params.js';
import type { UpdateQueue } from './update-queue.js';

const WEBHOOK_ACTIVE = "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";
const TERMINATED = 'terminated by other getUpdates request; make sure that only one bot instance is running';
const TERMINATED_BY_WEBHOOK = 'terminated by setWebhook request';
const CONFLICT_SPACING_MS = 3000;

export async function getUpdates(context: MethodContext, params: Params): Promise<Update[]> {
  const { bot, store } = context;
  if (bot.webhook) throw conflict(WEBHOOK_ACTIVE);
  // A program asks for the bot's updates: the page knows someone answers as it (see bot-presence.ts).
  store.presence.polled(bot);
  try {
    return await pollUpdates(context, params);
  } finally {
    store.presence.polled(bot);
  }
}

async function pollUpdates({ bot, onConnectionClose }: MethodContext, params: Params): Promise<Update[]> {
  applyAllowedUpdates(bot.queue, params.allowed_updates);
  const offset = integerParam(params, 'offset');
  const limit = clampedInteger(params, 'limit', 100, 1, 100);
  const timeout = clampedInteger(params, 'timeout', 0, 0, 50);
  if (offset !== undefined) bot.queue.confirm(offset);
  if (bot.queue.size > 0 || timeout === 0) return bot.queue.list(limit);
  const wait = bot.queue.wait(timeout * 1000);
  const stopListening = onConnectionClose(wait.cancel);
  const outcome = await wait.outcome;
  stopListening();
  if (outcome === 'conflict') {
    await spaceOutConflicts(bot.queue, onConnectionClose);
    throw conflict(bot.webhook ? TERMINATED_BY_WEBHOOK : TERMINATED);
  }
  if (outcome === 'cancelled') return [];
  return bot.queue.list(limit);
}

/**
 * Applies an allowed_updates parameter (a JSON array or its JSON text) the way the real service does:
 * a malformed value is ignored, keeping the setting in force.
 */
export function applyAllowedUpdates(queue: UpdateQueue, raw: unknown): void {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return;
    try {
      value = JSON.parse(raw);
    } catch {
      return;
    }
  }
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) queue.setAllowedUpdates(value);
}

async function spaceOutConflicts(queue: UpdateQueue, onConnectionClose: MethodContext['onConnectionClose']): Promise<void> {
  const now = Date.now();
  if (now >= queue.nextConflictAt) {
    queue.nextConflictAt = now + CONFLICT_SPACING_MS;
    return;
  }
  const abort = new AbortController();
  const stopListening = onConnectionClose(() => abort.abort());
  await sleep(CONFLICT_SPACING_MS, undefined, { signal: abort.signal }).catch(() => undefined);
  stopListening();
}
