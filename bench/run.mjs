#!/usr/bin/env node
// `npm run bench`: every contestant, one after another, each against a fresh stand-in,
// on the same workload per rule-set size; prints the table and writes results JSON.
// Options: --updates N, --rules 50,10000, --only a,b, --out FILE, --idle-ms MS, --seed N,
// --profile DIR (CPU profile of each contestant that exits cleanly on SIGTERM), --fault (smoke test).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CONTESTANTS, REPO_ROOT } from './contestants/registry.mjs';
import { runContestant } from './run-contestant.mjs';
import { buildNeutralRules } from './workload/neutral-rules.mjs';
import { buildWorkload } from './workload/updates.mjs';
import { writeHearsayRules } from './workload/hearsay-yaml.mjs';
import { formatTable, correctnessLabel } from './report/table.mjs';
import { machineInfo } from './report/machine.mjs';

/**
 * Default update count per rule set. With 10,000 handlers grammY and Telegraf answer only
 * ~5–30 updates/s here, so the big set gets 500 updates to keep a full run near 10 minutes.
 */
function defaultUpdates(ruleCount) {
  return ruleCount >= 5000 ? 500 : 20_000;
}

/** How long without a new reply ends a run: Telegraf polling needs >10 s per batch of 100 on the big set. */
function defaultIdleMs(ruleCount) {
  return ruleCount >= 5000 ? 30_000 : 5_000;
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      updates: { type: 'string' },
      rules: { type: 'string', default: '50,10000' },
      only: { type: 'string' },
      out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results', 'latest.json') },
      'idle-ms': { type: 'string' },
      fault: { type: 'string' },
      seed: { type: 'string', default: '42' },
      profile: { type: 'string' },
    },
    strict: true,
  });
  const ruleCounts = values.rules.split(',').map((s) => Number(s.trim()));
  if (ruleCounts.some((n) => !Number.isInteger(n) || n < 2)) throw new Error(`--rules: comma-separated integers >= 2, got ${values.rules}`);
  const only = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(CONTESTANTS);
  const unknown = only.filter((n) => !CONTESTANTS[n]);
  if (unknown.length > 0) throw new Error(`--only: unknown contestant(s) ${unknown.join(', ')}; known: ${Object.keys(CONTESTANTS).join(', ')}`);
  const updates = values.updates === undefined ? undefined : Number(values.updates);
  if (updates !== undefined && (!Number.isInteger(updates) || updates < 1)) throw new Error(`--updates: a positive integer, got ${values.updates}`);
  return {
    ruleCounts,
    only,
    updates,
    out: values.out,
    idleMs: values['idle-ms'] === undefined ? undefined : Number(values['idle-ms']),
    fault: values.fault,
    seed: Number(values.seed),
    profileDir: values.profile,
  };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'hearsay-bench-'));
  // Each contestant's stdout/stderr is kept next to the results, to see why a run failed.
  const logDir = path.join(path.dirname(options.out), 'logs');
  await mkdir(logDir, { recursive: true });
  const results = [];
  try {
    for (const ruleCount of options.ruleCounts) {
      const rules = buildNeutralRules(ruleCount);
      const count = options.updates ?? defaultUpdates(ruleCount);
      const started = performance.now();
      const workload = buildWorkload({ rules, updates: count, seed: options.seed });
      const setDir = path.join(workDir, `rules-${ruleCount}`);
      const rulesJson = path.join(workDir, `neutral-${ruleCount}.json`);
      await writeFile(rulesJson, JSON.stringify(rules));
      await writeHearsayRules(rules, setDir);
      process.stderr.write(`${ruleCount} rules, ${count} updates: workload ready in ${Math.round(performance.now() - started)} ms\n`);
      const ctx = { workDir, ruleCount, rulesJson, hearsayRulesDir: setDir, fault: options.fault, profileDir: options.profileDir, logDir };
      for (const name of options.only) {
        const result = await runContestant({ name, contestant: CONTESTANTS[name], workload, ctx, idleMs: options.idleMs ?? defaultIdleMs(ruleCount) });
        results.push(result);
        process.stderr.write(
          `  ${name}: ${Math.round(result.updatesPerSecond)} updates/s, p50 ${result.p50Ms?.toFixed(2)} ms, p99 ${result.p99Ms?.toFixed(2)} ms, ` +
            `RSS ${Math.round(result.peakRssMb)} MB, ${correctnessLabel(result.correctness)} (${result.outcome})\n`,
        );
        for (const example of result.correctness.examples) process.stderr.write(`    ${example}\n`);
      }
    }
    const report = { when: new Date().toISOString(), machine: await machineInfo(), options: { ...options, out: undefined }, results };
    await mkdir(path.dirname(options.out), { recursive: true });
    await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`${formatTable(results)}\n\nresults written to ${path.relative(process.cwd(), options.out) || options.out}\n`);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
