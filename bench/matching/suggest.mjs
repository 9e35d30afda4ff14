#!/usr/bin/env node
// The cost of "did you mean" (`suggest:`) at scale: rule sets of N keyword rules (made-up words of 6 to 12
// letters; each rule two keywords and two examples of four words drawn from a shared pool, so common words
// occur in many rules as in real rules), and µs per unmatched message for the offer (scoring through the
// index, conditions, the buttons), for a message close to one rule, one with a typo of a rule word, and one
// close to nothing (the fallback); and µs per message a rule matches by its keyword, with `when_contested`
// (each such match scored against the index) and without. Also load time with and without the block. CPU time of this process
// (process.cpuUsage), not wall time, so other work on the machine counts less. Options: --sizes 50,1000,10000,
// --messages N per kind.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../contestants/registry.mjs';
import { madeUpWords } from './made-up-words.mjs';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '50,1000,10000' }, messages: { type: 'string', default: '2000' } } });
const dist = (file) => import(pathToFileURL(path.join(REPO_ROOT, 'dist', file)).href);
const { loadRuleSet } = await dist('rules/load.js');
const { decide } = await dist('engine/decide.js');
const { toEvent } = await dist('engine/events.js');

// The same words every run (made-up-words.mjs).
const { random, word } = madeUpWords(20_261_126);
const pick = (list) => list[Math.floor(random() * list.length)];
const swap = (w) => {
  const i = 1 + Math.floor(random() * (w.length - 3));
  return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
};

let updateId = 0;
function offer(ruleSet, text) {
  updateId++;
  const update = {
    update_id: updateId,
    message: { message_id: updateId, date: 1, chat: { id: 1, type: 'private', first_name: 'A' }, from: { id: 1, is_bot: false, first_name: 'A' }, text },
  };
  return decide(toEvent(update), ruleSet, { user: {}, chat: {}, flow: null }, { botUsername: 'bench_bot', now: () => 0 });
}
function cpuEach(ruleSet, texts) {
  const start = process.cpuUsage();
  let offered = 0;
  for (const text of texts) if (offer(ruleSet, text).suggested) offered++;
  const used = process.cpuUsage(start);
  return { us: (used.user + used.system) / texts.length, offered };
}

/** Loads rule files (a list of texts, written in that order: a file holds at most 1 MB). */
async function load(files) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hearsay-suggest-bench-'));
  try {
    for (const [i, yaml] of files.entries()) await writeFile(path.join(dir, `${String(i).padStart(3, '0')}.yaml`), yaml);
    const started = performance.now();
    const ruleSet = await loadRuleSet(dir);
    return { ruleSet, ms: performance.now() - started };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await load(['rules:\n  - id: w\n    keywords: [warming]\n    reply: "w"\n']);
const rows = [];
const n = Number(values.messages);
for (const size of values.sizes.split(',').map(Number)) {
  const pool = Array.from({ length: 200 }, word);
  const rules = Array.from({ length: size }, () => {
    const own = [word(), word()];
    const example = () => [pick(own), pick(pool), pick(pool), pick(pool)].join(' ');
    return { own, examples: [example(), example()] };
  });
  const yaml = rules.map((r, i) => `  - id: r${i}\n    keywords: [${r.own.join(', ')}]\n    examples: ["${r.examples.join('", "')}"]\n    reply: "${i}"`);
  const files = [];
  for (let i = 0; i < yaml.length; i += 1000) files.push(['rules:', ...yaml.slice(i, i + 1000), ''].join('\n'));
  files.push('rules:\n  - id: fb\n    fallback: true\n    reply: "?"\n');
  const plain = await load(files);
  const suggesting = await load([`suggest: { when_unmatched: true, max: 3, none: fallback }\n${files[0]}`, ...files.slice(1)]);
  const contesting = await load([`suggest: { when_unmatched: true, when_contested: true, max: 3, none: fallback }\n${files[0]}`, ...files.slice(1)]);
  // Close to a rule: two of its example words (not its keywords, so no rule matches) and a word of the pool.
  const close = Array.from({ length: n }, () => {
    const r = pick(rules);
    const words = r.examples[0].split(' ');
    return `please ${words[1]} ${words[2]} ${swap(r.own[1])}x`;
  });
  const typo = Array.from({ length: n }, () => `hello ${swap(pick(rules).own[0])}`);
  const nothing = Array.from({ length: n }, () => `${word()} ${word()} ${word()}`);
  // A keyword of one rule with another rule's words: a rule matches, and the other may be closer (contested).
  const keyword = Array.from({ length: n }, () => {
    const other = pick(rules);
    return `${pick(rules).own[0]} ${other.examples[0].split(' ').slice(1).join(' ')} ${other.own[1]}`;
  });
  for (const texts of [close, typo, nothing, keyword]) cpuEach(suggesting.ruleSet, texts.slice(0, 500)); // warm up
  cpuEach(contesting.ruleSet, keyword.slice(0, 500));
  rows.push({
    size,
    loadMs: suggesting.ms,
    plainLoadMs: plain.ms,
    close: cpuEach(suggesting.ruleSet, close),
    typo: cpuEach(suggesting.ruleSet, typo),
    nothing: cpuEach(suggesting.ruleSet, nothing),
    plainNothing: cpuEach(plain.ruleSet, nothing),
    contested: cpuEach(contesting.ruleSet, keyword),
    uncontested: cpuEach(suggesting.ruleSet, keyword),
  });
}
const fmt = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
process.stdout.write(
  '| rules | close to a rule µs (offered) | a typo µs (offered) | close to nothing µs (offered) / without suggest | a keyword match µs, when_contested (offered) / without | load ms (suggest / without) |\n| --- | --- | --- | --- | --- | --- |\n',
);
for (const r of rows) {
  const cell = (c) => `${fmt(c.us)} (${Math.round((100 * c.offered) / n)}%)`;
  process.stdout.write(
    `| ${r.size} | ${cell(r.close)} | ${cell(r.typo)} | ${cell(r.nothing)} / ${fmt(r.plainNothing.us)} | ${cell(r.contested)} / ${fmt(r.uncontested.us)} | ${r.loadMs.toFixed(0)} / ${r.plainLoadMs.toFixed(0)} |\n`,
  );
}
