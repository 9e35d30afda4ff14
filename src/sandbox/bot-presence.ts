// Whether a program answers as a bot: a webhook is set, a getupdates is waiting, or one ended a moment ago (a
// poller asks again within milliseconds). The chat page says "no program is answering as @x_bot" otherwise, so
// an empty chat is not mistaken for a silent bot.
import type { BotRecord } from './records.js';

/** A poller between two getupdates counts as present this long. */
export const POLL_GRACE_MS = 4000;

export class BotPresence {
  private readonly lastPoll = new Map<number, number>();
  private readonly shown = new Map<number, boolean>();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly graceMs = POLL_GRACE_MS) {}

  /** Whether a program answers as `bot` now. */
  answering(bot: BotRecord, now = Date.now()): boolean {
    return bot.webhook !== undefined || bot.queue.polling || now - (this.lastPoll.get(bot.id) ?? -Infinity) < this.graceMs;
  }

  /** A getupdates began or ended for `bot`. */
  polled(bot: BotRecord): void {
    this.lastPoll.set(bot.id, Date.now());
    this.check(bot);
    clearTimeout(this.timers.get(bot.id));
    // Looked at again once the grace is over: a poller that stopped asking is gone then.
    const timer = setTimeout(() => {
      this.timers.delete(bot.id);
      this.check(bot);
    }, this.graceMs + 50);
    timer.unref();
    this.timers.set(bot.id, timer);
  }

  /** A webhook was set or deleted for `bot`. */
  webhookChanged(bot: BotRecord): void {
    this.check(bot);
  }

  /** Called whenever a bot starts or stops being answered. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops the pending checks (the sandbox closes). */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private check(bot: BotRecord): void {
    const now = this.answering(bot);
    if (this.shown.get(bot.id) === now) return;
    this.shown.set(bot.id, now);
    for (const listener of this.listeners) listener();
  }
}
