#!/usr/bin/env node
// `npm run bench [-- options]`: the contestants (bench/run.mjs, given these options), then
// matching at scale (bench/matching/run.mjs; with --quick only up to 1,000 rules), then typo-tolerant
// matching (bench/matching/fuzzy.mjs; with --quick only up to 1,000 rules), the cost of suggestions
// (bench/matching/suggest.mjs; the same), and matching quality (bench/quality/run.mjs: the shop desk and
// CLINC150, right and wrong answers, fallbacks and suggestions; --quick: the shop desk only), so that
// `npm run bench -- --quick` is a smoke run of the whole bench in about a minute.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const steps = [
  ['run.mjs', args],
  [path.join('matching', 'run.mjs'), quick ? ['--sizes', '10,100,1000'] : []],
  // --expose-gc: its heap figures are measured after a forced collection.
  [path.join('matching', 'fuzzy.mjs'), quick ? ['--sizes', '50,1000', '--messages', '1000'] : [], ['--expose-gc']],
  [path.join('matching', 'suggest.mjs'), quick ? ['--sizes', '50,1000', '--messages', '500'] : []],
  [path.join('quality', 'run.mjs'), quick ? ['--sets', 'faq'] : []],
];
// --help is the contestants step's; the matching step would otherwise start a full run after it.
for (const [script, scriptArgs, nodeArgs = []] of args.includes('--help') ? steps.slice(0, 1) : steps) {
  const { status, signal } = spawnSync(process.execPath, [...nodeArgs, path.join(here, script), ...scriptArgs], { stdio: 'inherit' });
  if (status !== 0) {
    process.exitCode = status ?? 1;
    if (signal) process.stderr.write(`bench: ${script} ended by ${signal}\n`);
    break;
  }
}
