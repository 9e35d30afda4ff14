// What polling holds: the updates it handed to the pipeline that are not finished yet, in two kinds. An unconfirmed
// one lives only in this process and at the service, so the offset stays at or below it (the service resends
// it after a crash); a stored one was written durably by the pipeline (its inbox), so the offset may pass it and
// the next start handles it from the store. Storing is what lets polling fetch past a chat that is stuck.
import type { Update } from '../api/types.js';
import { chatKeyOf } from '../engine/events.js';

interface Held {
  readonly update: Update;
  /** When it was handed to the pipeline (performance.now()). */
  readonly since: number;
}

export class UpdatesInHand {
  /** Handed to the pipeline, not finished and not stored: the offset must never pass these. */
  private readonly unconfirmed = new Map<number, Held>();
  /** Handed to the pipeline, not finished, stored durably (the offset may pass these), with their chat's key. */
  private readonly stored = new Map<number, { readonly chat: string; readonly since: number }>();
  private highestReceived: number | undefined;

  /** Updates in hand, stored or not. */
  get size(): number {
    return this.unconfirmed.size + this.stored.size;
  }

  /** Updates in hand that only the service keeps besides this process. */
  get unconfirmedCount(): number {
    return this.unconfirmed.size;
  }

  /** True when this update id is in hand (the service resends unconfirmed updates until the offset passes them). */
  has(updateId: number): boolean {
    return this.unconfirmed.has(updateId) || this.stored.has(updateId);
  }

  /** A fetched update handed to the pipeline (again, after its handling was cut short: it keeps its age). */
  add(update: Update, now = performance.now()): void {
    const id = update.update_id;
    this.unconfirmed.set(id, { update, since: this.unconfirmed.get(id)?.since ?? now });
    if (this.highestReceived === undefined || id > this.highestReceived) this.highestReceived = id;
  }

  /** The pipeline finished the update (handled, or dropped for good). */
  finish(updateId: number): void {
    if (!this.unconfirmed.delete(updateId)) this.stored.delete(updateId);
  }

  /** The next offset to confirm: the lowest unconfirmed update, or the highest received + 1 (undefined before any). */
  get nextOffset(): number | undefined {
    if (this.unconfirmed.size === 0) return this.highestReceived === undefined ? undefined : this.highestReceived + 1;
    let lowest = Infinity;
    for (const id of this.unconfirmed.keys()) if (id < lowest) lowest = id;
    return lowest;
  }

  /**
   * The unconfirmed updates that are stuck: in hand for `holdMs` or longer, or queued behind a stored update of
   * their chat that is (a chat's updates run in order: such an update cannot be answered before that one).
   */
  stuck(holdMs: number, now = performance.now()): Update[] {
    const stuckChats = new Set<string>();
    for (const { chat, since } of this.stored.values()) if (now - since >= holdMs) stuckChats.add(chat);
    const out: Update[] = [];
    for (const { update, since } of this.unconfirmed.values()) {
      if (now - since >= holdMs || (stuckChats.size > 0 && stuckChats.has(chatKeyOf(update)))) out.push(update);
    }
    return out;
  }

  /** The update is stored durably: the offset may pass it (unless it finished meanwhile). */
  markStored(updateId: number): void {
    const held = this.unconfirmed.get(updateId);
    if (!held) return;
    this.unconfirmed.delete(updateId);
    this.stored.set(updateId, { chat: chatKeyOf(held.update), since: held.since });
  }
}
