// An append-only file of text lines, the storage under the journal and the webhook inbox. Appends are
// synchronous writes (in the page cache the moment they return, so a killed process loses nothing it
// wrote); `sync()` makes them durable against a machine crash with one fdatasync shared by every append
// waiting for it (group commit). A torn last line (a crash mid-write) is dropped on open.
import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { fdatasync } from 'node:fs';
import { dirname } from 'node:path';
import { JournalError } from './errors.js';

export interface OpenedLog {
  log: AppendLog;
  /** The complete lines found in the file, oldest first. */
  lines: string[];
  /** A last line without its newline was found and dropped. */
  torn: boolean;
}

export class AppendLog {
  private fd: number;
  private linesWritten = 0;
  private syncing: Promise<void> | null = null;
  private syncAgain = false;
  private waiters: Array<{ resolve(): void; reject(error: Error): void }> = [];
  private closed = false;
  /** Descriptors replaced by a rewrite while an fdatasync was running on them. */
  private readonly retired: number[] = [];

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Reads the file (creating it and its directory when missing), then rewrites it clean with `keep(lines)`. */
  static open(path: string, keep: (lines: string[]) => string[]): OpenedLog {
    let text = '';
    try {
      mkdirSync(dirname(path), { recursive: true });
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw wrap(path, 'cannot read', error);
    }
    const parts = text.split('\n');
    const last = parts.pop() ?? '';
    const torn = last !== '';
    const lines = parts.filter((line) => line !== '');
    const log = new AppendLog(path, -1);
    log.fd = log.rewriteFile(keep(lines));
    return { log, lines, torn };
  }

  /** Lines appended since the last rewrite (compaction decides on this). */
  get appendedSinceRewrite(): number {
    return this.linesWritten;
  }

  /** Appends lines now; they survive the process being killed once this returns. */
  append(...lines: string[]): void {
    if (this.closed) throw new JournalError(this.path, `${this.path} is closed`);
    const data = Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
    try {
      let written = 0;
      while (written < data.length) written += writeSync(this.fd, data, written);
    } catch (error) {
      throw wrap(this.path, 'cannot append to', error);
    }
    this.linesWritten += lines.length;
  }

  /** Resolves once everything appended so far is on disk; concurrent callers share one fdatasync. */
  sync(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (this.syncing) this.syncAgain = true;
      else this.syncing = this.runSync();
    });
  }

  /** Replaces the whole file atomically (temp file, fsync, rename, fsync of the directory). */
  rewrite(lines: string[]): void {
    const old = this.fd;
    this.fd = this.rewriteFile(lines);
    // An fdatasync may still be running on the old descriptor: close it once that is over. The new file
    // was fsynced whole, so whoever waits on the old one is durable either way.
    if (this.syncing) this.retired.push(old);
    else closeSync(old);
  }

  close(): void {
    if (this.closed) return;
    try {
      fdatasyncSync(this.fd);
    } finally {
      this.closed = true;
      closeSync(this.fd);
      for (const waiter of this.waiters.splice(0)) waiter.resolve();
    }
  }

  private async runSync(): Promise<void> {
    do {
      this.syncAgain = false;
      const waiting = this.waiters.splice(0);
      const fd = this.fd;
      try {
        await new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
        for (const waiter of waiting) waiter.resolve();
      } catch (error) {
        // Closed or rewritten meanwhile (both sync themselves), or the disk failed: the callers must know.
        if (this.closed || fd !== this.fd) for (const waiter of waiting) waiter.resolve();
        else for (const waiter of waiting) waiter.reject(wrap(this.path, 'cannot sync', error));
      }
    } while (!this.closed && (this.syncAgain || this.waiters.length > 0));
    this.syncing = null;
    for (const fd of this.retired.splice(0)) closeSync(fd);
  }

  private rewriteFile(lines: string[]): number {
    const temp = `${this.path}.tmp`;
    try {
      const tempFd = openSync(temp, 'w');
      try {
        if (lines.length > 0) writeSync(tempFd, lines.map((line) => `${line}\n`).join(''));
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

function wrap(path: string, what: string, error: unknown): JournalError {
  const code = (error as NodeJS.ErrnoException).code;
  return new JournalError(path, `${what} ${path}${code ? ` (${code})` : ''}`, { cause: error });
}
