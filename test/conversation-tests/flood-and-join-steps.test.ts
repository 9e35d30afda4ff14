// The steps of `hearsay test` for groups that look after themselves, on both drivers: `times: N` on `say` and
// `send` (a flood within one second, its outputs checked together, `times` on an expected output), and
// `request_join` (a chat_join_request answered by an `event: join_request` rule or by questions in private, with
// the service's rules: only an administrator with can_invite_users hears it, one request at a time, an approved
// user joins the group).
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { failureTexts, runTestFile } from './test-files.js';

const FLOOD_RULES = `
limits: { incoming: { per_user: 10, per: 1m } }
rules:
  - id: slow-down
    event: flooding
    restrict: { for: 10m }
    reply: "{{user.first_name}}, slow down."
  - id: no-links
    pattern: 'https?://'
    chat_types: [supergroup]
    delete: true
  - id: photo
    event: photo
    reply: "nice photo"
  - id: echo
    pattern: '.+'
    reply: "got it"
`;

const JOIN_RULES = `
rules:
  - id: let-in-known
    event: join_request
    when: { user.known: "yes" }
    approve: true
  - id: keep-out
    event: join_request
    decline: true
  - id: remember
    text: remember me
    set: { user.known: "yes" }
    reply: noted
  - id: hello
    event: member_joined
    reply: "Hello, {{user.first_name}}!"
`;

async function run(rules: string, tests: string, driver: 'pipeline' | 'engine'): Promise<SessionOutcome> {
  return runTestFile(rules, tests, driver);
}

/** Each failing test: where, why, and its diff. */
function failures(outcome: SessionOutcome): string[] {
  expect([...outcome.testProblems, ...outcome.ruleProblems].map((p) => p.message)).toEqual([]);
  expect(outcome.results.length).toBeGreaterThan(0);
  return failureTexts(outcome, { name: true, line: true });
}

const GROUP = `users: { ann: {}, ben: {} }
    chats: { kiez: { type: supergroup, admin: true }, dm: private }`;

describe.each(['pipeline', 'engine'] as const)('flood and join-request steps through the %s', (driver) => {
  it('say with times: ten answers, the warning and the mute at the 11th, silence after (the muted user refused); another user, and ben once his mute is over, are answered', async () => {
    const tests = `
tests:
  - name: a flood
    ${GROUP}
    steps:
      - say: buy now
        from: ben
        times: 13
        expect: [{ text: "got it", times: 10 }, { restricted: { user: ben, for: 10m } }, "Ben, slow down."]
      - { say: "ann is not ben", from: ann, expect: "got it" }
      - { say: "still here", from: ben, expect: nothing }
      - wait: 61s
      # The flood window is over, but ben is muted for 10 minutes: the service refuses his messages until then.
      - { say: "let me in", from: ben, expect: nothing }
      - wait: 9m
      - { say: hello again, from: ben, times: 2, expect: { text: "got it", times: 2 } }
`;
    const outcome = await run(FLOOD_RULES, tests, driver);
    expect(failures(outcome)).toEqual([]);
    expect(outcome.results[0]!.steps[0]!.outputs).toHaveLength(12);
  });

  it('fails a flood step whose expectation is wrong, with the diff across all the messages', async () => {
    const tests = `
tests:
  - name: warned too early
    ${GROUP}
    steps:
      - { say: spam, from: ben, times: 11, expect: [{ text: "got it", times: 9 }, "Ben, slow down."] }
`;
    expect(failures(await run(FLOOD_RULES, tests, driver))).toEqual([
      [
        'warned too early @7: the bot did not answer as expected',
        ...Array<string>(9).fill('  "got it"'),
        '- "Ben, slow down."',
        '+ "got it"',
        '+ { restricted: { user: ben, for: 10m } }',
        '+ "Ben, slow down."',
      ].join('\n'),
    ]);
  });

  it('send with times, and times on a moderation output: a flood of photos, a flood of links each deleted', async () => {
    const tests = `
tests:
  - name: photos
    ${GROUP}
    steps:
      - { send: { photo: cat.jpg }, from: ben, times: 11, expect: [{ text: "nice photo", times: 10 }, { restricted: { user: ben, for: 10m } }, "Ben, slow down."] }
  - name: links
    ${GROUP}
    steps:
      - { say: "https://spam.example", from: ben, times: 12, expect: [{ deleted: true, times: 10 }, { restricted: { user: ben, for: 10m } }, "Ben, slow down."] }
`;
    expect(failures(await run(FLOOD_RULES, tests, driver))).toEqual([]);
  });

  it('request_join: an event rule approves (the user joins: the welcome follows) or declines', async () => {
    const tests = `
tests:
  - name: known and unknown
    ${GROUP}
    steps:
      - { say: remember me, from: ann, in: dm, expect: noted }
      - { request_join: ann, in: kiez, expect: [{ approved: { user: ann } }, "Hello, Ann!"] }
      - { request_join: ben, in: kiez, expect: { declined: { user: ben } } }
      - { request_join: ben, in: kiez, expect: { declined: { user: ben } } }
`;
    expect(failures(await run(JOIN_RULES, tests, driver))).toEqual([]);
  });

  it('request_join: questions in private, then approved (the welcome follows in the group) or declined', async () => {
    const rules = `
flows:
  - id: door
    start: { event: join_request }
    steps:
      - { id: agree, ask: "Be kind. Agreed?", accept: { choice: { "yes": [yes], "no": [no] } } }
    done:
      - { when: { flow.agree: "yes" }, approve: true, reply: "In you go." }
      - { decline: true, reply: "Not this time." }
rules:
  - { id: hello, event: member_joined, reply: "Hello, {{user.first_name}}!" }
`;
    const tests = `
tests:
  - name: one in, one out
    ${GROUP}
    steps:
      - { request_join: ann, in: kiez, expect: { text: "Be kind. Agreed?", buttons: ["yes", "no"], in: dm } }
      - { press: "yes", from: ann, in: dm, expect: [{ approved: { user: ann } }, "In you go.", { text: "Hello, Ann!", in: kiez }], state: { flow: null } }
      - { request_join: ben, in: kiez, expect: { text: "Be kind. Agreed?", in: dm } }
      - { say: "no", from: ben, in: dm, expect: [{ declined: { user: ben } }, "Not this time."] }
`;
    expect(failures(await run(rules, tests, driver))).toEqual([]);
  });

  it('request_join reaches only an administrator with can_invite_users, as on the service', async () => {
    const tests = `
tests:
  - name: no right to invite
    users: { ben: {} }
    chats: { kiez: { type: supergroup, admin: [can_delete_messages] }, plain: supergroup }
    steps:
      - { request_join: ben, in: kiez, expect: nothing }
      - { request_join: ben, in: plain, expect: nothing }
`;
    expect(failures(await run(JOIN_RULES, tests, driver))).toEqual([]);
  });

  it('asking to join again while the request waits is a failing step that says so', async () => {
    const rules = 'rules:\n  - { id: noted, event: join_request, reply: "An administrator will decide." }\n';
    const tests = `
tests:
  - name: twice
    ${GROUP}
    steps:
      - { request_join: ben, in: kiez, expect: "An administrator will decide." }
      - { request_join: ben, in: kiez }
`;
    expect(failures(await run(rules, tests, driver))).toEqual(['twice @8: ben already asked to join kiez, and the bot has not answered yet']);
  });

  it('asking to join a group one is in (wrote there, joined, was let in) is a failing step; after leaving or a ban it is a request again', async () => {
    const rules = `${JOIN_RULES}  - { id: out, text: go away, ban: true, reply: "Bye." }\n`;
    const member = (name: string, steps: string) => `
  - name: ${name}
    ${GROUP}
    steps:
${steps}`;
    const tests = `
tests:${member(
      'wrote there',
      `      - { say: remember me, from: ann, in: kiez, expect: noted }
      - { request_join: ann, in: kiez }`,
    )}${member(
      'let in',
      `      - { say: remember me, from: ann, in: dm, expect: noted }
      - { request_join: ann, in: kiez, expect: [{ approved: { user: ann } }, "Hello, Ann!"] }
      - { request_join: ann, in: kiez }`,
    )}${member(
      'joined, left, asks',
      `      - { join: ben, in: kiez, expect: "Hello, Ben!" }
      - { leave: ben, in: kiez }
      - { request_join: ben, in: kiez, expect: { declined: { user: ben } } }
      - { join: ann, in: kiez, expect: "Hello, Ann!" }
      - { request_join: ann, in: kiez }`,
    )}${member(
      'banned, asks',
      `      - { say: go away, from: ben, in: kiez, expect: [{ banned: { user: ben } }, "Bye."] }
      - { request_join: ben, in: kiez, expect: { declined: { user: ben } } }`,
    )}
`;
    const said = 'the service takes no join request from a member';
    expect(failures(await run(rules, tests, driver))).toEqual([
      `wrote there @8: ann is a member of kiez (wrote there, joined or was let in): ${said}`,
      `let in @15: ann is a member of kiez (wrote there, joined or was let in): ${said}`,
      `joined, left, asks @24: ann is a member of kiez (wrote there, joined or was let in): ${said}`,
    ]);
  });
});

describe('problems with the new steps', () => {
  it('refuses times without say or send, request_join in a private chat and an unknown user, each at its place', async () => {
    const tests = `
tests:
  - name: wrong
    users: { ann: {}, ben: {} }
    chats: { dm: private, kiez: supergroup }
    steps:
      - { press: "Yes", times: 2 }
      - { request_join: ben }
      - { request_join: cleo, in: kiez }
`;
    const outcome = await run(JOIN_RULES, tests, 'pipeline');
    expect(outcome.testProblems.map((p) => `${p.line}:${p.column}: ${p.message}`)).toEqual([
      "7:32: test 'wrong', step 1: `times` goes with `say` or `send` (the same message sent that many times)",
      "8:25: test 'wrong', step 2: users ask to join groups, and chat 'dm' is private: name the group with `in:`",
      "9:25: test 'wrong', step 3: no user 'cleo' in this test (users: ann, ben)",
    ]);
  });
});
