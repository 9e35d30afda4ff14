// The per-chat sequencer across replicas: an update first waits for its chat's turn in Redis (every earlier
// update of the chat, accepted by any replica, is committed), then runs in the local sequencer, which bounds
// the chats running at once. An earlier update of the same chat in this replica's hands is waited for
// locally first (for a bounded time: Redis's order decides), and when Redis names an update of this replica as the
// one to wait for, its end is waited for here, so a replica does not poll Redis for its own work. Waiting holds no slot: replicas whose slots were all taken by waiting updates
// would otherwise wait for each other forever.
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocalChatSequencer } from '../../pipeline/chat-sequencer.js';
import { SequenceAbortedError, type ChatSequencer, type SequencedTask } from '../../pipeline/ports.js';
import type { RedisLedger } from './redis-ledger.js';

/** Longest wait for an earlier update of the chat held here before asking Redis whose turn it is. */
const LOCAL_WAIT_CAP_MS = 1000;
/** How often a drain looks whether the waiting updates got their turn. */
const DRAIN_CHECK_MS = 20;

export class RedisChatSequencer implements ChatSequencer {
  private readonly local: LocalChatSequencer;
  private readonly waits = new AbortController();
  /**
   * The local waits (see awhile) in progress, each ended by a stop: a set rather than listeners on `waits`,
   * whose addEventListener looks through every listener already there, and hundreds wait at once in a backlog.
   */
  private readonly localWaits = new Set<() => void>();
  private waiting = 0;
  /** The last update of each chat in this replica's hands: the next one of the chat waits for it here, not by asking Redis. */
  private readonly tails = new Map<string, Promise<void>>();
  /** Every update in this replica's hands (waiting or running), by id: ends when it is done here. */
  private readonly held = new Map<number, Promise<void>>();
  private closed = false;

  constructor(
    private readonly ledger: RedisLedger,
    options: { concurrency: number },
  ) {
    this.local = new LocalChatSequencer(options);
    // Every waiting update listens to this one signal while it sleeps between looks: many at once is normal.
    setMaxListeners(0, this.waits.signal);
  }

  get inFlight(): number {
    return this.local.inFlight + this.waiting;
  }

  runsAtOnce(key: string): boolean {
    return !this.tails.has(key) && this.local.runsAtOnce(key);
  }

  async run<T>(key: string, task: SequencedTask<T>, updateId?: number): Promise<T> {
    if (updateId === undefined) return this.local.run(key, task);
    if (this.closed || this.waits.signal.aborted) throw new SequenceAbortedError(key);
    const before = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.tails.set(key, mine);
    this.held.set(updateId, mine);
    try {
      await this.waitForTurn(key, updateId, before);
      return await this.local.run(key, task);
    } finally {
      release();
      if (this.tails.get(key) === mine) this.tails.delete(key);
      if (this.held.get(updateId) === mine) this.held.delete(updateId);
    }
  }

  /** An earlier update of the chat held here is waited for first; then Redis is asked (one look, usually). */
  private async waitForTurn(key: string, updateId: number, before: Promise<void> | undefined): Promise<void> {
    this.waiting += 1;
    try {
      if (before) await this.awhile(before);
      if (this.waits.signal.aborted) throw new SequenceAbortedError(key);
      await this.ledger.waitForTurn(key, updateId, this.waits.signal, (id) => this.held.get(id));
    } catch (error) {
      // Cut short by a stop: the update stays in the inbox for the next run (or another replica).
      if (this.waits.signal.aborted) throw new SequenceAbortedError(key);
      throw error;
    } finally {
      this.waiting -= 1;
    }
  }

  /**
   * Waits for the earlier update, for at most a second: Redis's order is what counts, and an update taken
   * over from a dead replica can be older than one already here (it is then the one to go first).
   */
  private awhile(earlier: Promise<void>): Promise<void> {
    // A plain timer, not an aborted timers/promises sleep: aborting one makes two errors with their stacks, and
    // every update that waits behind another of its chat comes this way.
    return new Promise<void>((resolve, reject) => {
      const end = (error?: unknown) => {
        clearTimeout(timer);
        this.localWaits.delete(stop);
        if (error === undefined) resolve();
        else reject(error as Error);
      };
      const stop = () => end();
      const timer = setTimeout(stop, LOCAL_WAIT_CAP_MS);
      this.localWaits.add(stop);
      earlier.then(stop, (error: unknown) => end(error ?? new Error('the earlier update of the chat failed')));
    });
  }

  /** A stop: every update waiting for its turn, here or in Redis, stops waiting (it stays stored for the next run). */
  private stopWaits(): void {
    this.waits.abort();
    for (const stop of [...this.localWaits]) stop();
  }

  async drain(deadlineMs: number, graceMs?: number): Promise<boolean> {
    const deadline = performance.now() + deadlineMs;
    // Updates still waiting may get their turn from work in flight here or on other replicas: give them the time.
    while (this.waiting > 0 && performance.now() < deadline) await sleep(DRAIN_CHECK_MS);
    const clean = this.waiting === 0;
    if (!clean) this.stopWaits();
    return (await this.local.drain(Math.max(0, deadline - performance.now()), graceMs)) && clean;
  }

  close(): void {
    this.closed = true;
    this.local.close();
  }

  waitAside<T>(work: Promise<T>): Promise<T> {
    return this.local.waitAside(work);
  }

  abort(): void {
    this.stopWaits();
    this.local.abort();
  }
}
