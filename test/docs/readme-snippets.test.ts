// README's snippets, taken from README.md itself and run: its example rules pass `check --strict`, its example
// test passes against them, and every shell line a reader would type either runs here (init, check, test, cd,
// with exit 0) or is one of the few that run for good or are the suite itself, each named below with why. A new
// snippet line that is neither fails this test, so README cannot gain a command nobody tried.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main-program.js';

const root = new URL('../..', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, text: m[2]! }));
let work: string;

/** Lines that are not run here, and why: a reader types them, but they run until stopped or are this suite. */
const NOT_RUN: Array<[RegExp, string]> = [
  [/^npm (ci|test|start|run build:binary)\b/, 'the suite itself: npm ci and the build ran before it, npm test runs it'],
  [/^export \w+=/, 'sets the environment of the command after it'],
  [/(^|\s)(node \S*dist\/hearsay\.cjs|hearsay) (start|run)\b/, 'runs a bot until stopped (test/start and test/e2e run it)'],
];

/** A shell line as a reader types it, without its comment. */
const command = (line: string) => line.replace(/\s+#.*$/, '').trim();

/** Splits `a && b && c` and keeps the parts up to the first that is not run here. */
function runnable(line: string): { run: string[]; skipped: string | undefined } {
  const run: string[] = [];
  for (const part of command(line).split(/\s+&&\s+/)) {
    if (NOT_RUN.some(([pattern]) => pattern.test(part))) return { run, skipped: part };
    run.push(part);
  }
  return { run, skipped: undefined };
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'hearsay-readme-'));
  symlinkSync(join(root, 'dist'), join(work, 'dist'));
  symlinkSync(join(root, 'schemas'), join(work, 'schemas'));
  mkdirSync(join(work, 'rules'));
  mkdirSync(join(work, 'tests'));
  const rules = blocks.filter((b) => b.lang === 'yaml' && b.text.includes('schemas/rules.schema.json'));
  const tests = blocks.filter((b) => b.lang === 'yaml' && b.text.includes('schemas/tests.schema.json'));
  expect(rules).toHaveLength(1);
  expect(tests).toHaveLength(1);
  writeFileSync(join(work, 'rules', 'readme.yaml'), rules[0]!.text);
  writeFileSync(join(work, 'tests', 'readme.yaml'), tests[0]!.text);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("README's snippets", () => {
  it('every shell line runs with exit 0 or is named as one that runs for good, in order, block by block', () => {
    const ran: string[] = [];
    for (const block of blocks.filter((b) => b.lang === 'sh')) {
      const lines = block.text.split('\n').filter((line) => command(line) !== '');
      const script: string[] = ['set -e'];
      for (const line of lines) {
        const { run, skipped } = runnable(line);
        script.push(...run);
        ran.push(...run);
        if (skipped === undefined) continue;
        expect(
          NOT_RUN.some(([pattern]) => pattern.test(skipped)),
          skipped,
        ).toBe(true);
      }
      const result = spawnSync('sh', ['-c', script.join('\n')], { cwd: work, encoding: 'utf8', timeout: 60_000 });
      expect(result.status, `${block.text}\n${result.stdout}${result.stderr}`).toBe(0);
    }
    // What ran, at least: both ways to a bot of one's own, and check and test on README's examples.
    expect(ran).toEqual(
      expect.arrayContaining([
        'node dist/hearsay.cjs init my-bot',
        'cd my-bot',
        'node dist/hearsay.cjs init weather_helper_bot',
        'cd weather_helper_bot',
        'node dist/hearsay.cjs check rules/',
        'node dist/hearsay.cjs test',
      ]),
    );
  });

  it("the CI steps run on README's examples (npx hearsay is the package's bin, dist/hearsay.cjs)", () => {
    const ci = blocks.filter((b) => b.lang === 'yaml' && /^- run: /m.test(b.text));
    expect(ci).toHaveLength(1);
    const steps = [...ci[0]!.text.matchAll(/^- run: (.*)$/gm)].map((m) => command(m[1]!)).filter((step) => step !== 'npm ci');
    expect(steps).toEqual(['npx hearsay check --strict rules/', 'npx hearsay test --junit test-results.xml']);
    for (const step of steps) {
      const result = spawnSync('sh', ['-c', step.replace(/^npx hearsay /, 'node dist/hearsay.cjs ')], { cwd: work, encoding: 'utf8' });
      expect(result.status, `${step}\n${result.stdout}${result.stderr}`).toBe(0);
    }
    expect(readFileSync(join(work, 'test-results.xml'), 'utf8')).toContain('<testcase');
  });

  it('the command list names every command, and only commands that exist', () => {
    const list = blocks.find((b) => b.lang === 'text' && b.text.startsWith('hearsay run'));
    expect(list).toBeDefined();
    const listed = [...list!.text.matchAll(/^hearsay (\w+)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
    const commands = buildProgram()
      .commands.map((c) => c.name())
      .filter((name) => name !== 'help');
    expect([...listed].sort()).toEqual([...commands].sort());
  });
});
