// The durable memory of handled updates and of the conversation state, one file per bot in the data
// directory, so a replay after a restart or a crash is not answered twice. An update counts as handled only
// when this exact update (its id and a fingerprint of its content) is remembered: ids are not assumed to
// grow, because the service can start a new sequence. Lines: `s <id>` (a reply is about to be sent),
// `d <id> <fingerprint>` (done), `D <id> <fingerprint> <documents>` (done, and the state documents it changed:
// one line, so a crash keeps both or neither), `S <documents>` (state changed by no update: a flow timeout, an
// operator's forget), `v <key> <document>` (state kept by a compaction), `c <offset>` (the service confirmed
// every id below it, so those are forgotten). What the documents hold is state-document-map.ts's business.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Update } from '../../api/types.js';
import type { Logger } from '../../log/logger.js';
import type { StateCommit } from '../../pipeline/ports.js';
import type { StateDocument } from '../state-documents.js';
import { AppendLog, type SyncGate } from './append-log.js';
import { StateDocumentMap } from '../state-document-map.js';
import type { EffectOutcome } from '../../pipeline/outbox-port.js';
import { EffectQueue } from '../effect-queue.js';
import {
  applyOutbox,
  applyRecordJson,
  effectProgressLine,
  effectSnapshotLines,
  isEffectLine,
  outboxChanges,
  readEffectLine,
  recordJson,
} from './journal-effects.js';
import { MAX_RECORD_LINE_BYTES, MAX_STATE_LINE_BYTES, SERVICE_RETENTION_MS, type StoredFlow, type UserState } from '../records.js';
import { updateFingerprint } from '../update-fingerprint.js';
import { HandledIds } from './handled-ids.js';

export const JOURNAL_FILE = 'handled-updates.journal';

export interface UpdateJournalOptions {
  /** The bot's own directory in the data dir (see `botStateDir`). */
  dir: string;
  logger: Logger;
  /** Most done ids remembered; beyond it the oldest handled are forgotten (at worst a very old redelivery is answered again). */
  capacity?: number;
  /** Appended lines after which the file is compacted. */
  compactAfterLines?: number;
  /** The clock, for the quiet-period rule and state retention (tests). */
  now?: () => number;
  /** `state.ttl` and `state.max_user_bytes` (defaults: 90 days, 16 KiB). */
  state?: { ttlMs: number; maxUserBytes: number };
  /**
   * Opened by an operator's command while no instance runs (`hearsay state`): the intents of the previous
   * run are kept as they are, so the next run still names its in-doubt replies.
   */
  maintenance?: boolean;
}

/** Where one bot's state lives: two bots never share a journal. */
export function botStateDir(dataDir: string, botId: number): string {
  return join(dataDir, `bot-${botId}`);
}

/** Longest id record (`s`, `d`, `c`): anything longer is damage. */
const MAX_ID_LINE_BYTES = 1024;
const STATE_KINDS = new Set(['D'.charCodeAt(0), 'v'.charCodeAt(0), 'S'.charCodeAt(0), 'e'.charCodeAt(0)]);

export class UpdateJournal {
  /** Handled ids and their fingerprints ('' for a line written by an older version), oldest handled first. */
  private readonly done = new HandledIds();
  /** Conversation state documents by key (see state-documents.ts); never forgotten with the ids, only by retention. */
  /** The conversation state as the journal's lines left it (read-only outside: every write is a line first). */
  readonly documents: StateDocumentMap;
  private readonly sending = new Set<number>();
  /** The outbox: effects committed with their records and not finished (see journal-effects.ts). */
  readonly effects = new EffectQueue();
  private confirmed = 0;
  private readonly capacity: number;
  private readonly compactAfterLines: number;
  private readonly now: () => number;
  private readonly logger: Logger;
  /** When the last update was handled (at open: when the previous run last wrote the file). */
  private lastActivity: number;
  private log!: AppendLog;
  private closed = false;
  /** Updates whose reply was being sent when the previous run ended: they may have been answered. */
  readonly inDoubt: number[] = [];

  private constructor(options: UpdateJournalOptions, lastActivity: number) {
    this.capacity = options.capacity ?? 50_000;
    this.compactAfterLines = options.compactAfterLines ?? 20_000;
    this.now = options.now ?? Date.now;
    this.logger = options.logger;
    this.lastActivity = lastActivity;
    this.documents = new StateDocumentMap({ ...(options.state ?? {}), now: this.now, logger: options.logger });
  }

  private readLine(line: string, file: string): void {
    if (line.startsWith('D ') || line.startsWith('v ') || line.startsWith('S ')) {
      if (!this.readStateLine(line)) this.logger.warn({ file }, 'journal line not understood; ignored');
      return;
    }
    if (isEffectLine(line)) {
      if (!readEffectLine(line, this.effects)) this.logger.warn({ file }, 'journal line not understood; ignored');
      return;
    }
    const match = /^([sdc]) (\d+)(?: ([A-Za-z0-9_-]+))?$/.exec(line);
    if (!match) {
      this.logger.warn({ file }, 'journal line not understood; ignored');
      return;
    }
    const id = Number(match[2]);
    if (match[1] === 's') this.sending.add(id);
    else if (match[1] === 'd') {
      this.done.set(id, match[3] ?? '');
      this.sending.delete(id);
    } else this.confirmed = Math.max(this.confirmed, id);
  }

  /** A done line with its state documents, or a kept document; false when damaged (nothing of it is applied). */
  private readStateLine(line: string): boolean {
    try {
      if (line.startsWith('v ')) {
        const space = line.indexOf(' ', 2);
        if (space < 0) return false;
        this.documents.store([[line.slice(2, space), JSON.parse(line.slice(space + 1)) as StateDocument]]);
        return true;
      }
      if (line.startsWith('S ')) {
        applyRecordJson(line.slice(2), this.documents, this.effects);
        return true;
      }
      const match = /^D (\d+) ([A-Za-z0-9_-]+) (.+)$/.exec(line);
      if (!match) return false;
      applyRecordJson(match[3]!, this.documents, this.effects);
      const id = Number(match[1]);
      this.done.set(id, match[2] === '-' ? '' : match[2]!);
      this.sending.delete(id);
      return true;
    } catch {
      return false;
    }
  }

  static open(options: UpdateJournalOptions): UpdateJournal {
    const path = join(options.dir, JOURNAL_FILE);
    let modified = (options.now ?? Date.now)();
    try {
      modified = statSync(path).mtimeMs;
    } catch {
      /* a new journal */
    }
    const journal = new UpdateJournal(options, modified);
    const { log, torn, oversized } = AppendLog.open(path, {
      // A record of no update (`S`) may carry a whole campaign's effects.
      maxLineBytes: (kind) => (kind === 83 ? MAX_RECORD_LINE_BYTES : STATE_KINDS.has(kind) ? MAX_STATE_LINE_BYTES : MAX_ID_LINE_BYTES),
      onLine: (line) => journal.readLine(line, path),
      snapshot: () => {
        if (options.maintenance) return journal.snapshot();
        journal.inDoubt.push(...[...journal.sending].filter((id) => !journal.done.has(id)).sort((a, b) => a - b));
        // What was in doubt is answered again now; the new run writes its own intents.
        journal.sending.clear();
        journal.forgetBelow(journal.confirmed);
        journal.evictOldest();
        return journal.snapshot();
      },
    });
    journal.log = log;
    if (torn) options.logger.warn({ file: path }, 'the journal ended with a torn line (the previous run was killed mid-write); it was ignored');
    if (oversized > 0) options.logger.warn({ file: path, lines: oversized }, 'journal lines too long to be records were skipped');
    if (journal.inDoubt.length > 0) {
      options.logger.warn({ in_doubt: journal.inDoubt }, 'the previous run stopped while sending these replies; they are answered again and may arrive twice');
    }
    options.logger.debug({ file: path, remembered: journal.done.size, confirmed_below: journal.confirmed }, 'journal opened');
    return journal;
  }

  /** Ids remembered as handled right now (bounded). */
  get size(): number {
    return this.done.size;
  }

  /** write() and fdatasync calls on the file so far: updates finishing in one turn share one of each. */
  get diskCalls(): { writes: number; syncs: number } {
    return { writes: this.log.writes, syncs: this.log.syncs };
  }

  /**
   * True only when this exact update is remembered as handled. With the update at hand, a new id sequence
   * of the service is recognised (an id below the confirmed offset, a known id carrying another message, or
   * anything after a quiet period longer than the service keeps updates): the old ids are forgotten.
   */
  has(updateId: number, update?: Update): boolean {
    const known = this.done.get(updateId);
    // A new id sequence forgets every id, this one's too.
    if (update && this.noticeSequenceRestart(updateId, update, known)) return false;
    if (known === undefined) return false;
    return !update || known === '' || known === updateFingerprint(update);
  }

  /** Group commit: see {@link SyncGate}. */
  holdSyncsWhile(gate: SyncGate): void {
    this.log.holdSyncsWhile(gate);
  }

  /**
   * Resolves once the intent is written (a kill can no longer lose it; no fdatasync): send only then, so
   * after a crash the next run can say which replies were in doubt. One write serves a whole turn's intents.
   */
  begin(updateId: number): Promise<void> {
    this.sending.add(updateId);
    this.log.append(`s ${updateId}`);
    return this.log.flush();
  }

  /** Whether no state document is kept: every scope then reads the empty state, and nothing need be looked up. */
  get holdsNoState(): boolean {
    return this.documents.empty;
  }

  /** A stored state document as decide sees it (see state-documents.ts); undefined when none, or expired. */
  document(key: string): StateDocument | undefined {
    return this.documents.get(key);
  }

  /** Every unfinished flow (to schedule timeouts). */
  flows(): StoredFlow[] {
    return this.documents.flows();
  }

  /** What is kept about one user. */
  userRecord(userId: number): UserState {
    return this.documents.userRecord(userId);
  }

  /** State changes and effects that belong to no update (a flow timeout), in one line; resolves once it is on disk. */
  commitState(state: StateCommit): Promise<void> {
    const writes = this.stateLine(null, state);
    if (!writes) return Promise.resolve();
    this.log.append(`S ${writes.json}`);
    this.apply(writes);
    return this.log.sync();
  }

  /** Forgets a user (their variables, flows in every chat and pending effects) in one line; resolves with what was kept, once it is on disk. */
  async forgetUser(userId: number): Promise<UserState> {
    const record = this.userRecord(userId);
    const documents = this.documents.forgetWrites(userId);
    const dropped = this.effects.ofUser(userId).map((effect) => effect.id);
    if (documents.size > 0 || dropped.length > 0) {
      const outbox = outboxChanges(null, dropped);
      this.log.append(`S ${recordJson(documents, outbox)}`);
      this.apply({ documents, outbox });
      await this.log.sync();
    }
    return record;
  }

  /**
   * An effect's attempt begins (resolves once the line is written: a kill can no longer lose it) or ends (once
   * it is on disk: a done effect lost by a power cut would be performed again).
   */
  effectProgress(id: string, step: 'begun' | EffectOutcome): Promise<void> {
    if (!this.effects.has(id)) return Promise.resolve();
    if (step === 'begun') this.effects.begin(id);
    else this.effects.finish(id, step);
    this.log.append(effectProgressLine(id, step));
    return step === 'begun' ? this.log.flush() : this.log.sync();
  }

  /** A record's writes, in memory, once its line is appended. */
  private apply(writes: Omit<RecordWrites, 'json'>): void {
    this.documents.store(writes.documents);
    applyOutbox(writes.outbox, this.effects);
  }

  /**
   * Written the moment the update's work is done, with its state changes in the same line. Resolves once the
   * line is on disk (shared fdatasync) when it carries state changes or `mustSync`; otherwise once it is
   * written (a kill cannot lose it; {@link sync} makes it durable before the service is told).
   */
  add(updateId: number, update?: Update, state?: StateCommit | null, mustSync = true): Promise<void> {
    this.sending.delete(updateId);
    const fingerprint = update ? updateFingerprint(update) : '';
    this.lastActivity = this.now();
    // Committed already (a retry whose first attempt did get written): newer state must not be overwritten by it.
    const known = this.done.get(updateId);
    if (known === fingerprint) return this.log.sync();
    const writes = this.stateLine(updateId, state);
    if (writes) {
      this.log.append(`D ${updateId} ${fingerprint || '-'} ${writes.json}`);
      this.apply(writes);
    } else {
      this.log.append(fingerprint ? `d ${updateId} ${fingerprint}` : `d ${updateId}`);
    }
    // A known id (another message under a reused id) moves to the newest end.
    this.done.set(updateId, fingerprint);
    if (this.done.size > this.capacity * 2) this.compact();
    return writes || mustSync ? this.log.sync() : this.log.flush();
  }

  /** Resolves once every line written so far is on disk (before the service is told it may forget those updates). */
  sync(): Promise<void> {
    return this.log.sync();
  }

  /**
   * What a commit writes (the documents it changes and its outbox changes) with the JSON of its line; null when
   * nothing changes. State too large to keep is dropped (logged); its effects are kept.
   */
  private stateLine(updateId: number | null, state: StateCommit | null | undefined): RecordWrites | null {
    if (!state) return null;
    const outbox = outboxChanges(state);
    if (state.changes.length === 0 && !outbox) return null;
    let documents =
      state.changes.length > 0 ? this.documents.changes(state, updateId === null ? {} : { update_id: updateId }) : new Map<string, StateDocument | null>();
    if (documents.size === 0 && !outbox) return null;
    let json = recordJson(documents, outbox);
    if (Buffer.byteLength(json) + 64 > MAX_STATE_LINE_BYTES) {
      this.logger.error(
        { update_id: updateId, bytes: Buffer.byteLength(json) },
        "conversation state too large to keep; this update's state changes are dropped",
      );
      if (!outbox) return null;
      documents = new Map();
      json = recordJson(documents, outbox);
    }
    return { documents, outbox, json };
  }

  /** The service confirmed every update below `offset`: it never sends them again, so forget them. */
  confirmBelow(offset: number): void {
    if (offset <= this.confirmed) return;
    this.confirmed = offset;
    this.forgetBelow(offset);
    if (this.log.appendedSinceRewrite >= this.compactAfterLines) this.compact();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.compact();
    this.log.close();
  }

  /** True when `update` shows that the service started a new id sequence: every id remembered is then forgotten. */
  private noticeSequenceRestart(updateId: number, update: Update, known: string | undefined): boolean {
    let why: string | undefined;
    if (updateId < this.confirmed) why = 'an update id below the offset the service already confirmed';
    else if (known && known !== updateFingerprint(update)) why = 'a handled update id came back with another message';
    else if (known === undefined && this.done.size > 0 && this.now() - this.lastActivity > SERVICE_RETENTION_MS) {
      // Nothing remembered can come back any more; a lower id than before means the service picked a new one.
      const lower = [...this.done.keys()].some((id) => id > updateId);
      if (!lower) {
        this.logger.debug({ remembered: this.done.size }, 'no update for more than 24 hours: the ids remembered can no longer come back; forgotten');
        this.forgetAll();
        return true;
      }
      why = 'a lower id than before, after more than 24 hours without any update';
    }
    if (!why) return false;
    this.logger.info(
      { update_id: updateId, confirmed_below: this.confirmed, remembered: this.done.size },
      `the service started a new update id sequence (${why}); the ids of the old sequence are forgotten and this update is answered`,
    );
    this.forgetAll();
    return true;
  }

  private forgetAll(): void {
    this.done.clear();
    this.confirmed = 0;
    this.compact();
  }

  private compact(): void {
    this.evictOldest();
    this.log.rewrite(this.snapshot());
  }

  /** Beyond the capacity the ids handled longest ago go first: forgetting one can only let a very old redelivery through. */
  private evictOldest(): void {
    for (const id of this.done.keys()) {
      if (this.done.size <= this.capacity) break;
      this.done.delete(id);
    }
  }

  private forgetBelow(offset: number): void {
    for (const id of this.done.keys()) if (id < offset) this.done.delete(id);
  }

  private *snapshot(): Iterable<string> {
    yield `c ${this.confirmed}`;
    for (const [key, document] of this.documents.liveEntries()) yield `v ${key} ${JSON.stringify(document)}`;
    for (const [id, fingerprint] of this.done) yield fingerprint ? `d ${id} ${fingerprint}` : `d ${id}`;
    for (const id of this.sending) yield `s ${id}`;
    yield* effectSnapshotLines(this.effects);
  }
}

/** What one record line writes, applied in memory once the line is appended. */
interface RecordWrites {
  readonly documents: Map<string, StateDocument | null>;
  readonly outbox: ReturnType<typeof outboxChanges>;
  readonly json: string;
}
