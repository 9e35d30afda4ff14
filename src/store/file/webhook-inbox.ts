// The inbox: every accepted update is written here (and fdatasynced; a burst shares one write and one
// fdatasync) before the service is told it may forget it (webhook: the 200; polling: an offset past it), and
// marked finished once handled, so an update acknowledged but not handled when the process stops or dies is
// handled at the next start. The file keeps its first name, webhook.inbox, in both modes. Read back as a
// stream of lines at start, so an inbox of any size opens in bounded memory; torn or oversized lines are
// reported and skipped. Lines: `a <update JSON>` (accepted), `f <id>` (finished).
import { join } from 'node:path';
import type { Update } from '../../api/types.js';
import type { Logger } from '../../log/logger.js';
import { UnstorableUpdateError } from '../../pipeline/ports.js';
import { AppendLog } from './append-log.js';
import { HearsayError } from '../../errors/hearsay-error.js';
import { updateFingerprint } from '../update-fingerprint.js';

export const INBOX_FILE = 'webhook.inbox';

export interface WebhookInboxOptions {
  /** The bot's own directory in the data dir. */
  dir: string;
  logger: Logger;
  /** Appended lines after which the file is rewritten with only the unfinished updates. */
  compactAfterLines?: number;
  /** Longest inbox line read back at start; a longer one is reported and skipped. */
  maxLineBytes?: number;
}

/** Far above any update the webhook accepts (webhook.max_body_bytes), so only damage is skipped. */
const DEFAULT_MAX_LINE_BYTES = 64 << 20;

export class WebhookInbox {
  /** Accepted and not finished, by update_id, in arrival order, as stored (JSON): parsed only when replayed. */
  private readonly unfinished = new Map<number, string>();
  private readonly compactAfterLines: number;
  /** A finish mark was appended since the last syncFinished. */
  private finishedSinceSync = false;
  private log!: AppendLog;
  private closed = false;

  private constructor(
    options: WebhookInboxOptions,
    private readonly logger: Logger,
  ) {
    this.compactAfterLines = options.compactAfterLines ?? 10_000;
  }

  private readLine(line: string, file: string): void {
    const kind = line.slice(0, 2);
    try {
      if (kind === 'a ') {
        const json = line.slice(2);
        const update = JSON.parse(json) as Update;
        if (Number.isSafeInteger(update?.update_id)) {
          this.unfinished.set(update.update_id, json);
          return;
        }
      }
      if (kind === 'f ' && /^\d+$/.test(line.slice(2))) {
        this.unfinished.delete(Number(line.slice(2)));
        return;
      }
    } catch {
      /* reported below */
    }
    this.logger.warn({ file }, 'inbox line not understood; ignored');
  }

  static open(options: WebhookInboxOptions): WebhookInbox {
    const path = join(options.dir, INBOX_FILE);
    const inbox = new WebhookInbox(options, options.logger);
    const { log, torn, oversized } = AppendLog.open(path, {
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      onLine: (line) => inbox.readLine(line, path),
      snapshot: () => inbox.snapshot(),
    });
    inbox.log = log;
    if (torn) options.logger.warn({ file: path }, 'the webhook inbox ended with a torn line (the previous run was killed mid-write); it was ignored');
    if (oversized > 0) options.logger.warn({ file: path, lines: oversized }, 'webhook inbox lines too long to be updates were skipped');
    if (inbox.unfinished.size > 0) {
      options.logger.info({ updates: inbox.unfinished.size }, 'updates acknowledged by the previous run but not handled; handling them now');
    }
    return inbox;
  }

  /** Updates acknowledged earlier and not handled yet, oldest first (to replay at start). */
  pending(): Update[] {
    return [...this.unfinished.values()].map((json) => JSON.parse(json) as Update);
  }

  get size(): number {
    return this.unfinished.size;
  }

  has(updateId: number): boolean {
    return this.unfinished.has(updateId);
  }

  /** The lowest id of an update accepted and not finished; undefined when there is none. */
  lowestUnfinished(): number | undefined {
    let lowest: number | undefined;
    for (const id of this.unfinished.keys()) if (lowest === undefined || id < lowest) lowest = id;
    return lowest;
  }

  /** Resolves once every finish mark so far is on disk (at once when none was added since the last call). */
  syncFinished(): Promise<void> {
    if (!this.finishedSinceSync || this.closed) return Promise.resolve();
    this.finishedSinceSync = false;
    return this.log.sync();
  }

  /** The fingerprint (see updateFingerprint) of the unfinished update with this id, if there is one. */
  fingerprintOf(updateId: number): string | undefined {
    const json = this.unfinished.get(updateId);
    return json === undefined ? undefined : updateFingerprint(JSON.parse(json) as Update);
  }

  /**
   * Resolves once the update is on disk: only then may the service be told 200. Throws an
   * UnstorableUpdateError, before anything is kept, for an update that cannot be written as one line.
   */
  accept(update: Update): Promise<void> {
    let json: string;
    try {
      json = JSON.stringify(update);
    } catch (error) {
      throw new UnstorableUpdateError(update.update_id, error);
    }
    if (this.closed) return Promise.reject(new HearsayError('HS_ERR_STATE_CLOSED', ['the webhook inbox']));
    this.unfinished.set(update.update_id, json);
    this.log.append(`a ${json}`);
    return this.log.sync().catch((error: unknown) => {
      // Not durable: the service is told to resend it, so it must not count as accepted meanwhile.
      this.unfinished.delete(update.update_id);
      throw error;
    });
  }

  /** Resolves once every line so far is written (finish marks are queued, not waited for). */
  flush(): Promise<void> {
    return this.log.flush();
  }

  /** write() and fdatasync calls on the file so far: a burst of accepts shares one of each. */
  get diskCalls(): { writes: number; syncs: number } {
    return { writes: this.log.writes, syncs: this.log.syncs };
  }

  /** The update was handled (its reply sent and journaled), or given up for good. */
  finish(updateId: number): void {
    if (this.closed || !this.unfinished.delete(updateId)) return;
    this.log.append(`f ${updateId}`);
    this.finishedSinceSync = true;
    if (this.log.appendedSinceRewrite >= this.compactAfterLines) this.log.rewrite(this.snapshot());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.log.rewrite(this.snapshot());
    this.log.close();
  }

  private *snapshot(): Iterable<string> {
    for (const json of this.unfinished.values()) yield `a ${json}`;
  }
}
