// Timeouts for many calls that share one duration, without a timer per call: their deadlines fall due in the
// order the calls start, so a FIFO and one timer, armed for the oldest deadline still pending, stand in for all.

/** A call with a deadline in the queue: whether it has finished meanwhile, and what to do when its time is up. */
export interface Expiring {
  /** True once the call finished: the queue then drops it without expiring it (removal is lazy). */
  readonly finished: boolean;
  /** Called at most once, when the deadline passed before the call finished. */
  expire(): void;
}

// The entries live in a ring of slots, emptied as entries leave and reused: the queue never drops its head by
// slicing an array or lets one grow by pushing, both of which leave dead copies of the array in the old generation
// that keep the entries they pointed at (a call and all it holds) alive and promoted until the next full collection.
// The ring doubles when full and never shrinks (a slot is 16 bytes).
const INITIAL_SLOTS = 64;

/**
 * The deadlines of calls that share one timeout. An entry is added when its call starts and only marked finished
 * when it ends; one unref'd timer (it never holds the process open) fires for the oldest deadline still pending,
 * expires what is due, drops what finished, and re-arms for the next.
 */
export class DeadlineQueue<T extends Expiring> {
  private entries: Array<T | undefined> = new Array<T | undefined>(INITIAL_SLOTS).fill(undefined);
  private deadlines: Float64Array = new Float64Array(INITIAL_SLOTS);
  /** Slot of the oldest entry, and how many entries follow from it (wrapping around). */
  private head = 0;
  private count = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `now` is a monotonic clock in milliseconds (injectable for tests). */
  constructor(
    readonly timeoutMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts `entry`'s timeout: it expires `timeoutMs` from now unless it has finished by then. */
  add(entry: T): void {
    this.dropFinished();
    if (this.count === this.entries.length) this.grow();
    const slot = (this.head + this.count) % this.entries.length;
    this.entries[slot] = entry;
    this.deadlines[slot] = this.now() + this.timeoutMs;
    this.count += 1;
    if (this.timer === undefined) this.arm(this.deadlines[this.head]!);
  }

  /** Entries held: pending ones and finished ones not dropped yet. */
  get size(): number {
    return this.count;
  }

  private arm(deadline: number): void {
    // A timer may fire a little before `now()` reaches the deadline (the loop's clock is cached): fire() then re-arms.
    this.timer = setTimeout(this.fire, Math.max(1, Math.ceil(deadline - this.now())));
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = this.now();
    while (this.count > 0) {
      const entry = this.entries[this.head]!;
      if (!entry.finished && this.deadlines[this.head]! > now) break;
      // Out of the ring before expire(), which may start calls that add entries of their own.
      this.shift();
      if (!entry.finished) entry.expire();
    }
    // expire() may have started calls of its own, which armed the timer already.
    if (this.timer === undefined && this.count > 0) this.arm(this.deadlines[this.head]!);
  };

  private dropFinished(): void {
    while (this.count > 0 && this.entries[this.head]!.finished) this.shift();
  }

  /** Empties the head slot (so it holds nothing any more) and moves the head on. */
  private shift(): void {
    this.entries[this.head] = undefined;
    this.head = (this.head + 1) % this.entries.length;
    this.count -= 1;
  }

  /** Twice the slots, entries moved to the start in order; the old ring is emptied first so that it keeps nothing alive. */
  private grow(): void {
    const size = this.entries.length;
    const entries = new Array<T | undefined>(size * 2).fill(undefined);
    const deadlines = new Float64Array(size * 2);
    for (let i = 0; i < this.count; i++) {
      const slot = (this.head + i) % size;
      entries[i] = this.entries[slot];
      deadlines[i] = this.deadlines[slot]!;
      this.entries[slot] = undefined;
    }
    this.entries = entries;
    this.deadlines = deadlines;
    this.head = 0;
  }
}
