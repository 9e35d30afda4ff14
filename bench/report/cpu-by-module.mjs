// Summarises a V8 .cpuprofile of the bundled CLI (dist/hearsay-bundle.cjs) by source module: the bundle marks each
// module with a `// src/…` or `// node_modules/…` line, so a sample's line says which module it ran in (a native
// frame, such as a socket write, counts for its nearest caller with a source). Self time
// per module (top N) and per group (hearsay's Redis store, the Redis client, HTTP, the rest), idle left out:
// what BENCHMARKS.md's profile of a replica's coordination is made from.
// Usage: node bench/report/cpu-by-module.mjs PROFILE BUNDLE [N]
import { readFileSync } from 'node:fs';

const [profileFile, bundleFile, topArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(profileFile, 'utf8'));
const starts = [];
readFileSync(bundleFile, 'utf8')
  .split('\n')
  .forEach((line, i) => {
    const match = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(line);
    if (match) starts.push([i, match[1]]);
  });

/** The module a (0-based) line of the bundle belongs to. */
function moduleAt(line) {
  let low = 0;
  let high = starts.length - 1;
  let found = '(bundle prologue)';
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (starts[mid][0] <= line) {
      found = starts[mid][1];
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

const GROUPS = [
  ['hearsay: Redis store and turns', /^src\/store\/redis\//],
  ['Redis client (ioredis, its parser)', /^node_modules\/(ioredis|redis-parser|@ioredis|cluster-key-slot|denque|standard-as-callback|redis-errors)\//],
  [
    'HTTP: webhook server and Bot API client',
    /^(node_modules\/(fastify|find-my-way|light-my-request|avvio|@fastify|secure-json-parse|fast-json-stringify|undici)\/|src\/(api|ingress)\/|node:(_http|http|https|net|_tls))/,
  ],
  ['node internals (streams, timers, events, …)', /^node:/],
  ['garbage collection', /^\(garbage collector\)$/],
  ['the rest of hearsay (pipeline, engine, matching, log, metrics)', /^src\//],
  ['other libraries', /^node_modules\//],
];

const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
/** A native frame (a socket write, a string encoding: no URL) counts for the nearest caller that has one. */
function attributed(id) {
  for (let at = id; at !== undefined; at = parentOf.get(at)) if (byNode.get(at).callFrame.url) return byNode.get(at).callFrame;
  return byNode.get(id).callFrame;
}
const selfTime = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const name = byNode.get(id).callFrame.functionName;
  if (name === '(idle)' || name === '(program)') return;
  const frame = name === '(garbage collector)' ? byNode.get(id).callFrame : attributed(id);
  const dt = profile.timeDeltas[i] ?? 0;
  const module = frame.url.endsWith(bundleFile.split('/').pop()) ? moduleAt(frame.lineNumber) : frame.url || frame.functionName;
  selfTime.set(module, (selfTime.get(module) ?? 0) + dt);
  total += dt;
});
const pct = (us) => `${((100 * us) / total).toFixed(1)}%`;
console.log(`sampled ${(total / 1e6).toFixed(2)} s of CPU (idle left out)`);
const groups = new Map();
for (const [module, us] of selfTime) {
  const group = GROUPS.find(([, pattern]) => pattern.test(module))?.[0] ?? 'other';
  groups.set(group, (groups.get(group) ?? 0) + us);
}
for (const [group, us] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`${pct(us).padStart(6)}  ${group}`);
console.log('');
for (const [module, us] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25))) console.log(`${pct(us).padStart(6)}  ${module}`);
