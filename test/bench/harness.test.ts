// Smoke test of the benchmark harness itself on a tiny workload: a correct contestant
// passes every check, and injected faults (a wrong reply, a missing reply) are caught.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
  updates: number;
  replies: number;
  updatesPerSecond: number;
  p50Ms: number;
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

async function bench(name: string, extra: string[] = []): Promise<Result> {
  const out = path.join(dir, `${name}.json`);
  await run(process.execPath, [BENCH, '--updates', '200', '--rules', '50', '--only', 'grammy-polling', '--idle-ms', '1500', '--out', out, ...extra], {
    timeout: 30_000,
  });
  const report = JSON.parse(await readFile(out, 'utf8')) as { results: Result[] };
  expect(report.results).toHaveLength(1);
  return report.results[0]!;
}

describe('bench harness on 200 updates', () => {
  it('measures a correct contestant and finds every reply right', async () => {
    const result = await bench('clean');
    expect(result.replies).toBe(200);
    expect(result.correctness).toMatchObject({ ok: true, wrong: 0, duplicates: 0, missing: 0, outOfOrder: 0 });
    expect(result.updatesPerSecond).toBeGreaterThan(0);
    expect(result.p50Ms).toBeGreaterThanOrEqual(0);
    expect(result.peakRssMb).toBeGreaterThan(0);
  });

  it('catches a wrong reply', async () => {
    const result = await bench('wrong', ['--fault', 'wrong:17']);
    expect(result.correctness).toMatchObject({ ok: false, wrong: 1, missing: 1 });
  });

  it('catches a missing reply', async () => {
    const result = await bench('drop', ['--fault', 'drop:5']);
    expect(result.replies).toBe(199);
    expect(result.correctness).toMatchObject({ ok: false, wrong: 0, missing: 1 });
  });
});
