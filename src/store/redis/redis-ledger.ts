// The update ledger and chat-state store in Redis, shared by the replicas of one bot: done marks with their
// fingerprints, intents, the confirmed offset, the shared inbox and the conversation state, all under the
// bot's key prefix. Every step that writes is one Lua script (atomic: a commit's done mark, state and inbox
// removal land together or not at all); a write resolves once the server has it on disk (see redis-access.ts).
import type { KnownUser } from '../../pipeline/broadcast-port.js';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { hostname } from 'node:os';
import type { Update } from '../../api/types.js';
import type { ConversationState } from '../../engine/state.js';
import { DEFAULT_MAX_USER_BYTES, SERVICE_RETENTION_MS, type StoredFlow, type UserRecord } from '../records.js';
import { updateFingerprint } from '../update-fingerprint.js';
import { withEffectIds } from '../effect-ids.js';
import type { Logger } from '../../log/logger.js';
import { StoreUnavailableError } from '../../pipeline/ports.js';
import type { AcceptedWithRead, AcceptResult, BegunRead, ChatStateStore, StateCommit, StateScope, UpdateLedger } from '../../pipeline/ports.js';
import { CONFIRM_SCRIPT, SEEN_SCRIPT, TAKE_OVER_SCRIPT, TURN_SCRIPT } from './ledger-scripts.js';
import { LedgerSteps } from './ledger-steps.js';
import type { InboxBacklog, InboxClaim } from '../../pipeline/replica-ports.js';
import { RedisAccess, ReplicaFencedError, script, type Script } from './redis-access.js';
import { LEASE_VALUE, RedisInbox } from './redis-inbox.js';
import type { RedisConnection } from './redis-connection.js';
import { StateDocuments } from './state-documents.js';
import { ReadsWithAccept } from './reads-with-accept.js';
import { outboxArgument, RedisOutbox } from './redis-outbox.js';
import type { EffectOutbox, EffectOutcome, OutboxStats, StoredEffect } from '../../pipeline/outbox-port.js';

export interface RedisLedgerOptions {
  connection: RedisConnection;
  /** Every key of this bot starts with it (see {@link botKeyPrefix}). */
  prefix: string;
  logger: Logger;
  /** Keep an inbox of accepted updates (webhook mode); without one, `accept` rejects. */
  inbox: boolean;
  /** How long a replica's claim on its work outlives its last heartbeat (default 10 s). */
  leaseMs?: number;
  /** Conversation state unchanged this long is forgotten (`state.ttl`; Redis expires the documents). */
  stateTtlMs?: number;
  /** Largest JSON size of one user's variables (`state.max_user_bytes`; default 16 KiB): a change past it is not kept. */
  maxUserBytes?: number;
  /** Only to read and forget state (`hearsay state`): no replica lease, nothing taken over. */
  maintenance?: boolean;
  /** Most done ids remembered (default 50,000). */
  capacity?: number;
  /** The clock (tests). */
  now?: () => number;
}

export { ReplicaFencedError } from './redis-access.js';

/**
 * The key prefix of one bot: two bots (or two services) can share one Redis database, and its hash tag puts
 * every key of the bot in one Redis Cluster slot (a script reaches several of them at once), bots spread over
 * the cluster's nodes.
 */
export function botKeyPrefix(botId: number): string {
  return `hearsay:{bot${botId}}:`;
}

const DEFAULT_LEASE_MS = 10_000;
const COMMIT_RETRIES = 100;
const SCRIPTS = {
  seen: script(SEEN_SCRIPT),
  confirm: script(CONFIRM_SCRIPT),
  takeOver: script(TAKE_OVER_SCRIPT),
  turn: script(TURN_SCRIPT),
};

/**
 * Resolves with `done` (fulfilled or not), or rejects once one of `signals` aborts (a stop, an outage). Listens
 * on each signal itself rather than on an AbortSignal.any of them: that would be a new signal for every update
 * that waits here for an earlier one of its chat.
 */
function abortable(done: Promise<void>, ...signals: AbortSignal[]): Promise<void> {
  const aborted = signals.find((signal) => signal.aborted);
  if (aborted) return Promise.reject(aborted.reason);
  return new Promise<void>((resolve, reject) => {
    const stops = signals.map((signal) => () => reject(signal.reason));
    signals.forEach((signal, i) => signal.addEventListener('abort', stops[i]!, { once: true }));
    const end = () => {
      signals.forEach((signal, i) => signal.removeEventListener('abort', stops[i]!));
      resolve();
    };
    done.then(end, end);
  });
}

/** Polls for a chat's turn while the update it waits for is another replica's: soon at first, then at most this often. */
const TURN_POLL_FIRST_MS = 5;
const TURN_POLL_MAX_MS = 100;

export class RedisLedger implements UpdateLedger, ChatStateStore, EffectOutbox {
  /** This process's name in the store: it owns its intents and inbox entries while its lease lives. */
  readonly owner = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly doubt: number[] = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly leaseMs: number;
  private readonly now: () => number;
  private readonly documents: StateDocuments;
  private readonly store: RedisAccess;
  private readonly inbox: RedisInbox;
  private readonly outbox: RedisOutbox;
  /** Begin marks with state reads, and commits: many chats' in one script call. */
  private readonly steps: LedgerSteps;
  /**
   * Aborted while the store is down: an update waiting here for its chat's turn then gives itself up to the store,
   * as one asking Redis would (it is in the inbox; it is not held in memory through an outage).
   */
  private outage = new AbortController();
  private readonly unwatchOutage: () => void;
  private readonly readsWithAccept = new ReadsWithAccept();

  private constructor(private readonly options: RedisLedgerOptions) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.now = options.now ?? Date.now;
    this.store = new RedisAccess(options.connection, options.prefix);
    this.inbox = new RedisInbox({
      store: this.store,
      owner: this.owner,
      now: this.now,
      enabled: options.inbox,
      noteSequence: (id, reason) => this.noteSequence(id, reason),
    });
    this.outbox = new RedisOutbox(this.store, this.owner);
    this.steps = new LedgerSteps({
      store: this.store,
      owner: this.owner,
      now: this.now,
      capacity: options.capacity ?? 50_000,
      stateTtlMs: options.stateTtlMs ?? '',
    });
    this.unwatchOutage = options.connection.onAvailability((kind) => {
      if (kind !== null) this.outage.abort(new StoreUnavailableError(`the Redis store is down (${kind}); the update waits there for its turn`));
      else if (this.outage.signal.aborted) this.outage = new AbortController();
    });
    this.documents = new StateDocuments({
      client: options.connection.client,
      command: (operation) => this.store.command(operation),
      key: (name) => this.store.key(name),
      durable: () => this.store.durable(),
      logger: options.logger,
      maxUserBytes: options.maxUserBytes ?? DEFAULT_MAX_USER_BYTES,
    });
  }

  /** Opens the ledger on a connected store: checks its persistence, starts the lease, and takes over what dead replicas left. */
  static async open(options: RedisLedgerOptions): Promise<RedisLedger> {
    const ledger = new RedisLedger(options);
    if (options.maintenance) return ledger;
    await ledger.store.checkPersistence(options.logger);
    await ledger.inbox.foldLegacy(options.logger);
    await ledger.renewLease();
    ledger.heartbeat = setInterval(() => void ledger.renewLease().catch(() => undefined), Math.max(100, Math.floor(ledger.leaseMs / 3)));
    ledger.heartbeat.unref();
    await ledger.takeOver();
    return ledger;
  }

  async seen(update: Update): Promise<boolean> {
    const state = String(await this.store.runScript(SCRIPTS.seen, [], [update.update_id, updateFingerprint(update), this.now(), SERVICE_RETENTION_MS]));
    this.noteSequence(update.update_id, state);
    return state === 'done';
  }

  /**
   * Stores the update in the shared inbox. `lead` (polling with replicas): stored unclaimed, for any replica
   * to {@link claim}, and only while this replica holds the polling lease under that fencing token; otherwise
   * rejects with {@link ReplicaFencedError} and stores nothing.
   */
  accept(update: Update, lead?: { token: string }): Promise<AcceptResult> {
    return this.inbox.accept(update, lead);
  }

  async begin(update: Update): Promise<void> {
    // The begin of loadAndBegin with no document to read.
    if ((await this.steps.beginLoad(update.update_id, [])) === 'fenced') this.fenced(update);
  }

  /**
   * {@link accept}, {@link begin} and {@link load} in one round trip when the update's turn is now (see
   * ChatStateStore.acceptAndBegin). `lead` (the polling leader): the update is then kept as this replica's own.
   */
  async acceptAndBegin(update: Update, scope: StateScope, lead?: { token: string }): Promise<AcceptedWithRead> {
    const keys = this.documents.storeKeys(scope);
    const read = this.readsWithAccept.asked(keys);
    const { result, values } = await this.inbox.acceptAndBegin(update, keys, lead);
    return values ? { result, begun: read(values) } : { result };
  }

  /**
   * {@link begin} and {@link load} in one round trip (see ChatStateStore.loadAndBegin); none when the accept took
   * both (`begun`) and its read still stands (see reads-with-accept.ts).
   */
  loadAndBegin(scope: StateScope, update: Update, begun?: BegunRead): Promise<ConversationState> {
    return this.documents.load(scope, async (keys) => {
      const early = this.readsWithAccept.valuesFor(begun, keys);
      if (early) return early;
      const answer = await this.steps.beginLoad(update.update_id, keys);
      if (answer === 'fenced') this.fenced(update);
      return [...answer];
    });
  }

  private fenced(update: Update): never {
    this.inbox.release(update.update_id);
    throw new ReplicaFencedError(`update ${update.update_id} was taken over by another replica while this one was paused; not sent from here`);
  }

  /**
   * Resolves when the update may be handled: every update of its chat accepted before it (by any replica) is
   * committed. Updates of one chat thus run one at a time across replicas, in the order they were accepted.
   */
  async waitForTurn(chatKey: string, updateId: number, signal: AbortSignal, heldHere?: (id: number) => Promise<void> | undefined): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      // Stored or claimed at the head of its chat's queue, or the update right before it committed here: its turn.
      if (this.inbox.takeTurnNow(updateId)) return;
      // The update right before it is in this replica's hands: its end is the moment to look again.
      const before = this.inbox.predecessor(updateId);
      const beforeHere = before === undefined ? undefined : heldHere?.(before);
      if (beforeHere) {
        await abortable(beforeHere, signal, this.outage.signal);
        if (this.inbox.takeTurnNow(updateId)) return;
      }
      const answer = String(await this.store.runScript(SCRIPTS.turn, [], [chatKey, updateId]));
      if (answer === 'go') return;
      // The update it waits for is in this replica's hands: its end is the moment to ask again, not a timer.
      const local = answer === '' ? undefined : heldHere?.(Number(answer));
      if (local) {
        attempt = -1;
        await abortable(local, signal);
      } else await sleep(Math.min(TURN_POLL_MAX_MS, TURN_POLL_FIRST_MS * 2 ** attempt), undefined, { signal });
    }
  }

  async commit(update: Update, state: StateCommit | null): Promise<void> {
    this.inbox.release(update.update_id);
    await this.write(update.update_id, updateFingerprint(update), withEffectIds(update, state));
    this.inbox.committed(update.update_id);
  }

  async commitState(state: StateCommit): Promise<boolean> {
    return (state.changes.length === 0 && outboxArgument(state) === '') || this.write(null, '', state);
  }

  /**
   * One commit: the done mark (none for state of no update), the state documents and the inbox, in one
   * script; false (nothing written) when the flow is no longer at `state.flowWas`.
   */
  private async write(id: number | null, fingerprint: string, state: StateCommit | null): Promise<boolean> {
    for (let attempt = 0; attempt < COMMIT_RETRIES; attempt++) {
      const writes = state && state.changes.length > 0 ? await this.documents.writesFor(id, state, attempt === 0) : null;
      if (writes === 'stale') return false;
      const keys = writes ? [...writes.keys()] : [];
      // Counted as it goes out, each attempt: a read an accept took after it was sent sees it, one before does not.
      if (id === null && writes) this.readsWithAccept.noteStateChange();
      const result = await this.steps.commit({
        id,
        fingerprint,
        keys,
        reads: keys.map((k) => writes!.get(k)!.read),
        values: keys.map((k) => writes!.get(k)!.write),
        outbox: outboxArgument(state),
      });
      if (result === 'ok') return true;
      // Another replica changed one of these documents since they were read (the same user in another chat): read again.
    }
    throw new StoreUnavailableError(`${id === null ? 'a state change' : `update ${id}`}: its state kept changing under it; not committed`);
  }

  load(scope: StateScope): Promise<ConversationState> {
    return this.documents.load(scope);
  }

  flows(): Promise<StoredFlow[]> {
    return this.documents.flows();
  }

  async userRecord(userId: number): Promise<UserRecord> {
    const [state, effects] = await Promise.all([this.documents.userRecord(userId), this.outbox.effectsOf(userId)]);
    return { ...state, effects };
  }

  knownUsers(): Promise<KnownUser[]> {
    return this.documents.knownUsers();
  }

  async forgetUser(userId: number): Promise<UserRecord> {
    const effects = await this.outbox.effectsOf(userId);
    const state = await this.documents.forgetUser(userId);
    await this.outbox.forgetUser(userId);
    return { ...state, effects };
  }

  claimDue(now: number, limit: number): Promise<StoredEffect[]> {
    return this.outbox.claimDue(now, limit);
  }

  beginEffect(id: string): Promise<void> {
    return this.outbox.beginEffect(id);
  }

  finishEffect(id: string, outcome: EffectOutcome): Promise<void> {
    return this.outbox.finishEffect(id, outcome);
  }

  releaseEffect(id: string): Promise<void> {
    return this.outbox.releaseEffect(id);
  }

  nextDueAt(): Promise<number | null> {
    return this.outbox.nextDueAt();
  }

  effectsOf(userId: number): Promise<StoredEffect[]> {
    return this.outbox.effectsOf(userId);
  }

  outboxStats(now: number): Promise<OutboxStats> {
    return this.outbox.outboxStats(now);
  }

  async confirm(offset: number, lead?: { token: string }): Promise<void> {
    const recorded = await this.store.runScript(SCRIPTS.confirm, [], [offset, lead ? this.owner : '', lead?.token ?? '']);
    if (recorded === -1) throw new ReplicaFencedError(`offset ${offset}: this replica no longer holds the polling lease; not confirmed from here`);
  }

  /** Polling with replicas: takes up to `limit` of the updates the leader stored, oldest first; they are this replica's to handle. */
  claim(limit: number): Promise<InboxClaim> {
    return this.inbox.claim(limit);
  }

  /** Polling with replicas: the stored updates a replica could claim now, and all those not handled yet. */
  backlog(): Promise<InboxBacklog> {
    return this.inbox.backlog();
  }

  async pending(): Promise<Update[]> {
    const pending = await this.takeOver();
    return pending;
  }

  async inDoubt(): Promise<readonly number[]> {
    return [...this.doubt];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.unwatchOutage();
    // Leaving on purpose: what this replica holds is free for the others at once, not after the lease.
    if (!this.options.maintenance) await this.store.client.del(this.store.key(`replica:${this.owner}`)).catch(() => undefined);
    await this.store.close();
  }

  /** Dead replicas' intents become this run's in-doubt list, their inbox entries this replica's pending work. */
  private async takeOver(): Promise<Update[]> {
    const [doubt, pending] = (await this.store.runScript(SCRIPTS.takeOver, [], [this.owner])) as [string[], string[]];
    if (doubt.length > 0) {
      const ids = doubt.map(Number).sort((a, b) => a - b);
      this.doubt.push(...ids);
      this.options.logger.warn({ in_doubt: ids }, 'a replica stopped while sending these replies; they are answered again and may arrive twice');
    }
    const updates = pending.map((json) => JSON.parse(json) as Update);
    this.inbox.hold(updates.map((update) => update.update_id));
    return updates;
  }

  private async renewLease(): Promise<void> {
    await this.store.command(() => this.store.client.set(this.store.key(`replica:${this.owner}`), LEASE_VALUE, 'PX', this.leaseMs));
  }

  private noteSequence(id: number, reason: string): void {
    const why: Record<string, string> = {
      below_confirmed: 'an update id below the offset the service already confirmed',
      other_message: 'a handled update id came back with another message',
      quiet: 'no update for more than 24 hours',
    };
    if (!why[reason]) return;
    this.options.logger.info(
      { update_id: id },
      `the service started a new update id sequence (${why[reason]}); the ids of the old sequence are forgotten and this update is answered`,
    );
  }

  /** Runs one of the store's scripts with the bot's key prefix as KEYS[1] (for the lease, the turns and the shared rate limits). */
  runScript(target: Script, keys: string[], args: Array<string | number>): Promise<unknown> {
    return this.store.runScript(target, keys, args);
  }

  /** Resolves once what was written is on the server's disk. */
  durable(): Promise<void> {
    return this.store.durable();
  }

  /** Asks the server again how it keeps writes (after a reconnect: it may be another server, or restarted with other settings). */
  checkPersistence(): Promise<void> {
    return this.store.checkPersistence(this.options.logger);
  }

  /** The store lost its data: the ids of the updates it held for this replica (stored, claimed or taken over, not committed). */
  dropUpdatesInHand(): number[] {
    return this.inbox.dropInHand();
  }
}
