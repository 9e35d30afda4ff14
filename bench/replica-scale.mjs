// How `bench/run.mjs --replicas` sizes the runs of a replicated contestant (the Redis store): its updates, and
// with --rate its arrival rate, either for all its replicas together or for each of them.

/**
 * `base` for a run of `replicas` replicas (undefined: a contestant that is not replicated): with `each`, times
 * the replicas, so that every replica gets what one replica alone gets; with `total`, as it is.
 * - Updates (`--replica-updates`, `each` by default): a replica's warm-up (V8 compiling the hot code) is a cost
 *   per process. On a fixed total of 20,000 updates, each of four replicas spent the first ~6,000 updates it
 *   saw (24,000 in all, past the end of the run's steady window) above its steady CPU per update, where one
 *   replica alone was steady after ~4,000 (BENCHMARKS.md, "Issue 38, sixth pass").
 * - Rate (`--replica-rate`, `total` by default): a process's CPU per update depends on its load (at a higher
 *   load each pass of its event loop and each request to Redis serves more updates), so the cost of
 *   coordination is seen by comparing replica counts at the same load per replica.
 * @param {number} base
 * @param {number | undefined} replicas
 * @param {'each' | 'total'} how
 * @returns {number}
 */
export function scaledForReplicas(base, replicas, how) {
  return replicas !== undefined && how === 'each' ? base * replicas : base;
}
