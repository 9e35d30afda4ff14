// `hearsay test [paths]`: runs conversation tests (tests/*.yaml) against the rules in-process and prints
// each failure with the step's file:line and a diff. Exit 0 all passed, 1 a test failed (or the rules have
// errors), 2 a usage error or a problem in a test file.
import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { junitReport } from '../../conversation-tests/junit.js';
import { DEFAULT_MAX_TEST_FILE_BYTES } from '../../conversation-tests/load-tests.js';
import { runSession, type SessionOutcome } from '../../conversation-tests/test-session.js';
import { updateTestFiles } from '../../conversation-tests/update-tests.js';
import type { TestResult } from '../../conversation-tests/run-tests.js';
import { displayPath, plural } from '../display-path.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE, USAGE_EXIT_CODE } from '../../errors/exit-codes.js';

interface TestOptions {
  rules: string;
  junit?: string;
  update?: boolean;
  coverage?: boolean;
  maxFileBytes: number;
}

function parseBytes(value: string): number {
  const bytes = Number(value);
  if (!/^\d+$/.test(value) || bytes < 1 || !Number.isSafeInteger(bytes)) throw new InvalidArgumentError('It must be a whole number of bytes, at least 1.');
  return bytes;
}

export function testCommand(): Command {
  return new Command('test')
    .description('run conversation tests (what the bot must answer, step by step) against the rules')
    .argument('[paths...]', 'test files or directories of *.yaml / *.yml files', ['tests/'])
    .option('--rules <path>', 'the rules to test, for files without their own `rules:`', 'rules/')
    .option('--junit <file>', 'also write the results as JUnit XML (for CI)')
    .option('--update', "record the bot's actual replies into the failing and empty `expect:`s of the test files (review the change)")
    .option('--coverage', 'list the rules, flows, flow steps and endings, and buttons no test reached')
    .addOption(
      new Option('--max-file-bytes <bytes>', 'the largest test file taken; a larger one is a problem in the test files')
        .default(DEFAULT_MAX_TEST_FILE_BYTES)
        .argParser(parseBytes),
    )
    .addHelpText(
      'after',
      "\nEach failure is printed with the step's path:line:column and a diff (- expected, + actual). The format: docs/testing.md.\nExit codes: 0 all passed, 1 a test failed or the rules have errors, 2 usage error or a problem in a test file.",
    )
    .action(async (paths: string[], options: TestOptions, command: Command) => {
      const missing = paths.find((p) => !existsSync(p));
      if (missing) return usage(`${missing}: no such file or directory`);
      // The default rules/ is needed only by a test file without its own `rules:` (load-tests says which one).
      if (command.getOptionValueSource('rules') === 'cli' && !existsSync(options.rules)) return usage(`--rules ${options.rules}: no such file or directory`);
      const outcome = await runSession({ paths, rules: options.rules, keepGoing: options.update === true, maxFileBytes: options.maxFileBytes });
      if (outcome.testProblems.length > 0) {
        for (const problem of outcome.testProblems) process.stdout.write(`${problem.format(displayPath(problem.file))}\n`);
        process.stdout.write(`${plural(outcome.testProblems.length, 'problem')} in the test files; no test ran\n`);
        process.exitCode = USAGE_EXIT_CODE;
        return;
      }
      for (const problem of outcome.ruleProblems) process.stdout.write(`${problem.format(displayPath(problem.file))}\n`);
      for (const result of outcome.results) if (result.failure) process.stdout.write(describeFailure(result));
      if (options.coverage) process.stdout.write(coverageText(outcome));
      if (options.update) await update(outcome);
      if (options.junit) await writeFile(options.junit, junitReport(outcome.results, process.cwd()));
      process.stdout.write(summary(outcome));
      const failed = outcome.results.some((r) => r.failure) || outcome.ruleProblems.length > 0;
      process.exitCode = failed ? FAILURE_EXIT_CODE : OK_EXIT_CODE;
    });
}

function usage(message: string): void {
  process.stderr.write(`hearsay test: ${message}\n`);
  process.exitCode = USAGE_EXIT_CODE;
}

function describeFailure(result: TestResult): string {
  const { step, message, diff } = result.failure!;
  const where = `${displayPath(step.position.file)}:${step.position.line}:${step.position.column}`;
  const lines = [`FAIL ${where}: ${result.test.name}, step ${step.index + 1} (${step.label}): ${message}`, ...diff.map((line) => `    ${line}`), ''];
  return `${lines.join('\n')}\n`;
}

function coverageText(outcome: SessionOutcome): string {
  const lines: string[] = [];
  for (const { ruleSet, tracker } of outcome.coverage.values()) {
    const { items, unreached } = tracker.report(ruleSet);
    lines.push(`coverage: ${items.length - unreached.length} of ${items.length} reached`);
    for (const item of unreached) lines.push(`  not reached: ${item.kind} ${item.id} (${displayPath(item.file)}:${item.line}:${item.column})`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

async function update(outcome: SessionOutcome): Promise<void> {
  const changed = await updateTestFiles(outcome.results);
  for (const file of changed) process.stdout.write(`updated ${displayPath(file.file)}: ${plural(file.steps, 'step')} recorded; review the change\n`);
}

function summary(outcome: SessionOutcome): string {
  const failed = outcome.results.filter((r) => r.failure).length;
  const steps = outcome.results.reduce((sum, r) => sum + r.steps.length, 0);
  const ms = outcome.results.reduce((sum, r) => sum + r.durationMs, 0);
  const tests = outcome.files.reduce((sum, f) => sum + f.tests.length, 0);
  const parts = [plural(outcome.files.length, 'file'), plural(tests, 'test'), plural(steps, 'step'), `${failed} failed`];
  const notRun = tests - outcome.results.length;
  if (notRun > 0) parts.push(`${notRun} not run (the rules have errors)`);
  return `${parts.join(', ')} (${Math.round(ms)} ms)\n`;
}
