// Throughput and latency of one run, from the stand-in's timestamps: latency is the
// time from an update being handed to the bot (getupdates answer or webhook POST) to
// its reply arriving; throughput counts replies over first hand-over to last reply.

export function percentile(sortedValues, p) {
  if (sortedValues.length === 0) return NaN;
  const rank = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil((p / 100) * sortedValues.length) - 1));
  return sortedValues[rank];
}

/**
 * `fromIndex` (a paced run, `--rate`): only the updates from that one on count, latency and throughput both, so
 * that the process's warm-up (a backlog while its code is still cold) stays out of the figures at a steady load.
 * @returns {{ updatesPerSecond:number, p50Ms:number, p99Ms:number, wallMs:number }}
 */
export function summariseTiming(handedAt, replies, pairs, fromIndex = 0) {
  let first = 0n;
  for (let i = fromIndex; i < handedAt.length; i += 1) {
    const at = handedAt[i];
    if (at !== 0n && (first === 0n || at < first)) first = at;
  }
  const counted = fromIndex === 0 ? pairs : pairs.filter((p) => p.index >= fromIndex);
  let last = 0n;
  for (const r of fromIndex === 0 ? replies : counted) if (r.at > last) last = r.at;
  const wallMs = first === 0n || last === 0n ? NaN : Number(last - first) / 1e6;
  const latencies = counted.map((p) => Number(p.at - handedAt[p.index]) / 1e6).sort((a, b) => a - b);
  const answered = fromIndex === 0 ? replies.length : counted.length;
  return {
    updatesPerSecond: wallMs > 0 ? (answered / wallMs) * 1000 : 0,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    wallMs,
  };
}
