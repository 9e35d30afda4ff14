// Timeouts for many calls that share one duration, without a timer per call: their deadlines fall due in the
// order the calls start, so a FIFO and one timer, armed for the oldest deadline still pending, stand in for all.

/** A call with a deadline in the queue: whether it has finished meanwhile, and what to do when its time is up. */
export interface Expiring {
  /** True once the call finished: the queue then drops it without expiring it (removal is lazy). */
  readonly finished: boolean;
  /** Called at most once, when the deadline passed before the call finished. */
  expire(): void;
}

// Finished entries at the head are dropped in place; the arrays are cut down only once that many have gone.
const COMPACT_AFTER = 1024;

/**
 * The deadlines of calls that share one timeout. An entry is added when its call starts and only marked finished
 * when it ends; one unref'd timer (it never holds the process open) fires for the oldest deadline still pending,
 * expires what is due, drops what finished, and re-arms for the next.
 */
export class DeadlineQueue<T extends Expiring> {
  private entries: Array<T | undefined> = [];
  private deadlines: number[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `now` is a monotonic clock in milliseconds (injectable for tests). */
  constructor(
    readonly timeoutMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts `entry`'s timeout: it expires `timeoutMs` from now unless it has finished by then. */
  add(entry: T): void {
    this.dropFinished();
    this.entries.push(entry);
    this.deadlines.push(this.now() + this.timeoutMs);
    if (this.timer === undefined) this.arm(this.deadlines[this.head]!);
  }

  /** Entries held: pending ones and finished ones not dropped yet. */
  get size(): number {
    return this.entries.length - this.head;
  }

  private arm(deadline: number): void {
    // A timer may fire a little before `now()` reaches the deadline (the loop's clock is cached): fire() then re-arms.
    this.timer = setTimeout(this.fire, Math.max(1, Math.ceil(deadline - this.now())));
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = this.now();
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head]!;
      if (!entry.finished) {
        if (this.deadlines[this.head]! > now) break;
        entry.expire();
      }
      this.entries[this.head++] = undefined;
    }
    this.compact();
    // expire() may have started calls of its own, which armed the timer already.
    if (this.timer === undefined && this.head < this.entries.length) this.arm(this.deadlines[this.head]!);
  };

  private dropFinished(): void {
    while (this.head < this.entries.length && this.entries[this.head]!.finished) this.entries[this.head++] = undefined;
    this.compact();
  }

  private compact(): void {
    if (this.head === this.entries.length) {
      this.entries.length = 0;
      this.deadlines.length = 0;
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER && this.head * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.deadlines = this.deadlines.slice(this.head);
      this.head = 0;
    }
  }
}
