// Capped exponential backoff with jitter, and a sleep that ends early (rejecting) when shutdown aborts it.
import { setTimeout as delay } from 'node:timers/promises';
import { MIN_RETRY_AFTER_SECONDS } from './failure.js';

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000 };

/** Delay before retry number `attempt` (1 = first retry): half fixed, half random, so clients spread out. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The least a retry or an early empty poll waits (the floor a 429's `retry_after` gets too), so nothing spins. */
export const MIN_RETRY_WAIT_MS = MIN_RETRY_AFTER_SECONDS * 1000;

// Node fires longer timers at once (with a warning): a far-off wait would turn into a busy loop.
const LONGEST_TIMER_MS = 2_147_483_647;

/** Resolves after `ms`, or rejects with an AbortError as soon as `signal` aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(Math.min(Math.max(0, ms), LONGEST_TIMER_MS), undefined, signal ? { signal } : undefined);
}
