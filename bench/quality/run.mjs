#!/usr/bin/env node
// Matching quality (not time): how many messages of a measuring set hearsay answers with the right rule, a
// wrong rule, or the fallback, and with `suggest` how many get the right rule among its suggestions. Each
// set is a rule file and messages `[rule id or null, language, text]` (null: out of scope, the fallback is
// right). Every set is measured at four settings — as written, fuzzy: auto, forms: auto, both — and each of
// those again with `suggest` (max 3), and with `suggest` asking also when contested (`when_contested: true`:
// a keyword match whose message is closer to another rule gets suggestions, the matched rule among them). Sets: bench/quality/faq (a bilingual shop desk) and
// bench/quality/clinc150 (CLINC150 made into rules by bench/quality/clinc150/make-rules.mjs).
// Options: --sets faq,clinc150, --json FILE (the figures, for BENCHMARKS.md).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { clincSet } from './clinc150/make-rules.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const { values } = parseArgs({ options: { sets: { type: 'string', default: 'faq,clinc150' }, json: { type: 'string' } } });
const dist = (file) => import(pathToFileURL(path.join(root, 'dist', file)).href);
const { loadRules } = await dist('rules/load.js');
const { decide } = await dist('engine/decide.js');
const { toEvent } = await dist('engine/events.js');

const SETTINGS = [
  { name: 'as written', header: '' },
  { name: 'fuzzy', header: 'fuzzy: auto\n' },
  { name: 'forms', header: 'forms: auto\n' },
  { name: 'fuzzy + forms', header: 'fuzzy: auto\nforms: auto\n' },
];
/** Without suggestions, with them for unmatched messages, and with them for contested matches too. */
const SUGGEST_MODES = [
  { name: '', header: '' },
  { name: ' + suggest', header: 'suggest: { when_unmatched: true, max: 3, none: fallback }\n' },
  { name: ' + suggest, contested', header: 'suggest: { when_unmatched: true, when_contested: true, max: 3, none: fallback }\n' },
];

async function load(yaml) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hearsay-quality-'));
  try {
    await writeFile(path.join(dir, 'rules.yaml'), yaml);
    const outcome = await loadRules(dir);
    if (!outcome.ruleSet) throw new Error(outcome.problems.map((p) => p.message).join('\n'));
    return outcome.ruleSet;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let updateId = 0;
function ask(ruleSet, text, language) {
  const update = {
    update_id: ++updateId,
    message: {
      message_id: updateId,
      date: 1,
      chat: { id: 7, type: 'private', first_name: 'A' },
      from: { id: 7, is_bot: false, first_name: 'A', language_code: language },
      text,
    },
  };
  const decision = decide(toEvent(update), ruleSet, { user: {}, chat: {}, flow: null }, { botUsername: 'quality_bot', now: () => 0, random: () => 0 });
  return decision;
}

const fallbackIds = (ruleSet) => new Set(ruleSet.index.fallbacks.map((rule) => rule.id));

/** Counts for one group of messages: right, wrong, fallback (or nothing), and with suggestions right-in-suggestions. */
function measure(ruleSet, messages) {
  const fallbacks = fallbackIds(ruleSet);
  const counts = { messages: messages.length, right: 0, wrong: 0, fallback: 0, suggested: 0, rightInSuggestions: 0 };
  for (const [expected, language, text] of messages) {
    const decision = ask(ruleSet, text, language);
    if (decision.suggested) {
      counts.suggested++;
      if (expected !== null && decision.suggested.includes(expected)) counts.rightInSuggestions++;
    } else if (decision.ruleId === null || fallbacks.has(decision.ruleId)) counts.fallback++;
    else if (decision.ruleId === expected) counts.right++;
    else counts.wrong++;
  }
  return counts;
}

const pct = (n, of) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)}%`);

/** A set's rule file and its groups of messages: the FAQ as written in its folder, CLINC150 made by its script. */
async function readSet(name) {
  if (name === 'clinc150') return clincSet();
  const dir = path.join(here, name);
  return {
    rules: await readFile(path.join(dir, 'rules.yaml'), 'utf8'),
    groups: JSON.parse(await readFile(path.join(dir, 'phrasings.json'), 'utf8')),
  };
}

async function measureSet(name) {
  const { rules, groups } = await readSet(name);
  const rows = [];
  for (const setting of SETTINGS) {
    for (const mode of SUGGEST_MODES) {
      const ruleSet = await load(`${setting.header}${mode.header}${rules}`);
      const row = { set: name, setting: `${setting.name}${mode.name}`, suggest: mode.header !== '', groups: {} };
      for (const [group, messages] of Object.entries(groups)) row.groups[group] = measure(ruleSet, messages);
      rows.push(row);
      process.stderr.write(`${name}: ${row.setting} done\n`);
    }
  }
  return rows;
}

function table(rows) {
  const groups = Object.keys(rows[0].groups);
  const lines = [
    `| set | settings | ${groups.map((g) => `${g}: right / wrong / fallback / right in suggestions`).join(' | ')} |`,
    `| --- | --- | ${groups.map(() => '---').join(' | ')} |`,
  ];
  for (const row of rows) {
    const cells = groups.map((g) => {
      const c = row.groups[g];
      const inScope = g !== 'outOfScope';
      return inScope
        ? `${c.right} (${pct(c.right, c.messages)}) / ${c.wrong} (${pct(c.wrong, c.messages)}) / ${c.fallback} / ${row.suggest ? `${c.rightInSuggestions} → ${pct(c.right + c.rightInSuggestions, c.messages)} right or suggested` : '—'}`
        : `answered ${c.right + c.wrong} (${pct(c.right + c.wrong, c.messages)}) / fallback ${c.fallback}${row.suggest ? ` / suggestions ${c.suggested}` : ''}`;
    });
    lines.push(`| ${row.set} | ${row.setting} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

const rows = [];
for (const name of values.sets.split(',')) rows.push(...(await measureSet(name)));
for (const name of new Set(rows.map((r) => r.set))) process.stdout.write(`${table(rows.filter((r) => r.set === name))}\n\n`);
if (values.json) await writeFile(values.json, `${JSON.stringify(rows, null, 2)}\n`);
