// Types of replica-table.mjs for the TypeScript tests (the bench itself is plain JavaScript).
import type { BenchResult } from './table.mjs';

/** A Redis contestant's parts per update answered (see redis-parts.mjs). */
export interface RedisParts {
  replicas: number;
  replicaCpuUsPerUpdate: number;
  redisCpuUsPerUpdate: number;
  redisRoundTripsPerUpdate: number;
  redisCommandsPerUpdate: number;
  redisCommands: Record<string, number>;
}

export function formatReplicaTable(results: ReadonlyArray<BenchResult & { replicas?: number; redis?: RedisParts | null }>): string;
