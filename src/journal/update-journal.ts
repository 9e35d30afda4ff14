// The durable memory of handled update_ids, one file per bot in the data directory, so a replay after a
// restart or a crash is not answered twice. Lines: `s <id>` (a reply is about to be sent), `d <id>` (done),
// `c <offset>` (the service confirmed every id below it, so those are forgotten).
import { join } from 'node:path';
import type { HandledUpdates } from '../delivery/handled-updates.js';
import type { Logger } from '../log/logger.js';
import { AppendLog } from './append-log.js';

export const JOURNAL_FILE = 'handled-updates.journal';

export interface UpdateJournalOptions {
  /** The bot's own directory in the data dir (see `botStateDir`). */
  dir: string;
  logger: Logger;
  /** Most done ids kept when no offset is ever confirmed (webhook mode); the oldest go first. */
  capacity?: number;
  /** Appended lines after which the file is compacted. */
  compactAfterLines?: number;
}

/** Where one bot's state lives: two bots never share a journal. */
export function botStateDir(dataDir: string, botId: number): string {
  return join(dataDir, `bot-${botId}`);
}

export class UpdateJournal implements HandledUpdates {
  private readonly done = new Set<number>();
  private readonly sending = new Set<number>();
  private confirmed = 0;
  private readonly capacity: number;
  private readonly compactAfterLines: number;
  private log!: AppendLog;
  private closed = false;
  /** Updates whose reply was being sent when the previous run ended: they may have been answered. */
  readonly inDoubt: readonly number[];

  private constructor(options: UpdateJournalOptions, lines: string[]) {
    this.capacity = options.capacity ?? 10_000;
    this.compactAfterLines = options.compactAfterLines ?? 20_000;
    for (const line of lines) {
      const match = /^([sdc]) (\d+)$/.exec(line);
      if (!match) {
        options.logger.warn({ file: join(options.dir, JOURNAL_FILE) }, 'journal line not understood; ignored');
        continue;
      }
      const id = Number(match[2]);
      if (match[1] === 's') this.sending.add(id);
      else if (match[1] === 'd') {
        this.done.add(id);
        this.sending.delete(id);
      } else this.confirmed = Math.max(this.confirmed, id);
    }
    this.inDoubt = [...this.sending].filter((id) => id >= this.confirmed).sort((a, b) => a - b);
    // What was in doubt is answered again now; the new run writes its own intents.
    this.sending.clear();
    this.forgetBelow(this.confirmed);
  }

  static open(options: UpdateJournalOptions): UpdateJournal {
    const path = join(options.dir, JOURNAL_FILE);
    let journal: UpdateJournal | undefined;
    const { log, torn } = AppendLog.open(path, (lines) => {
      journal = new UpdateJournal(options, lines);
      return journal.snapshot();
    });
    journal!.log = log;
    if (torn) options.logger.warn({ file: path }, 'the journal ended with a torn line (the previous run was killed mid-write); it was ignored');
    if (journal!.inDoubt.length > 0) {
      options.logger.warn({ in_doubt: journal!.inDoubt }, 'the previous run stopped while sending these replies; they are answered again and may arrive twice');
    }
    options.logger.debug({ file: path, remembered: journal!.done.size, confirmed_below: journal!.confirmed }, 'journal opened');
    return journal!;
  }

  /** Ids remembered as handled right now (bounded). */
  get size(): number {
    return this.done.size;
  }

  /** write() and fdatasync calls on the file so far: updates finishing in one turn share one of each. */
  get diskCalls(): { writes: number; syncs: number } {
    return { writes: this.log.writes, syncs: this.log.syncs };
  }

  has(updateId: number): boolean {
    return updateId < this.confirmed || this.done.has(updateId);
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

  /** Written the moment the reply is sent; resolves once it is on disk (shared fdatasync). */
  add(updateId: number): Promise<void> {
    this.sending.delete(updateId);
    if (!this.done.has(updateId)) {
      this.done.add(updateId);
      this.log.append(`d ${updateId}`);
      if (this.done.size > this.capacity * 2) this.compact();
    }
    return this.log.sync();
  }

  /** The service confirmed every update below `offset`: they can never come back, so forget them. */
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

  private compact(): void {
    // Webhook mode never confirms offsets: keep only the newest `capacity` ids.
    if (this.done.size > this.capacity) {
      const sorted = [...this.done].sort((a, b) => a - b);
      this.confirmed = Math.max(this.confirmed, sorted[sorted.length - this.capacity]!);
      this.forgetBelow(this.confirmed);
    }
    this.log.rewrite(this.snapshot());
  }

  private forgetBelow(offset: number): void {
    for (const id of this.done) if (id < offset) this.done.delete(id);
  }

  private snapshot(): string[] {
    return [`c ${this.confirmed}`, ...[...this.done].sort((a, b) => a - b).map((id) => `d ${id}`), ...[...this.sending].map((id) => `s ${id}`)];
  }
}
