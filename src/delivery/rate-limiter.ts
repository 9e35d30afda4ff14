// Keeps outgoing messages within the service's limits by waiting, never by dropping: per chat, per group
// (negative chat ids) and overall. A chat waits for its own limit first and only then queues, first come
// first served, for the overall limit, so one busy chat never holds up the others beyond the overall cap.
// Sends of the low-priority lane (a broadcast) queue behind every other send and use at most
// BACKGROUND_SHARE of the overall limit: a reply finds room at once whatever a campaign sends.
import { sleep } from '../api/backoff.js';
import { RequestAbortedError } from '../api/errors.js';
import { SENDING_METHODS } from '../api/sending-methods.js';
import type { MethodName, Transformer } from '../api/types.js';

export interface RateLimitSettings {
  perChatPerSecond: number;
  perGroupPerMinute: number;
  overallPerSecond: number;
}

export interface OutgoingRateLimiterOptions extends RateLimitSettings {
  /** Added to every window: the service measures on arrival, and requests do not arrive evenly spaced. */
  marginMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The part of the overall limit the low-priority lane may fill; the rest is kept for replies. */
export const BACKGROUND_SHARE = 0.8;

/** How many of `limit` messages a window may hold before a low-priority send must wait (at least one, and one fewer than all). */
export function backgroundLimit(limit: number): number {
  return limit <= 1 ? limit : Math.max(1, Math.min(limit - 1, Math.floor(limit * BACKGROUND_SHARE)));
}

/** One counted message; `at` moves from when it left to when its answer came back. */
interface Sent {
  at: number;
}

/** Counts events in a sliding window and says when the next one may happen. */
class SlidingWindow {
  private times: Sent[] = [];
  private unsorted = false;
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** When the next message may go; `limit` lower than the window's keeps room free (the low-priority lane). */
  nextFree(now: number, limit = this.limit): number {
    if (this.unsorted) {
      this.times.sort((a, b) => a.at - b.at);
      this.unsorted = false;
    }
    while (this.times.length > 0 && now - this.times[0]!.at >= this.windowMs) this.times.shift();
    if (this.times.length < limit) return now;
    return this.times[this.times.length - limit]!.at + this.windowMs;
  }

  get capacity(): number {
    return this.limit;
  }

  record(entry: Sent): void {
    this.times.push(entry);
  }

  /** The entry's time changed (it can only grow), so the order may have too. */
  moved(): void {
    this.unsorted = true;
  }

  get idle(): boolean {
    return this.times.length === 0;
  }
}

/** Returned by `acquire`: call `done()` when the request's answer (or failure) came back. */
export interface RateLimitSlot {
  done(): void;
}

/** Says when a message to a chat may go: this process's own limiter, or one shared by replicas (the Redis store). */
export interface RateLimiter {
  /**
   * Resolves when a message to `chatId` may be sent now (and counts it); rejects when `signal` aborts. A
   * `background` send (a broadcast) waits behind every other and leaves part of the overall limit to them.
   */
  acquire(chatId: number | string, signal?: AbortSignal, background?: boolean): Promise<RateLimitSlot>;
}

interface OverallWaiter {
  resolve(sent: Sent): void;
  reject(error: unknown): void;
  signal: AbortSignal | undefined;
  /** Its listener on `signal`, while it waits in the queue (removed once served: the signal outlives it). */
  onAbort?: () => void;
  served?: boolean;
}

interface ChatWindows {
  chat: SlidingWindow;
  group: SlidingWindow | null;
  users: number;
}

export class OutgoingRateLimiter implements RateLimiter {
  private readonly chats = new Map<string, ChatWindows>();
  private readonly overall: SlidingWindow;
  private readonly overallQueue: OverallWaiter[] = [];
  private readonly backgroundQueue: OverallWaiter[] = [];
  private pumping = false;
  private readonly now: () => number;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly marginMs: number;

  constructor(private readonly options: OutgoingRateLimiterOptions) {
    for (const [name, value] of Object.entries({
      perChatPerSecond: options.perChatPerSecond,
      perGroupPerMinute: options.perGroupPerMinute,
      overallPerSecond: options.overallPerSecond,
    })) {
      // Below one message every 100 s a window's wait is far off: a typo, not a limit (the config refuses it too).
      const floor = name === 'perGroupPerMinute' ? 0.6 : 0.01;
      if (!(value >= floor)) throw new RangeError(`${name} must be at least ${floor}`);
    }
    this.now = options.now ?? Date.now;
    this.wait = options.sleep ?? sleep;
    this.marginMs = options.marginMs ?? 50;
    this.overall = OutgoingRateLimiter.window(options.overallPerSecond, 1000, this.marginMs);
  }

  /** Chats with a recent message, for tests and metrics (idle chats are forgotten). */
  get trackedChats(): number {
    return this.chats.size;
  }

  /**
   * Resolves when a message to `chatId` may be sent now (and counts it); rejects when `signal` aborts.
   * The service counts a message when it arrives, which can be later than when it left (a busy network or
   * server), so `done()` re-dates the message to when its answer came back: a later message then leaves at
   * least a full window after the earlier one arrived, whatever the delay was.
   */
  async acquire(chatId: number | string, signal?: AbortSignal, background = false): Promise<RateLimitSlot> {
    const key = String(chatId);
    let windows = this.chats.get(key);
    if (!windows) {
      const isGroup = typeof chatId === 'number' ? chatId < 0 : chatId.startsWith('-');
      windows = {
        chat: OutgoingRateLimiter.window(this.options.perChatPerSecond, 1000, this.marginMs),
        group: isGroup ? OutgoingRateLimiter.window(this.options.perGroupPerMinute, 60_000, this.marginMs) : null,
        users: 0,
      };
      this.chats.set(key, windows);
    }
    windows.users += 1;
    try {
      for (;;) {
        const now = this.now();
        const at = Math.max(windows.chat.nextFree(now), windows.group?.nextFree(now) ?? now);
        if (at <= now) break;
        await this.wait(at - now, signal);
      }
      const sent = await this.overallTurn(signal, background ? this.backgroundQueue : this.overallQueue);
      windows.chat.record(sent);
      windows.group?.record(sent);
      const counted = windows;
      return {
        done: () => {
          sent.at = Math.max(sent.at, this.now());
          for (const window of [this.overall, counted.chat, counted.group]) window?.moved();
        },
      };
    } finally {
      windows.users -= 1;
      this.forgetIfIdle(key, windows);
    }
  }

  private static window(limit: number, windowMs: number, marginMs: number): SlidingWindow {
    // Fractional limits (0.5 per second) become one message per longer window.
    return limit >= 1 ? new SlidingWindow(Math.floor(limit), windowMs + marginMs) : new SlidingWindow(1, windowMs / limit + marginMs);
  }

  private overallTurn(signal: AbortSignal | undefined, queue: OverallWaiter[]): Promise<Sent> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Sent>((resolve, reject) => {
      const entry: OverallWaiter = { resolve, reject, signal };
      queue.push(entry);
      // Served at once when the overall window has room (the pump's first pass runs now).
      void this.pump();
      if (entry.served || !signal) return;
      // The caller's signal is the sequencer's, shared by every task and kept for the process's life: the
      // listener goes when the entry is served, or one would gather per message sent.
      entry.onAbort = () => {
        const index = queue.indexOf(entry);
        if (index >= 0) {
          queue.splice(index, 1);
          reject(signal.reason);
        }
      };
      signal.addEventListener('abort', entry.onAbort, { once: true });
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.overallQueue.length > 0 || this.backgroundQueue.length > 0) {
        // The low-priority lane only while no other send waits, and only below its share of the limit.
        const queue = this.overallQueue.length > 0 ? this.overallQueue : this.backgroundQueue;
        const limit = queue === this.overallQueue ? this.overall.capacity : backgroundLimit(this.overall.capacity);
        const now = this.now();
        const at = this.overall.nextFree(now, limit);
        if (at > now) {
          // A short wait for the low-priority lane: a reply that comes meanwhile goes first.
          await this.wait(queue === this.overallQueue ? at - now : Math.min(at - now, 20)).catch(() => undefined);
          continue;
        }
        const next = queue.shift()!;
        next.served = true;
        if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort);
        const sent = { at: now };
        this.overall.record(sent);
        next.resolve(sent);
      }
    } finally {
      this.pumping = false;
    }
  }

  private forgetIfIdle(key: string, windows: ChatWindows): void {
    // Memory stays bounded by the chats active in the last minute; idle ones are dropped lazily.
    if (windows.users > 0) return;
    const now = this.now();
    windows.chat.nextFree(now);
    windows.group?.nextFree(now);
    if (this.chats.size > 1000) {
      for (const [other, w] of this.chats) {
        if (w.users === 0 && (w.chat.nextFree(now), w.chat.idle) && (!w.group || (w.group.nextFree(now), w.group.idle))) this.chats.delete(other);
      }
    }
  }
}

/**
 * The rate-limit transformer: every attempt of a limited method (by default every sending method: texts, media,
 * forwards and copies) waits for its chat's,
 * its group's and the overall limit first, and is counted until its answer comes back. It runs inside the retry
 * transformer, so a retry waits its turn too. A shutdown abort during the wait ends the call as an abort.
 */
export function rateLimitTransformer(limiter: RateLimiter, methods: readonly MethodName[] = SENDING_METHODS): Transformer {
  const limited = new Set<string>(methods);
  return async (prev, method, params, options) => {
    const chatId = (params as { chat_id?: number | string } | undefined)?.chat_id;
    if (!limited.has(method) || chatId === undefined) return prev(method, params, options);
    let slot: RateLimitSlot;
    try {
      slot = await limiter.acquire(chatId, options.signal, options.background === true);
    } catch {
      throw new RequestAbortedError(method);
    }
    try {
      return await prev(method, params, options);
    } finally {
      slot.done();
    }
  };
}
