// Test support for the instance lock: real processes that take it (the built dist/ module, as hearsay runs
// it), a real zombie (a lock holder killed under a parent that never reaps it), and locks written the way
// another host, container or earlier process would have left them.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LOCK_FILE, type LockOwner } from '../../../src/store/file/instance-lock.js';
import { ownIdentity } from '../../../src/store/file/process-identity.js';

const LOCK_MODULE = pathToFileURL(join(process.cwd(), 'dist/store/file/instance-lock.js')).href;

// argv: module url, dir, then 'hold' (keep the lock until killed), 'end' (take it and let the process end by
// itself, the lock never released) or a time to start at (ms since the epoch: many starters at once; the
// one that gets the lock keeps it until killed).
const HOLDER = `
const [url, dir, how] = process.argv.slice(1);
const { InstanceLock } = await import(url);
if (/^\\d+$/.test(how)) while (Date.now() < Number(how)) {}
try {
  const lock = await InstanceLock.acquire(dir, 'test');
  console.log(JSON.stringify({ ok: true, pid: process.pid, tookOver: lock.tookOver !== null }));
  if (how !== 'end') setInterval(() => {}, 1000);
} catch (error) {
  console.log(JSON.stringify({ ok: false, pid: process.pid, message: error.message, why: error.verdict?.why }));
}
`;

export interface HolderResult {
  ok: boolean;
  pid: number;
  tookOver?: boolean;
  message?: string;
  why?: string;
}

/** A node process taking the lock in `dir`; `result` is its first line (what acquire did). */
export function lockHolder(dir: string, how: 'hold' | 'end' | number): { child: ChildProcess; result: Promise<HolderResult>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLDER, LOCK_MODULE, dir, String(how)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, result: firstLine(child).then((line) => JSON.parse(line) as HolderResult), exited };
}

/**
 * A lock holder whose parent never reaps it (a shell that execs `sleep`): killed, it stays a zombie until
 * `parent` is killed. Resolves once the holder has the lock.
 */
export async function unreapedLockHolder(dir: string): Promise<{ pid: number; parent: ChildProcess }> {
  const script = `"${process.execPath}" --input-type=module -e "$HOLDER" "${LOCK_MODULE}" "${dir}" hold & echo "{\\"pid\\":$!}"; exec sleep 600`;
  const parent = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, HOLDER } });
  const lines = linesOf(parent);
  const { pid } = JSON.parse(await lines.next()) as { pid: number };
  const held = JSON.parse(await lines.next()) as HolderResult;
  if (!held.ok || held.pid !== pid) throw new Error(`the holder did not take the lock: ${JSON.stringify(held)}`);
  return { pid, parent };
}

/** The state letter of /proc/<pid>/stat ('Z' for a zombie), or null when there is no such process. */
export function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot. */
export function processStart(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

/** Writes a lock as an earlier process would have left it, its heartbeat `ageMs` old; `owner` overrides this process's identity. */
export function leaveLock(dir: string, owner: Partial<LockOwner>, ageMs = 0): string {
  const path = join(dir, LOCK_FILE);
  const content = { ...ownIdentity(), started: '2025-01-01T00:00:00.000Z', mode: 'polling', ...owner };
  writeFileSync(path, `${JSON.stringify(content)}\n`);
  const at = new Date(Date.now() - ageMs);
  utimesSync(path, at, at);
  return path;
}

async function firstLine(child: ChildProcess): Promise<string> {
  return linesOf(child).next();
}

function linesOf(child: ChildProcess): { next(): Promise<string> } {
  let buffered = '';
  const waiting: Array<(line: string) => void> = [];
  const ready: string[] = [];
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffered += chunk;
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const take = waiting.shift();
      if (take) take(line);
      else ready.push(line);
    }
  });
  return {
    next: () =>
      new Promise<string>((resolve, reject) => {
        const line = ready.shift();
        if (line !== undefined) return resolve(line);
        waiting.push(resolve);
        child.once('exit', () => reject(new Error('the process ended before writing a line')));
      }),
  };
}
