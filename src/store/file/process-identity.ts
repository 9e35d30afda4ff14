// Who a process is, as far as the system can tell, for the instance lock: a pid alone is not an identity (a
// restarted container is PID 1 again, pids are reused), so on Linux the lock also records the kernel's boot
// id, the pid namespace and the process's start time from /proc. Where /proc is missing (macOS, Windows)
// these are unknown and only "does a process with this pid exist" can be asked.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** What names this process on this machine; the optional parts are unknown where /proc is missing. */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** /proc/sys/kernel/random/boot_id: a new one at every boot, so pids and start times of another boot mean nothing. */
  bootId?: string;
  /** The pid namespace (/proc/self/ns/pid): containers on one host each have their own, with their own pid 1. */
  pidNamespace?: string;
  /** Start time in clock ticks after boot (/proc/<pid>/stat field 22): tells a reused pid from its first owner. */
  processStart?: string;
}

/** What the system says about a pid: not running at all, or running (possibly as a zombie) since `start`. */
export type ProcessProbe = { running: false } | { running: true; zombie: boolean; start?: string };

/** This process's identity, read now. */
export function ownIdentity(): ProcessIdentity {
  const identity: ProcessIdentity = { pid: process.pid, host: hostname() };
  const bootId = readText('/proc/sys/kernel/random/boot_id');
  if (bootId) identity.bootId = bootId;
  const pidNamespace = readLink('/proc/self/ns/pid');
  if (pidNamespace) identity.pidNamespace = pidNamespace;
  const stat = readStat(process.pid);
  if (stat?.start) identity.processStart = stat.start;
  return identity;
}

/**
 * Whether a process with this pid runs in this pid namespace: the signal-0 test first (it cannot tell a zombie,
 * which has exited but is not reaped yet), then /proc/<pid>/stat for its state and start time where readable.
 */
export function probeProcess(pid: number): ProcessProbe {
  if (!Number.isSafeInteger(pid) || pid <= 0) return { running: false };
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, owned by another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return { running: false };
  }
  const stat = readStat(pid);
  if (stat === null) return { running: true, zombie: false };
  return { running: true, zombie: stat.state === 'Z' || stat.state === 'X', ...(stat.start ? { start: stat.start } : {}) };
}

/** The state letter and start time from /proc/<pid>/stat, or null where it cannot be read. */
function readStat(pid: number): { state: string; start: string | undefined } | null {
  const text = readText(`/proc/${pid}/stat`);
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so the fields start after the last ')'.
  const end = text?.lastIndexOf(')') ?? -1;
  if (!text || end < 0) return null;
  const fields = text.slice(end + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 (starttime) is fields[19].
  const start = fields[19];
  return { state: fields[0] ?? '', start: start && /^\d+$/.test(start) ? start : undefined };
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

function readLink(path: string): string | null {
  try {
    return readlinkSync(path) || null;
  } catch {
    return null;
  }
}
