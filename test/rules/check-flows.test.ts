// `hearsay check` on variables and flows: every problem at the line:column of the node that caused it,
// with a message that names the flow, step or variable and says what to do.
import * as yaml from 'yaml';
import { describe, expect, it, vi } from 'vitest';
import { checkRules } from '../../src/rules/load.js';
import { BOOKING } from '../engine/booking-rules.js';
import { withRuleDir } from './rule-files.js';

// Counts the YAML node trees built: a clean file is read by the loader's fast reader, which builds none.
vi.mock('yaml', async (original) => {
  const actual = await original<typeof import('yaml')>();
  return { ...actual, parseDocument: vi.fn(actual.parseDocument) };
});

/** Problems of one file as `line:column: message` (warnings prefixed), for exact assertions. */
async function problemsOf(yaml: string): Promise<string[]> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) =>
    (await checkRules(dir)).problems.map((p) => p.format('').replace(/^:/, '').replaceAll(`${dir}/`, '')),
  );
}

describe('schema problems in flows and variables', () => {
  it('say what to write, at the offending key or value', async () => {
    const yaml = [
      'rules:', // 1
      '  - id: greet', // 2
      '    text: hi', // 3
      '    when: { session.x: 1 }', // 4
      '    set: { user.n: { add: 1 } }', // 5
      '    reply: hi', // 6
      'flows:', // 7
      '  - id: f', // 8
      '    start: { command: f, texts: x }', // 9
      '    timeout: { after: 15 min, reply: bye }', // 10
      '    cancel: { reply: x }', // 11
      '    steps:', // 12
      '      - id: 1a', // 13
      '        ask: q', // 14
      '        accept: { number: {}, choice: { a: [b] } }', // 15
      '        retyr: x', // 16
      '  - id: g', // 17
      '    start: { command: g }', // 18
      '    steps: []', // 19
      '',
    ].join('\n');
    expect(await problemsOf(yaml)).toEqual([
      "4:13: 'session.x' in the `when` of rule 'greet': unknown scope 'session'; write user.NAME, chat.NAME, member.NAME or flow.STEP (names: letters, digits, '_', at most 64)",
      "5:20: the value of 'user.n' in the `set` of rule 'greet' must be a text (at most 1024 characters), a number, { increment: N } or { unset: true }",
      "9:26: unknown key 'texts' in the start of flow 'f'; did you mean 'text'?",
      "10:23: '15 min' in the timeout of flow 'f' is not a duration: write a number and a unit (s, m, h or d), e.g. 15m",
      "11:13: the cancel of flow 'f' needs `keywords` or `command`: what cancels the flow",
      "13:13: step id '1a' in flow 'f' may use only letters, digits and '_' (at most 64, not starting with a digit): it is used as {{flow.ID}}",
      "15:17: the `accept` of step '1a' of flow 'f' takes exactly one of pattern, number or choice (without accept, any text is taken)",
      "16:9: unknown key 'retyr' in step '1a' of flow 'f'; did you mean 'retry'?",
      "19:12: 'steps' in flow 'g' must not be empty",
    ]);
  });

  it('an empty question, retry or done reply is named by its field and owner', async () => {
    const yaml = [
      'flows:', // 1
      '  - id: f', // 2
      '    start: { command: f }', // 3
      '    steps:', // 4
      '      - id: a', // 5
      '        ask: ""', // 6
      '        accept: { number: {} }', // 7
      '      - id: b', // 8
      '        ask: { en: "ok?", de: "" }', // 9
      '        retry: ""', // 10
      '    done:', // 11
      '      - reply: ""', // 12
    ].join('\n');
    expect(await problemsOf(yaml)).toEqual([
      "6:14: 'ask' in step 'a' of flow 'f' must not be empty",
      "9:14: 'ask.de' in step 'b' of flow 'f' must not be empty",
      "10:16: 'retry' in step 'b' of flow 'f' must not be empty",
      "12:16: 'reply' in done branch #1 of flow 'f' must not be empty",
    ]);
  });

  it('a flow and a rule may not share an id', async () => {
    const yaml = 'rules:\n  - id: book\n    text: b\n    reply: r\nflows:\n  - id: book\n    start: { command: book }\n    steps:\n      - { id: a, ask: q }\n';
    expect((await problemsOf(yaml))[0]).toMatch(
      /^6:9: duplicate flow id 'book': already used at bot\.yaml:2:9; ids of rules and flows must be unique across all rule files$/,
    );
  });
});

describe('compile errors in flows and variables', () => {
  it('flow answers used where they do not exist yet, message placeholders in a timeout, impossible steps', async () => {
    const yaml = [
      'rules:', // 1
      '  - id: greet', // 2
      '    text: hi', // 3
      '    set: { flow.x: 1 }', // 4
      '    reply: "Hi {{flow.date}}"', // 5
      'flows:', // 6
      '  - id: booking', // 7
      '    start: { command: book }', // 8
      '    timeout: { after: 15m, reply: "bye {{user.first_name}}" }', // 9
      '    steps:', // 10
      '      - id: date', // 11
      '        ask: "Date? {{flow.size}}"', // 12
      '      - id: size', // 13
      '        ask: "How many? {{flow.nope}}"', // 14
      '        accept: { number: { min: 5, max: 3 } }', // 15
      '      - id: confirm', // 16
      '        ask: "ok?"', // 17
      '        accept: { choice: { "yes": [y], "no": [y] } }', // 18
      '    done:', // 19
      '      - when: { flow.zzz: "yes" }', // 20
      '        reply: "ok"', // 21
      '',
    ].join('\n');
    expect(await problemsOf(yaml)).toEqual([
      "4:20: 'flow.x' in the `set` of rule 'greet': a flow's answers come from its steps; set user.NAME, chat.NAME or member.NAME instead",
      "5:12: {{flow.date}} is only available inside a flow (its steps' questions and done) (in the reply of rule 'greet')",
      "9:35: {{user.first_name}} is not available here: the bot writes on its own, with no message to take it from (in the timeout reply of flow 'booking')",
      "12:14: {{flow.size}}: step 'size' of flow 'booking' is not answered yet at this point (it is this step or a later one) (in the question of step 'date' of flow 'booking')",
      "14:14: {{flow.nope}}: flow 'booking' has no step 'nope' (answered by then: 'date') (in the question of step 'size' of flow 'booking')",
      "15:27: step 'size' of flow 'booking' can never be answered: no whole number is from 5 to 3",
      "18:48: choice word \"y\" in step 'confirm' of flow 'booking' already chooses 'yes'; a word can choose one option only",
      "20:27: 'flow.zzz' in the `when` of done branch #1 of flow 'booking': step 'zzz' of flow 'booking' does not exist",
    ]);
  });

  it('a placeholder the cancel reply cannot fill is shown at the cancel reply, not at the flow', async () => {
    const yaml = [
      'flows:', // 1
      '  - id: booking', // 2
      '    start: { command: book }', // 3
      '    steps:', // 4
      '      - id: date', // 5
      '        ask: When?', // 6
      '    cancel:', // 7
      '      keywords: [stop]', // 8
      '      reply: "Cancelled {{flow.nope}}"', // 9
      '',
    ].join('\n');
    expect(await problemsOf(yaml)).toEqual([
      "9:14: {{flow.nope}}: flow 'booking' has no step 'nope' (no step is answered yet here) (in the cancel reply of flow 'booking')",
    ]);
  });
});

describe('warnings about variables and flows', () => {
  it('unset variables, a flow no trigger can start, examples, options nothing can choose, unused done branches', async () => {
    const yaml = [
      'rules:', // 1
      '  - id: greet', // 2
      '    text: hi', // 3
      '    when: { user.nick: { exists: true } }', // 4
      '    reply: "Hi {{var.user.nick}}"', // 5
      '  - id: yes-word', // 6
      '    text: ja', // 7
      '    during_flows: true', // 8
      '    reply: "ja?"', // 9
      '  - id: book-rule', // 10
      '    command: book', // 11
      '    reply: rule', // 12
      '  - id: age', // 13
      '    text: age', // 14
      '    when: { user.age: { gt: 5, lt: 3 } }', // 15
      '    set: { user.age: 4 }', // 16
      '    reply: age', // 17
      'flows:', // 18
      '  - id: booking', // 19
      '    start: { command: book, examples: ["/book"] }', // 20
      '    cancel: { keywords: [cancel, stop], reply: cancelled }', // 21
      '    steps:', // 22
      '      - id: confirm', // 23
      '        ask: "ok?"', // 24
      '        accept: { choice: { "ja": [], "stop": [halt] } }', // 25
      '      - id: sure', // 26
      '        ask: "sure?"', // 27
      '        accept: { choice: { "stop": [] } }', // 28
      '    done:', // 29
      '      - reply: "Booked {{var.chat.total}}"', // 30
      '      - reply: never', // 31
      '',
    ].join('\n');
    expect(await problemsOf(yaml)).toEqual([
      "4:24: warning: 'user.nick' in the `when` of rule 'greet': no rule or flow sets user.nick, so it never has a value (set it with `set:`, or check the name)",
      '5:12: warning: {{var.user.nick}}: no rule or flow sets user.nick, so it never has a value (set it with `set:`, or check the name)',
      "15:23: warning: the condition on 'user.age' in rule 'age' can never hold: no number is in that range",
      "20:23: warning: flow 'booking' can never start: rule 'book-rule' at bot.yaml:10:5 has the same command trigger and comes first",
      "20:40: warning: example \"/book\" does not start flow 'booking': rule 'book-rule' at bot.yaml:10:5 answers it first",
      "25:35: warning: option 'ja' of step 'confirm' of flow 'booking' can never be chosen: for 'ja', rule 'yes-word' (during_flows) at bot.yaml:6:5 answers it first",
      "26:9: warning: step 'sure' of flow 'booking' can never be answered: none of its options can be chosen",
      "28:37: warning: option 'stop' of step 'sure' of flow 'booking' can never be chosen: for 'stop', it cancels the flow",
      '30:16: warning: {{var.chat.total}}: no rule or flow sets chat.total, so it never has a value (set it with `set:`, or check the name)',
      "31:9: warning: done branch #2 of flow 'booking' is never used: branch #1 has no `when`, so it always answers first",
    ]);
  });

  it('the issue booking bot checks clean', async () => {
    expect(await problemsOf(BOOKING)).toEqual([]);
  });

  it("are placed without building a clean file's YAML node tree, but for a position deeper than a rule's own keys", async () => {
    const trees = vi.mocked(yaml.parseDocument);
    const counting = [
      'rules:', // 1
      '  - id: count', // 2
      '    text: count', // 3
      '    set:', // 4
      '      user.n:', // 5
      '        increment: 1', // 6
      '    reply: "counted {{var.user.n}}"', // 7
      '  - id: show', // 8
      '    text: show', // 9
      '    when:', // 10
      '      user.n: 3', // 11
      '    reply: "you are at {{var.user.n}}, {{user.first_name}}"', // 12
      '',
    ];
    trees.mockClear();
    expect(await problemsOf(counting.join('\n'))).toEqual([]);
    expect(trees).not.toHaveBeenCalled();
    const inReply = counting.map((line) => line.replace('you are at {{var.user.n}}', 'you are at {{var.user.m}}'));
    expect(await problemsOf(inReply.join('\n'))).toEqual([
      '12:12: warning: {{var.user.m}}: no rule or flow sets user.m, so it never has a value (set it with `set:`, or check the name)',
    ]);
    expect(trees).not.toHaveBeenCalled();
    const inWhen = counting.map((line) => line.replace('user.n: 3', 'user.m: 3'));
    expect(await problemsOf(inWhen.join('\n'))).toEqual([
      "11:15: warning: 'user.m' in the `when` of rule 'show': no rule or flow sets user.m, so it never has a value (set it with `set:`, or check the name)",
    ]);
    expect(trees).toHaveBeenCalledTimes(1);
  });
});
