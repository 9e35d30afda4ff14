// `hearsay test` scripts both sides of a hand-off: the customer in their chat and a staff member in the staff
// forum (`as: sam, in: staff, topic_of: cleo`), with relays expected where they go (`in:`, `topic_of:`); the
// idle time with `wait`; a staff group without topics by replies; and clear problems for a misplaced topic_of.
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { failureTexts, runTestFile } from './test-files.js';

const DESK = `
rules:
  - id: human
    keywords: [human]
    handoff: true
    reply: "I've asked a colleague."
  - id: status
    command: status
    during_handoff: true
    reply: "A colleague is on it."
  - id: help
    fallback: true
    reply: "I help with orders."
handoff_end:
  reply: "Back with the bot."
`;

const PEOPLE = `
    users:
      cleo: { first_name: Cleo, username: cleo }
      sam: { first_name: Sam }
`;

async function run(tests: string, driver: 'pipeline' | 'engine' = 'pipeline'): Promise<SessionOutcome> {
  return runTestFile(DESK, tests, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.testProblems).toEqual([]);
  expect(outcome.ruleProblems).toEqual([]);
  return failureTexts(outcome, { name: false, line: true });
}

const BOTH_SIDES = `
handoff: { chat: staff, idle: 2h }
tests:
  - name: a customer and a staff member
${PEOPLE}
    chats:
      dm: private
      staff: { type: supergroup, forum: true, title: Support team }
    steps:
      - say: where is my order?
        expect: "I help with orders."
      - say: I want a human
        expect:
          - "I've asked a colleague."
          - { contains: "Hand-off: Cleo (@cleo, id 1001)", in: staff, topic_of: cleo }
          - { text: "where is my order?", in: staff, topic_of: cleo }
          - { text: "I help with orders.", in: staff, topic_of: cleo }
          - { text: "I want a human", in: staff, topic_of: cleo }
          - { text: "I've asked a colleague.", in: staff, topic_of: cleo }
      - say: hello? are you there?
        expect: { text: "hello? are you there?", in: staff, topic_of: cleo }
      - say: Hi Cleo, Sam here.
        as: sam
        in: staff
        topic_of: cleo
        expect: { text: "Hi Cleo, Sam here.", in: dm }
      - say: /status
        expect: "A colleague is on it."
      - say: done
        as: sam
        in: staff
        topic_of: cleo
        expect:
          - { text: "Back with the bot.", in: dm }
          - { text: "Back with the bot (ended by Sam).", in: staff, topic_of: cleo }
      - say: thanks
        expect: "I help with orders."
      - say: human again
        state: { user._handoff_topic: 1 }
      - wait: 2h
        expect:
          - { text: "Back with the bot.", in: dm }
          - { text: "Back with the bot (no staff message for a while).", in: staff, topic_of: cleo }
`;

describe.each(['pipeline', 'engine'] as const)('hand-off in hearsay test (asked for the %s)', (driver) => {
  it('scripts the customer and the staff member; relays are expected in the staff topic and in the customer chat', async () => {
    const outcome = await run(BOTH_SIDES, driver);
    expect(failures(outcome)).toEqual([]);
    expect(outcome.results[0]!.steps).toHaveLength(9);
  });
});

describe('hand-off in hearsay test', () => {
  it('a relay expected in the wrong place fails with a diff that says where it went', async () => {
    const outcome = await run(BOTH_SIDES.replace('expect: { text: "Hi Cleo, Sam here.", in: dm }', 'expect: { text: "Hi Cleo, Sam here.", in: staff }'));
    expect(failures(outcome)).toEqual([
      expect.stringMatching(
        /the bot did not answer as expected\n- \{ text: "Hi Cleo, Sam here\.", in: staff \}\n\+ \{ text: "Hi Cleo, Sam here\.", in: dm \}$/,
      ),
    ]);
  });

  it('a staff group without topics: the named copy, and a staff reply to it reaches the customer', async () => {
    const outcome = await run(`
handoff: { chat: staff }
tests:
  - name: replies
${PEOPLE}
    chats:
      dm: private
      staff: supergroup
    steps:
      - say: human
        expect:
          - "I've asked a colleague."
          - { contains: "Hand-off: Cleo", in: staff }
          - { text: "human", in: staff }
          - { text: "I've asked a colleague.", in: staff }
      - say: my parcel is late
        expect: { text: "Cleo (@cleo, id 1001):\\nmy parcel is late", in: staff }
      - say: On its way.
        as: sam
        in: staff
        reply: true
        expect: { text: "On its way.", in: dm }
`);
    expect(failures(outcome)).toEqual([]);
  });

  it('topic_of before the customer has a topic, or outside the staff forum, is a clear problem', async () => {
    const early = await run(`${BOTH_SIDES.split('    steps:')[0]}    steps:
      - say: anyone?
        as: sam
        in: staff
        topic_of: cleo
`);
    expect(failures(early)).toEqual([expect.stringContaining('cleo has no topic in staff: the bot opens one when it hands them off')]);
    const misplaced = await run(`${BOTH_SIDES.split('    steps:')[0]}    steps:
      - say: hi
        topic_of: cleo
        as: sam
`);
    expect(misplaced.testProblems.map((p) => p.message)).toEqual([
      expect.stringContaining("`topic_of` writes in a customer's topic: the step must be `in` the hand-off's staff group"),
    ]);
  });
});
