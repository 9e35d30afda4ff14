// CPU time of a bot's process tree from /proc: utime + stime of the process and every
// live descendant (a framework or hearsay may fork helpers), in clock ticks, converted
// to µs per update over the steady window of a run (see run-contestant.mjs).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second for /proc's utime/stime (USER_HZ, 100 on Linux almost everywhere). */
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of one process, all its threads (fields 14 and 15 of /proc/<pid>/stat), in ticks; 0 once it is gone. */
export function processCpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; the fields after its closing one are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function childrenOf(pid) {
  const children = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (listed) children.push(...listed.split(' ').map(Number));
    }
  } catch {
    // The process (or a thread) ended between the listing and the read.
  }
  return children;
}

/** CPU ticks used so far by `pid` and its live descendants. */
export function treeCpuTicks(pid) {
  let total = 0;
  const todo = [pid];
  const seen = new Set();
  while (todo.length > 0) {
    const at = todo.pop();
    if (seen.has(at)) continue;
    seen.add(at);
    total += processCpuTicks(at);
    todo.push(...childrenOf(at));
  }
  return total;
}

/**
 * Watches a run's replies and samples the bot's CPU when the reply count crosses the start
 * and the end of the steady window (10% and 90% of the updates: start-up and the tail are
 * left out). `result()` gives µs of CPU per update answered inside the window: the bot's, and the
 * stand-in service's (this process: the fake Bot API and the webhook pusher), which shares the
 * machine's cores with the bot — on a small machine a bot that leaves the service waiting, or
 * costs it more per update, shows there. `parts` (redis-parts.mjs) samples a Redis contestant's parts too.
 */
export function steadyCpuWindow(pid, updateCount, { from = 0.1, to = 0.9, parts = null } = {}) {
  const first = Math.max(1, Math.floor(updateCount * from));
  const last = Math.max(first + 1, Math.ceil(updateCount * to));
  let start = null;
  let end = null;
  return {
    onReply(n) {
      const sample = () => ({ n, ticks: treeCpuTicks(pid), service: process.cpuUsage(), at: process.hrtime.bigint(), parts: parts?.sample() ?? null });
      if (start === null && n >= first) start = sample();
      else if (start !== null && end === null && n >= last) end = sample();
    },
    /** @returns {{ cpuUsPerUpdate: number, serviceCpuUsPerUpdate: number, cpuWindowUpdates: number, cpuWindowMs: number, cpuWindowTicks: number }} */
    result() {
      if (!start || !end || end.n <= start.n)
        return { cpuUsPerUpdate: NaN, serviceCpuUsPerUpdate: NaN, cpuWindowUpdates: 0, cpuWindowMs: NaN, cpuWindowTicks: 0 };
      const ticks = end.ticks - start.ticks;
      const serviceUs = end.service.user - start.service.user + (end.service.system - start.service.system);
      return {
        cpuUsPerUpdate: ((ticks / CLOCK_TICKS) * 1e6) / (end.n - start.n),
        serviceCpuUsPerUpdate: serviceUs / (end.n - start.n),
        cpuWindowUpdates: end.n - start.n,
        cpuWindowMs: Number(end.at - start.at) / 1e6,
        cpuWindowTicks: ticks,
        // A Redis contestant's replicas, Redis server and Redis commands, each on its own (see redis-parts.mjs).
        ...(parts ? { redis: parts.result(start.parts, end.parts, end.n - start.n) } : {}),
      };
    },
  };
}
