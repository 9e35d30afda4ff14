// Throughput and latency of one run, from the stand-in's timestamps: latency is the
// time from an update being handed to the bot (getupdates answer or webhook POST) to
// its reply arriving; throughput counts replies over first hand-over to last reply.

export function percentile(sortedValues, p) {
  if (sortedValues.length === 0) return NaN;
  const rank = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil((p / 100) * sortedValues.length) - 1));
  return sortedValues[rank];
}

/** @returns {{ updatesPerSecond:number, p50Ms:number, p99Ms:number, wallMs:number }} */
export function summariseTiming(handedAt, replies, pairs) {
  let first = 0n;
  for (const at of handedAt) if (at !== 0n && (first === 0n || at < first)) first = at;
  let last = 0n;
  for (const r of replies) if (r.at > last) last = r.at;
  const wallMs = first === 0n || last === 0n ? NaN : Number(last - first) / 1e6;
  const latencies = pairs.map((p) => Number(p.at - handedAt[p.index]) / 1e6).sort((a, b) => a - b);
  return {
    updatesPerSecond: wallMs > 0 ? (replies.length / wallMs) * 1000 : 0,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    wallMs,
  };
}
