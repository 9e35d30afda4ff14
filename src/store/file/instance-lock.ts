// One running instance per bot and data directory: an exclusive lock file in the bot's state directory,
// created with O_EXCL and holding who owns it (pid, host, start time, mode). A lock left by a process that
// no longer runs on this host (kill -9, a crash) is stale and taken over; a live owner makes the start fail.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'instance.lock';

/** Who holds the lock, as written in the lock file. */
export interface LockOwner {
  pid: number;
  host: string;
  started: string;
  mode: string;
}

/** Another instance holds the lock: `owner` names it (or is null when the file cannot be read). */
export class InstanceLockedError extends Error {
  override readonly name = 'InstanceLockedError';
  constructor(
    readonly path: string,
    readonly owner: LockOwner | null,
  ) {
    super(`another hearsay instance is already running for this bot with this data directory (${describeOwner(owner)}; lock file ${path})`);
  }

  /** Who holds the lock, in words (pid, host, mode, start), for the operator's message. */
  get ownerDescription(): string {
    return describeOwner(this.owner);
  }
}

function describeOwner(owner: LockOwner | null): string {
  return owner ? `pid ${owner.pid} on ${owner.host}, running in ${owner.mode} mode since ${owner.started}` : 'an unknown process';
}

export class InstanceLock {
  private released = false;

  private constructor(readonly path: string) {}

  /** Takes the lock in `dir` or throws InstanceLockedError; a stale lock (its process gone) is replaced. */
  static acquire(dir: string, mode: string): InstanceLock {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, LOCK_FILE);
    const owner: LockOwner = { pid: process.pid, host: hostname(), started: new Date().toISOString(), mode };
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o644);
        try {
          writeSync(fd, `${JSON.stringify(owner)}\n`);
        } finally {
          closeSync(fd);
        }
        return new InstanceLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const current = readOwner(path);
      // Only a lock from this host can be checked; one whose process is gone is left over from a crash.
      if (attempt === 0 && current && current.host === owner.host && !isRunning(current.pid)) {
        try {
          unlinkSync(path);
        } catch {
          /* another starter took it over first: the next attempt decides */
        }
        continue;
      }
      if (attempt === 0 && current === null) {
        // Created an instant ago and not written yet, or damaged: look once more before deciding.
        continue;
      }
      throw new InstanceLockedError(path, current);
    }
  }

  /** Removes the lock file (only ours: a lock replaced by someone else is left alone). Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    const current = readOwner(this.path);
    if (current && (current.pid !== process.pid || current.host !== hostname())) return;
    try {
      unlinkSync(this.path);
    } catch {
      /* already gone */
    }
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    return Number.isSafeInteger(owner?.pid) && typeof owner.host === 'string' ? owner : null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
