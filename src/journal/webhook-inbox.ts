// The webhook inbox: every accepted update is written here (and fdatasynced; a burst shares one write and
// one fdatasync) before the service gets its 200, and marked finished once handled, so an update acknowledged but not handled when the process stops
// or dies is handled at the next start. Lines: `a <update JSON>` (accepted), `f <id>` (finished).
import { join } from 'node:path';
import type { Update } from '../api/types.js';
import type { Logger } from '../log/logger.js';
import { AppendLog } from './append-log.js';

export const INBOX_FILE = 'webhook.inbox';

export interface WebhookInboxOptions {
  /** The bot's own directory in the data dir. */
  dir: string;
  logger: Logger;
  /** Appended lines after which the file is rewritten with only the unfinished updates. */
  compactAfterLines?: number;
}

export class WebhookInbox {
  /** Accepted and not finished, by update_id, in arrival order. */
  private readonly unfinished = new Map<number, Update>();
  private readonly compactAfterLines: number;
  private log!: AppendLog;
  private closed = false;

  private constructor(options: WebhookInboxOptions, lines: string[]) {
    this.compactAfterLines = options.compactAfterLines ?? 10_000;
    for (const line of lines) {
      const kind = line.slice(0, 2);
      try {
        if (kind === 'a ') {
          const update = JSON.parse(line.slice(2)) as Update;
          if (Number.isSafeInteger(update?.update_id)) this.unfinished.set(update.update_id, update);
          continue;
        }
        if (kind === 'f ' && /^\d+$/.test(line.slice(2))) {
          this.unfinished.delete(Number(line.slice(2)));
          continue;
        }
      } catch {
        /* reported below */
      }
      options.logger.warn({ file: join(options.dir, INBOX_FILE) }, 'inbox line not understood; ignored');
    }
  }

  static open(options: WebhookInboxOptions): WebhookInbox {
    const path = join(options.dir, INBOX_FILE);
    let inbox: WebhookInbox | undefined;
    const { log, torn } = AppendLog.open(path, (lines) => {
      inbox = new WebhookInbox(options, lines);
      return inbox.snapshot();
    });
    inbox!.log = log;
    if (torn) options.logger.warn({ file: path }, 'the webhook inbox ended with a torn line (the previous run was killed mid-write); it was ignored');
    if (inbox!.unfinished.size > 0) {
      options.logger.info({ updates: inbox!.unfinished.size }, 'updates acknowledged by the previous run but not handled; handling them now');
    }
    return inbox!;
  }

  /** Updates acknowledged earlier and not handled yet, oldest first (to replay at start). */
  pending(): Update[] {
    return [...this.unfinished.values()];
  }

  get size(): number {
    return this.unfinished.size;
  }

  has(updateId: number): boolean {
    return this.unfinished.has(updateId);
  }

  /** Resolves once the update is on disk: only then may the service be told 200. */
  accept(update: Update): Promise<void> {
    this.unfinished.set(update.update_id, update);
    this.log.append(`a ${JSON.stringify(update)}`);
    return this.log.sync();
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
    if (!this.unfinished.delete(updateId)) return;
    this.log.append(`f ${updateId}`);
    if (this.log.appendedSinceRewrite >= this.compactAfterLines) this.log.rewrite(this.snapshot());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.log.rewrite(this.snapshot());
    this.log.close();
  }

  private snapshot(): string[] {
    return [...this.unfinished.values()].map((update) => `a ${JSON.stringify(update)}`);
  }
}
