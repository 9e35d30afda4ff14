// One `hearsay test` run: load the test files, load each rule set they name once, run every test against
// it with the chosen driver, and keep coverage per rule set.
import type { RuleProblem } from '../diagnostics/problem.js';
import type { RuleSet } from '../engine/rule-set.js';
import { loadRules } from '../rules/load.js';
import { CoverageTracker } from './coverage.js';
import { createDecideDriver } from './decide-driver.js';
import { createPipelineDriver } from './pipeline-driver.js';
import { loadTestFiles } from './load-tests.js';
import type { TestFile } from './model.js';
import { runTestFile, type TestResult } from './run-tests.js';

export interface SessionOptions {
  readonly paths: readonly string[];
  /** The rules for files without their own `rules:`. */
  readonly rules: string;
  readonly keepGoing?: boolean;
  /** The largest test file taken, in bytes (default DEFAULT_MAX_TEST_FILE_BYTES). */
  readonly maxFileBytes?: number;
  /** The bot under test: the update pipeline (the default, as `hearsay run`) or the engine alone. */
  readonly driver?: 'pipeline' | 'engine';
}

export interface SessionOutcome {
  /** Problems in the test files: nothing ran. */
  readonly testProblems: readonly RuleProblem[];
  /** Errors in rule files: the tests against them did not run. */
  readonly ruleProblems: readonly RuleProblem[];
  readonly files: readonly TestFile[];
  readonly results: readonly TestResult[];
  /** Per rule path: the rule set and what the tests reached in it. */
  readonly coverage: ReadonlyMap<string, { ruleSet: RuleSet; tracker: CoverageTracker }>;
}

export async function runSession(options: SessionOptions): Promise<SessionOutcome> {
  const loaded = await loadTestFiles(options.paths, options.rules, options.maxFileBytes);
  const empty = { files: loaded.files, results: [], coverage: new Map(), ruleProblems: [] };
  if (loaded.problems.length > 0) return { ...empty, testProblems: loaded.problems };
  const coverage = new Map<string, { ruleSet: RuleSet; tracker: CoverageTracker }>();
  const ruleProblems: RuleProblem[] = [];
  for (const rulesPath of new Set(loaded.files.map((f) => f.rulesPath))) {
    const outcome = await loadRules(rulesPath);
    if (outcome.ruleSet) coverage.set(rulesPath, { ruleSet: outcome.ruleSet, tracker: new CoverageTracker() });
    else ruleProblems.push(...outcome.problems.filter((p) => p.severity === 'error'));
  }
  const results: TestResult[] = [];
  for (const file of loaded.files) {
    const target = coverage.get(file.rulesPath);
    if (!target) continue;
    results.push(
      ...(await runTestFile(file, target.ruleSet, {
        // A hand-off lives in the outbox (copies, topics, signals): its tests run through the pipeline whatever the driver.
        driverFor: (test) => (options.driver === 'engine' && !test.handoff ? createDecideDriver : createPipelineDriver),
        keepGoing: options.keepGoing ?? false,
        onDecision: (record) => target.tracker.record(record),
        onPress: (record) => target.tracker.recordPress(record),
      })),
    );
  }
  return { testProblems: [], ruleProblems, files: loaded.files, results, coverage };
}
