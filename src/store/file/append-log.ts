// An append-only file of text lines, the storage under the journal and the webhook inbox. Appends are
// queued and written together: those made by one piece of work (a batch of updates) with one write() right
// after it, those waiting for a running fdatasync with the next one; once written they are in the page
// cache, so a killed process loses nothing written.
// `sync()` makes them durable against a machine crash with one fdatasync shared by every append waiting
// for it (group commit). On open the file is read as a stream of lines in fixed-size chunks, so a file of any
// size fits in bounded memory; a torn last line (a crash mid-write) or a line over the size limit is skipped.
import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { fdatasync } from 'node:fs';
import { dirname } from 'node:path';
import { HearsayError } from '../../errors/hearsay-error.js';
import { readLines, writeAll, type LineLimit } from './line-file.js';

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Everyone waiting for the same moment (the next write, the next fdatasync), as one promise made when the first
 * one asks: a promise and its callbacks per turn, not per update.
 */
class SharedWait {
  private round: (Waiter & { promise: Promise<void> }) | null = null;

  /** Whether anyone waits. */
  get any(): boolean {
    return this.round !== null;
  }

  join(): Promise<void> {
    if (!this.round) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<void>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      this.round = { promise, resolve, reject };
    }
    return this.round.promise;
  }

  /** Those waiting now, taken out: whoever joins from here on waits for the next round. */
  take(): Waiter | null {
    const round = this.round;
    this.round = null;
    return round;
  }

  resolve(): void {
    this.take()?.resolve();
  }

  reject(error: Error): void {
    this.take()?.reject(error);
  }
}

export interface OpenedLog {
  log: AppendLog;
  /** A last line without its newline was found and dropped. */
  torn: boolean;
  /** Lines longer than the limit, skipped (a damaged file, or a record no run could have written whole). */
  oversized: number;
}

export interface OpenLogOptions {
  /** Called with every complete line found in the file, oldest first (empty lines are skipped). */
  onLine(line: string): void;
  /** What the file is rewritten with once read: everything that still matters, line by line. */
  snapshot(): Iterable<string>;
  /** Longest line kept, in bytes (or by the line's first byte); longer lines are skipped and counted. */
  maxLineBytes?: LineLimit;
}

/** Lines are written to the rewritten file in batches of about this size, so no single string grows unbounded. */
const WRITE_BATCH_BYTES = 1 << 20;
const DEFAULT_MAX_LINE_BYTES = 64 << 20;

/**
 * Group commit across the work in hand: while `busy()` says more syncs are about to be asked for (updates
 * still running towards their commit), an fdatasync waits for them, at most `maxDelayMs`; the last one
 * to ask starts it at once.
 */
export interface SyncGate {
  busy(): boolean;
  maxDelayMs: number;
}

export class AppendLog {
  private fd: number;
  private linesWritten = 0;
  /** Appended in this turn and not written yet. */
  private pending: string[] = [];
  private flushScheduled = false;
  private laterScheduled = false;
  /** Waiting for the pending lines to be written (in the page cache). */
  private readonly flushed = new SharedWait();
  private syncing: Promise<void> | null = null;
  /** Waiting for an fdatasync that starts after their lines were written. */
  private readonly synced = new SharedWait();
  private closed = false;
  private writeCalls = 0;
  private syncCalls = 0;
  /** Descriptors replaced by a rewrite while an fdatasync was running on them. */
  private readonly retired: number[] = [];
  private gate: SyncGate | null = null;
  /** Starts a sync that the gate held back once its longest wait is over. */
  private gateTimer: NodeJS.Timeout | undefined;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Reads the file line by line (creating it and its directory when missing), then rewrites it clean with `snapshot()`. */
  static open(path: string, options: OpenLogOptions): OpenedLog {
    let read: { torn: boolean; oversized: number } = { torn: false, oversized: 0 };
    try {
      mkdirSync(dirname(path), { recursive: true });
      read = readLines(path, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, options.onLine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw wrap(path, 'cannot read', error);
    }
    const log = new AppendLog(path, -1);
    log.fd = log.rewriteFile(options.snapshot());
    return { log, ...read };
  }

  /** Lines appended since the last rewrite (compaction decides on this). */
  get appendedSinceRewrite(): number {
    return this.linesWritten + this.pending.length;
  }

  /** write() calls made on the file so far (appends are coalesced, so usually far fewer than lines). */
  get writes(): number {
    return this.writeCalls;
  }

  /** fdatasync calls made on the file so far (shared by every sync() waiting at the time). */
  get syncs(): number {
    return this.syncCalls;
  }

  /** From now on, a sync waits while `gate.busy()` (see {@link SyncGate}); null: every sync starts at once. */
  holdSyncsWhile(gate: SyncGate | null): void {
    this.gate = gate;
  }

  /** Queues a line; it is written with the others queued around it (see flush and sync). */
  append(line: string): void {
    if (this.closed) throw new HearsayError('HS_ERR_STATE_CLOSED', [this.path]);
    this.pending.push(line);
    this.scheduleFlush();
  }

  /** Resolves once everything appended so far is written: it then survives the process being killed. */
  flush(): Promise<void> {
    if (this.closed || this.pending.length === 0) return Promise.resolve();
    this.scheduleFlush();
    return this.flushed.join();
  }

  /** Resolves once everything appended so far is on disk; concurrent callers share one write and one fdatasync. */
  sync(): Promise<void> {
    if (this.closed) return Promise.resolve();
    // Started at the end of the turn, so every append and sync of this turn shares it.
    this.scheduleFlush();
    return this.synced.join();
  }

  /**
   * Replaces the whole file atomically (temp file, fsync, rename, fsync of the directory) with `lines`,
   * which must already hold everything that still matters: appends not yet written are dropped.
   */
  rewrite(lines: Iterable<string>): void {
    const old = this.fd;
    this.fd = this.rewriteFile(lines);
    this.pending = [];
    this.flushed.resolve();
    // An fdatasync may still be running on the old descriptor: close it once that is over. The new file
    // was fsynced whole, so whoever waits on the old one is durable either way.
    if (this.syncing) this.retired.push(old);
    else closeSync(old);
  }

  close(): void {
    if (this.closed) return;
    clearTimeout(this.gateTimer);
    try {
      this.writePending();
      fdatasyncSync(this.fd);
    } finally {
      this.closed = true;
      closeSync(this.fd);
      this.flushed.resolve();
      this.synced.resolve();
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // After the event loop's I/O phase, so the appends of every request and answer read in it (a webhook burst,
    // the replies of a batch) share one write and one sync; it adds no wait of its own.
    setImmediate(this.endOfTurn);
  }

  // Runs once the event loop's I/O phase is done (see scheduleFlush), so a batch of updates handled
  // together shares one write. Lines only waiting for a sync that is already running are not written here:
  // that sync's next round writes them all at once (a webhook burst under load costs one write + one sync).
  private readonly endOfTurn = (): void => {
    this.flushScheduled = false;
    if (this.closed) return;
    const syncNow = this.synced.any && !this.syncing && !this.held();
    if (this.flushed.any || syncNow) {
      try {
        this.writePending();
      } catch (error) {
        // The lines stay queued for the next attempt; nobody waiting now may think they were written.
        this.flushed.reject(error as Error);
        this.synced.reject(error as Error);
        return;
      }
    }
    if (syncNow) this.syncing = this.runSync();
    // Nobody waits for these (e.g. finish marks), or a held sync will: write them with whatever else comes this loop turn.
    else if (this.pending.length > 0 && !this.syncing && !this.laterScheduled && this.gateTimer === undefined) {
      this.laterScheduled = true;
      setImmediate(() => {
        this.laterScheduled = false;
        if (!this.closed && !this.syncing) this.writeQuietly();
      });
    }
  };

  /** True while the gate holds the next sync back (and then its longest wait is timed); false once it may start. */
  private held(): boolean {
    if (this.gate?.busy()) {
      this.gateTimer ??= setTimeout(() => {
        this.gateTimer = undefined;
        if (!this.closed && !this.syncing && this.synced.any) this.syncing = this.runSync();
      }, this.gate.maxDelayMs);
      return true;
    }
    if (this.gateTimer !== undefined) {
      clearTimeout(this.gateTimer);
      this.gateTimer = undefined;
    }
    return false;
  }

  /** For lines nobody waits for: a failure is kept queued, and the next flush or sync retries and reports it. */
  private writeQuietly(): void {
    try {
      this.writePending();
    } catch {
      /* see above */
    }
  }

  /** One write() for every queued line (more only if the kernel takes a part). */
  private writePending(): void {
    if (this.pending.length > 0) {
      const data = Buffer.from(`${this.pending.join('\n')}\n`, 'utf8');
      let written = 0;
      try {
        while (written < data.length) {
          this.writeCalls += 1;
          written += writeSync(this.fd, data, written);
        }
      } catch (error) {
        // Keep exactly the bytes that did not reach the file, so a retry completes a cut line.
        if (written > 0) this.pending = [data.subarray(written).toString('utf8').replace(/\n$/, '')];
        throw wrap(this.path, 'cannot append to', error);
      }
      this.linesWritten += this.pending.length;
      this.pending = [];
    }
    this.flushed.resolve();
  }

  private async runSync(): Promise<void> {
    do {
      const waiting = this.synced.take();
      try {
        this.writePending();
      } catch (error) {
        waiting?.reject(error as Error);
        continue;
      }
      const fd = this.fd;
      this.syncCalls += 1;
      try {
        await new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
        waiting?.resolve();
      } catch (error) {
        // Closed or rewritten meanwhile (both sync themselves), or the disk failed: the callers must know.
        if (this.closed || fd !== this.fd) waiting?.resolve();
        else waiting?.reject(wrap(this.path, 'cannot sync', error));
      }
    } while (!this.closed && this.synced.any && !this.held());
    this.syncing = null;
    // Lines queued during the last fdatasync that nobody waits for.
    if (!this.closed && this.pending.length > 0) this.writeQuietly();
    for (const fd of this.retired.splice(0)) closeSync(fd);
  }

  private rewriteFile(lines: Iterable<string>): number {
    const temp = `${this.path}.tmp`;
    try {
      const tempFd = openSync(temp, 'w');
      try {
        let batch: string[] = [];
        let batchBytes = 0;
        for (const line of lines) {
          batch.push(line);
          batchBytes += line.length + 1;
          if (batchBytes >= WRITE_BATCH_BYTES) {
            writeAll(tempFd, batch);
            batch = [];
            batchBytes = 0;
          }
        }
        writeAll(tempFd, batch);
        fsyncSync(tempFd);
      } finally {
        closeSync(tempFd);
      }
      renameSync(temp, this.path);
      syncDirectory(dirname(this.path));
      this.linesWritten = 0;
      return openSync(this.path, 'a');
    } catch (error) {
      throw wrap(this.path, 'cannot write', error);
    }
  }
}

function syncDirectory(dir: string): void {
  // Makes the rename itself durable; some file systems refuse fsync on a directory, which is harmless.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}

function wrap(path: string, what: string, error: unknown): HearsayError {
  const code = (error as NodeJS.ErrnoException).code;
  return new HearsayError('HS_ERR_STATE_IO', [what, path, code ? ` (${code})` : ''], { cause: error });
}
