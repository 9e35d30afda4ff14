// The outbox as a store that keeps it in its own memory holds it (the file store, the memory store): pending
// effects in their order (due time, then the order they were stored in), who holds a claim on which, and the
// rules of claiming — due, at most one per order key and only the first unfinished one of its key. The file
// store writes a line for every change it makes here; what the lines hold is this queue's business.
import type { EffectOutcome, NewEffect, OutboxStats, StoredEffect } from '../pipeline/outbox-port.js';

/** One pending effect with its bookkeeping. */
interface Entry {
  effect: NewEffect;
  /** Its place in the order of storing (ties of due time). */
  readonly seq: number;
  dueAt: number;
  attempts: number;
  /** An attempt was begun and not finished yet. */
  begun: boolean;
}

/** A pending effect as kept through a compaction or a copy: the effect, its due time now and its attempts. */
export interface EffectSnapshot {
  readonly effect: NewEffect;
  readonly dueAt: number;
  readonly attempts: number;
  readonly begun: boolean;
}

export class EffectQueue {
  private readonly entries = new Map<string, Entry>();
  private seq = 0;
  /** The entries in claiming order, rebuilt only after the order changed. */
  private ordered: Entry[] | null = [];

  /** How many effects are pending. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether this effect is pending. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /**
   * Stores effects of one record, in order: a pending effect with the same replace key as a new one is dropped
   * first, and so is one with the same id (a record applied again changes nothing). Returns the ids dropped.
   */
  add(effects: readonly NewEffect[]): string[] {
    const dropped: string[] = [];
    for (const effect of effects) {
      if (this.entries.has(effect.id)) continue;
      if (effect.replaceKey !== undefined) dropped.push(...this.cancel([effect.replaceKey]));
      this.entries.set(effect.id, { effect, seq: this.seq++, dueAt: effect.dueAt, attempts: 0, begun: false });
    }
    this.ordered = null;
    return dropped;
  }

  /** Puts back what a compaction or a copy kept, in its order. */
  restore(snapshot: EffectSnapshot): void {
    this.entries.set(snapshot.effect.id, {
      effect: snapshot.effect,
      seq: this.seq++,
      dueAt: snapshot.dueAt,
      attempts: snapshot.attempts,
      begun: snapshot.begun,
    });
    this.ordered = null;
  }

  /** Drops the pending effects with these replace keys; returns their ids. */
  cancel(replaceKeys: readonly string[]): string[] {
    if (replaceKeys.length === 0) return [];
    const keys = new Set(replaceKeys);
    const dropped: string[] = [];
    for (const [id, entry] of this.entries) {
      if (entry.effect.replaceKey !== undefined && keys.has(entry.effect.replaceKey)) dropped.push(id);
    }
    this.drop(dropped);
    return dropped;
  }

  /** Drops the pending effects concerning one user (a forget); returns their ids. */
  forgetUser(userId: number): string[] {
    const dropped = [...this.entries.values()].filter((e) => e.effect.userId === userId).map((e) => e.effect.id);
    this.drop(dropped);
    return dropped;
  }

  /** Takes effects out by id (finished elsewhere, or dropped). */
  drop(ids: Iterable<string>): void {
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      this.entries.delete(id);
      // Taken out of the order in place: a finished effect is nearly always near its front, and re-sorting a
      // campaign's thousands of effects after each one finished would cost more than sending them.
      const at = this.ordered?.indexOf(entry) ?? -1;
      if (at >= 0) this.ordered!.splice(at, 1);
      else this.ordered = null;
    }
  }

  /** An attempt begins. */
  begin(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.attempts += 1;
    entry.begun = true;
  }

  /** An attempt ended: done and failed take the effect out, retry keeps it for later. */
  finish(id: string, outcome: EffectOutcome): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    if (outcome.outcome !== 'retry') {
      this.drop([id]);
      return;
    }
    entry.begun = false;
    entry.dueAt = outcome.retryAt;
  }

  /**
   * The effects that may be claimed now, oldest first: due by `now`, not claimed, and the first pending effect
   * of their order key (an earlier one of the key, claimed, waiting or waiting for its retry, holds the rest back).
   */
  claimable(now: number, limit: number, claimed: ReadonlySet<string>): StoredEffect[] {
    let due: Entry[] = [];
    for (const entry of this.heads(claimed)) {
      // In the order effects were first due: a later first due time means nothing after it is due either.
      if (entry.effect.dueAt > now) break;
      // Every entry from here on is due at its first due time or later (a retry only moves later): once `limit`
      // found come before that, none further can (a campaign's thousands of due effects are not all looked at).
      if (due.length >= limit) {
        due = byDueTime(due).slice(0, limit);
        const last = due[limit - 1]!;
        if (last.dueAt < entry.effect.dueAt || (last.dueAt === entry.effect.dueAt && last.seq < entry.seq)) break;
      }
      if (entry.dueAt <= now) due.push(entry);
    }
    // Oldest first by when they are due now (a retry's time), then in the order they were stored.
    return byDueTime(due).slice(0, limit).map(stored);
  }

  /** When the earliest effect that could be claimed is due; null when there is none. */
  nextDueAt(claimed: ReadonlySet<string>): number | null {
    let next: number | null = null;
    for (const entry of this.heads(claimed)) {
      // None further can be due sooner than its first due time.
      if (next !== null && entry.effect.dueAt >= next) break;
      if (next === null || entry.dueAt < next) next = entry.dueAt;
    }
    return next;
  }

  /** The unclaimed entries no earlier entry of their order key holds back, in order. */
  private *heads(claimed: ReadonlySet<string>): Iterable<Entry> {
    const heldKeys = new Set<string>();
    for (const entry of this.inOrder()) {
      const key = entry.effect.orderKey;
      if (key !== undefined) {
        if (heldKeys.has(key)) continue;
        heldKeys.add(key);
      }
      if (!claimed.has(entry.effect.id)) yield entry;
    }
  }

  /** Pending effects concerning one user, soonest first. */
  ofUser(userId: number): StoredEffect[] {
    return this.inOrder()
      .filter((e) => e.effect.userId === userId)
      .map(stored);
  }

  stats(now: number): OutboxStats {
    let due = 0;
    let oldestDueAt: number | null = null;
    for (const entry of this.entries.values()) {
      if (entry.dueAt > now) continue;
      due += 1;
      if (oldestDueAt === null || entry.dueAt < oldestDueAt) oldestDueAt = entry.dueAt;
    }
    return { pending: this.entries.size, due, oldestDueAt };
  }

  /** What a compaction or a copy keeps, in order. */
  snapshot(): EffectSnapshot[] {
    return this.inOrder().map((e) => ({ effect: e.effect, dueAt: e.dueAt, attempts: e.attempts, begun: e.begun }));
  }

  /** In the order effects were first due, then stored: a retry keeps its effect's place among those of its order key. */
  private inOrder(): Entry[] {
    this.ordered ??= [...this.entries.values()].sort((a, b) => a.effect.dueAt - b.effect.dueAt || a.seq - b.seq);
    return this.ordered;
  }
}

/** Sorted by when they are due now (a retry's time), then in the order they were stored. */
function byDueTime(entries: Entry[]): Entry[] {
  return entries.sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
}

function stored(entry: Entry): StoredEffect {
  return { ...entry.effect, attemptAt: entry.dueAt, attempts: entry.attempts, inDoubt: entry.begun };
}
