// The outbox: every effect an update causes beyond its replies to the update's own chat (a message to another
// chat, a notification to a backend, a message at a later time) is stored in the same durable record as the
// update's done mark and state changes, and performed after that record is durable, once — later if it is due
// later, again after a crash with the same id. This is the port every store implements (file, Redis, memory);
// test/store/outbox-contract.ts is the suite each must pass, and src/pipeline/outbox.ts performs what it holds.

import type { JsonValue } from '../engine/actions.js';

/** Plain JSON: what an effect carries must survive any store. */
export type EffectPayload = JsonValue;

/**
 * An effect as decided, before it is stored. Its `id` is derived from what caused it (the update's id and
 * fingerprint and the effect's position among its effects; a schedule's occurrence; a broadcast's recipient),
 * never made up at send time, so a crash and a retry find the same effect and a receiver can recognise it.
 */
export interface NewEffect {
  readonly id: string;
  /** Which performer carries it out: `message` (a Bot API call), `backend` (a call to an operator's backend), … */
  readonly kind: string;
  /** What to do, as the performer of `kind` takes it. */
  readonly payload: EffectPayload;
  /** When it is due (ms since the epoch). */
  readonly dueAt: number;
  /**
   * Effects of one order key are performed one at a time in their order (due time, then the order they were
   * stored in), in that key's turn of the chat sequencer: a chat's key keeps them in order with each other and
   * with the chat's replies. Without one, an effect waits for nothing.
   */
  readonly orderKey?: string;
  /** Storing this effect drops every pending effect with the same replace key (a reminder set again); see also {@link StoredRecordEffects.cancel}. */
  readonly replaceKey?: string;
  /** Whom it concerns (`hearsay state show` lists it, `forget` drops it). */
  readonly userId?: number;
  /** The chat it concerns (its cause's chat). */
  readonly chatId?: number;
  /** Dropped (and logged) instead of performed once it is more than this late; performed however late when absent. */
  readonly lateAfterMs?: number;
  /** Retried until this long after it was due, then given up (logged); the outbox's default when absent. */
  readonly giveUpAfterMs?: number;
  /** What decided it (a rule id, a schedule, a campaign), for the log and the operator. */
  readonly source?: string;
}

/** An effect as stored: with its attempts so far. `dueAt` stays when it was first due (lateness and give-up count from it). */
export interface StoredEffect extends NewEffect {
  /** When it may be attempted (its due time, or the time a retry was put off to). */
  readonly attemptAt: number;
  /** Attempts begun so far (0 before the first). */
  readonly attempts: number;
  /** An attempt was begun and never finished (a crash, a dead replica): it may have happened already. */
  readonly inDoubt: boolean;
}

/** The effects part of a commit (see `StateCommit`): stored and dropped in the same durable record as the rest. */
export interface StoredRecordEffects {
  /** New effects, in the order they were decided. */
  readonly effects?: readonly NewEffect[];
  /** Pending effects with these replace keys are dropped (a reminder cancelled). */
  readonly cancel?: readonly string[];
}

/** How an attempt ended: done, given up for good, or to be tried again at `retryAt`. */
export type EffectOutcome =
  | { readonly outcome: 'done' }
  | { readonly outcome: 'failed'; readonly reason: string }
  | { readonly outcome: 'retry'; readonly retryAt: number; readonly reason: string };

/** What the outbox holds right now, for the metrics. */
export interface OutboxStats {
  /** Effects stored and not finished (due or later). */
  readonly pending: number;
  /** Of those, due by `now` (claimed or not). */
  readonly due: number;
  /** The due time of the oldest effect due by `now`; null when none is. */
  readonly oldestDueAt: number | null;
}

/**
 * The effects a store holds, and their claiming by one performer. Promises: an effect is stored only with the
 * record that decided it (see `UpdateLedger.commit`), so a crash keeps both or neither; a claimed effect is
 * handed to no other claimant until it is finished, or its claimant died (a shared store: its replica's lease
 * ran out; one process: a restart); an effect whose attempt was begun and never finished comes back marked
 * `inDoubt`. Effects of one order key are handed out one at a time, in order: the next only once the one
 * before is finished. Left out on purpose: how to perform an effect (the performers of src/pipeline/outbox.ts),
 * the back-off between attempts (the performer sets `retryAt`), and pacing (the rate limits of the client).
 */
export interface EffectOutbox {
  /**
   * Claims up to `limit` effects due by `now`, oldest first, for this process: at most one per order key, and
   * only the first unfinished one of its key.
   */
  claimDue(now: number, limit: number): Promise<StoredEffect[]>;
  /** Before the effect's side effect: the attempt is recorded; resolves once a kill can no longer lose it. */
  beginEffect(id: string): Promise<void>;
  /** The attempt's end, durably: done and failed take it out of the outbox; retry keeps it for `retryAt`. Releases the claim. */
  finishEffect(id: string, outcome: EffectOutcome): Promise<void>;
  /** Gives a claimed effect back untouched (a stop before it was begun): claimable again at once. */
  releaseEffect(id: string): Promise<void>;
  /** When the earliest effect not claimed is due (ms since the epoch); null when there is none. */
  nextDueAt(): Promise<number | null>;
  /** Pending effects concerning one user, soonest first (`hearsay state show`). */
  effectsOf(userId: number): Promise<StoredEffect[]>;
  /** Counts for the metrics. */
  outboxStats(now: number): Promise<OutboxStats>;
}
