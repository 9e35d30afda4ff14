// The seams of the update pipeline: what it needs from storage (an update ledger and a chat-state store)
// and from scheduling (a per-chat sequencer). Each is an interface with every method async, so a file, an
// in-process or a networked implementation (Redis, for several replicas) can stand behind it unchanged (an
// in-memory answer may also be offered synchronously: `seenNow`, `loadNow`);
// test/store/ledger-contract.ts is the suite any ledger must pass.
import type { Update } from '../api/types.js';
import type { SetFlowAction, SetStateAction } from '../engine/actions.js';
import type { ConversationState, FlowPosition } from '../engine/state.js';
import { HearsayError } from '../errors/hearsay-error.js';
import type { KnownUser } from './broadcast-port.js';
import type { StoredRecordEffects } from './outbox-port.js';

/** Whose state an update reads and writes: the chat it happened in and the user who caused it (either may be absent). */
export interface StateScope {
  /** The chat's id; null for a press on a message sent in inline mode (it has no chat). */
  readonly chatId: number | null;
  /** The user's id; null for a message sent on behalf of a chat or channel. */
  readonly userId: number | null;
}

/**
 * One change the engine asked for, applied in order at commit: a user or chat variable (`set_state`), or
 * where the user stands in a flow in this chat (`set_flow`). A new kind of state adds its action here.
 */
export type StateChange = SetStateAction | SetFlowAction;

/**
 * What one update (or a piece of work no update brings, such as a flow's timeout) leaves in the store, committed
 * together with its done record: its state changes, and its effects for the outbox (see outbox-port.ts).
 */
export interface StateCommit extends StoredRecordEffects {
  readonly scope: StateScope;
  readonly changes: readonly StateChange[];
  /**
   * The flow position the changes were decided on (a flow's timeout): a store shared by replicas writes
   * nothing when the stored position differs by then (another replica timed the flow out first).
   */
  readonly flowWas?: FlowPosition | null;
}

/**
 * The one owner of exactly-once. An update counts as handled only once `commit` resolved for this exact
 * update (its id and content: the service can start its ids over); `begin` before the first side effect
 * lets the next run name the updates a crash may have answered twice.
 */
export interface UpdateLedger {
  /** True when this exact update was committed (a redelivery or a replay); may notice a new id sequence of the service and forget the old one. */
  seen(update: Update): Promise<boolean>;
  /**
   * Optional: `seen` answered at once, for a ledger that keeps the answer in memory (the file ledger). The
   * pipeline uses it when present and spares each update a promise; a networked store leaves it out.
   */
  seenNow?(update: Update): boolean;
  /**
   * The durable inbox (webhook mode): resolves `'stored'` only once the update is stored (so the service may be
   * told 200); `'known'` when this exact update is already stored or committed (after the first store of it
   * finished); `'id_busy'` when another update under the same id is stored and not committed yet (a new id
   * sequence while the old update is in hand: the service must send it again later). Rejects with
   * {@link UnstorableUpdateError} for an update that can never be stored, with any other error when it
   * cannot be stored now (the service must send it again).
   */
  accept(update: Update): Promise<AcceptResult>;
  /** The intent, before the first side effect; resolves once a kill can no longer lose it. */
  begin(update: Update): Promise<void>;
  /**
   * Done: the update counts as handled, and its state changes and effects (if any) are stored, in one durable
   * record, so after a crash either all are there or none. Also takes the update out of the inbox. An effect's
   * `id` here is its position among the update's effects: the store makes it `u<update id>.<fingerprint>.<position>`
   * (store/effect-ids.ts), so a redelivery or a crash finds the same effect.
   */
  commit(update: Update, state: StateCommit | null): Promise<void>;
  /**
   * State changes that belong to no update (a flow's timeout, raised by the runtime), in one durable record;
   * resolves once a kill can no longer lose them: true, or false when `flowWas` no longer holds and nothing
   * was written.
   */
  commitState(state: StateCommit): Promise<boolean>;
  /** The service confirmed every update below `offset` (polling): it never sends them again, so they may be forgotten. */
  confirm(offset: number): Promise<void>;
  /**
   * Optional: resolves once every commit so far is durable. A ledger whose `commit` of an update without state
   * changes resolves before that (the file journal: written, not yet flushed) has it; polling asks it before
   * a getupdates tells the service to forget those updates.
   */
  settle?(): Promise<void>;
  /** Stored by `accept` and not committed (a stop or a crash came first), oldest first: to handle at start. */
  pending(): Promise<Update[]>;
  /** Update ids the previous run began and never committed: their replies may have gone out already. */
  inDoubt(): Promise<readonly number[]>;
  /**
   * Optional (group commit): while `busy()` is true more commits are on their way, and the ledger may hold a
   * commit's disk sync back for them, briefly, so that one sync serves them all. The pipeline says so while
   * updates are running towards their commit.
   */
  groupCommitsWhile?(busy: () => boolean): void;
  /** Writes what is left and releases the store; idempotent. */
  close(): Promise<void>;
}

/** The state a store read with an update's intent as it accepted it (see ChatStateStore.acceptAndBegin): the store's own, opaque to the pipeline. */
export interface BegunRead {
  readonly begunWithAccept: true;
}

/** What {@link UpdateLedger.accept} did with an update. */
export type AcceptResult = 'stored' | 'known' | 'id_busy';

/** An accept that may have taken the update's intent and read its state too: `begun` then (see ChatStateStore.acceptAndBegin). */
export interface AcceptedWithRead {
  readonly result: AcceptResult;
  readonly begun?: BegunRead;
}

/** Conversation state, read by the pipeline before deciding. Written only through {@link UpdateLedger.commit}. */
export interface ChatStateStore {
  /**
   * The state for this scope: `user` variables by user id (across chats), `chat` variables by chat id, the
   * `flow` position by chat and user; empty when none.
   */
  load(scope: StateScope): Promise<ConversationState>;
  /** Optional: `load` answered at once, for a store that keeps the state in memory (the file ledger); used when present. */
  loadNow?(scope: StateScope): ConversationState;
  /**
   * Optional: `load` and the update's intent ({@link UpdateLedger.begin}) in one step, for a store where each
   * is a round trip (Redis). The pipeline then takes the intent of every update it decides on, before deciding,
   * and not again (a crash names an update that had nothing to send as in doubt too: it is answered again
   * either way); rejects as `begin` does.
   */
  loadAndBegin?(scope: StateScope, update: Update, begun?: BegunRead): Promise<ConversationState>;
  /**
   * Optional, beside `loadAndBegin`: {@link UpdateLedger.accept} and, when the update's turn is now (nothing of its
   * chat stored before it is uncommitted), its intent taken and its scope's state read in the same step (one round
   * trip for the three). `begun` comes back then, for the pipeline to hand to this update's `loadAndBegin`, which
   * answers from it without asking the store again, unless a state change of no update went out from here since
   * (it reads again then). The pipeline asks for it only for an update it can start at once (see
   * {@link ChatSequencer.runsAtOnce}): the intent is then taken before any side effect, as `loadAndBegin`'s is,
   * and not long before.
   */
  acceptAndBegin?(update: Update, scope: StateScope): Promise<AcceptedWithRead>;
  /** Every unfinished flow of every user and chat (the runtime schedules their timeouts). */
  flows(): Promise<readonly { readonly chatId: number; readonly userId: number; readonly position: FlowPosition }[]>;
  /** Every user whose variables are kept, with them (a broadcast chooses its audience from them). */
  knownUsers(): Promise<KnownUser[]>;
  /** What is kept about one user, for an operator: their variables and unfinished flows (`hearsay state show`). */
  userRecord(userId: number): Promise<unknown>;
  /** Forgets one user, durably: their variables and their flows in every chat (`hearsay state forget`); resolves with what was kept. */
  forgetUser(userId: number): Promise<unknown>;
}

/** Runs one piece of work for a chat; must reject (with an AbortError-named error) once `signal` aborts. */
export type SequencedTask<T> = (signal: AbortSignal) => Promise<T>;

/**
 * Orders work per chat key (see `chatKeyOf`): one key's tasks one at a time in arrival order, different keys
 * at once up to a bound. In-process today; several replicas would need per-key leases behind it.
 */
export interface ChatSequencer {
  /**
   * Runs `task` after every earlier task of `key`. Resolves or rejects as the task does; rejects with
   * {@link SequenceAbortedError} when `abort()` or `close()` came first or cut the task short. `updateId` names
   * the update the task handles, for a sequencer that orders a chat's updates across processes.
   */
  run<T>(key: string, task: SequencedTask<T>, updateId?: number): Promise<T>;
  /** Tasks accepted and not settled (queued or running). */
  readonly inFlight: number;
  /** Optional: whether a task of `key` given now would start at once (nothing of the key in hand, a slot free). */
  runsAtOnce?(key: string): boolean;
  /** Waits for the tasks in flight; at the deadline aborts the rest and waits at most `graceMs` more. True when all finished normally. */
  drain(deadlineMs: number, graceMs?: number): Promise<boolean>;
  /** Nothing new is run from now on (after a drain). */
  close(): void;
  /** Ends all work now: queued tasks reject, running ones see their signal abort. */
  abort(): void;
  /**
   * Optional: a running task waits for `work` outside (a backend's answer) without holding its slot, so other
   * keys may run meanwhile (the task's own key stays its own). Resolves or rejects as `work` does.
   */
  waitAside?<T>(work: Promise<T>): Promise<T>;
}

/** The task was not run to its end: the sequencer was aborted or closed. Its update must not be confirmed. */
export class SequenceAbortedError extends Error {
  override readonly name = 'SequenceAbortedError';
  constructor(readonly key: string) {
    super(`work for ${key} was cut short by shutdown`);
  }
}

/**
 * The store cannot be used right now (a networked store is down or restarting): nothing was written. The
 * update is not finished — polling leaves it unconfirmed, a webhook answers 503, the inbox keeps it — and is
 * handled once the store is back. Never a reason to drop an update.
 */
export class StoreUnavailableError extends Error {
  override readonly name: string = 'StoreUnavailableError';
}

/** The update cannot be stored (e.g. nested too deeply to serialise): it is refused, never acknowledged. */
export class UnstorableUpdateError extends HearsayError {
  override name = 'UnstorableUpdateError';
  constructor(
    readonly updateId: number,
    cause: unknown,
  ) {
    super('HS_ERR_UPDATE_UNSTORABLE', [updateId, cause instanceof Error ? cause.message : String(cause)], { cause });
  }
}
