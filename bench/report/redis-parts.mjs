// The parts of a Redis contestant measured on their own over the run's steady window: the replicas' CPU (all
// of them together, each process with its threads), the Redis server's CPU (from its /proc stat) and the
// commands Redis ran (INFO commandstats; the INFO asked for this is left out) and the reads it made from its
// clients' sockets (INFO stats' total_reads_processed: one per batch of commands a client wrote at once, so the
// fewer per update, the more commands each of Redis's passes serves), each per update answered.
// commandstats counts the commands a script runs as well as the script: the requests are the commands only a
// client sends (the scripts and the few commands hearsay sends as they are). Left out of them, as scripts run
// them too: a replica's lease renewal (a plain SET every 3.3 s), and MGET and HMGET, which hearsay sends on its own
// only off the message path (a commit's second read after another replica changed a document, the flow timers'
// look at the stored flows, an operator's request). One request may carry a step
// of several updates (a replica stores, begins and commits the updates of one pass of its event loop together),
// so this counts Redis's work, not the answers one update waits for (three: stored, begun, committed).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CLOCK_TICKS, treeCpuTicks } from './process-cpu.mjs';

/** Calls and µs per command so far, from `INFO commandstats` (`cmdstat_evalsha:calls=12,usec=340,…`). */
function commandCalls(port) {
  const info = execFileSync('redis-cli', ['-p', String(port), 'info', 'commandstats'], { encoding: 'utf8' });
  const calls = {};
  const usec = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    calls[match[1]] = Number(match[2]);
    usec[match[1]] = Number(match[3]);
  }
  return { calls, usec };
}

/** Reads from clients' sockets so far (INFO stats); the sampler's own INFO calls add two per sample. */
function socketReads(port) {
  const info = execFileSync('redis-cli', ['-p', String(port), 'info', 'stats'], { encoding: 'utf8' });
  return Number(/^total_reads_processed:(\d+)/m.exec(info)?.[1] ?? NaN);
}

/** Commands hearsay sends only on their own, never from inside a script: one request each. */
const CLIENT_ONLY = new Set(['evalsha', 'eval', 'smembers', 'exec', 'wait', 'waitaof', 'ping', 'scan']);

/** A sampler for steadyCpuWindow: what the parts file (written by hearsay-redis.mjs) names, sampled now. */
export function redisPartsSampler(partsFile) {
  let parts = null;
  return {
    sample() {
      try {
        parts ??= JSON.parse(readFileSync(partsFile, 'utf8'));
        return {
          replicaTicks: parts.replicaPids.reduce((sum, pid) => sum + treeCpuTicks(pid), 0),
          redisTicks: treeCpuTicks(parts.redisPid),
          ...commandCalls(parts.redisPort),
          reads: socketReads(parts.redisPort),
        };
      } catch {
        return null;
      }
    },
    /** Per update answered between the two samples; null when either is missing. */
    result(start, end, updates) {
      if (!start || !end || !parts) return null;
      const perUpdate = (ticks) => ((ticks / CLOCK_TICKS) * 1e6) / updates;
      const commands = {};
      let total = 0;
      let roundTrips = 0;
      for (const [name, calls] of Object.entries(end.calls)) {
        // The INFO this sampler sent is not the bot's.
        if (name === 'info') continue;
        const delta = calls - (start.calls[name] ?? 0);
        if (delta <= 0) continue;
        commands[name] = delta / updates;
        total += delta;
        if (CLIENT_ONLY.has(name)) roundTrips += delta;
      }
      // Time inside the commands a client sent (a script's time includes the commands it runs): the rest of
      // Redis's CPU is its event loop, the sockets and the AOF's write and fsync.
      let commandUsec = 0;
      for (const name of CLIENT_ONLY) commandUsec += (end.usec[name] ?? 0) - (start.usec?.[name] ?? 0);
      return {
        replicas: parts.replicaPids.length,
        replicaCpuUsPerUpdate: perUpdate(end.replicaTicks - start.replicaTicks),
        redisCpuUsPerUpdate: perUpdate(end.redisTicks - start.redisTicks),
        redisCommandsPerUpdate: total / updates,
        redisInCommandsUsPerUpdate: commandUsec / updates,
        redisRoundTripsPerUpdate: roundTrips / updates,
        redisReadsPerUpdate: (end.reads - start.reads) / updates,
        redisCommands: commands,
      };
    },
  };
}
