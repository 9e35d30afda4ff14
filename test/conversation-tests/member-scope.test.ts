// member.*: what a bot remembers of a user in one group (warnings, votes), kept apart per group, with
// member.messages and member.joined_at kept by hearsay itself; run through `hearsay test` on both drivers
// (the update pipeline with its store, and the engine alone), so the rules a user writes behave as documented.
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { failureTexts, runTestFile } from './test-files.js';

const RULES = `
rules:
  - id: third-warning
    pattern: 'https?://'
    chat_types: [group, supergroup]
    when: { member.messages: { lt: 5 }, member.warnings: { gte: 2 } }
    reply: "{{user.first_name}} is muted for an hour."
  - id: no-links-from-newcomers
    pattern: 'https?://'
    chat_types: [group, supergroup]
    when: { member.messages: { lt: 5 } }
    set: { member.warnings: { increment: 1 } }
    reply: "{{user.first_name}}, links are allowed from your 5th message on."
  - id: me
    command: me
    chat_types: [group, supergroup]
    reply: "{{user.first_name}}: message {{var.member.messages}} here, {{var.member.warnings}} warnings, joined {{var.member.joined_at}}"
`;

async function run(tests: string, driver: 'pipeline' | 'engine'): Promise<SessionOutcome> {
  return runTestFile(RULES, tests, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.testProblems).toEqual([]);
  return failureTexts(outcome, { name: true, line: true });
}

const TESTS = `
tests:
  - name: warnings per group
    users: { ann: {}, ben: {} }
    chats: { kiez: { type: supergroup, privacy: false }, garden: { type: supergroup, privacy: false } }
    steps:
      - say: "look https://spam.example/1"
        from: ben
        expect: "Ben, links are allowed from your 5th message on."
        state: { member.warnings: 1, member.messages: 1, user.warnings: null }
      - say: "and https://spam.example/2"
        from: ben
        expect: "Ben, links are allowed from your 5th message on."
      - say: "more https://spam.example/3"
        from: ben
        expect: "Ben is muted for an hour."
        state: { member.warnings: 2, member.messages: 3 }
      - say: "a link in another group https://spam.example/4"
        from: ben
        in: garden
        expect: "Ben, links are allowed from your 5th message on."
        state: { member.warnings: 1, member.messages: 1 }
      - say: /me
        from: ben
        expect: "Ben: message 4 here, 2 warnings, joined "
      - say: /me
        from: ann
        expect: "Ann: message 1 here,  warnings, joined "
  - name: from the 5th message on, links pass
    chat: { type: supergroup, privacy: false }
    steps:
      - say: one
        expect: nothing
      - say: two
        expect: nothing
      - say: three
        expect: nothing
      - say: four
        expect: nothing
        state: { member.messages: 4 }
      - say: "my site https://example.org"
        expect: nothing
        state: { member.messages: 5, member.warnings: null }
  - name: joined_at is when the member joined
    users: { ann: {}, cem: {} }
    chat: { type: supergroup, privacy: false }
    steps:
      - join: cem
        from: cem
        expect: nothing
      - say: /me
        from: cem
        expect: "Cem: message 1 here,  warnings, joined 1767603600"
`;

describe.each(['pipeline', 'engine'] as const)('member.* through the %s', (driver) => {
  it('keeps warnings and message counts per user and group, and the join date', async () => {
    expect(failures(await run(TESTS, driver))).toEqual([]);
  });
});
