// The store in memory: the reference implementation of the pipeline's storage ports (update ledger, chat
// state, outbox) — the smallest reading of their contract, a store without a disk for `hearsay test` and for
// tests, and a template for the next store. What it "durably" holds lives in a MemoryStoreData that outlives
// the store opened on it (a restart opens it again; `copy()` is what a crash would leave), so it passes the
// same contract suites as the file and Redis stores. Nothing survives the process.
import type { KnownUser } from '../../pipeline/broadcast-port.js';
import type { Update } from '../../api/types.js';
import type { ConversationState } from '../../engine/state.js';
import { createLogger, type Logger } from '../../log/logger.js';
import type { EffectOutbox, EffectOutcome, OutboxStats, StoredEffect } from '../../pipeline/outbox-port.js';
import { UnstorableUpdateError, type AcceptResult, type ChatStateStore, type StateCommit, type StateScope, type UpdateLedger } from '../../pipeline/ports.js';
import { EffectQueue } from '../effect-queue.js';
import { SERVICE_RETENTION_MS, type StoredFlow, type UserRecord } from '../records.js';
import { StateDocumentMap } from '../state-document-map.js';
import { stateOf } from '../state-documents.js';
import { updateFingerprint } from '../update-fingerprint.js';
import { withEffectIds } from '../effect-ids.js';

export interface MemoryStoreOptions {
  /** The clock (tests). */
  now?: () => number;
  /** `state.ttl` and `state.max_user_bytes`. */
  state?: { ttlMs: number; maxUserBytes: number };
  /** Most done ids remembered (default 50,000). */
  capacity?: number;
  logger?: Logger;
}

/** What a memory store holds across its openings, as a disk would. */
export class MemoryStoreData {
  /** Handled update ids and their fingerprints, oldest first. */
  readonly done = new Map<number, string>();
  confirmed = 0;
  lastActivity: number;
  /** Updates begun (a reply may be going out) and not committed. */
  readonly sending = new Set<number>();
  /** Accepted and not committed, in arrival order. */
  readonly inbox = new Map<number, { update: Update; fingerprint: string }>();
  readonly documents: StateDocumentMap;
  readonly effects = new EffectQueue();

  constructor(readonly options: Required<Pick<MemoryStoreOptions, 'now' | 'capacity' | 'logger'>> & Pick<MemoryStoreOptions, 'state'>) {
    this.lastActivity = options.now();
    this.documents = new StateDocumentMap({ ...(options.state ?? {}), now: options.now, logger: options.logger });
  }

  static create(options: MemoryStoreOptions = {}): MemoryStoreData {
    return new MemoryStoreData({
      now: options.now ?? Date.now,
      capacity: options.capacity ?? 50_000,
      logger: options.logger ?? createLogger({ level: 'silent' }),
      ...(options.state ? { state: options.state } : {}),
    });
  }

  /** Everything held right now, as a crash would leave it. */
  copy(): MemoryStoreData {
    const copy = new MemoryStoreData(this.options);
    for (const [id, fingerprint] of this.done) copy.done.set(id, fingerprint);
    copy.confirmed = this.confirmed;
    copy.lastActivity = this.lastActivity;
    for (const id of this.sending) copy.sending.add(id);
    for (const [id, entry] of this.inbox) copy.inbox.set(id, entry);
    copy.documents.store(this.documents.liveEntries());
    for (const snapshot of this.effects.snapshot()) copy.effects.restore(snapshot);
    return copy;
  }
}

export class MemoryStore implements UpdateLedger, ChatStateStore, EffectOutbox {
  /** Updates the previous opening began and never committed. */
  private readonly doubt: number[];
  /** Effects claimed by this opening and not finished. */
  private readonly claimed = new Set<string>();

  /** Opens the store on `data` (a new, empty store when none is given). */
  constructor(readonly data: MemoryStoreData = MemoryStoreData.create()) {
    this.doubt = [...data.sending].filter((id) => !data.done.has(id)).sort((a, b) => a - b);
    data.sending.clear();
  }

  async seen(update: Update): Promise<boolean> {
    return this.seenNow(update);
  }

  seenNow(update: Update): boolean {
    const fingerprint = updateFingerprint(update);
    const known = this.data.done.get(update.update_id);
    if (this.isNewSequence(update.update_id, fingerprint, known)) {
      this.data.done.clear();
      this.data.confirmed = 0;
      return false;
    }
    return known !== undefined;
  }

  /** The service started its ids over: an id below the confirmed offset, a known id with another message, or anything after a day of silence. */
  private isNewSequence(id: number, fingerprint: string, known: string | undefined): boolean {
    // An update still in the inbox was stored before the offset passed it (polling fetches past a busy chat).
    if ((id < this.data.confirmed && !this.data.inbox.has(id)) || (known !== undefined && known !== fingerprint)) return true;
    return known === undefined && this.data.done.size > 0 && this.data.options.now() - this.data.lastActivity > SERVICE_RETENTION_MS;
  }

  async accept(update: Update): Promise<AcceptResult> {
    const fingerprint = updateFingerprint(update);
    const held = this.data.inbox.get(update.update_id);
    if (held) return held.fingerprint === fingerprint ? 'known' : 'id_busy';
    if (this.seenNow(update)) return 'known';
    let copy: Update;
    try {
      copy = JSON.parse(JSON.stringify(update)) as Update;
    } catch (error) {
      throw new UnstorableUpdateError(update.update_id, error);
    }
    this.data.inbox.set(update.update_id, { update: copy, fingerprint });
    return 'stored';
  }

  async begin(update: Update): Promise<void> {
    this.data.sending.add(update.update_id);
  }

  async commit(update: Update, state: StateCommit | null): Promise<void> {
    const { data } = this;
    const id = update.update_id;
    const fingerprint = updateFingerprint(update);
    data.sending.delete(id);
    data.inbox.delete(id);
    data.lastActivity = data.options.now();
    // Committed already (its answer was lost): newer state must not be overwritten by it.
    if (data.done.get(id) === fingerprint) return;
    if (state) this.apply(withEffectIds(update, state)!, { update_id: id });
    data.done.delete(id);
    data.done.set(id, fingerprint);
    for (const old of data.done.keys()) {
      if (data.done.size <= data.options.capacity) break;
      data.done.delete(old);
    }
  }

  async commitState(state: StateCommit): Promise<boolean> {
    this.apply(state, {});
    return true;
  }

  /** One record's state changes and effects, together. */
  private apply(state: StateCommit, about: Record<string, unknown>): void {
    if (state.changes.length > 0) this.data.documents.store(this.data.documents.changes(state, about));
    this.data.effects.cancel(state.cancel ?? []);
    this.data.effects.add(state.effects ?? []);
  }

  async confirm(offset: number): Promise<void> {
    if (offset <= this.data.confirmed) return;
    this.data.confirmed = offset;
    for (const id of this.data.done.keys()) if (id < offset) this.data.done.delete(id);
  }

  async pending(): Promise<Update[]> {
    return [...this.data.inbox.values()].map((entry) => entry.update);
  }

  async inDoubt(): Promise<readonly number[]> {
    return [...this.doubt];
  }

  async load(scope: StateScope): Promise<ConversationState> {
    return this.loadNow(scope);
  }

  loadNow(scope: StateScope): ConversationState {
    return stateOf(scope, (key) => this.data.documents.get(key));
  }

  async flows(): Promise<StoredFlow[]> {
    return this.data.documents.flows();
  }

  async knownUsers(): Promise<KnownUser[]> {
    return this.data.documents.knownUsers();
  }

  async userRecord(userId: number): Promise<UserRecord> {
    return { ...this.data.documents.userRecord(userId), effects: this.data.effects.ofUser(userId) };
  }

  async forgetUser(userId: number): Promise<UserRecord> {
    const record = await this.userRecord(userId);
    this.data.documents.store(this.data.documents.forgetWrites(userId));
    this.data.effects.forgetUser(userId);
    return record;
  }

  async claimDue(now: number, limit: number): Promise<StoredEffect[]> {
    const claimed = this.data.effects.claimable(now, limit, this.claimed);
    for (const effect of claimed) this.claimed.add(effect.id);
    return claimed;
  }

  async beginEffect(id: string): Promise<void> {
    this.data.effects.begin(id);
  }

  async finishEffect(id: string, outcome: EffectOutcome): Promise<void> {
    this.data.effects.finish(id, outcome);
    this.claimed.delete(id);
  }

  async releaseEffect(id: string): Promise<void> {
    this.claimed.delete(id);
  }

  async nextDueAt(): Promise<number | null> {
    return this.data.effects.nextDueAt(this.claimed);
  }

  async effectsOf(userId: number): Promise<StoredEffect[]> {
    return this.data.effects.ofUser(userId);
  }

  async outboxStats(now: number): Promise<OutboxStats> {
    return this.data.effects.stats(now);
  }

  async close(): Promise<void> {
    this.claimed.clear();
  }
}
