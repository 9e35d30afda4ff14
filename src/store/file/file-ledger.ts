// The file-backed update ledger, chat-state store and outbox: the journal (done marks, intents, offsets, the
// conversation state and the effects, in one file) and the inbox of updates stored before they were handled
// (webhook: held too long; polling: fetched past), both in the bot's own directory. The journal's done line
// carries the update's state changes and effects, so they commit together. One process holds the store (the
// instance lock), so a claim on an effect is kept in memory.
import type { KnownUser } from '../../pipeline/broadcast-port.js';
import type { Update } from '../../api/types.js';
import { EMPTY_STATE, type ConversationState } from '../../engine/state.js';
import type { Logger } from '../../log/logger.js';
import type { AcceptResult, ChatStateStore, StateCommit, StateScope, UpdateLedger } from '../../pipeline/ports.js';
import { AcceptsInFlight } from '../accepts-in-flight.js';
import { stateOf, type StateDocument } from '../state-documents.js';
import { updateFingerprint } from '../update-fingerprint.js';
import { withEffectIds } from '../effect-ids.js';
import type { StoredFlow, UserRecord } from '../records.js';
import type { EffectOutbox, EffectOutcome, OutboxStats, StoredEffect } from '../../pipeline/outbox-port.js';
import { UpdateJournal, type UpdateJournalOptions } from './update-journal.js';
import { WebhookInbox } from './webhook-inbox.js';

export interface FileLedgerOptions {
  /** The bot's own directory in the data dir (see `botStateDir`). */
  dir: string;
  logger: Logger;
  /** Keep an inbox of accepted updates (the service does, in either mode); without one, `accept` rejects. */
  inbox: boolean;
  /** Tuning of the journal (tests). */
  journal?: Pick<UpdateJournalOptions, 'capacity' | 'compactAfterLines' | 'now'>;
  /** `state.ttl` and `state.max_user_bytes`. */
  state?: UpdateJournalOptions['state'];
  /** Appended inbox lines after which it is rewritten (tests). */
  inboxCompactAfterLines?: number;
  /** The longest a commit's sync waits for updates still running (tests; {@link GROUP_COMMIT_MAX_DELAY_MS} by default). */
  groupCommitMaxDelayMs?: number;
}

/**
 * The longest a commit's fdatasync waits for the commits of updates still running (group commit): one
 * sync then serves a whole batch instead of a few updates each (it costs ~40 µs of CPU here).
 */
export const GROUP_COMMIT_MAX_DELAY_MS = 2;

export class FileLedger implements UpdateLedger, ChatStateStore, EffectOutbox {
  /** Accepts whose store is still running: a second delivery of one waits for it instead of being told 200 early. */
  private readonly storing = new AcceptsInFlight();
  /** Effects this process claimed and has not finished. */
  private readonly claimed = new Set<string>();
  private closed = false;

  private constructor(
    /** The journal underneath (tests read its counters). */
    readonly journal: UpdateJournal,
    private readonly inbox: WebhookInbox | null,
    private readonly groupCommitMaxDelayMs: number,
  ) {}

  /** Opens (creating when missing) the journal and, if asked, the inbox; reading them back names what is in doubt and what is pending. */
  static open(options: FileLedgerOptions): FileLedger {
    const journal = UpdateJournal.open({ dir: options.dir, logger: options.logger, ...options.journal, ...(options.state ? { state: options.state } : {}) });
    let inbox: WebhookInbox | null = null;
    try {
      if (options.inbox) {
        inbox = WebhookInbox.open({
          dir: options.dir,
          logger: options.logger,
          ...(options.inboxCompactAfterLines !== undefined ? { compactAfterLines: options.inboxCompactAfterLines } : {}),
        });
      }
    } catch (error) {
      void journal.close();
      throw error;
    }
    return new FileLedger(journal, inbox, options.groupCommitMaxDelayMs ?? GROUP_COMMIT_MAX_DELAY_MS);
  }

  async seen(update: Update): Promise<boolean> {
    return this.journal.has(update.update_id, update);
  }

  seenNow(update: Update): boolean {
    return this.journal.has(update.update_id, update);
  }

  async accept(update: Update): Promise<AcceptResult> {
    const id = update.update_id;
    const fingerprint = updateFingerprint(update);
    const joined = this.storing.joined(id, fingerprint);
    if (joined) return joined;
    if (!this.inbox) throw new Error('this ledger was opened without an inbox');
    const held = this.inbox.fingerprintOf(id);
    if (held !== undefined) return held === fingerprint ? 'known' : 'id_busy';
    if (this.journal.has(id, update)) return 'known';
    await this.storing.track(id, fingerprint, this.inbox.accept(update));
    return 'stored';
  }

  begin(update: Update): Promise<void> {
    return this.journal.begin(update.update_id);
  }

  commit(update: Update, state: StateCommit | null): Promise<void> {
    const inbox = this.inbox;
    // An update from the inbox is taken out of it only once its done line is on disk (a power cut must not
    // lose both). Any other update without state changes needs its line written only: its reply is out, and
    // the service forgets it only after `settle` (polling) or after the 200 (webhook), when a power cut that
    // loses the line loses nothing the service would send again.
    const fromInbox = inbox !== null && inbox.has(update.update_id);
    let done: Promise<void>;
    try {
      done = this.journal.add(update.update_id, update, withEffectIds(update, state), fromInbox);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    // Only once done is on disk: a crash in between replays it from the inbox, and the journal skips it.
    return fromInbox ? done.then(() => inbox.finish(update.update_id)) : done;
  }

  settle(): Promise<void> {
    return this.journal.sync();
  }

  groupCommitsWhile(busy: () => boolean): void {
    this.journal.holdSyncsWhile({ busy, maxDelayMs: this.groupCommitMaxDelayMs });
  }

  async commitState(state: StateCommit): Promise<boolean> {
    // One process: its chat sequencer runs a flow's timeout and the user's updates one at a time, so what it decided on still holds.
    await this.journal.commitState(state);
    return true;
  }

  async flows(): Promise<StoredFlow[]> {
    return this.journal.flows();
  }

  async knownUsers(): Promise<KnownUser[]> {
    return this.journal.documents.knownUsers();
  }

  async userRecord(userId: number): Promise<UserRecord> {
    return { ...this.journal.userRecord(userId), effects: this.journal.effects.ofUser(userId) };
  }

  async forgetUser(userId: number): Promise<UserRecord> {
    const record = await this.userRecord(userId);
    await this.journal.forgetUser(userId);
    return record;
  }

  async claimDue(now: number, limit: number): Promise<StoredEffect[]> {
    const claimed = this.journal.effects.claimable(now, limit, this.claimed);
    for (const effect of claimed) this.claimed.add(effect.id);
    return claimed;
  }

  beginEffect(id: string): Promise<void> {
    return this.journal.effectProgress(id, 'begun');
  }

  async finishEffect(id: string, outcome: EffectOutcome): Promise<void> {
    try {
      await this.journal.effectProgress(id, outcome);
    } finally {
      this.claimed.delete(id);
    }
  }

  async releaseEffect(id: string): Promise<void> {
    this.claimed.delete(id);
  }

  async nextDueAt(): Promise<number | null> {
    return this.journal.effects.nextDueAt(this.claimed);
  }

  async effectsOf(userId: number): Promise<StoredEffect[]> {
    return this.journal.effects.ofUser(userId);
  }

  async outboxStats(now: number): Promise<OutboxStats> {
    return this.journal.effects.stats(now);
  }

  async confirm(offset: number): Promise<void> {
    let below = offset;
    if (this.inbox) {
      // Polling confirms past the updates it stored: the journal must neither forget the done mark of one still in
      // the inbox nor, at the next start, take it for one of a new id sequence (below the offset). Taken before the
      // finish marks are synced, so every update finished since is above it.
      below = Math.min(offset, this.inbox.lowestUnfinished() ?? offset);
      await this.inbox.syncFinished();
    }
    this.journal.confirmBelow(below);
  }

  async pending(): Promise<Update[]> {
    return this.inbox?.pending() ?? [];
  }

  async inDoubt(): Promise<readonly number[]> {
    return [...this.journal.inDoubt];
  }

  async load(scope: StateScope): Promise<ConversationState> {
    return this.stateFor(scope);
  }

  loadNow(scope: StateScope): ConversationState {
    return this.stateFor(scope);
  }

  private stateFor(scope: StateScope): ConversationState {
    // A bot whose rules keep no state is spared building three keys and looking each up, for every update.
    return this.journal.holdsNoState ? EMPTY_STATE : stateOf(scope, this.readDocument);
  }

  private readonly readDocument = (key: string): StateDocument | undefined => this.journal.document(key);

  /** Write calls and fdatasyncs so far on the journal and the inbox (group commit: far fewer than updates). */
  get diskCalls(): { journal: { writes: number; syncs: number }; inbox: { writes: number; syncs: number } | null } {
    return { journal: this.journal.diskCalls, inbox: this.inbox?.diskCalls ?? null };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.journal.close();
    } finally {
      this.inbox?.close();
    }
  }
}
