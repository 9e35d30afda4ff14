// The accepts a store is writing right now, by update id: a second delivery of the same update waits for the
// first write instead of storing it twice, and another message under that id is told apart. Every store keeps one.
import type { AcceptResult } from '../pipeline/ports.js';

export class AcceptsInFlight {
  private readonly running = new Map<number, { stored: Promise<unknown>; fingerprint: string }>();

  /**
   * The answer for an update whose accept is being written now: 'known' once that write settles (the same
   * update), 'id_busy' at once (another message under the id); undefined when none is being written.
   */
  joined(id: number, fingerprint: string): Promise<AcceptResult> | undefined {
    const running = this.running.get(id);
    if (!running) return undefined;
    if (running.fingerprint !== fingerprint) return Promise.resolve('id_busy');
    return running.stored.then(() => 'known');
  }

  /** Awaits `stored`, the write of update `id`'s accept, letting concurrent accepts of the id join it meanwhile. */
  async track<T>(id: number, fingerprint: string, stored: Promise<T>): Promise<T> {
    this.running.set(id, { stored, fingerprint });
    try {
      return await stored;
    } finally {
      this.running.delete(id);
    }
  }
}
