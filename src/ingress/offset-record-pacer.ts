// The polling leader's record of the confirmed offset in the shared store, made at most once per interval. The
// record tells a next leader where to start and lets the store forget the done ids below it; the service forgot
// those updates when the getupdates confirmed them, so a record that comes up to an interval later changes
// neither (a next leader asking from an older offset gets what the service still holds). At a low rate this was
// one request to Redis per update: every getupdates confirms the one before.

/** Records offsets through `record`: the first at once, later ones at most once per `everyMs`, the latest always. */
export class OffsetRecordPacer {
  private pending: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private lastAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly record: (offset: number) => Promise<void>,
    private readonly everyMs: number,
    /** Told when a record made later (by the timer) fails: nobody waits for it. */
    private readonly failed: (error: unknown, offset: number) => void,
  ) {}

  /**
   * Records `offset` now when the last record is an interval old (or `now` is asked: a stop), else later with
   * whatever offset is the latest by then. Resolves when it is recorded, or at once when it is left for later.
   */
  confirm(offset: number, { now = false } = {}): Promise<void> {
    this.pending = Math.max(this.pending ?? offset, offset);
    const sinceLast = Date.now() - this.lastAt;
    if (now || sinceLast >= this.everyMs) return this.recordPending();
    // Unreferenced: a stop records its offset at once (`now`), so no timer needs to hold the process open.
    this.timer ??= setTimeout(() => this.recordLater(), this.everyMs - sinceLast).unref();
    return Promise.resolve();
  }

  /** Forgets an offset left for later (this replica stopped leading: the next leader records its own). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = null;
  }

  private recordLater(): void {
    const offset = this.pending;
    if (offset !== null) this.recordPending().catch((error: unknown) => this.failed(error, offset));
  }

  private recordPending(): Promise<void> {
    const offset = this.pending;
    this.cancel();
    if (offset === null) return Promise.resolve();
    this.lastAt = Date.now();
    return this.record(offset);
  }
}
