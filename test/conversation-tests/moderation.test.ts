// Moderation in `hearsay test`: a group where the bot is an administrator (`admin: true` or a list of rights)
// records the rule's delete, restrict, ban and pin, which steps expect as `{ deleted: true }`,
// `{ restricted: { user: ben, for: 1h } }` …, with a diff in the file's notation when they differ; without the
// right the service refuses the call (the step shows it in the bot log) and the rule's reply still goes out;
// a muted or banned member's messages are refused as the service refuses them (nothing reaches the bot; a failing
// step says why); `--update` records the calls. Through the update pipeline and the engine alone, with the same results.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSession, type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { updateText } from '../../src/conversation-tests/update-tests.js';
import { withRuleDir } from '../rules/rule-files.js';
import { failureTexts, runTestFile } from './test-files.js';

const COMMUNITY = `
rules:
  - id: third-link
    pattern: 'https?://'
    chat_types: [supergroup]
    when: { user.warnings: { gte: 2 } }
    delete: true
    restrict: { for: 1h }
    reply: "{{user.first_name}} is muted for an hour."
  - id: link
    pattern: 'https?://'
    chat_types: [supergroup]
    delete: true
    set: { user.warnings: { increment: 1 } }
    reply: "{{user.first_name}}, links are not allowed here."
  - id: rules
    command: rules
    chat_types: [supergroup]
    reply: "Be kind."
    pin: reply
  - id: spam
    text: buy cheap pills
    chat_types: [supergroup]
    ban: { for: 1d }
    reply: "Banned for a day."
`;

async function run(tests: string, driver: 'pipeline' | 'engine'): Promise<SessionOutcome> {
  return runTestFile(COMMUNITY, tests, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.testProblems.map((p) => p.message)).toEqual([]);
  return failureTexts(outcome, { name: false, line: true });
}

const GROUP = (admin: string) => `
tests:
  - name: links
    users: { ann: {}, ben: {} }
    chats: { kiez: { type: supergroup, ${admin} } }
    steps:`;

describe.each(['pipeline', 'engine'] as const)('moderation in hearsay test through the %s', (driver) => {
  it('expects deletions, a mute for an hour, a ban for a day and a pinned reply by an administrator bot', async () => {
    const outcome = await run(
      `${GROUP('admin: true')}
      - { from: ben, in: kiez, say: "see https://spam.example" }
      - from: ben
        in: kiez
        say: "again http://spam.example"
        expect: [{ deleted: true }, "Ben, links are not allowed here."]
      - from: ben
        in: kiez
        say: "last https://spam.example"
        expect: [{ deleted: true }, { restricted: { user: ben, for: 1h } }, "Ben is muted for an hour."]
      - from: ann
        in: kiez
        say: /rules
        expect: ["Be kind.", { pinned: true }]
      - from: ann
        in: kiez
        say: buy cheap pills
        expect: [{ banned: { user: ann, for: 1d } }, "Banned for a day."]
`,
      driver,
    );
    expect(failures(outcome)).toEqual([]);
  });

  it('shows what the bot did in the file’s notation when another user or time was expected', async () => {
    const outcome = await run(
      `${GROUP('admin: true')}
      - { from: ben, in: kiez, say: "a https://x.example" }
      - { from: ben, in: kiez, say: "b https://x.example" }
      - from: ben
        in: kiez
        say: "c https://x.example"
        expect: [{ deleted: true }, { restricted: { user: ann, for: 2h } }, "Ben is muted for an hour."]
`,
      driver,
    );
    expect(failures(outcome)).toEqual([
      '@9: the bot did not answer as expected\n  { deleted: true }\n- { restricted: { user: ann, for: 2h } }\n+ { restricted: { user: ben, for: 1h } }\n  "Ben is muted for an hour."',
    ]);
  });

  it('a muted or banned member cannot write: their message reaches no one until the time is up or it is lifted', async () => {
    const passing = await run(
      `${GROUP('admin: true')}
      - { from: ben, in: kiez, say: "a https://x.example" }
      - { from: ben, in: kiez, say: "b https://x.example" }
      - { from: ben, in: kiez, say: "c https://x.example", expect: [{ deleted: true }, { restricted: { user: ben, for: 1h } }, "Ben is muted for an hour."] }
      - { from: ben, in: kiez, say: /rules, expect: nothing }
      - { from: ann, in: kiez, say: buy cheap pills, expect: [{ banned: { user: ann, for: 1d } }, "Banned for a day."] }
      - { from: ann, in: kiez, say: /rules, times: 3, expect: nothing }
      - wait: 1h
      - { from: ben, in: kiez, say: /rules, expect: ["Be kind.", { pinned: true }] }
`,
      driver,
    );
    expect(failures(passing)).toEqual([]);
    const failing = await run(
      `${GROUP('admin: true')}
      - { from: ben, in: kiez, say: "a https://x.example" }
      - { from: ben, in: kiez, say: "b https://x.example" }
      - { from: ben, in: kiez, say: "c https://x.example" }
      - { from: ben, in: kiez, say: /rules, expect: ["Be kind.", { pinned: true }] }
`,
      driver,
    );
    const [failure] = failures(failing);
    expect(failure).toBe(
      '@10: the bot did not answer as expected\n- "Be kind."\n- { pinned: true }\n+ nothing\n' +
        "the service refused ben's message: ben is muted in kiez until 2026-01-05T10:00:00Z",
    );
  });

  it('without the right the service refuses the call, the reply still goes out, and the failure report says so', async () => {
    const outcome = await run(
      `${GROUP('admin: [can_pin_messages]')}
      - from: ben
        in: kiez
        say: "see https://spam.example"
        expect: [{ deleted: true }, "Ben, links are not allowed here."]
`,
      driver,
    );
    const [failure] = failures(outcome);
    expect(failure).toContain('- { deleted: true }\n+ "Ben, links are not allowed here."');
    expect(failure).toContain("message can't be deleted");
  });
});

describe('hearsay test: moderation steps checked when the file is read, recorded by --update', () => {
  it('names an unknown user in an expectation with its position', async () => {
    const outcome = await withRuleDir({ 'bot.yaml': COMMUNITY }, async (dir) => {
      await writeFile(join(dir, 'tests.yml'), `${GROUP('admin: true')}\n      - { from: ben, in: kiez, say: hi, expect: { banned: { user: cy } } }\n`);
      return runSession({ paths: [join(dir, 'tests.yml')], rules: join(dir, 'bot.yaml'), driver: 'pipeline' });
    });
    expect(outcome.testProblems.map((p) => p.message)).toEqual(["test 'links', step 1: no user 'cy' in this test (users: ann, ben)"]);
  });

  it('records moderation calls as expectations', async () => {
    const text = `${GROUP('admin: true')}
      - { from: ben, in: kiez, say: "a https://x.example" }
      - { from: ben, in: kiez, say: "b https://x.example" }
      - from: ben
        in: kiez
        say: "c https://x.example"
        expect:
`;
    const outcome = await run(text, 'pipeline');
    const updated = updateText(text, outcome.results[0]!.steps);
    expect(updated.text).toContain(
      'expect:\n          - { deleted: true }\n          - { restricted: { user: ben, for: 1h } }\n          - Ben is muted for an hour.',
    );
  });
});
