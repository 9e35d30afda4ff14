// Measures one rule-set size in its own process (so RSS is this size's alone): load and
// reload time from YAML on disk, RSS, and match time per message by trigger kind for
// hearsay's indexed matcher, its linear scan, and the bench's independent reference scan.
// The rule files are written beforehand (by run.mjs) so writing them does not inflate RSS.
// Prints one JSON object on stdout. Run with --expose-gc.
import { parseArgs } from 'node:util';
import { buildNeutralRules } from '../workload/neutral-rules.mjs';
import { createPrng } from '../workload/prng.mjs';
import { createReferenceMatcher } from '../workload/reference-matcher.mjs';
import { BENCH_BOT, buildMessage, messageFor } from '../workload/updates.mjs';
import { loadHearsayEngine } from './hearsay-engine.mjs';
import { nsPerCall } from './timing.mjs';

const KINDS = ['command', 'text', 'keywords', 'pattern', 'fallback'];
const { values } = parseArgs({
  options: { size: { type: 'string' }, dir: { type: 'string' }, files: { type: 'string' }, messages: { type: 'string', default: '500' } },
});
const size = Number(values.size);
const rulesDir = values.dir;
const perKind = Number(values.messages);

function rssMb() {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20 };
}

const engine = await loadHearsayEngine();
{
  const before = rssMb();
  let started = performance.now();
  let ruleSet = await engine.loadRuleSet(rulesDir);
  const firstLoadMs = performance.now() - started;
  started = performance.now();
  ruleSet = await engine.loadRuleSet(rulesDir);
  const reloadMs = performance.now() - started;
  const after = rssMb();
  const rules = buildNeutralRules(size);

  const reference = createReferenceMatcher(rules, BENCH_BOT.username);
  const prng = createPrng(7);
  const byKind = Map.groupBy ? Map.groupBy(rules, (r) => r.kind) : new Map(KINDS.map((k) => [k, rules.filter((r) => r.kind === k)]));
  const perKindResults = {};
  let disagreements = 0;
  const disagreementExamples = [];
  for (const kind of KINDS) {
    const candidates = byKind.get(kind) ?? [];
    if (kind !== 'fallback' && candidates.length === 0) continue;
    const messages = Array.from({ length: perKind }, (_, i) =>
      buildMessage(messageFor(kind, kind === 'fallback' ? null : prng.pick(candidates), prng), 100000 + (i % 200), i + 1),
    );
    // Same answer from the index as from the independent reference (a subset on huge sets: the reference is slow).
    const checked = size >= 100_000 ? messages.slice(0, 50) : messages;
    for (const message of checked) {
      const got = engine.matchMessage(message, ruleSet, BENCH_BOT.username)?.rule.id ?? null;
      const want = reference.match(message.text)?.rule.id ?? null;
      if (got !== want) {
        disagreements += 1;
        if (disagreementExamples.length < 5) disagreementExamples.push(`${JSON.stringify(message.text)}: hearsay ${got}, reference ${want}`);
      }
    }
    const indexed = nsPerCall((m) => engine.matchMessage(m, ruleSet, BENCH_BOT.username), messages, { budgetMs: 200 });
    const linear = nsPerCall((m) => engine.matchLinear(m, ruleSet, BENCH_BOT.username), messages, { budgetMs: 300, minCalls: 5 });
    const naive = nsPerCall((m) => reference.match(m.text), messages, { budgetMs: 300, minCalls: 5 });
    perKindResults[kind] = { indexedNs: indexed.nsPerCall, linearScanNs: linear.nsPerCall, referenceScanNs: naive.nsPerCall };
  }
  process.stdout.write(
    `${JSON.stringify({
      size,
      files: Number(values.files),
      firstLoadMs,
      reloadMs,
      rssBeforeMb: before.rss,
      rssAfterMb: after.rss,
      heapRulesMb: after.heap - before.heap,
      perKind: perKindResults,
      disagreements,
      disagreementExamples,
      ruleCount: ruleSet.rules?.length ?? ruleSet.ruleCount,
    })}\n`,
  );
}
