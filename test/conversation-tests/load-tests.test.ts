// Loading conversation test files: every problem at the line:column of the node that caused it, with a
// message that says what to write instead; a valid file becomes the runner's model.
import { describe, expect, it } from 'vitest';
import { compileTestFile } from '../../src/conversation-tests/load-tests.js';
import { parseYaml } from '../../src/yaml/source.js';

function problems(text: string): string[] {
  return compileTestFile(parseYaml('t.yaml', text), 'rules/').problems.map((p) => p.format());
}

describe('loading test files', () => {
  it('reports schema problems at their node: unknown keys with a suggestion, a step doing two things, a wrong duration', () => {
    expect(
      problems(`tests:
  - name: a
    usr: { first_name: Ann }
    steps:
      - say: hi
        press: Yes
      - wait: 15 minutes
      - say: hi
        expect: { contians: x }
`),
    ).toEqual([
      "t.yaml:3:5: unknown key 'usr' in test 'a'; did you mean 'user'?",
      "t.yaml:5:9: test 'a', step 1 has say and press: one step does one thing; split it into 2 steps",
      "t.yaml:7:15: wait in test 'a', step 2 must be a number and a unit s, m, h or d (90s, 15m, 2h, 1d)",
      "t.yaml:9:19: unknown key 'contians' in test 'a', step 3; did you mean 'contains'?",
    ]);
  });

  it('reports what the schema cannot see: unknown users and chats, joins in a private chat, a bad pattern, duplicate names', () => {
    expect(
      problems(`tests:
  - name: a
    users: { ann: {}, bob: {} }
    steps:
      - say: hi
        from: carol
      - join: ann
      - say: hi
        in: group
        expect: { pattern: "[" }
  - name: a
    steps:
      - state: { user.x: 1 }
`),
    ).toEqual([
      "t.yaml:6:15: test 'a', step 1: no user 'carol' in this test (users: ann, bob)",
      "t.yaml:7:15: test 'a', step 2: users join groups, and chat 'chat' is private: name the group with `in:`",
      "t.yaml:9:13: test 'a', step 3: no chat 'group' in this test (chats: chat)",
      "t.yaml:10:28: test 'a', step 3: invalid pattern: missing closing ]: `[`",
      "t.yaml:11:11: two tests are named 'a' (also test 1): names must be unique in a file",
    ]);
  });

  it('takes expectation patterns in RE2 syntax, as rules do: a JavaScript literal with flags is refused with what to write', () => {
    expect(problems('tests:\n  - name: a\n    steps:\n      - say: hi\n        expect: { pattern: "/hello/i" }\n')).toEqual([
      "t.yaml:5:28: test 'a', step 1: this looks like a JavaScript regex literal with flags 'i': write only 'hello' (flags are not supported; g and y would make matching depend on the previous message, write (?i) at its start to ignore case)",
    ]);
    expect(problems('tests:\n  - name: a\n    steps:\n      - say: hi\n        expect: { pattern: "(?i)^HELLO\\\\b" }\n')).toEqual([]);
  });

  it('reports broken YAML and an empty file', () => {
    expect(problems('tests:\n\t- name: a\n')).toEqual(['t.yaml:2:1: YAML: a tab indents this line; YAML indents with spaces only']);
    expect(problems('')).toEqual(['t.yaml:1:1: the file is empty: write `tests:` followed by a list of tests']);
  });

  it('compiles users, chats and steps with their defaults and positions', () => {
    const { file } = compileTestFile(
      parseYaml(
        '/x/t.yaml',
        `rules: ../bot
tests:
  - name: a
    users: { ann: {}, bob: { first_name: Robert, id: 42, language_code: de } }
    chats: { dm: private, shop: group }
    steps:
      - say: hi
      - press: { data: "yes" }
        from: bob
        in: shop
        expect: [{ answer: Thanks, alert: true }, { edit: { contains: booked } }]
      - wait: 16m
        expect: nothing
`,
      ),
      'rules/',
    );
    expect(file?.rulesPath).toBe('/bot');
    expect(file?.botUsername).toBe('hearsay_test_bot');
    const test = file!.tests[0]!;
    expect(test.users.map((u) => [u.key, u.id, u.first_name, u.language_code])).toEqual([
      ['ann', 1001, 'Ann', undefined],
      ['bob', 42, 'Robert', 'de'],
    ]);
    expect(test.chats.map((c) => [c.key, c.type, c.id, c.privacy])).toEqual([
      ['dm', 'private', -1001, true],
      ['shop', 'group', -1002, true],
    ]);
    const [say, press, wait] = test.steps;
    expect([say!.position.line, say!.user.key, say!.chat.key, say!.expect]).toEqual([7, 'ann', 'dm', undefined]);
    expect(press!.action).toEqual({ kind: 'press', by: 'data', value: 'yes' });
    expect([press!.user.key, press!.chat.key, press!.label]).toEqual(['bob', 'shop', 'press: { data: yes }']);
    expect(press!.expect).toEqual([
      { kind: 'answer', text: { kind: 'exact', text: 'Thanks' }, alert: true },
      { kind: 'edit', text: { kind: 'contains', text: 'booked' } },
    ]);
    expect([wait!.action, wait!.expect]).toEqual([{ kind: 'wait', ms: 16 * 60_000, source: '16m' }, 'nothing']);
  });
});
