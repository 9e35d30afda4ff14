// One bot's pending updates: numbered in arrival order, removed when confirmed by an offset (polling) or
// after a 2xx answer (webhook). Wakes the single long poll allowed at a time and tells the webhook worker.
import type { Message, Update } from '@grammyjs/types';

export type PollOutcome = 'ready' | 'timeout' | 'conflict' | 'cancelled';

interface Waiter {
  finish(outcome: PollOutcome): void;
}

export class UpdateQueue {
  private pending: Update[] = [];
  private nextUpdateId = 1;
  private waiter: Waiter | undefined;
  private readonly listeners = new Set<() => void>();

  push(message: Message): Update {
    const update = { update_id: this.nextUpdateId++, message } as Update;
    this.pending.push(update);
    this.waiter?.finish('ready');
    for (const listener of this.listeners) listener();
    return update;
  }

  /** Called on every push (the webhook worker listens). */
  onPush(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.pending.length;
  }

  /** The oldest pending updates, in order. */
  list(limit = Infinity): Update[] {
    return this.pending.slice(0, limit);
  }

  /**
   * getUpdates' offset: a positive offset confirms every update below it; a negative one keeps only the
   * last -offset updates and forgets the rest, as the real service does.
   */
  confirm(offset: number): void {
    if (offset > 0) this.pending = this.pending.filter((update) => update.update_id >= offset);
    else if (offset < 0) this.pending = this.pending.slice(offset);
  }

  remove(updateId: number): void {
    this.pending = this.pending.filter((update) => update.update_id !== updateId);
  }

  /**
   * Starts the update id sequence over at `next`, as a restarted self-hosted Bot API server does, or the real
   * service after a quiet week (it then picks the next id at random). For tests of bots that must not go deaf.
   */
  restartIds(next = 1): void {
    this.nextUpdateId = next;
  }

  dropAll(): void {
    this.pending = [];
  }

  /**
   * Waits until an update is pending, the time is up, a newer poll takes over ('conflict'), or `cancel`
   * is called (the poller went away). Only one waiter at a time, as the service allows one poller.
   */
  wait(timeoutMs: number): { outcome: Promise<PollOutcome>; cancel(): void } {
    this.waiter?.finish('conflict');
    let finish!: (outcome: PollOutcome) => void;
    const outcome = new Promise<PollOutcome>((resolve) => {
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      const waiter: Waiter = {
        finish: (result) => {
          clearTimeout(timer);
          if (this.waiter === waiter) this.waiter = undefined;
          resolve(result);
        },
      };
      finish = waiter.finish;
      this.waiter = waiter;
    });
    return { outcome, cancel: () => finish('cancelled') };
  }

  /** Ends a waiting poll with 409 without starting a new one (e.g. when a webhook is set). */
  endWaitingPoll(): void {
    this.waiter?.finish('conflict');
  }

  /** Ends a waiting poll quietly (the sandbox is closing). */
  cancelWaitingPoll(): void {
    this.waiter?.finish('cancelled');
  }
}
