// Variables with a lifetime, as an operator writes them: a "slow down" counter (`increment` with `expires: 1m`)
// that starts again once its minute is over, an "already asked today" mark (`value` with `expires: midnight`, in
// the rules' zone), a set without `expires` that ends a lifetime, `unset`, and a default in a template — run by
// `hearsay test` with its clock, through the pipeline (the memory store) and the engine.
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { failureTexts, runTestFile } from '../conversation-tests/test-files.js';

const RULES = `timezone: Europe/Berlin
rules:
  - id: slow-down
    keywords: [hello]
    when: { user.msgs: { gte: 3 } }
    set: { user.msgs: { increment: 1, expires: 1m } }
    reply: "Slow down, please ({{var.user.msgs}} in a minute)."
  - id: hello
    keywords: [hello]
    set: { user.msgs: { increment: 1, expires: 1m } }
    reply: "Hello! ({{var.user.msgs}})"
  - id: asked
    keywords: [survey]
    when: { user.asked: "yes" }
    reply: "You answered today already."
  - id: survey
    keywords: [survey]
    set: { user.asked: { value: "yes", expires: midnight } }
    reply: "Thanks for answering today's survey."
  - id: keep
    command: keep
    set: { user.asked: "yes" }
    reply: "Kept for good: {{var.user.asked | no}}."
  - id: forget
    command: forget
    set: { user.asked: { unset: true } }
    reply: "Forgotten: {{var.user.asked | nothing}}."
`;

const TESTS = `
tests:
  - name: a counter for one minute, then it starts again
    clock: "2026-11-27T12:00:00+01:00"
    steps:
      - say: hello
        expect: "Hello! (1)"
      - wait: 20s
      - say: hello
        expect: "Hello! (2)"
      - wait: 20s
      - say: hello
        expect: "Hello! (3)"
      - say: hello
        expect: "Slow down, please (4 in a minute)."
      - wait: 21s
      - say: hello
        expect: "Hello! (1)"
  - name: a mark for today, forgotten at midnight in the rules' zone
    clock: "2026-11-27T23:58:00+01:00"
    steps:
      - say: survey
        expect: "Thanks for answering today's survey."
      - wait: 1m
      - say: survey
        expect: "You answered today already."
      - wait: 1m
      - say: survey
        expect: "Thanks for answering today's survey."
  - name: a set without expires keeps it for good; unset forgets
    clock: "2026-11-27T23:58:00+01:00"
    steps:
      - say: survey
        expect: "Thanks for answering today's survey."
      - say: /keep
        expect: "Kept for good: yes."
      - wait: 1d
      - say: survey
        expect: "You answered today already."
      - say: /forget
        expect: "Forgotten: nothing."
      - say: survey
        expect: "Thanks for answering today's survey."
`;

async function run(driver: 'pipeline' | 'engine'): Promise<SessionOutcome> {
  return runTestFile(RULES, TESTS, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.ruleProblems.map((p) => p.format(''))).toEqual([]);
  expect(outcome.testProblems).toEqual([]);
  return failureTexts(outcome, { name: true, line: false });
}

describe('variables with a lifetime', () => {
  it('through the pipeline', async () => {
    const outcome = await run('pipeline');
    expect(failures(outcome)).toEqual([]);
    expect(outcome.results).toHaveLength(3);
  });

  it('through the engine', async () => {
    expect(failures(await run('engine'))).toEqual([]);
  });

  it('check: a zero lifetime, and one that is no duration', async () => {
    const problems = await withRuleDir(
      { 'bot.yaml': 'rules:\n  - id: a\n    command: a\n    set: { user.n: { increment: 1, expires: 0m } }\n    reply: ok\n' },
      (dir) => loadRules(dir).then((outcome) => outcome.problems),
    );
    expect(problems.map((p) => `${p.line}:${p.column}: ${p.message}`)).toEqual([
      expect.stringMatching(/^4:\d+: expires of 'user.n' in rule 'a' must be more than 0/),
    ]);
    const wrong = await withRuleDir(
      { 'bot.yaml': 'rules:\n  - id: a\n    command: a\n    set: { user.n: { value: 1, expires: soon } }\n    reply: ok\n' },
      (dir) => loadRules(dir).then((outcome) => outcome.problems),
    );
    expect(wrong.length).toBeGreaterThan(0);
    expect(wrong.every((p) => p.line === 4)).toBe(true);
  });
});
