// Runs one contestant once: a fresh stand-in, the contestant as a child process,
// wait until every update is answered (or replies stop coming), sample peak RSS and
// the CPU of its process tree, stop the child, then check the replies and measure timing.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startStandIn } from './standin/server.mjs';
import { BENCH_BOT } from './workload/updates.mjs';
import { checkReplies } from './report/correctness.mjs';
import { summariseTiming } from './report/latency.mjs';
import { CLOCK_TICKS, steadyCpuWindow, treeCpuTicks } from './report/process-cpu.mjs';
import { redisPartsSampler } from './report/redis-parts.mjs';

export const BENCH_TOKEN = '123456789:AAbench_token_for_the_standin_only0';

/** BENCH_* variables of the bench's own environment (e.g. the ceiling's connection count) reach every child. */
function benchKnobs() {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('BENCH_')));
}

/** Peak (VmHWM) and current (VmRSS) resident memory of a live process, in MB. */
async function rssOf(pid) {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const field = (name) => {
      const m = new RegExp(`${name}:\\s+(\\d+)\\s+kB`).exec(status);
      return m ? Number(m[1]) / 1024 : NaN;
    };
    return { peak: field('VmHWM'), current: field('VmRSS') };
  } catch {
    return { peak: NaN, current: NaN };
  }
}

/** The peak and current resident memory of the Redis contestant's largest replica (by peak), in MB. */
async function largestReplicaRss(partsFile) {
  try {
    const { replicaPids } = JSON.parse(await readFile(partsFile, 'utf8'));
    const each = await Promise.all(replicaPids.map((pid) => rssOf(pid)));
    return each.reduce((largest, rss) => (rss.peak > largest.peak ? rss : largest));
  } catch {
    return { peak: NaN, current: NaN };
  }
}

/** Resolves when all `count` replies are in (plus a short grace for duplicates) or they stop coming. */
function waitForReplies(recorder, count, { startupMs, idleMs, graceMs, deadlineMs, exited }) {
  return new Promise((resolve) => {
    let timer;
    let done = false;
    // A hard bound, so a contestant that keeps answering slowly (or forever) cannot stall the run.
    const deadline = setTimeout(() => finish(`stopped at the ${deadlineMs / 1000} s deadline`), deadlineMs);
    const finish = (reason) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(deadline);
      unsubscribe();
      resolve(reason);
    };
    const arm = (ms, reason) => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(reason), ms);
    };
    const unsubscribe = recorder.onReply((n) => {
      if (n >= count) arm(graceMs, 'complete');
      else arm(idleMs, 'idle');
    });
    arm(startupMs, 'no reply within the startup time');
    exited.then((code) => finish(`contestant exited early (code ${code})`));
  });
}

async function stopChild(child, exited, graceMs) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)));
  const first = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  if (first === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * @param {{ name:string, contestant:object, workload:{updates:object[], expected:string[]}, ctx:object, idleMs?:number, startupMs?:number }} options
 */
export async function runContestant({ name, contestant, workload, ctx, idleMs = 5000, startupMs = 60000, deadlineMs = 300_000 }) {
  const { updates } = workload;
  const expected = contestant.fixedAnswer ? updates.map(() => contestant.fixedAnswer) : workload.expected;
  const standIn = await startStandIn({ token: BENCH_TOKEN, updates, bot: BENCH_BOT, rate: ctx.rate });
  const workloadKind = workload.kind ?? 'messages';
  const logPath = path.join(ctx.logDir ?? ctx.workDir, `${name}-${ctx.ruleCount}-${workloadKind}.log`);
  const log = createWriteStream(logPath);
  try {
    const spec = await contestant.prepare({ ...ctx, workload: workloadKind, baseUrl: standIn.baseUrl, token: BENCH_TOKEN });
    const spawnedAt = process.hrtime.bigint();
    const profileArgs = ctx.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${ctx.profileDir}`, `--cpu-prof-name=${name}-${ctx.ruleCount}.cpuprofile`] : [];
    // BENCH_NODE_ARGS: node options for the contestant's process (e.g. --max-semi-space-size=2 to see its memory).
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, ...profileArgs, ...spec.args], {
      cwd: spec.cwd ?? ctx.workDir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', ...benchKnobs(), ...spec.env, ...ctx.contestantEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    const cpuWindow = steadyCpuWindow(child.pid, updates.length, { parts: spec.partsFile ? redisPartsSampler(spec.partsFile) : null });
    const stopSampling = standIn.recorder.onReply((n) => cpuWindow.onReply(n));
    const outcome = await waitForReplies(standIn.recorder, updates.length, { startupMs, idleMs, graceMs: 300, deadlineMs, exited });
    stopSampling();
    // The Redis contestants' process only starts Redis and the replicas: their memory is the replicas' (the largest).
    const rss = spec.partsFile ? await largestReplicaRss(spec.partsFile) : await rssOf(child.pid);
    const totalCpuMs = (treeCpuTicks(child.pid) / CLOCK_TICKS) * 1000;
    // A profiled child needs time to write its profile on the way out.
    await stopChild(child, exited, ctx.profileDir ? 15_000 : 3_000);
    const { recorder } = standIn;
    const check = checkReplies(updates, expected, recorder.replies);
    // Paced, the first fifth of the updates is the warm-up: the figures are those of the rest (see --rate).
    const timing = summariseTiming(recorder.handedAt, recorder.replies, check.pairs, ctx.rate ? Math.floor(updates.length / 5) : 0);
    let firstHanded = 0n;
    for (const at of recorder.handedAt) if (at !== 0n && (firstHanded === 0n || at < firstHanded)) firstHanded = at;
    return {
      name,
      label: contestant.label,
      mode: contestant.mode,
      ruleCount: ctx.ruleCount,
      ...(ctx.replicas !== undefined ? { replicas: ctx.replicas } : {}),
      workload: workloadKind,
      updates: updates.length,
      replies: recorder.replies.length,
      outcome,
      // Spawn to the first getupdates or setwebhook (for webhook bots: listening), then to the first update handed over.
      startupMs: recorder.readyAt === 0n ? NaN : Number(recorder.readyAt - spawnedAt) / 1e6,
      firstUpdateMs: firstHanded === 0n ? NaN : Number(firstHanded - spawnedAt) / 1e6,
      ...timing,
      ...cpuWindow.result(),
      totalCpuMs,
      peakRssMb: rss.peak,
      endRssMb: rss.current,
      correctness: {
        ok: check.ok,
        wrong: check.wrong,
        duplicates: check.duplicates,
        missing: check.missing,
        outOfOrder: check.outOfOrder,
        checkedAgainst: contestant.fixedAnswer ? `fixed answer ${JSON.stringify(contestant.fixedAnswer)}` : 'rule answers',
        examples: check.examples,
      },
      webhookFailures: recorder.webhookFailures,
      unknownMethods: Object.fromEntries(recorder.unknownMethods),
      log: logPath,
    };
  } finally {
    await standIn.close();
    log.end();
  }
}
