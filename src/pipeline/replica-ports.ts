// The seams for running several replicas of one bot on a shared store: who polls the service (a lease with a
// fencing token), and how fetched updates reach every replica (a shared inbox they claim from). The Redis store
// implements them; a store for one process (the file store, the memory store) offers none, and polling then
// runs in that process alone.
import type { Update } from '../api/types.js';
import { StoreUnavailableError, type AcceptedWithRead, type AcceptResult, type StateScope } from './ports.js';

/** Who polls: this replica (with its fencing token) or another one (by name). */
export type LeaseState = { held: true; token: string } | { held: false; holder: string };

/**
 * Polling with replicas. One replica at a time holds the polling lease and polls; what it fetches it stores
 * (fenced by its token), keeping for itself only what it can start at once (see acceptAndKeep), and every replica
 * claims the other stored updates to handle them. Left out on purpose:
 * how the lease is kept (keys, scripts, expiry) and how a claim is ordered within a chat — the store decides
 * both, and the chat's order across replicas is the store's {@link ChatSequencer}'s promise, not this port's.
 */
export interface PollLeadership {
  /** This replica's name in the store, for the log. */
  readonly owner: string;
  /** Takes the lease when it is free (for `leaseMs`); rejects with StoreUnavailableError when the store cannot be reached. */
  acquire(leaseMs: number): Promise<LeaseState>;
  /** Renews the lease; false once it is no longer this replica's under `token`. */
  renew(token: string, leaseMs: number): Promise<boolean>;
  /** Gives the lease up (a clean stop), so another replica polls at once. */
  resign(token: string): Promise<void>;
  /** Stores a fetched update unclaimed, only while `token` holds the lease; rejects with {@link ReplicaFencedError} otherwise. */
  accept(update: Update, token: string): Promise<AcceptResult>;
  /**
   * Optional: {@link accept}, but when the update heads its chat's queue the leader keeps it (stored as its own,
   * not unclaimed: no other replica claims it) with its intent taken and `scope`'s state read in the same step, as
   * ChatStateStore.acceptAndBegin does; `begun` comes back then, for the pipeline's handleClaimed. Asked only for an
   * update the leader can start at once.
   */
  acceptAndKeep?(update: Update, token: string, scope: StateScope): Promise<AcceptedWithRead>;
  /** Records the confirmed offset, only while `token` holds the lease; rejects with {@link ReplicaFencedError} otherwise. */
  confirm(offset: number, token: string): Promise<void>;
  /**
   * The shared inbox's backlog: `unclaimed`, the stored updates a replica could take now (each chat's next one);
   * `stored`, every stored update not handled yet (claimed or not).
   */
  backlog(): Promise<InboxBacklog>;
  /** Takes up to `limit` stored updates, oldest first, each the next of its chat: this replica's to handle. */
  claim(limit: number): Promise<InboxClaim>;
}

/** What a replica finds when its shared store lost its data (restarted empty, flushed, failed over to a server without it). */
export interface StoreDataLoss {
  /** The store as it may be shown (no password). */
  readonly store: string;
  /** When the data that is gone began to be written (an ISO time). */
  readonly since: string;
  /**
   * The updates the store held for this replica (accepted, claimed or taken over, not committed), oldest first:
   * those the replica is not handling right now are gone unanswered.
   */
  readonly heldIds: readonly number[];
}

/** See {@link PollLeadership.claim}. */
export interface InboxClaim {
  readonly updates: Update[];
  /**
   * Stored updates that were not this replica's as the claim ran (in another replica's hands, unclaimed, or
   * queued behind an earlier one of their chat), counted loosely upwards. While there are none, nothing can
   * become claimable but by a new store: this replica's commits then free no successor to claim.
   */
  readonly othersStored: number;
}

/** See {@link PollLeadership.backlog}. */
export interface InboxBacklog {
  readonly unclaimed: number;
  readonly stored: number;
}

/** This replica lost its lease (or its claim on an update) to another while it was paused: it must not act on it. */
export class ReplicaFencedError extends StoreUnavailableError {
  override readonly name = 'ReplicaFencedError';
}
