// Flood control through `hearsay test` on both drivers: `limits: { incoming: { per_user, per } }` leaves a user's
// messages beyond the limit unanswered, the first one over it answered by the `event: flooding` rule (with its
// moderation), counted per user and chat; and what `check` says of a flooding rule without a limit.
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { withRuleDir } from '../rules/rule-files.js';
import { checkRules } from '../../src/rules/load.js';
import { failureTexts, runTestFile } from './test-files.js';

const RULES = `
limits: { incoming: { per_user: 3, per: 1m } }
rules:
  - id: slow-down
    event: flooding
    reply: "{{user.first_name}}, slow down please."
  - id: echo
    pattern: '.+'
    reply: "got it"
`;

async function run(tests: string, driver: 'pipeline' | 'engine', rules = RULES): Promise<SessionOutcome> {
  return runTestFile(rules, tests, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.testProblems).toEqual([]);
  return failureTexts(outcome, { name: true, line: true });
}

const TESTS = `
tests:
  - name: a burst in a group
    users: { ann: {}, ben: {} }
    chats: { kiez: { type: supergroup, privacy: false }, garden: { type: supergroup, privacy: false } }
    steps:
      - { say: one, from: ben, expect: "got it" }
      - { say: two, from: ben, expect: "got it" }
      - { say: three, from: ben, expect: "got it" }
      - { say: four, from: ben, expect: "Ben, slow down please." }
      - { say: five, from: ben, expect: nothing }
      - { say: six, from: ben, expect: nothing }
      - { say: "ann is not limited by ben", from: ann, expect: "got it" }
      - { say: "nor is ben elsewhere", from: ben, in: garden, expect: "got it" }
      - wait: 61s
      - { say: "a minute later", from: ben, expect: "got it" }
      - { say: again, from: ben, expect: "got it" }
      - { say: and again, from: ben, expect: "got it" }
      - { say: too much, from: ben, expect: "Ben, slow down please." }
  - name: in private too
    steps:
      - { say: a, expect: "got it" }
      - { say: b, expect: "got it" }
      - { say: c, expect: "got it" }
      - { say: d, expect: "Ann, slow down please." }
      - { say: e, expect: nothing }
`;

describe.each(['pipeline', 'engine'] as const)('flood control through the %s', (driver) => {
  it('answers up to the limit per user and chat, warns at the first over it, then is silent until the window passes', async () => {
    expect(failures(await run(TESTS, driver))).toEqual([]);
  });
});

async function problemsOf(yaml: string): Promise<string[]> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) =>
    (await checkRules(dir)).problems.map((p) => p.format('').replace(/^:/, '').replaceAll(`${dir}/`, '')),
  );
}

describe('check: limits', () => {
  it('refuses a window of no time, a limit declared twice and a per_user of 0; warns of a flooding rule without a limit', async () => {
    expect(await problemsOf('limits: { incoming: { per_user: 3, per: 0s } }\nrules:\n  - { id: a, text: a, reply: b }\n')).toEqual([
      "1:1: limits.incoming.per: '0s' is no time at all; write a window such as 10s, 1m or 1h",
    ]);
    expect((await problemsOf('limits: { incoming: { per_user: 0, per: 1m } }\n')).join('\n')).toMatch(/per_user/);
    expect(await problemsOf('rules:\n  - { id: calm, event: flooding, reply: "Slow down." }\n')).toEqual([
      "2:24: warning: rule 'calm' answers flooding, and no rule file declares `limits: { incoming: { per_user: N, per: DURATION } }`: it never fires",
    ]);
  });

  it('refuses a second declaration in another file', async () => {
    const found = await withRuleDir(
      { 'a.yaml': 'limits: { incoming: { per_user: 3, per: 1m } }\n', 'b.yaml': 'limits: { incoming: { per_user: 5, per: 1m } }\n' },
      async (dir) => (await checkRules(dir)).problems.map((p) => p.message),
    );
    expect(found).toEqual([expect.stringMatching(/^limits is declared twice: already at .*a\.yaml:1:1/)]);
  });
});
