// What an instance lock file says about its owner, and whether that owner can still be alive. On the machine
// (boot, pid namespace) that wrote it the process is asked; anywhere else only the lock's heartbeat (the
// file's mtime, renewed by the owner every few seconds) can tell, so a lock nothing renews goes stale.
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { uptime } from 'node:os';
import { probeProcess, type ProcessIdentity } from './process-identity.js';

/** How often the owner renews its lock's heartbeat. */
export const LOCK_RENEW_MS = 5_000;
/** A lock from another machine whose heartbeat is older than this is left from an instance that is gone. */
export const LOCK_STALE_MS = 30_000;

/** Who holds the lock, as written in the lock file (the identity fields are missing in locks of older versions). */
export interface LockOwner extends ProcessIdentity {
  started: string;
  mode: string;
  /** Random, one per taking of the lock: renewal and release touch only the lock they took. */
  token?: string;
}

/** The lock file as read now: its owner (null when not understood: being written, or damaged) and its heartbeat. */
export interface FoundLock {
  owner: LockOwner | null;
  raw: string;
  ino: number;
  /** The heartbeat: when the owner last renewed the lock (the file's mtime). */
  mtimeMs: number;
  heartbeatAgeMs: number;
}

/** Whether the owner may be alive, and why, in words for the logs and the refusal. */
export interface OwnerVerdict {
  alive: boolean;
  why: string;
  /** The owner is on another machine (or in another container): only its heartbeat speaks for it. */
  remote: boolean;
}

/** Reads the lock file; null when there is none. Opened before its times are read: a network file system revalidates them at open. */
export function readLock(path: string): FoundLock | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    const raw = readFileSync(fd, 'utf8');
    return { owner: parseOwner(raw), raw, ino: stat.ino, mtimeMs: stat.mtimeMs, heartbeatAgeMs: Date.now() - stat.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

function parseOwner(raw: string): LockOwner | null {
  try {
    const owner = JSON.parse(raw) as LockOwner;
    return Number.isSafeInteger(owner?.pid) && typeof owner.host === 'string' ? owner : null;
  } catch {
    return null;
  }
}

/**
 * Judges a lock someone else wrote. `heldHere`: this process holds a lock on that path right now (a lock
 * naming this process's pid is otherwise left from an earlier process that had the same pid).
 */
export function judgeOwner(found: FoundLock, self: ProcessIdentity, heldHere: boolean): OwnerVerdict {
  const owner = found.owner;
  if (owner === null) return byHeartbeat(found, 'its lock file is empty or damaged');
  const sameHost = owner.host === self.host;
  if (sameHost && known(owner.bootId, self.bootId) && owner.bootId !== self.bootId && heartbeatPredatesBoot(found)) {
    return { alive: false, why: 'this machine has restarted since', remote: false };
  }
  if (!sameHost || !compatible(owner.bootId, self.bootId) || !compatible(owner.pidNamespace, self.pidNamespace)) {
    return byHeartbeat(found, sameHost ? 'it ran in another boot or container of this host' : 'it ran on another host');
  }
  const local = (alive: boolean, why: string): OwnerVerdict => ({ alive, why, remote: false });
  if (owner.pid === self.pid) {
    return heldHere ? local(true, 'this very process holds it') : local(false, "its pid is this process's own: it is left from an earlier run");
  }
  const probe = probeProcess(owner.pid);
  if (!probe.running) return local(false, 'its process is gone');
  if (probe.zombie) return local(false, 'its process has exited (not yet reaped)');
  if (owner.processStart && probe.start && owner.processStart !== probe.start) {
    return local(false, 'its pid now belongs to another process (started at another time)');
  }
  return local(true, 'its process is running');
}

function byHeartbeat(found: FoundLock, where: string): OwnerVerdict {
  const seconds = Math.max(0, Math.round(found.heartbeatAgeMs / 1000));
  if (found.heartbeatAgeMs > LOCK_STALE_MS) return { alive: false, why: `${where}, and nothing has renewed it for ${seconds} s`, remote: true };
  return { alive: true, why: `${where}, and it was renewed ${seconds} s ago`, remote: true };
}

/**
 * The lock's last heartbeat is older than this boot (by more than one renewal, so a live owner elsewhere
 * with the same host name, renewing all along, can never look like it).
 */
function heartbeatPredatesBoot(found: FoundLock): boolean {
  return found.heartbeatAgeMs > uptime() * 1000 + LOCK_RENEW_MS;
}

function known(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined;
}

/** Equal, or unknown on either side (a lock of an older version, a system without /proc). */
function compatible(a: string | undefined, b: string | undefined): boolean {
  return !known(a, b) || a === b;
}

/** Who holds the lock, in words (pid, host, mode, start), for the operator's message. */
export function describeOwner(owner: LockOwner | null): string {
  return owner ? `pid ${owner.pid} on ${owner.host}, running in ${owner.mode} mode since ${owner.started}` : 'an unknown process';
}
