// The inbox's accepts, gathered: the updates asked to be stored at about the same time go to Redis in one script
// call (one request, one durable wait), each caller still getting its own answer. The polling leader hands a
// fetched batch over in one synchronous loop, so its accepts are gathered until the next microtask; webhook POSTs
// arrive in callbacks of their own sockets, so a replica's own accepts are gathered until the event loop has read
// what its sockets brought (setImmediate), the moment its Redis client would send them anyway.
import type { AcceptResult } from '../../pipeline/ports.js';

/** One update to store. */
export interface AcceptItem {
  readonly id: number;
  readonly fingerprint: string;
  readonly json: string;
  readonly chat: string;
}

/**
 * What the store said of one update: its result, the note on the update id sequence, 1 when it heads its chat's
 * queue (else 0) and the id it follows there ('' when first).
 */
export type AcceptAnswer = readonly [AcceptResult | 'fenced', string, number, string];

/** Stores a batch under a fencing token ('' for none) → one answer per update, in order (all 'fenced' when the lease is lost). */
export type StoreBatch = (token: string, batch: readonly AcceptItem[]) => Promise<AcceptAnswer[]>;

/** When a gathered batch is sent: `queueMicrotask` or `setImmediate`. */
export type Gather = (send: () => void) => void;

interface Waiting {
  readonly item: AcceptItem;
  readonly resolve: (answer: AcceptAnswer) => void;
  readonly reject: (error: unknown) => void;
}

const FENCED: AcceptAnswer = ['fenced', '', 0, ''];

export class AcceptBatches {
  private gathering: { token: string; waiting: Waiting[] } | null = null;

  constructor(
    private readonly store: StoreBatch,
    private readonly gather: Gather,
  ) {}

  /** Stores the update with the others asked for under the same token before the batch is sent. */
  accept(token: string, item: AcceptItem): Promise<AcceptAnswer> {
    if (this.gathering && this.gathering.token !== token) this.send();
    if (!this.gathering) {
      this.gathering = { token, waiting: [] };
      this.gather(() => this.send());
    }
    const { waiting } = this.gathering;
    return new Promise<AcceptAnswer>((resolve, reject) => waiting.push({ item, resolve, reject }));
  }

  private send(): void {
    const batch = this.gathering;
    this.gathering = null;
    if (!batch || batch.waiting.length === 0) return;
    this.store(
      batch.token,
      batch.waiting.map((w) => w.item),
    ).then(
      (answers) => batch.waiting.forEach((w, i) => w.resolve(answers[i] ?? FENCED)),
      (error: unknown) => batch.waiting.forEach((w) => w.reject(error)),
    );
  }
}
