// Flow timeouts in the running service, in one room: a timer per user in an unfinished flow (per chat), set
// from the stored flows at start (so timeouts survive a restart, and those that fell due while hearsay was
// stopped fire at once), moved after every commit that changes a flow, and recomputed when the rules reload (a
// timeout may have changed). A due timer only asks the pipeline for a flow_timeout event, which decide judges
// on the state of that moment, so a timer that fires late, twice, or after the user moved on does no harm.
import { flowDeadline } from '../engine/flows.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { Logger } from '../log/logger.js';
import type { ChatStateStore, StateCommit } from './ports.js';

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

export interface FlowTimeoutParts {
  store: Pick<ChatStateStore, 'flows'>;
  rules: { readonly current: RuleSet };
  /** Raises the timeout (the pipeline's flowTimeout). */
  fire(chatId: number, userId: number): Promise<void>;
  logger: Logger;
}

/** The service's flow timeouts; `schedule()` once the pipeline runs, `onCommitted` after each commit, `close` at stop. */
export class FlowTimeouts {
  private readonly timers: FlowTimers;

  constructor(private readonly parts: FlowTimeoutParts) {
    this.timers = new FlowTimers((key) => void parts.fire(key.chatId, key.userId));
  }

  /** (Re)sets every stored flow's timer by the current rules. */
  async schedule(): Promise<void> {
    const flows = await this.parts.store.flows();
    for (const { chatId, userId, position } of flows) this.timers.set({ chatId, userId }, flowDeadline(position, this.parts.rules.current));
    if (flows.length > 0) this.parts.logger.debug({ flows: flows.length, timers: this.timers.size }, 'flow timeouts scheduled');
  }

  /** Moves the timer of a flow a commit started, moved on or left. */
  onCommitted(commit: StateCommit): void {
    const { chatId, userId } = commit.scope;
    if (chatId === null || userId === null) return;
    for (const change of commit.changes) {
      if (change.type !== 'set_flow') continue;
      this.timers.set({ chatId: change.chatId ?? chatId, userId }, change.flow ? flowDeadline(change.flow, this.parts.rules.current) : null);
    }
  }

  /** Stops every timer (the service is stopping). */
  close(): void {
    this.timers.close();
  }
}
