// Runs `hearsay test` files from a test as the command does: a rule file and a tests file written to a temporary
// folder, run through a driver; and each failing test told as one string (its name, the failing step's line, the
// message, then the diff's lines) for a test to compare.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runSession, type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { withRuleDir } from '../rules/rule-files.js';

/** Runs `tests` (a tests file's YAML) against `rules` (one rule file's YAML) through `driver`. */
export function runTestFile(rules: string, tests: string, driver: 'pipeline' | 'engine'): Promise<SessionOutcome> {
  return withRuleDir({ 'bot.yaml': rules }, async (dir) => {
    await writeFile(join(dir, 'tests.yml'), tests);
    return runSession({ paths: [join(dir, 'tests.yml')], rules: join(dir, 'bot.yaml'), driver });
  });
}

/** Each failing test as `name @line: message` and the diff's lines, with the name and the line as asked. */
export function failureTexts(outcome: SessionOutcome, label: { readonly name: boolean; readonly line: boolean }): string[] {
  return outcome.results.flatMap((r) => {
    if (!r.failure) return [];
    const where = [label.name ? r.test.name : '', label.line ? `@${r.failure.step.position.line}` : ''].filter(Boolean).join(' ');
    return [`${where}: ${r.failure.message}${r.failure.diff.map((l) => `\n${l}`).join('')}`];
  });
}
