// `npm run bench`: every contestant, one after another, each against a fresh stand-in,
// on the same workload per rule-set size and workload kind; prints the tables and writes
// results JSON. Options: --quick (a smoke run of about a minute), --rounds N (every contestant N
// times, interleaved, with medians over the rounds), --updates N,
// --rules 50,1000,10000, --workloads messages,presses,state, --only a,b, --out FILE,
// --idle-ms MS, --seed N, --replicas 1,2,4 (the Redis contestants once per count, each replica as many updates as
// one alone; --replica-updates total for a fixed total; --replica-rate each for --rate per replica), --rate N (updates arrive at N a
// second instead of all at once: latency at a load below the highest), --profile DIR (CPU profile of each contestant that exits cleanly
// on SIGTERM), --hearsay-dist DIR (another build of hearsay, for before/after), --contestant-env LIST (environment
// variables for every contestant's process, e.g. the C library's malloc settings), --fault KIND:ID
// (harness test only), --help.
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CONTESTANTS, HEARSAY_MAIN, REPO_ROOT, hearsayEntryIn } from './contestants/registry.mjs';
import { runContestant } from './run-contestant.mjs';
import { buildNeutralRules } from './workload/neutral-rules.mjs';
import { WORKLOADS, buildWorkload, sliceWorkload } from './workload/updates.mjs';
import { writeHearsayRules } from './workload/hearsay-yaml.mjs';
import { formatTable, formatCostByRules, formatRoundMedians, correctnessLabel } from './report/table.mjs';
import { formatReplicaTable } from './report/replica-table.mjs';
import { machineInfo } from './report/machine.mjs';
import { roundOrder } from './round-order.mjs';
import { scaledForReplicas } from './replica-scale.mjs';

/**
 * Updates per run. hearsay, the minimal bot and the ceiling get the same number at every size, so that
 * the cost by rule count compares runs of one shape (a shorter run at 10,000 rules would put the
 * process's own warm-up into its window and not into the 50-rule one); grammY and Telegraf walk one
 * handler per rule (~5–30 updates/s with 10,000 handlers here), so at 1,000 and 10,000 rules they get
 * a prefix of the same stream (2,000 and 300 updates), keeping a full run under 10 minutes even on a
 * busy machine.
 */
function defaultUpdates(ruleCount, contestant, quick) {
  if (quick) return contestant.framework && ruleCount >= 1000 ? 200 : 2000;
  // Enough for a CPU window of a few hundred clock ticks (10 ms each) at this machine's speeds; the
  // minimal bot's linear scan takes ~10 s for them at 10,000 rules.
  if (!contestant.framework) return 40_000;
  if (ruleCount >= 5000) return 300;
  return ruleCount >= 500 ? 2000 : 20_000;
}

/** How long without a new reply ends a run: Telegraf polling needs >10 s per batch of 100 on the big set. */
function defaultIdleMs(ruleCount, quick) {
  if (quick) return 3000;
  return ruleCount >= 5000 ? 30_000 : 5_000;
}

function parseList(value, what, known) {
  const list = value.split(',').map((s) => s.trim());
  const unknown = list.filter((n) => !known.includes(n));
  if (unknown.length > 0) throw new Error(`${what}: unknown ${unknown.join(', ')}; known: ${known.join(', ')}`);
  return list;
}

/** `--contestant-env NAME=VALUE,...` as an object; a name must be a plain environment variable's. */
function parseContestantEnv(value) {
  if (value === undefined) return {};
  const env = {};
  for (const pair of value.split(',')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(pair.trim());
    if (!m) throw new Error(`--contestant-env: NAME=VALUE pairs, comma-separated, got ${pair}`);
    env[m[1]] = m[2];
  }
  return env;
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      updates: { type: 'string' },
      rules: { type: 'string' },
      workloads: { type: 'string', default: WORKLOADS.join(',') },
      only: { type: 'string' },
      out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results', 'latest.json') },
      'idle-ms': { type: 'string' },
      fault: { type: 'string' },
      seed: { type: 'string', default: '42' },
      profile: { type: 'string' },
      rounds: { type: 'string', default: '1' },
      replicas: { type: 'string', default: '1' },
      'replica-updates': { type: 'string', default: 'each' },
      'replica-rate': { type: 'string', default: 'total' },
      rate: { type: 'string' },
      'hearsay-dist': { type: 'string' },
      'contestant-env': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return { help: true };
  const rulesValue = values.rules ?? (values.quick ? '50,1000' : '50,1000,10000');
  const ruleCounts = rulesValue.split(',').map((s) => Number(s.trim()));
  if (ruleCounts.some((n) => !Number.isInteger(n) || n < 10)) throw new Error(`--rules: comma-separated integers >= 10, got ${rulesValue}`);
  const only = values.only ? parseList(values.only, '--only', Object.keys(CONTESTANTS)) : Object.keys(CONTESTANTS);
  const workloads = parseList(values.workloads, '--workloads', WORKLOADS);
  const updates = values.updates === undefined ? undefined : Number(values.updates);
  if (updates !== undefined && (!Number.isInteger(updates) || updates < 1)) throw new Error(`--updates: a positive integer, got ${values.updates}`);
  const replicas = values.replicas.split(',').map((s) => Number(s.trim()));
  if (replicas.some((n) => !Number.isInteger(n) || n < 1 || n > 64)) throw new Error(`--replicas: comma-separated integers 1-64, got ${values.replicas}`);
  const [replicaUpdates, replicaRate] = ['replica-updates', 'replica-rate'].map((option) => {
    const how = values[option];
    if (how !== 'each' && how !== 'total') throw new Error(`--${option}: each or total, got ${how}`);
    return how;
  });
  const rate = values.rate === undefined ? undefined : Number(values.rate);
  if (rate !== undefined && !(Number.isFinite(rate) && rate > 0)) throw new Error(`--rate: updates per second, a positive number, got ${values.rate}`);
  const contestantEnv = parseContestantEnv(values['contestant-env']);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: a positive integer, got ${values.rounds}`);
  return {
    quick: values.quick,
    rounds,
    replicas,
    replicaUpdates,
    replicaRate,
    rate,
    ruleCounts,
    workloads,
    only,
    updates,
    out: values.out,
    idleMs: values['idle-ms'] === undefined ? undefined : Number(values['idle-ms']),
    fault: values.fault,
    seed: Number(values.seed),
    profileDir: values.profile,
    contestantEnv,
    // A before/after comparison runs this harness against another checkout's build (its dist/ folder).
    hearsayMain: values['hearsay-dist'] === undefined ? undefined : hearsayEntryIn(path.resolve(values['hearsay-dist'])),
  };
}

const HELP = `Usage: node bench/run.mjs [options]   (npm run bench -- [options] also runs the matching step)

  --quick                 smoke run: 2,000 updates (200 for frameworks at 1,000 rules), rules 50,1000
  --rounds N              run every contestant N times, interleaved (round 1 of each, then round 2…, each
                          round starting one contestant further along), and
                          add a table of medians over the rounds: on a small machine one run of a pair
                          moves ±10–15%, so ratios are judged by the median of several (default 1)
  --replicas LIST         the Redis contestants once per count of replicas on one Redis, comma-separated
                          (default 1): webhook behind a round-robin balancer, polling sharing the lease;
                          adds a table of the replicas' and Redis's CPU and Redis commands per update
  --replica-updates WHICH each (default): N replicas get N times the updates, so that each answers as many
                          as one replica alone and each spends the same share of its run warming up (V8
                          compiling the hot code is a cost per process); total: every count the same updates
  --replica-rate WHICH    with --rate: total (default): the rate of all replicas together; each: N replicas get
                          N times the rate, each replica the load of one alone (CPU per update depends on the
                          load, so this compares replica counts on their coordination)
  --rate N                updates arrive at N a second from the bot's first request (default: all queued at
                          once, the highest load); latency then counts from each update's arrival, and the
                          first fifth of the updates is a warm-up left out of the figures, so a run at 80% of
                          the highest updates/s gives the latency at that load
  --updates N             updates per contestant (default: 40,000; fewer for frameworks on big sets)
  --rules LIST            rule-set sizes, comma-separated, each >= 10 (default 50,1000,10000)
  --workloads LIST        messages,presses,state (default: all three)
  --only LIST             contestants: ${Object.keys(CONTESTANTS).join(', ')}
  --out FILE              results JSON (default bench/results/latest.json); logs go to logs/ beside it
  --idle-ms MS            end a run after this long without a reply
  --seed N                workload seed (default 42)
  --profile DIR           write a V8 CPU profile of every contestant that exits on SIGTERM (hearsay)
  --hearsay-dist DIR      run the hearsay contestants from this build's dist/ folder instead of this
                          checkout's (e.g. a worktree of an older commit, for a before/after table):
                          DIR/hearsay.cjs (the launcher, or the bundle itself in builds before it), or
                          DIR/cli/main.js for builds from before the bundled CLI
  --contestant-env LIST   NAME=VALUE,... set in every contestant's environment (and a Redis contestant's
                          replicas'): e.g. MALLOC_ARENA_MAX=2 to see what the C library's malloc keeps
  --help                  this text
`;

/**
 * The runs in order: per rule count, the messages workload for every contestant, then the
 * other workloads (on the smallest rule count only, to keep the budget) for the contestants
 * that support them.
 */
function plan(options) {
  const runs = [];
  const smallest = Math.min(...options.ruleCounts);
  for (const ruleCount of options.ruleCounts) {
    for (const workload of options.workloads) {
      if (workload !== 'messages' && ruleCount !== smallest) continue;
      const names = options.only.filter((name) => CONTESTANTS[name].workloads.includes(workload));
      if (names.length > 0) runs.push({ ruleCount, workload, names });
    }
  }
  return runs;
}

async function prepareSet(workDir, ruleCount, workload) {
  const rules = buildNeutralRules(ruleCount, { buttons: workload === 'presses' });
  const tag = `${ruleCount}-${workload === 'presses' ? 'buttons' : workload === 'state' ? 'state' : 'plain'}`;
  const rulesJson = path.join(workDir, `neutral-${tag}.json`);
  await writeFile(rulesJson, JSON.stringify(rules));
  const hearsayRulesDir = path.join(workDir, `rules-${tag}`);
  await writeHearsayRules(rules, hearsayRulesDir, 1000, { state: workload === 'state' });
  return { rules, rulesJson, hearsayRulesDir };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(HELP);
    return;
  }
  if (options.hearsayMain)
    await access(options.hearsayMain).catch(() => Promise.reject(new Error(`--hearsay-dist: no ${options.hearsayMain} (build that checkout first)`)));
  else if (options.only.some((name) => name.startsWith('hearsay')))
    await access(HEARSAY_MAIN).catch(() => Promise.reject(new Error(`no ${HEARSAY_MAIN} (run npm run build first)`)));
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'hearsay-bench-'));
  // Each contestant's stdout/stderr is kept next to the results, to see why a run failed.
  const logDir = path.join(path.dirname(options.out), 'logs');
  await mkdir(logDir, { recursive: true });
  const machineAtStart = await machineInfo();
  const startedAt = performance.now();
  const results = [];
  try {
    for (const { ruleCount, workload: kind, names } of plan(options)) {
      const started = performance.now();
      const set = await prepareSet(workDir, ruleCount, kind);
      // A replicated contestant (the Redis store) runs once per --replicas count.
      const entries = names.flatMap((name) => (CONTESTANTS[name].replicated ? options.replicas.map((replicas) => ({ name, replicas })) : [{ name }]));
      const counts = entries.map(({ name, replicas }) =>
        scaledForReplicas(options.updates ?? defaultUpdates(ruleCount, CONTESTANTS[name], options.quick), replicas, options.replicaUpdates),
      );
      const workload = buildWorkload({ rules: set.rules, updates: Math.max(...counts), seed: options.seed, kind });
      process.stderr.write(
        `${ruleCount} rules, ${kind}, up to ${Math.max(...counts)} updates: workload ready in ${Math.round(performance.now() - started)} ms\n`,
      );
      const ctx = {
        workDir,
        ruleCount,
        ...set,
        fault: options.fault,
        profileDir: options.profileDir,
        contestantEnv: options.contestantEnv,
        logDir,
        hearsayMain: options.hearsayMain ?? HEARSAY_MAIN,
      };
      // Interleaved: a slow spell of the machine hits one round of every contestant, not every run of one; rotated
      // (see roundOrder) so that no contestant always runs first or last.
      for (let round = 1; round <= options.rounds; round += 1) {
        for (const i of roundOrder(entries.length, round)) {
          const { name, replicas } = entries[i];
          const result = await runOne(name, sliceWorkload(workload, counts[i]), { ...ctx, round, ...(replicas ? { replicas } : {}) }, options);
          results.push({ ...result, round });
        }
      }
    }
    const durationS = Math.round((performance.now() - startedAt) / 1000);
    const machine = { ...machineAtStart, loadAverageAtEnd: (await machineInfo()).loadAverage };
    const report = { when: new Date().toISOString(), durationS, machine, options: { ...options, out: undefined }, results };
    await mkdir(path.dirname(options.out), { recursive: true });
    await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`);
    const medians = options.rounds > 1 ? `\n\nMedians over ${options.rounds} rounds:\n\n${formatRoundMedians(results)}` : '';
    const replicated = results.some((r) => r.redis) ? `\n\nReplicas on one Redis, per update answered (steady window):\n\n${formatReplicaTable(results)}` : '';
    process.stdout.write(
      `${formatTable(results)}${medians}${replicated}\n\nCPU µs per update by rule count (messages workload${options.rounds > 1 ? ', medians' : ''}):\n\n${formatCostByRules(results)}\n\n` +
        `${durationS} s; load average ${machine.loadAverage.join(' ')} at the start, ${machine.loadAverageAtEnd.join(' ')} at the end\n` +
        `results written to ${path.relative(process.cwd(), options.out) || options.out}\n`,
    );
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** One contestant's run, reported on stderr as it ends. */
async function runOne(name, workload, ctx, options) {
  const contestant = CONTESTANTS[name];
  const idleMs = options.idleMs ?? defaultIdleMs(ctx.ruleCount, options.quick);
  const rate = options.rate === undefined ? undefined : scaledForReplicas(options.rate, ctx.replicas, options.replicaRate);
  const result = await runContestant({ name, contestant, workload, ctx: { ...ctx, rate }, idleMs });
  const round = `${ctx.replicas ? ` ×${ctx.replicas}` : ''}${options.rounds > 1 ? ` (round ${ctx.round})` : ''}`;
  process.stderr.write(
    `  ${name}${round}: ${Math.round(result.updatesPerSecond)} updates/s, p50 ${result.p50Ms?.toFixed(2)} ms, p99 ${result.p99Ms?.toFixed(2)} ms, ` +
      `CPU ${result.cpuUsPerUpdate?.toFixed(0)} µs/update (service ${result.serviceCpuUsPerUpdate?.toFixed(0)}), RSS ${Math.round(result.peakRssMb)} MB, ` +
      `start-up ${Math.round(result.startupMs)} ms, ${correctnessLabel(result.correctness)} (${result.outcome})\n`,
  );
  if (result.redis) {
    const { replicaCpuUsPerUpdate, redisCpuUsPerUpdate, redisInCommandsUsPerUpdate, redisRoundTripsPerUpdate, redisReadsPerUpdate, redisCommandsPerUpdate } =
      result.redis;
    process.stderr.write(
      `    replicas ${replicaCpuUsPerUpdate.toFixed(0)} µs/update, Redis ${redisCpuUsPerUpdate.toFixed(0)} µs/update ` +
        `(${redisInCommandsUsPerUpdate.toFixed(0)} in commands), ` +
        `${redisRoundTripsPerUpdate.toFixed(2)} requests/update (${redisCommandsPerUpdate.toFixed(2)} Redis commands), ` +
        `${redisReadsPerUpdate.toFixed(2)} socket reads/update\n`,
    );
  }
  for (const example of result.correctness.examples) process.stderr.write(`    ${example}\n`);
  return result;
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
