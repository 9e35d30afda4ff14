// Smoke test of the benchmark harness itself on a tiny workload: the minimal bot, in both
// ingress modes and on every workload, passes every check, and injected faults (a wrong,
// a missing, a duplicate and a late reply) are each caught as what they are.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BENCH = path.resolve('bench', 'run.mjs');

interface Correctness {
  ok: boolean;
  wrong: number;
  duplicates: number;
  missing: number;
  outOfOrder: number;
}
interface Result {
  name: string;
  workload: string;
  updates: number;
  replies: number;
  updatesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerUpdate: number;
  serviceCpuUsPerUpdate: number;
  round: number;
  startupMs: number;
  peakRssMb: number;
  correctness: Correctness;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bench-smoke-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function bench(tag: string, args: string[]): Promise<Result[]> {
  const out = path.join(dir, `${tag}.json`);
  await run(process.execPath, [BENCH, '--updates', '200', '--rules', '50', '--idle-ms', '1500', '--out', out, ...args], { timeout: 40_000 });
  return (JSON.parse(await readFile(out, 'utf8')) as { results: Result[] }).results;
}

const allRight = { ok: true, wrong: 0, duplicates: 0, missing: 0, outOfOrder: 0 };

describe('bench harness on 200 updates with the minimal bot', () => {
  it('measures both modes on every workload and finds every reply right', async () => {
    const results = await bench('clean', ['--only', 'minimal-polling,minimal-webhook', '--workloads', 'messages,presses,state']);
    expect(results.map((r) => `${r.workload} ${r.name}`)).toEqual([
      'messages minimal-polling',
      'messages minimal-webhook',
      'presses minimal-polling',
      'presses minimal-webhook',
      'state minimal-polling',
      'state minimal-webhook',
    ]);
    for (const result of results) {
      expect(result.replies).toBe(200);
      expect(result.correctness).toMatchObject(allRight);
      // Every metric is present (values are not asserted: timing belongs in `npm run bench`).
      for (const metric of [result.updatesPerSecond, result.p50Ms, result.p99Ms, result.cpuUsPerUpdate, result.startupMs, result.peakRssMb]) {
        expect(Number.isFinite(metric)).toBe(true);
      }
    }
  });

  it('runs every contestant once per round, interleaved and rotated, with the service CPU beside the bot CPU', async () => {
    const results = await bench('rounds', ['--only', 'minimal-polling,minimal-webhook', '--workloads', 'messages', '--rounds', '2']);
    // The second round starts with the second contestant (see bench/round-order.mjs).
    expect(results.map((r) => `${r.round} ${r.name}`)).toEqual(['1 minimal-polling', '1 minimal-webhook', '2 minimal-webhook', '2 minimal-polling']);
    for (const result of results) {
      expect(result.correctness).toMatchObject(allRight);
      expect(Number.isFinite(result.serviceCpuUsPerUpdate)).toBe(true);
    }
  });

  it('paces the arrivals with --rate: no run answers faster than updates arrive, and every reply is still right', async () => {
    const results = await bench('paced', ['--only', 'minimal-polling,minimal-webhook', '--workloads', 'messages', '--rate', '100']);
    for (const result of results) {
      expect(result.replies).toBe(200);
      expect(result.correctness).toMatchObject(allRight);
      // 200 updates arriving at 100 a second take 1.99 s from the first to the last: an upper bound on the
      // throughput that a slow machine cannot break (unpaced, the minimal bot answers thousands a second).
      expect(result.updatesPerSecond).toBeLessThanOrEqual(101);
      expect(result.updatesPerSecond).toBeGreaterThan(0);
    }
  });

  it('catches a wrong reply', async () => {
    const [result] = await bench('wrong', ['--only', 'minimal-polling', '--workloads', 'messages', '--fault', 'wrong:17']);
    expect(result!.correctness).toMatchObject({ ok: false, wrong: 1, duplicates: 0, missing: 1, outOfOrder: 0 });
  });

  it("passes --contestant-env to the contestant's process (here the minimal bot's own fault setting)", async () => {
    const [result] = await bench('env', ['--only', 'minimal-polling', '--workloads', 'messages', '--contestant-env', 'BENCH_FAULT=wrong:17']);
    expect(result!.correctness).toMatchObject({ ok: false, wrong: 1, duplicates: 0, missing: 1, outOfOrder: 0 });
  });

  it('catches a missing reply', async () => {
    const [result] = await bench('drop', ['--only', 'minimal-webhook', '--workloads', 'messages', '--fault', 'drop:5']);
    expect(result!.replies).toBe(199);
    expect(result!.correctness).toMatchObject({ ok: false, wrong: 0, duplicates: 0, missing: 1, outOfOrder: 0 });
  });

  it('catches a duplicate reply to a button press', async () => {
    const results = await bench('dup', ['--only', 'minimal-polling', '--workloads', 'presses', '--fault', 'dup:2']);
    expect(results[0]!.replies).toBe(201);
    expect(results[0]!.correctness).toMatchObject({ ok: false, wrong: 0, duplicates: 1, missing: 0, outOfOrder: 0 });
  });

  it('catches a reply sent after a later update of the same chat was answered', async () => {
    const [result] = await bench('late', ['--only', 'minimal-polling', '--workloads', 'state', '--fault', 'late:9']);
    expect(result!.replies).toBe(200);
    expect(result!.correctness).toMatchObject({ ok: false, wrong: 0, duplicates: 0, missing: 0, outOfOrder: 1 });
  });
});

describe('--hearsay-dist, for before/after runs against another build', () => {
  it("runs that build's bundled CLI, and names cli/main.js (what builds before the bundle have) when there is none", async () => {
    const other = path.join(dir, 'other-dist');
    await mkdir(other);
    const failed = await run(process.execPath, [BENCH, '--only', 'hearsay-polling', '--hearsay-dist', other], { timeout: 40_000 }).catch(
      (error: { stderr: string }) => error,
    );
    expect('stderr' in failed && failed.stderr).toContain(`--hearsay-dist: no ${path.join(other, 'cli', 'main.js')}`);

    // The launcher and the bundle alone, without the rest of dist/ or node_modules, are a whole build.
    for (const file of ['hearsay.cjs', 'hearsay-bundle.cjs']) await copyFile(path.resolve('dist', file), path.join(other, file));
    const [result] = await bench('other', ['--only', 'hearsay-polling', '--workloads', 'messages', '--hearsay-dist', other]);
    expect(result!.replies).toBe(200);
    expect(result!.correctness).toMatchObject(allRight);
  });
});

describe('the Redis contestants', () => {
  it("report a replica's memory, not that of the process that starts Redis and the replicas", async () => {
    const [result] = await bench('redis', ['--only', 'hearsay-polling-redis', '--workloads', 'messages', '--replicas', '2']);
    expect(result!.replies).toBe(result!.updates);
    expect(result!.correctness).toMatchObject(allRight);
    // A hearsay replica holds its bundle and its heap (at least 70 MB on the machines measured); the starter,
    // which only spawns and waits, about 43 MB: what this figure was before it was taken from the replicas.
    expect(result!.peakRssMb).toBeGreaterThan(60);
  });
});
