// The table of the Redis contestants by number of replicas: the updates of a run, throughput and latency POST → reply, and per
// update answered in the steady window the replicas' CPU (all together, and against one replica's), Redis's CPU, the requests to Redis,
// Redis's reads from its clients' sockets (one per batch a client wrote at once) and the commands Redis ran (those inside scripts included), with the commands that make them up.
import { median } from './table.mjs';

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

/** Markdown rows per Redis contestant and replica count (medians over rounds). */
export function formatReplicaTable(results) {
  const rows = results.filter((r) => r.redis);
  const keys = [...new Set(rows.map((r) => `${r.name}\u0000${r.replicas}`))];
  const lines = [
    "| contestant | replicas | updates | updates/s | p50 ms | p99 ms | replicas' CPU µs/update | × one replica's | Redis CPU µs/update (in commands) | requests to Redis/update | Redis socket reads/update | Redis commands/update | commands |",
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const replicaCpu = (name, replicas) =>
    median(rows.filter((r) => r.name === name && String(r.replicas) === replicas).map((r) => r.redis.replicaCpuUsPerUpdate));
  for (const key of keys) {
    const [name, replicas] = key.split('\u0000');
    const runs = rows.filter((r) => r.name === name && String(r.replicas) === replicas);
    const of = (pick) => median(runs.map(pick).filter(Number.isFinite));
    // The issue's yardstick for coordination: the replicas' CPU per update against one replica's (medians), '—' without a run of one.
    const againstOne = replicaCpu(name, replicas) / replicaCpu(name, '1');
    const commands = {};
    for (const run of runs) for (const [command, n] of Object.entries(run.redis.redisCommands)) (commands[command] ??= []).push(n);
    const mix = Object.entries(commands)
      .map(([command, ns]) => [command, median(ns)])
      .sort((a, b) => b[1] - a[1])
      .map(([command, n]) => `${command} ${n.toFixed(2)}`)
      .join(', ');
    lines.push(
      `| ${runs[0].label} | ${replicas} | ${fmt(of((r) => r.updates))} | ${fmt(of((r) => r.updatesPerSecond))} | ${fmt(
        of((r) => r.p50Ms),
        1,
      )} | ${fmt(
        of((r) => r.p99Ms),
        1,
      )} | ` +
        `${fmt(of((r) => r.redis.replicaCpuUsPerUpdate))} | ${fmt(againstOne, 2)} | ${fmt(of((r) => r.redis.redisCpuUsPerUpdate))} (${fmt(of((r) => r.redis.redisInCommandsUsPerUpdate))}) | ` +
        `${fmt(
          of((r) => r.redis.redisRoundTripsPerUpdate),
          2,
        )} | ${fmt(
          of((r) => r.redis.redisReadsPerUpdate),
          2,
        )} | ${fmt(
          of((r) => r.redis.redisCommandsPerUpdate),
          2,
        )} | ${mix} |`,
    );
  }
  return lines.join('\n');
}
