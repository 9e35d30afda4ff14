// The instance lock after a crash: a lock whose owner cannot be alive (this very pid, a zombie, a reused
// pid, another host's lock nothing renews) is taken over, while a live owner (a running process here, a
// renewed lock from elsewhere) is refused at once; the heartbeat, and a takeover raced by many starters.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir, uptime } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InstanceLock, InstanceLockedError, LOCK_FILE, LOCK_RENEW_MS, type LockOwner } from '../../../src/store/file/instance-lock.js';
import { leaveLock, lockHolder, processStart, processState, unreapedLockHolder } from './lock-processes.js';

const linux = process.platform === 'linux';

async function refusal(dir: string): Promise<InstanceLockedError> {
  const error: unknown = await InstanceLock.acquire(dir, 'polling').then(
    (lock) => {
      lock.release();
      return null;
    },
    (caught: unknown) => caught,
  );
  if (!(error instanceof InstanceLockedError)) throw new Error('the lock was taken, not refused');
  return error;
}

function lockOwner(dir: string): LockOwner {
  return JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as LockOwner;
}

describe('instance lock', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearsay-lock-'));
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it("a lock naming this process's own pid (PID 1 of a restarted container) is taken over", async () => {
    leaveLock(dir, { processStart: '1' }); // the same pid in an earlier process: another start time
    const lock = await InstanceLock.acquire(dir, 'polling');
    expect(lock.tookOver?.why).toMatch(/this process's own/);
    expect(lockOwner(dir).pid).toBe(process.pid);
    lock.release();
    // A lock of an older version (pid and host only) too.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), started: 'x', mode: 'polling' }));
    const again = await InstanceLock.acquire(dir, 'webhook');
    expect(again.tookOver).not.toBeNull();
    again.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('while this process holds the lock, a second acquire in it is refused', async () => {
    const lock = await InstanceLock.acquire(dir, 'polling');
    try {
      expect((await refusal(dir)).ownerDescription).toMatch(/this very process holds it/);
    } finally {
      lock.release();
    }
  });

  it.runIf(linux)('the lock of a killed process not yet reaped (a zombie) is taken over at once', async () => {
    const { pid, parent } = await unreapedLockHolder(dir);
    children.push(parent);
    expect(lockOwner(dir).pid).toBe(pid);
    process.kill(pid, 'SIGKILL');
    await vi.waitFor(() => expect(processState(pid)).toBe('Z'), { timeout: 5_000 });
    const lock = await InstanceLock.acquire(dir, 'polling');
    expect(lock.tookOver?.why).toMatch(/exited \(not yet reaped\)/);
    expect(lockOwner(dir).pid).toBe(process.pid);
    lock.release();
  });

  it.runIf(linux)('a pid now used by another process (another start time) is taken over; the same start time is refused', async () => {
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    children.push(sleeper);
    const pid = sleeper.pid!;
    leaveLock(dir, { pid, processStart: String(Number(processStart(pid)) - 100) });
    const lock = await InstanceLock.acquire(dir, 'polling');
    expect(lock.tookOver?.why).toMatch(/another process/);
    lock.release();
    leaveLock(dir, { pid, processStart: processStart(pid) });
    expect((await refusal(dir)).ownerDescription).toMatch(new RegExp(`^pid ${pid} on .*; its process is running$`));
  });

  it('a process that is gone leaves a lock the next start takes over', async () => {
    const holder = lockHolder(dir, 'hold');
    children.push(holder.child);
    const { pid } = await holder.result;
    holder.child.kill('SIGKILL');
    await holder.exited;
    const lock = await InstanceLock.acquire(dir, 'polling');
    expect(lock.tookOver).toEqual({ owner: expect.objectContaining({ pid }), why: 'its process is gone' });
    lock.release();
  });

  it('two live instances on one data directory: the second is refused at once, naming the first', async () => {
    const holder = lockHolder(dir, 'hold');
    children.push(holder.child);
    const { pid } = await holder.result;
    const error = await refusal(dir);
    expect(error.ownerDescription).toMatch(new RegExp(`^pid ${pid} on .*, running in test mode since .*; its process is running$`));
    expect(error.advice).toBe('stop it first (one instance per bot and data directory)');
    const other = lockHolder(dir, 'end');
    expect(await other.result).toMatchObject({ ok: false, why: 'its process is running' });
    expect(lockOwner(dir).pid).toBe(pid);
  });

  it("another host's lock that nothing renews (a recreated container, a new pod) is taken over", async () => {
    leaveLock(dir, { pid: 1, host: 'hearsay-7d9f-old', bootId: 'another-boot', processStart: '42' }, 45_000);
    const lock = await InstanceLock.acquire(dir, 'polling');
    expect(lock.tookOver?.owner?.host).toBe('hearsay-7d9f-old');
    expect(lock.tookOver?.why).toMatch(/^it ran on another host, and nothing has renewed it for 4\d s$/);
    lock.release();
  });

  it("another host's renewed lock is refused at once, saying when it would be taken over", async () => {
    leaveLock(dir, { pid: 1, host: 'hearsay-7d9f-live', bootId: 'another-boot' }, 3_000);
    const error = await refusal(dir);
    expect(error.ownerDescription).toMatch(
      /^pid 1 on hearsay-7d9f-live, running in polling mode since .*; it ran on another host, and it was renewed \d s ago$/,
    );
    expect(error.advice).toMatch(/taken over once nothing has renewed it for 30 s: start again then$/);
    expect(lockOwner(dir).host).toBe('hearsay-7d9f-live');
  });

  it('a container of this host with its own pid namespace (same host name) is judged by its heartbeat, not by pid', async () => {
    leaveLock(dir, { pid: process.pid, pidNamespace: 'pid:[1]' }, 1_000);
    expect((await refusal(dir)).ownerDescription).toMatch(/another boot or container of this host, and it was renewed \d s ago$/);
    leaveLock(dir, { pid: process.pid, pidNamespace: 'pid:[1]' }, 31_000);
    (await InstanceLock.acquire(dir, 'polling')).release();
  });

  it('a lock from before this machine restarted (another boot id) is taken over', async () => {
    leaveLock(dir, { bootId: 'the-boot-before' }, (uptime() + 60) * 1000);
    const lock = await InstanceLock.acquire(dir, 'polling');
    expect(lock.tookOver?.why).toBe('this machine has restarted since');
    lock.release();
  });

  it('an empty lock file (a crash while writing it) is taken over once stale, and refused while fresh', async () => {
    writeFileSync(join(dir, LOCK_FILE), '');
    expect((await refusal(dir)).ownerDescription).toMatch(/^an unknown process; its lock file is empty or damaged, and it was renewed \d s ago$/);
    const old = new Date(Date.now() - 40_000);
    utimesSync(join(dir, LOCK_FILE), old, old);
    (await InstanceLock.acquire(dir, 'polling')).release();
  });

  it('the owner renews the heartbeat, stops on release, and says once when the lock is no longer its own', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const lost: Array<LockOwner | null> = [];
    const lock = await InstanceLock.acquire(dir, 'polling', { onLost: (owner) => lost.push(owner) });
    const path = join(dir, LOCK_FILE);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    vi.advanceTimersByTime(LOCK_RENEW_MS);
    expect(Date.now() - statSync(path).mtimeMs).toBeLessThan(LOCK_RENEW_MS);
    // Another instance replaced it (this one was frozen longer than the stale time): told once, renewal stops.
    leaveLock(dir, { pid: 1, host: 'elsewhere' }, 60_000);
    vi.advanceTimersByTime(LOCK_RENEW_MS * 3);
    expect(lost).toEqual([expect.objectContaining({ host: 'elsewhere' })]);
    expect(Date.now() - statSync(path).mtimeMs).toBeGreaterThan(50_000);
    lock.release();
    expect(lockOwner(dir).host).toBe('elsewhere'); // not ours: left alone

    const second = await InstanceLock.acquire(dir, 'polling', { onLost: (owner) => lost.push(owner) });
    second.release();
    vi.advanceTimersByTime(LOCK_RENEW_MS * 3);
    expect(lost).toHaveLength(1);
    expect(existsSync(path)).toBe(false);
  });

  it('a process holding the lock still ends by itself (the heartbeat timer is unref’d)', async () => {
    const holder = lockHolder(dir, 'end');
    children.push(holder.child);
    expect(await holder.result).toMatchObject({ ok: true });
    expect(await holder.exited).toBe(0);
  });

  it('many starters taking over one stale lock at the same instant: exactly one wins, the others are refused naming it', async () => {
    for (let round = 0; round < 3; round++) {
      leaveLock(dir, { pid: 1, host: 'gone-host' }, 60_000);
      const at = Date.now() + 1_500;
      const starters = Array.from({ length: 6 }, () => lockHolder(dir, at));
      children.push(...starters.map((s) => s.child));
      const results = await Promise.all(starters.map((s) => s.result));
      const winners = results.filter((r) => r.ok);
      expect(winners, JSON.stringify(results)).toHaveLength(1);
      expect(winners[0]!.tookOver).toBe(true);
      for (const loser of results.filter((r) => !r.ok)) expect(loser.message).toContain(`pid ${winners[0]!.pid} on `);
      expect(lockOwner(dir).pid).toBe(winners[0]!.pid);
      for (const starter of starters) starter.child.kill('SIGKILL');
      await Promise.all(starters.map((s) => s.exited));
      expect(readdirSync(dir).filter((name) => name !== LOCK_FILE)).toEqual([]);
    }
  }, 30_000);
});
