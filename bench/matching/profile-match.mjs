// Profiles hearsay's indexed matcher alone on one rule-set size and one message kind
// (or, with --kind load, three full loads of the rule files):
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/matching/profile-match.mjs --size 10000 --kind command
// then: node bench/report/cpu-profile-summary.mjs /tmp/prof/*.cpuprofile 20 --within matchMessage
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildNeutralRules } from '../workload/neutral-rules.mjs';
import { createPrng } from '../workload/prng.mjs';
import { BENCH_BOT, buildMessage, messageFor } from '../workload/updates.mjs';
import { writeHearsayRules } from '../workload/hearsay-yaml.mjs';
import { loadHearsayEngine } from './hearsay-engine.mjs';
import { nsPerCall } from './timing.mjs';

const { values } = parseArgs({
  options: { size: { type: 'string', default: '10000' }, kind: { type: 'string', default: 'command' }, ms: { type: 'string', default: '3000' } },
});
const size = Number(values.size);
const engine = await loadHearsayEngine();
const rules = buildNeutralRules(size);
const dir = await mkdtemp(path.join(os.tmpdir(), 'hearsay-prof-'));
try {
  await writeHearsayRules(rules, dir);
  if (values.kind === 'load') {
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      await engine.loadRuleSet(dir);
      process.stdout.write(`${size} rules: load ${(performance.now() - started).toFixed(0)} ms\n`);
    }
    process.exit(0);
  }
  const ruleSet = await engine.loadRuleSet(dir);
  const prng = createPrng(7);
  const candidates = rules.filter((r) => r.kind === values.kind);
  const messages = Array.from({ length: 500 }, (_, i) => buildMessage(messageFor(values.kind, prng.pick(candidates), prng), 100000 + (i % 200), i + 1));
  const result = nsPerCall((m) => engine.matchMessage(m, ruleSet, BENCH_BOT.username), messages, { budgetMs: Number(values.ms) });
  process.stdout.write(`${size} rules, ${values.kind}: ${(result.nsPerCall / 1000).toFixed(2)} µs per message over ${result.calls} calls\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
