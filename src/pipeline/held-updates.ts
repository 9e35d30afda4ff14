// Webhook acknowledgement by holding: the service's request waits while its update is handled, and is answered
// 200 once the update is committed, so the service's queue stays with the service (it sends the next update of a
// chat only after the answer) and the time from its POST to the reply is the handling time, not a queue inside
// hearsay. An update that takes longer than the hold (a 429 wait, a slow service) is stored in the inbox first and
// then answered, so a slow chat never holds one of the service's connections for long — but only while the updates
// acknowledged that way and not finished stay within what hearsay handles in a couple of seconds (its measured
// throughput); beyond that the request is answered 503 and the service keeps the update. Exactly-once is unchanged:
// a 200 is given only for an update whose done mark or inbox line is on disk; anything else is answered 503 and
// the service sends it again (the journal then says it was handled, or it runs again).
import { DeadlineQueue } from '../timing/deadline-queue.js';
import type { Update } from '../api/types.js';
import { UnstorableUpdateError, type AcceptResult, type UpdateLedger } from './ports.js';
import { TransientMap } from './transient-map.js';

/**
 * What the webhook may answer: 200 for accepted and duplicate (both are handled or stored); 503 for overloaded,
 * id_busy (another update under this id is still in hand) and interrupted (the update was neither handled nor
 * stored: a stop, a refused token or a store outage cut it short); the service sends those again later.
 */
export type AcceptOutcome = 'accepted' | 'duplicate' | 'overloaded' | 'id_busy' | 'interrupted';

/** How long a webhook request waits for its update to be handled before the update is stored and acknowledged. */
export const DEFAULT_HOLD_MS = 1000;

/** Acknowledged-but-unfinished updates allowed: the updates hearsay finished in this many seconds, lately… */
export const BACKLOG_SECONDS = 2;
/** …and at least this many (at start, or when nothing finishes, there is no throughput to go by). */
export const MIN_BACKLOG = 16;

/** What holding needs from the pipeline around it. */
export interface HoldParts {
  ledger: Pick<UpdateLedger, 'seen' | 'seenNow' | 'accept'>;
  holdMs: number;
  /** The update's id is in hand already (queued, running, or being stored by the store-first path). */
  inHand(id: number): boolean;
  /** Another update may be taken (the pipeline's bound on updates in hand). */
  hasRoom(): boolean;
  /** Store-first acceptance, for an id in hand that the inbox may know. */
  acceptStored(update: Update): Promise<AcceptOutcome>;
  /** Starts handling a new update; settles once it is committed (or dropped for good). */
  start(update: Update): Promise<void>;
  /** The update is stored: its work may now outlive this run (logged, kept in the inbox). */
  keepForNextRun(work: Promise<void>, id: number): void;
  /** The clock in ms (tests). */
  now?: () => number;
}

interface Held {
  readonly update: Update;
  readonly work: Promise<void>;
  /** Storing it in the inbox, once a hold ran out (shared by every request waiting for it). */
  stored?: Promise<AcceptResult>;
}

export class HeldUpdates {
  /** Updates being handled that are not in the inbox: only their own requests (or a redelivery) can answer for them. */
  private readonly unstored = new TransientMap<number, Held>();
  /** Stored after their hold ran out and not finished: acknowledged to the service, still to do. */
  private backlog = 0;
  private readonly finished: ThroughputMeter;
  /** Every request's hold has the same length: one timer for all of them (see DeadlineQueue), not one each. */
  private readonly holds: DeadlineQueue<Hold>;

  constructor(private readonly parts: HoldParts) {
    this.finished = new ThroughputMeter(parts.now ?? Date.now);
    this.holds = new DeadlineQueue<Hold>(parts.holdMs);
  }

  /** Updates acknowledged after their hold ran out and not finished yet. */
  get acknowledgedUnfinished(): number {
    return this.backlog;
  }

  /**
   * Handles the update while the request waits; resolves with what to answer (see AcceptOutcome). Every webhook
   * request passes here: the common path runs without async frames. `bodyBytes`, the size of the JSON text the
   * update was parsed from, spares walking its depth when the text is too short to nest too deep.
   */
  receive(update: Update, bodyBytes?: number): Promise<AcceptOutcome> {
    const id = update.update_id;
    const held = this.unstored.get(id);
    if (held) return sameDelivery(held.update, update) ? this.answer(held) : Promise.resolve('id_busy');
    if (this.parts.inHand(id)) return this.parts.acceptStored(update);
    if (!this.parts.hasRoom()) return Promise.resolve('overloaded');
    const { ledger } = this.parts;
    try {
      // An update the inbox could never keep is refused before anything of it is done, as when stored first.
      if (bodyBytes === undefined || bodyBytes >= SHORTEST_TOO_DEEP_TEXT) assertStorable(update);
      if (ledger.seenNow) return this.unlessSeen(update, ledger.seenNow(update));
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return ledger.seen(update).then((seen) => this.unlessSeen(update, seen));
  }

  private unlessSeen(update: Update, seen: boolean): Promise<AcceptOutcome> {
    if (seen) return Promise.resolve('duplicate');
    const id = update.update_id;
    // Another delivery of this id may have started while `seen` was asked.
    if (this.unstored.has(id) || this.parts.inHand(id)) return this.receive(update);
    const work = this.parts.start(update);
    const entry: Held = { update, work };
    this.unstored.set(id, entry);
    return this.answer(entry, () => {
      if (this.unstored.get(id) === entry) this.unstored.delete(id);
      this.finished.record();
    });
  }

  /**
   * 200 once handled within the hold; past it, 200 once stored; 503 when the work was cut short unstored.
   * `onEnd` (the first delivery's bookkeeping) runs when the work ends, before the answer is settled.
   */
  private answer(held: Held, onEnd?: () => void): Promise<AcceptOutcome> {
    return new Promise((resolve) => {
      const hold = new Hold((outcome) => resolve(outcome === 'done' ? 'accepted' : outcome === 'failed' ? 'interrupted' : this.pastHold(held)));
      this.holds.add(hold);
      held.work.then(
        () => {
          onEnd?.();
          hold.settle('done');
        },
        () => {
          onEnd?.();
          hold.settle('failed');
        },
      );
    });
  }

  /** The hold ran out with the update still running: stored and acknowledged, unless too much is acknowledged already. */
  private async pastHold(held: Held): Promise<AcceptOutcome> {
    // More acknowledged work than a couple of seconds' worth: the service keeps this one (it goes on running
    // here; a redelivery joins it, or finds it handled).
    if (!held.stored && this.backlog >= this.window()) return 'overloaded';
    // Counted from the moment it is decided, so requests whose holds run out together cannot overshoot the bound.
    held.stored ??= this.store(held);
    const stored = await held.stored;
    if (stored === 'stored') return 'accepted';
    if (stored === 'id_busy') return 'id_busy';
    // 'known': committed meanwhile; answered once the commit is on disk.
    return (await outcomeOf(held.work)) === 'done' ? 'accepted' : 'interrupted';
  }

  private async store(held: Held): Promise<AcceptResult> {
    const id = held.update.update_id;
    this.backlog += 1;
    let stored: AcceptResult;
    try {
      stored = await this.parts.ledger.accept(held.update);
    } catch (error) {
      // Not stored (a full disk): the request is answered 503 and a later delivery may try again.
      this.backlog -= 1;
      held.stored = undefined;
      throw error;
    }
    if (stored !== 'stored') {
      this.backlog -= 1;
      return stored;
    }
    if (this.unstored.get(id) === held) this.unstored.delete(id);
    this.parts.keepForNextRun(held.work, id);
    const done = (): void => void (this.backlog -= 1);
    held.work.then(done, done);
    return stored;
  }

  /** How many acknowledged-but-unfinished updates hearsay can carry: BACKLOG_SECONDS of its recent throughput. */
  private window(): number {
    return Math.max(MIN_BACKLOG, Math.ceil(this.finished.perSecond() * BACKLOG_SECONDS));
  }
}

/** Updates finished per second, over the last few whole seconds. */
class ThroughputMeter {
  private static readonly SECONDS = 4;
  private readonly counts = new Array<number>(ThroughputMeter.SECONDS).fill(0);
  private second = 0;

  constructor(private readonly now: () => number) {}

  record(): void {
    this.advance();
    this.counts[this.second % ThroughputMeter.SECONDS]! += 1;
  }

  /** The average of the whole seconds before the current one. */
  perSecond(): number {
    this.advance();
    let sum = 0;
    for (let back = 1; back < ThroughputMeter.SECONDS; back++) sum += this.counts[(this.second - back) % ThroughputMeter.SECONDS]!;
    return sum / (ThroughputMeter.SECONDS - 1);
  }

  private advance(): void {
    const second = Math.floor(this.now() / 1000);
    if (this.second === 0) this.second = second;
    // Seconds that passed without a record count as zero.
    for (let s = this.second + 1; s <= Math.min(second, this.second + ThroughputMeter.SECONDS); s++) this.counts[s % ThroughputMeter.SECONDS] = 0;
    this.second = Math.max(this.second, second);
  }
}

/**
 * Deeper than this, an update is refused as one that cannot be stored. A real update nests a few levels; a body
 * nested thousands of levels deep cannot be written back as one line (JSON.stringify runs out of stack), and
 * walking the depth costs a fraction of serialising every update to find out.
 */
export const MAX_UPDATE_DEPTH = 1000;

/**
 * The shortest JSON text that can nest deeper than MAX_UPDATE_DEPTH: an object or array at depth d is written inside
 * d pairs of brackets and has a pair of its own. Nearly every update is a few hundred bytes.
 */
const SHORTEST_TOO_DEEP_TEXT = 2 * (MAX_UPDATE_DEPTH + 2);

function assertStorable(update: Update): void {
  if (!depthWithin(update, MAX_UPDATE_DEPTH)) {
    throw new UnstorableUpdateError(update.update_id, new RangeError(`nested more than ${MAX_UPDATE_DEPTH} levels deep`));
  }
}

/**
 * Whether no object or array in `value` lies deeper than `limit`. Recursive, without arrays of its own (this runs for
 * every webhook update): the recursion stops at `limit` levels, however deep the body goes, so the stack holds.
 */
function depthWithin(value: object, limit: number): boolean {
  if (limit < 0) return false;
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object' && !depthWithin(child, limit - 1)) return false;
  }
  return true;
}

/** A redelivery repeats the update word for word; another update under the same id (a new id sequence) does not. */
function sameDelivery(a: Update, b: Update): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

type Outcome = 'done' | 'failed' | 'running';

/** One request's hold: settled by its work, or by the queue when the hold runs out first. */
class Hold {
  finished = false;

  constructor(private readonly resolve: (outcome: Outcome) => void) {}

  settle(outcome: Outcome): void {
    if (this.finished) return;
    this.finished = true;
    this.resolve(outcome);
  }

  expire(): void {
    this.settle('running');
  }
}

/** How `work` ends: done (resolved) or failed (rejected). */
function outcomeOf(work: Promise<void>): Promise<Outcome> {
  return work.then(
    () => 'done' as const,
    () => 'failed' as const,
  );
}
