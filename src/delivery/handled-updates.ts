// Remembers which update_ids were handled, so a redelivered or replayed update is not answered twice.
// An interface: the durable journal (src/journal/) stands behind it in the service; the in-memory one is bounded.

import type { Update } from '../api/types.js';

export interface HandledUpdates {
  /** True only when this exact update was handled; `update` lets a journal tell a new id sequence from a redelivery. */
  has(updateId: number, update?: Update): boolean | Promise<boolean>;
  /** Called right before a reply is sent (which waits for it), so a crash leaves a record of replies that may have gone out. */
  begin?(updateId: number): void | Promise<void>;
  /** Resolves once the id is remembered durably (for a journal: on disk). */
  add(updateId: number, update?: Update): void | Promise<void>;
  /** The service confirmed every update below `offset` (polling): they can be forgotten. */
  confirmBelow?(offset: number): void;
  close?(): Promise<void>;
}

/** Keeps the most recent `capacity` ids; the oldest are forgotten first. */
export class MemoryHandledUpdates implements HandledUpdates {
  private readonly ids = new Set<number>();

  constructor(private readonly capacity = 10_000) {}

  has(updateId: number): boolean {
    return this.ids.has(updateId);
  }

  add(updateId: number): void {
    if (this.ids.has(updateId)) return;
    this.ids.add(updateId);
    // A Set iterates in insertion order, so the first entry is the oldest.
    while (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }

  get size(): number {
    return this.ids.size;
  }
}
