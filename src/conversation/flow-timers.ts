// Flow timeouts at run time: one timer per user in a flow (per chat), set to the deadline decide's rules
// give (flowDeadline), replaced whenever the position is committed again and dropped when the flow is
// left. A due timer only asks for a flow_timeout event; decide judges it on the state of that moment, so
// a timer that fires late, twice, or after the user moved on does no harm.

/** Whose flow a timer is for. */
export interface FlowTimerKey {
  readonly chatId: number;
  readonly userId: number;
}

/** Node's timers cannot wait longer than this (about 24.8 days); a later deadline is reached in several waits. */
const MAX_WAIT_MS = 2 ** 31 - 1;

/** The clock and timers, replaceable in tests. */
export interface TimerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): { unref?(): unknown };
  clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: TimerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Keeps one timer per (chat, user) and calls `due` when its deadline has come. */
export class FlowTimers {
  private readonly timers = new Map<string, { key: FlowTimerKey; deadline: number; handle: unknown }>();
  private closed = false;

  constructor(
    private readonly due: (key: FlowTimerKey) => void,
    private readonly clock: TimerClock = SYSTEM_CLOCK,
  ) {}

  /** Sets (or, with null, removes) the deadline of a user's flow in a chat; a past deadline fires at once (asynchronously). */
  set(key: FlowTimerKey, deadline: number | null): void {
    const id = `${key.chatId}:${key.userId}`;
    const old = this.timers.get(id);
    if (old) {
      this.clock.clearTimeout(old.handle);
      this.timers.delete(id);
    }
    if (deadline === null || this.closed) return;
    this.arm(id, key, deadline);
  }

  private arm(id: string, key: FlowTimerKey, deadline: number): void {
    const wait = Math.max(0, Math.min(deadline - this.clock.now(), MAX_WAIT_MS));
    const handle = this.clock.setTimeout(() => {
      if (this.timers.get(id)?.handle !== handle) return;
      if (this.clock.now() < deadline) return this.arm(id, key, deadline);
      this.timers.delete(id);
      this.due(key);
    }, wait);
    // A waiting timeout must not keep a stopping process alive.
    handle.unref?.();
    this.timers.set(id, { key, deadline, handle });
  }

  /** The deadline set for a user's flow in a chat, if any. */
  deadlineOf(key: FlowTimerKey): number | undefined {
    return this.timers.get(`${key.chatId}:${key.userId}`)?.deadline;
  }

  /** How many timers wait. */
  get size(): number {
    return this.timers.size;
  }

  /** Drops every timer; later `set` calls are ignored (the service is stopping). */
  close(): void {
    this.closed = true;
    for (const { handle } of this.timers.values()) this.clock.clearTimeout(handle);
    this.timers.clear();
  }
}
