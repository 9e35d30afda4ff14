// What polling holds: the updates it handed to the pipeline that are not finished yet, in two kinds. An unconfirmed
// one lives only in this process and at the service, so the offset stays at or below it (the service resends
// it after a crash); a stored one was written durably by the pipeline (its inbox), so the offset may pass it and
// the next start handles it from the store. Storing is what lets polling fetch past a chat that is stuck.
import type { Update } from '../api/types.js';
import { chatKeyOf } from '../engine/events.js';

export class UpdatesInHand {
  /** Handed to the pipeline, not finished and not stored: the offset must never pass these. */
  private readonly unconfirmed = new Map<number, Update>();
  /** Handed to the pipeline, not finished, stored durably (the offset may pass these), with their chat's key. */
  private readonly stored = new Map<number, string>();
  /** How many stored updates each chat has in hand. */
  private readonly storedPerChat = new Map<string, number>();
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

  /** A fetched update handed to the pipeline. */
  add(update: Update): void {
    const id = update.update_id;
    this.unconfirmed.set(id, update);
    if (this.highestReceived === undefined || id > this.highestReceived) this.highestReceived = id;
  }

  /** The pipeline finished the update (handled, or dropped for good). */
  finish(updateId: number): void {
    if (this.unconfirmed.delete(updateId)) return;
    const chat = this.stored.get(updateId);
    if (chat === undefined) return;
    this.stored.delete(updateId);
    const left = (this.storedPerChat.get(chat) ?? 1) - 1;
    if (left > 0) this.storedPerChat.set(chat, left);
    else this.storedPerChat.delete(chat);
  }

  /** The next offset to confirm: the lowest unconfirmed update, or the highest received + 1 (undefined before any). */
  get nextOffset(): number | undefined {
    if (this.unconfirmed.size > 0) return lowest(this.unconfirmed.keys());
    return this.highestReceived === undefined ? undefined : this.highestReceived + 1;
  }

  /** The unconfirmed updates (those whose chat has a stored one in hand, with `behindStored`), to store. */
  unconfirmedUpdates({ behindStored = false } = {}): Update[] {
    const updates = [...this.unconfirmed.values()];
    // A chat's updates run in order: one queued behind a stored (stuck) update of its chat cannot finish before it.
    return behindStored ? updates.filter((update) => this.storedPerChat.has(chatKeyOf(update))) : updates;
  }

  /** The update is stored durably: the offset may pass it (unless it finished meanwhile). */
  markStored(updateId: number): void {
    const update = this.unconfirmed.get(updateId);
    if (!update) return;
    this.unconfirmed.delete(updateId);
    const chat = chatKeyOf(update);
    this.stored.set(updateId, chat);
    this.storedPerChat.set(chat, (this.storedPerChat.get(chat) ?? 0) + 1);
  }
}

function lowest(ids: Iterable<number>): number {
  let min = Infinity;
  for (const id of ids) if (id < min) min = id;
  return min;
}
