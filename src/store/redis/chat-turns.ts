// The per-chat sequencer across replicas: an update first waits for its chat's turn in Redis (every earlier
// update of the chat, accepted by any replica, is committed), then runs in the local sequencer, which bounds
// the chats running at once. Waiting holds no slot: replicas whose slots were all taken by waiting updates
// would otherwise wait for each other forever.
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocalChatSequencer } from '../../pipeline/chat-sequencer.js';
import { SequenceAbortedError, type ChatSequencer, type SequencedTask } from '../../pipeline/ports.js';
import type { RedisLedger } from './redis-ledger.js';

/** How often a drain looks whether the waiting updates got their turn. */
const DRAIN_CHECK_MS = 20;

export class RedisChatSequencer implements ChatSequencer {
  private readonly local: LocalChatSequencer;
  private readonly waits = new AbortController();
  private waiting = 0;
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

  async run<T>(key: string, task: SequencedTask<T>, updateId?: number): Promise<T> {
    if (updateId === undefined) return this.local.run(key, task);
    if (this.closed || this.waits.signal.aborted) throw new SequenceAbortedError(key);
    this.waiting += 1;
    try {
      await this.ledger.waitForTurn(key, updateId, this.waits.signal);
    } catch (error) {
      // Cut short by a stop: the update stays in the inbox for the next run (or another replica).
      if (this.waits.signal.aborted) throw new SequenceAbortedError(key);
      throw error;
    } finally {
      this.waiting -= 1;
    }
    return this.local.run(key, task);
  }

  async drain(deadlineMs: number, graceMs?: number): Promise<boolean> {
    const deadline = performance.now() + deadlineMs;
    // Updates still waiting may get their turn from work in flight here or on other replicas: give them the time.
    while (this.waiting > 0 && performance.now() < deadline) await sleep(DRAIN_CHECK_MS);
    const clean = this.waiting === 0;
    if (!clean) this.waits.abort();
    return (await this.local.drain(Math.max(0, deadline - performance.now()), graceMs)) && clean;
  }

  close(): void {
    this.closed = true;
    this.local.close();
  }

  abort(): void {
    this.waits.abort();
    this.local.abort();
  }
}
