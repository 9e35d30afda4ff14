// The conversation-test runner through the update pipeline (as `hearsay run` handles updates) and through the
// engine alone, with the same results: flows over several turns, the frozen clock and timeouts, state
// expectations, groups (privacy mode, force_reply answers, several users), and how a failing step is reported.
import { beforeAll, describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { BOOKING } from '../engine/booking-rules.js';
import { failureTexts, runTestFile } from './test-files.js';

let driver: 'pipeline' | 'engine' = 'pipeline';

/** Runs one test file (its text) against the booking bot. */
async function runTests(tests: string, rules = BOOKING): Promise<SessionOutcome> {
  return runTestFile(rules, tests, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.testProblems).toEqual([]);
  return failureTexts(outcome, { name: true, line: true });
}

describe.each(['pipeline', 'engine'] as const)('hearsay test through the %s', (kind) => {
  beforeAll(() => {
    driver = kind;
  });

  it('follows a flow over several turns, with state expectations and a timeout that fires when the clock passes it', async () => {
    const outcome = await runTests(`
tests:
  - name: booking
    steps:
      - say: /book
        expect: "For which date?"
        state: { flow: booking }
      - say: tomorrow
        expect: "A date like Friday or 24.12., please."
      - say: Friday
        expect: "How many people?"
        state: { flow.date: Friday }
      - say: "4"
        expect: "A table for 4 on Friday?"
      - say: yes
        expect: "Booked: 4 people on Friday."
        state: { user.last_booking: Friday, flow: null }
  - name: timeout
    steps:
      - say: /book
      - wait: 14m
        expect: nothing
      - wait: 2m
        expect: "Booking timed out; send /book to start again."
        state: { flow: null }
      - say: hi
        expect: "Hi! Who are you?"
`);
    expect(failures(outcome)).toEqual([]);
    expect(outcome.results.map((r) => r.steps.length)).toEqual([5, 4]);
  });

  it('reports a wrong state with the step line and a diff of the variable', async () => {
    const outcome = await runTests(`
tests:
  - name: name memory
    steps:
      - say: my name is Ann
        expect: "Nice to meet you, Ann!"
      - say: hi
        state: { user.name: Bob, chat.x: null }
`);
    expect(failures(outcome)).toEqual(['name memory @7: the state is not as expected\n- user.name: "Bob"\n+ user.name: "Ann"\n  chat.x: null']);
  });

  it('stops a test at its first failing step and says which output differs', async () => {
    const outcome = await runTests(`
tests:
  - name: wrong
    steps:
      - say: /book
        expect: ["For which date?", "And then?"]
      - say: never reached
        expect: nothing
`);
    expect(failures(outcome)).toEqual(['wrong @5: the bot did not answer as expected\n  "For which date?"\n- "And then?"']);
    expect(outcome.results[0]!.steps).toHaveLength(1);
  });

  it('a press of a button the bot never showed fails the step, naming the buttons there are', async () => {
    const outcome = await runTests(`
tests:
  - name: press
    steps:
      - say: /book
      - press: "Ja"
`);
    expect(failures(outcome)).toEqual(["press @6: no button 'Ja' in this chat (the bot has shown no buttons)"]);
  });

  it('keeps privacy mode in groups, answers flow questions by reply, and keeps each member in their own flow', async () => {
    const outcome = await runTests(`
bot: { username: booking_bot }
tests:
  - name: group
    users: { ann: {}, bob: { first_name: Robert } }
    chat: { type: group, title: Friends }
    steps:
      - join: [ann, bob]
        expect: nothing
      - say: hi
        expect: nothing
      - say: "@booking_bot /help"
        from: bob
        expect: nothing
      - say: /help@booking_bot
        from: bob
        expect: "Answer the question, or say cancel."
      - say: /book@booking_bot
        from: ann
        expect: "For which date?"
      - say: /book
        from: bob
        expect: "For which date?"
      - say: friday
        from: ann
        expect: "How many people?"
        state: { flow.date: friday }
      - say: 24.12.
        from: bob
        expect: "How many people?"
        state: { flow.date: 24.12. }
      - say: /book@other_bot
        expect: nothing
      - leave: bob
        expect: nothing
  - name: privacy off
    chat: { type: supergroup, privacy: false }
    steps:
      - say: hi
        expect: "Hi! Who are you?"
`);
    expect(failures(outcome)).toEqual([]);
  });

  it('runs a long suite to the end: 1,000 steps of flows', async () => {
    const steps = Array.from(
      { length: 62 },
      () => '      - say: /book\n      - say: friday\n      - say: "3"\n      - say: "no"\n        expect: OK, nothing booked.\n',
    ).join('');
    const tests = Array.from({ length: 4 }, (_, i) => `  - name: t${i}\n    steps:\n${steps}`).join('');
    const outcome = await runTests(`tests:\n${tests}`);
    expect(failures(outcome)).toEqual([]);
    expect(outcome.results.reduce((n, r) => n + r.steps.length, 0)).toBe(992);
  });
});
