// Scheduled posts in `hearsay test`: when a test's clock moves (`wait:`), each occurrence of a schedule that falls due
// on the way is posted at its own time, in order with the other timers, to the test chat its `to` names (the
// test's chats stand for the configuration's `chats:`), once; a test whose clock does not reach one posts nothing.
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { failureTexts, runTestFile } from './test-files.js';

const RULES = `timezone: Europe/Berlin
schedules:
  - id: digest
    every: "mon 09:00"
    to: community
    reply: "Good morning! This week's events, {{now.weekday}} {{now.time}}."
  - id: note
    every: "day 08:30"
    to: community
    reply: "Daily note at {{now.time}}."
rules:
  - id: hi
    keywords: [hi]
    reply: "Hello!"
  - id: tea
    command: tea
    remind: { id: tea, in: 1h, reply: "Tea!" }
    reply: "Timer set."
`;

async function run(tests: string): Promise<SessionOutcome> {
  return runTestFile(RULES, tests, 'pipeline');
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.ruleProblems.map((p) => p.format(''))).toEqual([]);
  expect(outcome.testProblems).toEqual([]);
  return failureTexts(outcome, { name: true, line: false });
}

describe('scheduled posts in hearsay test', () => {
  it('wait: posts each occurrence on the way at its own time, with a reminder in between, once', async () => {
    const outcome = await run(`tests:
  - name: Sunday night to Tuesday morning
    clock: "2026-11-29T22:00:00+01:00"
    users: { ann: {} }
    chats: { community: { type: supergroup } }
    steps:
      - say: /tea
        expect: "Timer set."
      - wait: 11h
        expect:
          - "Tea!"
          - { text: "Daily note at 08:30.", in: community }
          - { text: "Good morning! This week's events, Monday 09:00.", in: community }
      - wait: 1d
        expect: { text: "Daily note at 08:30.", in: community }
      - wait: 30m
        expect: nothing
  - name: a clock that reaches no occurrence posts nothing
    clock: "2026-11-30T09:00:00+01:00"
    chats: { community: { type: supergroup, privacy: false } }
    steps:
      - say: hi
        expect: "Hello!"
      - wait: 23h
        expect: nothing
`);
    expect(failures(outcome)).toEqual([]);
  });
});
