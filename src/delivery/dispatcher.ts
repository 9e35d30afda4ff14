// Hands updates to the handler: one chat's updates strictly in arrival order, different chats at the same
// time with at most `concurrency` chats in flight. A busy chat gives its slot back after each update so
// it cannot starve the others. A TokenRejectedError from a handler stops all work: nothing more is started,
// and the update stays unhandled (its dispatch rejects), so the ingress keeps it for the next run.
import { setMaxListeners } from 'node:events';
import type { Update } from '../api/types.js';
import { chatKeyOf } from '../engine/events.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { TokenRejectedError } from '../api/failure.js';

/** Handles one update; must reject with an AbortError-named error when `signal` aborts it. */
export type UpdateHandler = (update: Update, signal: AbortSignal) => Promise<void>;

/** The update was not handled because shutdown cut it short; it must not be confirmed. */
export class DispatchAbortedError extends Error {
  override readonly name = 'DispatchAbortedError';
  constructor(readonly updateId: number) {
    super(`update ${updateId} was not handled before shutdown`);
  }
}

interface Task {
  update: Update;
  resolve(): void;
  reject(error: Error): void;
}

export interface UpdateDispatcherOptions {
  handler: UpdateHandler;
  concurrency: number;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Told once when a handler found the token refused (401): the service must stop taking updates. */
  onTokenRejected?: (error: TokenRejectedError) => void;
}

/** Waits a handler may have going on the shared abort signal at the same time. */
const LISTENERS_PER_HANDLER = 8;

export class UpdateDispatcher {
  private readonly queues = new Map<string, Task[]>();
  private readonly ready: string[] = [];
  private readonly running = new Set<string>();
  private readonly controller = new AbortController();
  private pending = 0;
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  private tokenRejected: TokenRejectedError | undefined;

  constructor(private readonly options: UpdateDispatcherOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new RangeError('concurrency must be a positive integer');
    // Every running handler listens to this one signal while it waits (a request, a backoff, the rate
    // limiter) and stops listening after: many listeners at once are expected, a leak is not, so the
    // warning threshold follows the concurrency instead of Node's default of 10.
    setMaxListeners(LISTENERS_PER_HANDLER * options.concurrency, this.controller.signal);
  }

  /** Updates accepted and not finished yet (queued or running). */
  get inFlight(): number {
    return this.pending;
  }

  /** Chats being handled right now (never more than the concurrency). */
  get activeChats(): number {
    return this.running.size;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /**
   * Resolves once the update is handled (replied, or dropped for good); rejects with DispatchAbortedError on
   * shutdown or after `close()`, with TokenRejectedError when the token was refused.
   */
  dispatch(update: Update): Promise<void> {
    if (this.tokenRejected) return Promise.reject(this.tokenRejected);
    if (this.aborted || this.closed) return Promise.reject(new DispatchAbortedError(update.update_id));
    return new Promise<void>((resolve, reject) => {
      const key = chatKeyOf(update);
      let queue = this.queues.get(key);
      if (!queue) this.queues.set(key, (queue = []));
      queue.push({ update, resolve, reject });
      this.pending += 1;
      if (queue.length === 1 && !this.running.has(key)) this.ready.push(key);
      this.pump();
    });
  }

  /**
   * Waits for everything in flight; at the deadline aborts what is left and waits at most `graceMs` more for
   * the handlers to notice. True when all finished normally.
   */
  async drain(deadlineMs: number, graceMs = 1000): Promise<boolean> {
    if (this.pending === 0) return true;
    const idle = new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      idle.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, deadlineMs)))),
    ]);
    clearTimeout(timer);
    if (!timedOut) return true;
    this.options.logger.warn({ in_flight: this.pending }, 'shutdown deadline reached; abandoning updates in flight (they stay unconfirmed)');
    this.abort();
    // A handler that ignores its signal must not hold the stop past its deadline.
    await Promise.race([idle, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    return false;
  }

  /** After the drain: nothing more is taken, so no handler runs while the journal closes. */
  close(): void {
    this.closed = true;
  }

  /** Ends all work now: queued updates reject, running handlers see their signal abort. */
  abort(): void {
    if (this.aborted) return;
    this.controller.abort();
    for (const [key, queue] of this.queues) {
      // The running head of each queue settles through its handler; the rest never started.
      const waiting = this.running.has(key) ? queue.splice(1) : queue.splice(0);
      for (const task of waiting) this.settle(task, new DispatchAbortedError(task.update.update_id));
      if (queue.length === 0) this.queues.delete(key);
    }
    this.ready.length = 0;
  }

  private pump(): void {
    while (this.running.size < this.options.concurrency && this.ready.length > 0) {
      const key = this.ready.shift()!;
      this.running.add(key);
      void this.runNext(key);
    }
  }

  private async runNext(key: string): Promise<void> {
    const queue = this.queues.get(key)!;
    const task = queue[0]!;
    try {
      await this.options.handler(task.update, this.controller.signal);
      this.settle(task);
    } catch (error) {
      if (error instanceof TokenRejectedError) {
        this.settle(task, error);
        this.stopForToken(error);
      } else if (this.aborted) {
        this.settle(task, new DispatchAbortedError(task.update.update_id));
      } else {
        // A handler bug must not stall the chat: log it, count it, move on.
        this.options.logger.error({ err: error, update_id: task.update.update_id }, 'update handler failed; update dropped');
        this.options.metrics?.error('handler_failed');
        this.settle(task);
      }
    }
    queue.shift();
    this.running.delete(key);
    if (queue.length > 0 && !this.aborted) this.ready.push(key);
    else if (queue.length === 0) this.queues.delete(key);
    this.pump();
  }

  private stopForToken(error: TokenRejectedError): void {
    if (this.tokenRejected) return;
    this.tokenRejected = error;
    this.options.logger.error('the token was refused (401 Unauthorized); no more updates are handled');
    // Other chats' sends would meet the same 401: stop them, they stay unhandled as well.
    this.abort();
    this.options.onTokenRejected?.(error);
  }

  private settle(task: Task, error?: Error): void {
    if (error) task.reject(error);
    else task.resolve();
    this.pending -= 1;
    if (this.pending === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
    }
  }
}
