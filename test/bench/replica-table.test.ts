// The bench's table of replicas on one Redis: one row per Redis contestant and replica count, in the order
// run, with the run's updates and the medians over rounds of throughput, latency, the replicas' CPU (also against one replica's) and Redis's CPU, the requests to Redis and
// Redis's socket reads and the commands per update (the commands named most first), Redis's time inside the commands in brackets; runs without Redis parts are left out.
import { describe, expect, it } from 'vitest';
import { formatReplicaTable } from '../../bench/report/replica-table.mjs';

function run(replicas: number, round: number, replicaCpu: number, redis: boolean) {
  return {
    name: redis ? 'hearsay-webhook-redis' : 'hearsay-webhook',
    label: redis ? 'hearsay webhook, Redis store' : 'hearsay webhook',
    mode: 'webhook',
    ruleCount: 50,
    workload: 'messages',
    round,
    updates: 1000 * replicas,
    updatesPerSecond: 100 * replicas + round,
    p50Ms: 10,
    p99Ms: 50,
    cpuUsPerUpdate: 500,
    peakRssMb: 60,
    startupMs: 100,
    outcome: 'complete',
    correctness: { ok: true, checkedAgainst: 'rule answers' },
    replicas,
    redis: redis
      ? {
          replicas,
          replicaCpuUsPerUpdate: replicaCpu,
          redisCpuUsPerUpdate: 40,
          redisInCommandsUsPerUpdate: 25 + round,
          redisRoundTripsPerUpdate: 4,
          redisReadsPerUpdate: 0.1 * round,
          redisCommandsPerUpdate: 30.5,
          redisCommands: { evalsha: 3, hset: 6.5, mget: 1 },
        }
      : null,
  };
}

describe('the replicas table', () => {
  it('gives one row per replica count with medians over the rounds', () => {
    const table = formatReplicaTable([run(1, 1, 400, true), run(1, 2, 420, true), run(1, 3, 900, true), run(4, 1, 450, true), run(1, 1, 0, false)]);
    const rows = table.split('\n');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toContain("replicas' CPU µs/update");
    expect(rows[2]).toBe(
      '| hearsay webhook, Redis store | 1 | 1000 | 102 | 10.0 | 50.0 | 420 | 1.00 | 40 (27) | 4.00 | 0.20 | 30.50 | hset 6.50, evalsha 3.00, mget 1.00 |',
    );
    expect(rows[3]).toMatch(/^\| hearsay webhook, Redis store \| 4 \| 4000 \| 401 \| 10\.0 \| 50\.0 \| 450 \| 1\.07 \|/);
    // Without a run of one replica there is nothing to compare with.
    expect(formatReplicaTable([run(2, 1, 300, true)]).split('\n')[2]).toMatch(/\| 300 \| — \|/);
  });
});
