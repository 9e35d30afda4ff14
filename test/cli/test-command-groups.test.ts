// `hearsay test` on a community group as an operator writes it: a flood (`say` with `times`) under
// `limits.incoming` and an `event: flooding` rule, join requests (`request_join`) answered by questions in
// private, approved and declined; a wrong expectation fails, `times: 0` is a problem in the file, `--update`
// records a flood step. The built CLI on real files in a temp directory.
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARSAY_BIN } from '../support/cli.js';

let dir: string;

const RULES = `limits: { incoming: { per_user: 10, per: 1m } }
flows:
  - id: door
    start: { event: join_request }
    steps:
      - id: code
        ask: "Hi {{user.first_name}}! What do you code?"
      - id: agree
        ask: "Be kind, no spam. Agreed?"
        accept: { choice: { "yes": [yes], "no": [no] } }
    done:
      - when: { flow.agree: "yes" }
        approve: true
        reply: "Welcome in!"
      - decline: true
        reply: "Sorry, not this time."
rules:
  - id: slow-down
    event: flooding
    restrict: { for: 10m }
    reply: "{{user.first_name}}, slow down."
  - id: welcome
    event: member_joined
    reply: "Hello, {{user.first_name}}!"
  - id: echo
    pattern: '.+'
    chat_types: [supergroup]
    reply: "got it"
`;

const SETUP = `    users: { ann: {}, ben: {}, cid: {} }
    chats: { kiez: { type: supergroup, title: Kiez, admin: true }, dm: private }`;

const FLOOD = `tests:
  - name: ann floods the group
${SETUP}
    steps:
      - say: buy now
        from: ann
        times: 12
        expect:
          - { text: "got it", times: 10 }
          - { restricted: { user: ann, for: 10m } }
          - "Ann, slow down."
      - { say: "one more", from: ann, expect: nothing }
      - { say: "hi all", from: ben, expect: "got it" }
`;

const JOIN = `tests:
  - name: ben is let in, cid is not
${SETUP}
    steps:
      - request_join: ben
        in: kiez
        expect: { text: "Hi Ben! What do you code?", in: dm }
      - { say: Go, from: ben, in: dm, expect: "Be kind, no spam. Agreed?" }
      - say: "yes"
        from: ben
        in: dm
        expect: [{ approved: { user: ben } }, "Welcome in!", { text: "Hello, Ben!", in: kiez }]
      - { request_join: cid, in: kiez, expect: { text: "Hi Cid! What do you code?", in: dm } }
      - { say: nothing much, from: cid, in: dm }
      - { say: "no", from: cid, in: dm, expect: [{ declined: { user: cid } }, "Sorry, not this time."] }
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-test-groups-'));
  await mkdir(join(dir, 'rules'));
  await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
  await writeFile(join(dir, 'flood.yaml'), FLOOD);
  await writeFile(join(dir, 'join.yaml'), JOIN);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (args: string[]) => spawnSync('node', [HEARSAY_BIN, 'test', ...args], { cwd: dir, encoding: 'utf8' });

describe('hearsay test: floods and join requests', () => {
  it('passes a flood answered ten times, warned and muted at the 11th, silent after; and a join request approved and one declined', () => {
    const result = run(['flood.yaml', 'join.yaml']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^2 files, 2 tests, 9 steps, 0 failed \(\d+ ms\)\n$/);
    expect(result.status).toBe(0);
  });

  it('fails a flood step whose expectation is wrong: the warning expected at the 10th message', async () => {
    await writeFile(join(dir, 'early.yaml'), FLOOD.replace('{ text: "got it", times: 10 }', '{ text: "got it", times: 9 }'));
    const result = run(['early.yaml']);
    expect(result.stdout).toContain(
      [
        'FAIL early.yaml:6:9: ann floods the group, step 1 (say: buy now, times: 12): the bot did not answer as expected',
        ...Array<string>(9).fill('      "got it"'),
        '    - { restricted: { user: ann, for: 10m } }',
        '    + "got it"',
        '    - "Ann, slow down."',
        '    + { restricted: { user: ann, for: 10m } }',
        '    + "Ann, slow down."',
        '',
      ].join('\n'),
    );
    expect(result.stdout).toMatch(/1 file, 1 test, 1 step, 1 failed/);
    expect(result.status).toBe(1);
  });

  it('fails a join request whose answer is wrong', async () => {
    await writeFile(join(dir, 'wrong-join.yaml'), JOIN.replace('[{ declined: { user: cid } }', '[{ approved: { user: cid } }'));
    const result = run(['wrong-join.yaml']);
    expect(result.stdout).toContain(
      'FAIL wrong-join.yaml:16:9: ben is let in, cid is not, step 6 (say: no): the bot did not answer as expected\n' +
        '    - { approved: { user: cid } }\n    + { declined: { user: cid } }\n      "Sorry, not this time."\n',
    );
    expect(result.status).toBe(1);
  });

  it('refuses times: 0 (and 1001) at its file:line:column, and runs nothing', async () => {
    await writeFile(
      join(dir, 'zero.yaml'),
      FLOOD.replace('times: 12', 'times: 0').replace('{ say: "one more", from: ann,', '{ say: "one more", times: 1001, from: ann,'),
    );
    const result = run(['zero.yaml']);
    expect(result.stdout).toBe(
      "zero.yaml:8:16: times in test 'ann floods the group', step 1 must be a whole number from 1 to 1000 (got 0)\n" +
        "zero.yaml:13:35: times in test 'ann floods the group', step 2 must be a whole number from 1 to 1000 (got 1001)\n" +
        '2 problems in the test files; no test ran\n',
    );
    expect(result.status).toBe(2);
  });

  it('--update records a flood step with runs of the same output as one item with times', async () => {
    await writeFile(join(dir, 'record.yaml'), FLOOD.replace(/ {8}expect:\n( {10}- .*\n)+/, '        expect:\n'));
    const result = run(['record.yaml', '--update']);
    expect(result.stdout).toContain('updated record.yaml: 1 step recorded');
    const recorded = await readFile(join(dir, 'record.yaml'), 'utf8');
    expect(recorded).toContain(
      '        times: 12\n        expect:\n          - { text: got it, times: 10 }\n          - { restricted: { user: ann, for: 10m } }\n          - Ann, slow down.\n',
    );
    expect(run(['record.yaml']).status).toBe(0);
  });
});
