// Summarises a V8 .cpuprofile (from node --cpu-prof): self time per function, top N,
// optionally only for samples taken inside a given function (e.g. matchMessage), so
// BENCHMARKS.md can say where the time goes.
// Usage: node bench/report/cpu-profile-summary.mjs FILE [N] [--within NAME]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const withinAt = args.indexOf('--within');
const within = withinAt === -1 ? null : args.splice(withinAt, 2)[1];
const [file, topArg] = args;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

function inside(id) {
  for (let at = id; at !== undefined; at = parent.get(at)) if (byId.get(at).callFrame.functionName === within) return true;
  return false;
}

const selfTime = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  if (within && !inside(id)) return;
  const frame = byId.get(id).callFrame;
  const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-3).join('/')}:${frame.lineNumber + 1}`;
  const dt = profile.timeDeltas[i] ?? 0;
  selfTime.set(key, (selfTime.get(key) ?? 0) + dt);
  total += dt;
});
process.stdout.write(`${within ? `inside ${within}: ` : ''}${(total / 1000).toFixed(0)} ms sampled\n`);
for (const [key, t] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 20))) {
  process.stdout.write(`${(t / 1000).toFixed(0).padStart(7)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${key}\n`);
}
