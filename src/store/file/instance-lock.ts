// One running instance per bot and data directory: an exclusive lock file in the bot's state directory,
// created with O_EXCL and holding who owns it (pid, host, boot, start time, mode), its mtime a heartbeat the
// owner renews. A lock whose owner cannot be alive (lock-owner.ts judges) is taken over; a live one makes
// the start fail at once. Taking over is an atomic rename by the one starter that won that lock's
// takeover marker (O_EXCL), after checking the lock is still the one judged, so two starters never both win.
import { randomBytes, createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeOwner, judgeOwner, LOCK_RENEW_MS, LOCK_STALE_MS, readLock, type FoundLock, type LockOwner, type OwnerVerdict } from './lock-owner.js';
import { ownIdentity } from './process-identity.js';

export const LOCK_FILE = 'instance.lock';
export { LOCK_RENEW_MS, LOCK_STALE_MS, type LockOwner } from './lock-owner.js';

/** A takeover marker or temporary file older than this was left by a starter that died half-way. */
const LEFTOVER_MS = 10_000;
/** How long a start looks again at a lock that is being written or taken over by another starter. */
const SETTLE_MS = 2_000;
const SETTLE_STEP_MS = 25;

/** Why a start gives up on a stale lock that another starter keeps busy taking over. */
const TAKING_OVER: OwnerVerdict = { alive: true, why: 'another start is taking this stale lock over right now', remote: false };

/** Locks this process holds, by path: a lock naming this pid and not in here is left from an earlier process. */
const heldHere = new Set<string>();

/** Another instance holds the lock: `owner` names it (or is null when the file cannot be read). */
export class InstanceLockedError extends Error {
  override readonly name = 'InstanceLockedError';
  constructor(
    readonly path: string,
    readonly owner: LockOwner | null,
    readonly verdict: OwnerVerdict,
  ) {
    super(`another hearsay instance is already running for this bot with this data directory (${describeOwner(owner)}; lock file ${path})`);
  }

  /** Who holds the lock, in words (pid, host, mode, start, and why it counts as alive), for the operator's message. */
  get ownerDescription(): string {
    return `${describeOwner(this.owner)}; ${this.verdict.why}`;
  }

  /** What the operator can do: stop the other one, or (a lock from elsewhere) start again once it is stale. */
  get advice(): string {
    const stop = 'stop it first (one instance per bot and data directory)';
    if (!this.verdict.remote) return stop;
    return `${stop}; if it is gone (its host or container removed), its lock is taken over once nothing has renewed it for ${LOCK_STALE_MS / 1000} s: start again then`;
  }
}

/** A lock that was taken over: whose it was and why that owner could not be alive. */
export interface TakenOver {
  owner: LockOwner | null;
  why: string;
}

export interface AcquireOptions {
  /** Told once when the lock file is no longer ours (removed, or taken over by another instance); renewal stops. */
  onLost?: (owner: LockOwner | null) => void;
}

export class InstanceLock {
  private released = false;
  private readonly renewal: NodeJS.Timeout;

  private constructor(
    readonly path: string,
    private readonly token: string,
    /** The stale lock this one replaced, if it did. */
    readonly tookOver: TakenOver | null,
    private readonly onLost: AcquireOptions['onLost'],
  ) {
    heldHere.add(path);
    // Unref'd: the heartbeat never keeps a process alive that has nothing else to do.
    this.renewal = setInterval(() => this.renew(), LOCK_RENEW_MS).unref();
  }

  /** Takes the lock in `dir` or throws InstanceLockedError (at once when its owner is alive); a stale lock is replaced. */
  static async acquire(dir: string, mode: string, options: AcquireOptions = {}): Promise<InstanceLock> {
    mkdirSync(dir, { recursive: true });
    const path = resolve(join(dir, LOCK_FILE));
    const self = ownIdentity();
    const token = randomBytes(12).toString('hex');
    const mine: LockOwner = { ...self, started: new Date().toISOString(), mode, token };
    const settleUntil = Date.now() + SETTLE_MS;
    let tookOver: TakenOver | null = null;
    for (;;) {
      if (createExclusive(path, mine)) break;
      const found = readLock(path);
      if (found === null) continue; // released or taken over an instant ago: try again
      const verdict = judgeOwner(found, self, heldHere.has(path));
      if (!verdict.alive) {
        if (takeOver(path, found, mine)) {
          tookOver = { owner: found.owner, why: verdict.why };
          break;
        }
      } else if (!(found.owner === null && found.heartbeatAgeMs < SETTLE_MS)) {
        throw new InstanceLockedError(path, found.owner, verdict);
      }
      // Being written, or being taken over by another starter: look again shortly, then decide.
      if (Date.now() > settleUntil) throw new InstanceLockedError(path, found.owner, verdict.alive ? verdict : TAKING_OVER);
      await sleep(SETTLE_STEP_MS);
    }
    removeLeftovers(dir);
    return new InstanceLock(path, token, tookOver, options.onLost);
  }

  /** Stops the heartbeat and removes the lock file (only ours: a lock replaced by someone else is left alone). Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    clearInterval(this.renewal);
    heldHere.delete(this.path);
    try {
      if (readLock(this.path)?.owner?.token === this.token) unlinkSync(this.path);
    } catch {
      /* already gone, or unreadable: nothing of ours to remove */
    }
  }

  /** The heartbeat: touches the lock file while it is still ours; says once when it is not. */
  private renew(): void {
    let found: FoundLock | null;
    try {
      found = readLock(this.path);
    } catch {
      return; // unreadable for a moment (a slow network file system): the next renewal tries again
    }
    if (found?.owner?.token !== this.token) {
      clearInterval(this.renewal);
      heldHere.delete(this.path);
      this.onLost?.(found?.owner ?? null);
      return;
    }
    try {
      const now = new Date();
      utimesSync(this.path, now, now);
    } catch {
      /* the next renewal tries again */
    }
  }
}

/** Creates the lock file only if there is none (O_EXCL); false when one exists. */
function createExclusive(path: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Replaces the stale lock `found` by ours, or returns false (another starter is at it, or the lock changed).
 * Only the starter that creates the marker for this very lock (its inode and content) may replace it; a
 * marker left by a starter that died half-way is passed over by the next number.
 */
function takeOver(path: string, found: FoundLock, mine: LockOwner): boolean {
  const key = createHash('sha256').update(`${found.ino}\n${found.raw}`).digest('hex').slice(0, 16);
  for (let n = 1; ; n++) {
    const marker = `${path}.takeover-${key}-${n}`;
    try {
      closeSync(openSync(marker, 'wx', 0o644));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (ageOf(marker) < LEFTOVER_MS) return false;
      continue;
    }
    try {
      const now = readLock(path);
      // Replaced, or renewed after all, since it was judged: judge again.
      if (now === null || now.ino !== found.ino || now.raw !== found.raw || now.mtimeMs !== found.mtimeMs) return false;
      const temporary = `${path}.${mine.token}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(mine)}\n`, { mode: 0o644 });
      renameSync(temporary, path);
      return true;
    } finally {
      for (let m = 1; m <= n; m++) removeQuietly(`${path}.takeover-${key}-${m}`);
    }
  }
}

/** Takeover markers and temporary files that starters which died half-way left behind. */
function removeLeftovers(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`${LOCK_FILE}.`)) continue;
    const path = join(dir, name);
    if (ageOf(path) >= LEFTOVER_MS) removeQuietly(path);
  }
}

function ageOf(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}
