// Polling with replicas: the leader stores the updates one getUpdates brought in one script call, not one each.
// The poller hands a batch over in one synchronous loop, so the accepts asked for before the next microtask are
// gathered and sent together (one round trip, one durable wait); each caller still gets its own answer.
import type { AcceptResult } from '../../pipeline/ports.js';

/** One update to store unclaimed. */
export interface LeadAccept {
  readonly id: number;
  readonly fingerprint: string;
  readonly json: string;
  readonly chat: string;
}

/** What the store said of one update: its result and the note on the update id sequence. */
export type LeadAnswer = readonly [AcceptResult | 'fenced', string];

/** Stores a batch under a fencing token → one answer per update, in order (all 'fenced' when the lease is lost). */
export type StoreBatch = (token: string, batch: readonly LeadAccept[]) => Promise<LeadAnswer[]>;

interface Waiting {
  readonly item: LeadAccept;
  readonly resolve: (answer: LeadAnswer) => void;
  readonly reject: (error: unknown) => void;
}

export class LeadAccepts {
  private gathering: { token: string; waiting: Waiting[] } | null = null;

  constructor(private readonly store: StoreBatch) {}

  /** Stores the update with the others asked for in this turn of the event loop. */
  accept(token: string, item: LeadAccept): Promise<LeadAnswer> {
    if (this.gathering && this.gathering.token !== token) this.send();
    if (!this.gathering) {
      this.gathering = { token, waiting: [] };
      queueMicrotask(() => this.send());
    }
    const { waiting } = this.gathering;
    return new Promise<LeadAnswer>((resolve, reject) => waiting.push({ item, resolve, reject }));
  }

  private send(): void {
    const batch = this.gathering;
    this.gathering = null;
    if (!batch || batch.waiting.length === 0) return;
    this.store(
      batch.token,
      batch.waiting.map((w) => w.item),
    ).then(
      (answers) => batch.waiting.forEach((w, i) => w.resolve(answers[i] ?? ['fenced', ''])),
      (error: unknown) => batch.waiting.forEach((w) => w.reject(error)),
    );
  }
}
