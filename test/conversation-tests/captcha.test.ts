// A captcha in `hearsay test`, on both drivers: a member who joins is muted until they press "I am human", and
// the button press lifts it (moderation in a button press rule acts on the user who pressed).
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { runTestFile } from './test-files.js';

const RULES = `
rules:
  - id: captcha
    event: member_joined
    restrict: { until_changed: true }
    reply: "Welcome, {{user.first_name}}! Press the button to talk."
    buttons: [[{ text: "I am human", data: human }]]
  - id: human
    callback: '^human$'
    unrestrict: true
    answer: "Welcome!"
`;

const TESTS = `
tests:
  - name: a captcha on joining
    users: { ann: {}, cem: {} }
    chat: { type: supergroup, admin: true }
    steps:
      - join: cem
        from: cem
        expect: [{ restricted: { user: cem, until_changed: true } }, { text: "Welcome, Cem! Press the button to talk.", buttons: [I am human] }]
      - press: I am human
        from: cem
        expect: [{ answer: "Welcome!" }, { unrestricted: { user: cem } }]
`;

async function run(driver: 'pipeline' | 'engine'): Promise<SessionOutcome> {
  return runTestFile(RULES, TESTS, driver);
}

describe.each(['pipeline', 'engine'] as const)('a captcha through the %s', (driver) => {
  it('mutes a member who joins and lifts it when they press the button', async () => {
    const outcome = await run(driver);
    expect(outcome.testProblems).toEqual([]);
    const failures = outcome.results.flatMap((r) => (r.failure ? [`${r.failure.message}\n${r.failure.diff.join('\n')}`] : []));
    expect(failures).toEqual([]);
  });
});
