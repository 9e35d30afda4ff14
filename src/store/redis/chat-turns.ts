// The per-chat sequencer across replicas: in this process the local sequencer keeps each chat's order and
// bounds the chats running at once; before a task runs, the Redis ledger is asked for the chat's turn, so an
// update waits until every earlier update of its chat — accepted by any replica — is committed.
import { LocalChatSequencer } from '../../pipeline/chat-sequencer.js';
import type { ChatSequencer, SequencedTask } from '../../pipeline/ports.js';
import type { RedisLedger } from './redis-ledger.js';

export class RedisChatSequencer implements ChatSequencer {
  private readonly local: LocalChatSequencer;

  constructor(
    private readonly ledger: RedisLedger,
    options: { concurrency: number },
  ) {
    this.local = new LocalChatSequencer(options);
  }

  get inFlight(): number {
    return this.local.inFlight;
  }

  run<T>(key: string, task: SequencedTask<T>, updateId?: number): Promise<T> {
    if (updateId === undefined) return this.local.run(key, task);
    return this.local.run(key, async (signal) => {
      await this.ledger.waitForTurn(key, updateId, signal);
      return task(signal);
    });
  }

  drain(deadlineMs: number, graceMs?: number): Promise<boolean> {
    return this.local.drain(deadlineMs, graceMs);
  }

  close(): void {
    this.local.close();
  }

  abort(): void {
    this.local.abort();
  }
}
