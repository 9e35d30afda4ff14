#!/usr/bin/env node
// Typo-tolerant matching at scale: rule sets of N keyword rules (made-up words of 6 to 12 letters, fuzzy: auto)
// and µs per message for an exact keyword, a keyword with one typo (two for 10+ letters), and a miss, with
// hearsay's matchTolerant (exact index, then the deletion-neighbourhood index) and the exact matchMessage alone.
// Also load time with fuzzy on and, for comparison, the same rules with fuzzy off, and the size of the
// fuzzy index (its entries, and the heap it takes, built again alone over the rule set's vocabulary). Options: --sizes 50,1000,10000 (each size in this process), --messages N per kind.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../contestants/registry.mjs';
import { madeUpWords } from './made-up-words.mjs';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '50,1000,10000' }, messages: { type: 'string', default: '5000' } } });
const dist = (file) => import(pathToFileURL(path.join(REPO_ROOT, 'dist', file)).href);
const { loadRuleSet } = await dist('rules/load.js');
const { matchMessage } = await dist('engine/match.js');
const { matchTolerant } = await dist('engine/reach.js');
const { buildFuzzyIndex } = await dist('engine/fuzzy.js');

// The same words every run (made-up-words.mjs).
const { random, word } = madeUpWords(20_261_123);
function typo(w) {
  const edits = w.length >= 10 ? 2 : 1;
  let out = w;
  for (let e = 0; e < edits; e++) {
    const i = 1 + Math.floor(random() * (out.length - 2));
    out = out.slice(0, i) + out[i + 1] + out[i] + out.slice(i + 2); // an adjacent swap
  }
  return out;
}
const message = (text) => ({
  message_id: 1,
  date: 1,
  chat: { id: 1, type: 'private', first_name: 'A' },
  from: { id: 1, is_bot: false, first_name: 'A' },
  text,
});
function timeEach(texts, match) {
  const start = process.hrtime.bigint();
  let hits = 0;
  for (const text of texts) if (match(message(text))?.rule.trigger.kind === 'keywords') hits++;
  return { us: Number(process.hrtime.bigint() - start) / 1000 / texts.length, hits };
}

// One small load first, so the first measured load does not also pay for compiling hearsay's own code.
{
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hearsay-fuzzy-bench-'));
  await writeFile(path.join(dir, 'rules.yaml'), 'fuzzy: auto\nrules:\n  - id: w\n    keywords: [warming, upwards]\n    reply: "w"\n');
  await loadRuleSet(dir);
  await rm(dir, { recursive: true, force: true });
}
if (!globalThis.gc) process.stderr.write('run with node --expose-gc for heap figures that exclude garbage\n');

const rows = [];
for (const size of values.sizes.split(',').map(Number)) {
  const words = new Set();
  while (words.size < size) words.add(word());
  const list = [...words];
  const loaded = {};
  for (const mode of ['off', 'auto']) {
    const yaml = [
      `fuzzy: ${mode}`,
      'rules:',
      ...list.map((w, i) => `  - id: r${i}\n    keywords: [${w}]\n    reply: "${i}"`),
      '  - id: fb\n    fallback: true\n    reply: "?"',
      '',
    ].join('\n');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'hearsay-fuzzy-bench-'));
    await writeFile(path.join(dir, 'rules.yaml'), yaml);
    const started = performance.now();
    const ruleSet = await loadRuleSet(dir);
    const loadMs = performance.now() - started;
    await rm(dir, { recursive: true, force: true });
    loaded[mode] = { ruleSet, loadMs };
  }
  const { ruleSet, loadMs } = loaded.auto;
  const offLoadMs = loaded.off.loadMs;
  delete loaded.off;
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  // The vocabulary maps each word to the rules it leads to; the index is built from (word, rule, language) entries.
  const rebuilt = buildFuzzyIndex(
    [...ruleSet.index.fuzzy.vocabulary].flatMap(([word, owners]) => owners.rules.map((rule) => ({ word, rule, language: null }))),
  );
  globalThis.gc?.();
  const indexMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const indexEntries = rebuilt.deletions.size;
  const n = Number(values.messages);
  const pick = () => list[Math.floor(random() * list.length)];
  const exact = Array.from({ length: n }, () => `please ${pick()} now`);
  const typos = Array.from({ length: n }, () => `please ${typo(pick())} now`);
  const misses = Array.from({ length: n }, () => `nothing here at all ${word()}`);
  const tolerant = (m) => matchTolerant(m, ruleSet, 'bench_bot', () => true);
  const exactOnly = (m) => matchMessage(m, ruleSet, 'bench_bot');
  for (const texts of [exact, typos, misses]) timeEach(texts.slice(0, 1000), tolerant); // warm up
  timeEach(misses.slice(0, 1000), exactOnly);
  const row = {
    size,
    loadMs,
    offLoadMs,
    indexEntries,
    indexMb,
    exact: timeEach(exact, tolerant),
    typo: timeEach(typos, tolerant),
    miss: timeEach(misses, tolerant),
    exactOnlyMiss: timeEach(misses, exactOnly),
  };
  rows.push(row);
}
const fmt = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
process.stdout.write(
  '| rules | exact keyword µs | typo µs (found) | miss µs (tolerant / exact only) | load ms (fuzzy / off) | fuzzy index entries / heap MB |\n| --- | --- | --- | --- | --- | --- |\n',
);
for (const r of rows) {
  process.stdout.write(
    `| ${r.size} | ${fmt(r.exact.us)} | ${fmt(r.typo.us)} (${Math.round((100 * r.typo.hits) / Number(values.messages))}%) | ${fmt(r.miss.us)} / ${fmt(r.exactOnlyMiss.us)} | ${r.loadMs.toFixed(0)} / ${r.offLoadMs.toFixed(0)} | ${r.indexEntries.toLocaleString('en-US')} / ${r.indexMb.toFixed(1)} |\n`,
  );
}
