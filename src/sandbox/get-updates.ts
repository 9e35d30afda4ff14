// getupdates: confirm by offset, answer at once when updates are pending, otherwise long-poll; a newer
// poll ends a waiting one with 409, and polling while a webhook is set is a 409 of its own.
import type { Update } from '@grammyjs/types';
import { conflict } from './api-failure.js';
import type { MethodContext } from './method-context.js';
import { clampedInteger, integerParam, type Params } from './params.js';

const WEBHOOK_ACTIVE = "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";
const TERMINATED = 'terminated by other getUpdates request; make sure that only one bot instance is running';

export async function getUpdates({ bot, onConnectionClose }: MethodContext, params: Params): Promise<Update[]> {
  if (bot.webhook) throw conflict(WEBHOOK_ACTIVE);
  const offset = integerParam(params, 'offset');
  const limit = clampedInteger(params, 'limit', 100, 1, 100);
  const timeout = clampedInteger(params, 'timeout', 0, 0, 50);
  // Any new call ends the one still waiting, even if this one answers at once.
  bot.queue.endWaitingPoll();
  if (offset !== undefined) bot.queue.confirm(offset);
  if (bot.queue.size > 0 || timeout === 0) return bot.queue.list(limit);
  const wait = bot.queue.wait(timeout * 1000);
  const stopListening = onConnectionClose(wait.cancel);
  const outcome = await wait.outcome;
  stopListening();
  if (outcome === 'conflict') throw conflict(bot.webhook ? WEBHOOK_ACTIVE : TERMINATED);
  if (outcome === 'cancelled') return [];
  return bot.queue.list(limit);
}
