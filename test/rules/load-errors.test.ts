// Every kind of rule-file problem is reported at the exact line:column of the node that caused it,
// with a message that says what to do, and all problems of all files come at once.
import { describe, expect, it } from 'vitest';
import { checkRules, loadRuleSet } from '../../src/rules/load.js';
import { RuleLoadError } from '../../src/diagnostics/problem.js';
import { withRuleDir } from './rule-files.js';

/** Problems of one file as `line:column: message` (warnings prefixed), for exact assertions. */
async function problemsOf(yaml: string, name = 'bot.yaml'): Promise<string[]> {
  return withRuleDir({ [name]: yaml }, async (dir) => (await checkRules(dir)).problems.map((p) => p.format('').replace(/^:/, '')));
}

describe('rule file errors with positions', () => {
  it('YAML syntax errors', async () => {
    expect(await problemsOf('rules:\n  - id: a\n    text: [oops\n')).toEqual([expect.stringMatching(/^4:1: YAML: /)]);
    expect(await problemsOf('rules:\n  - id: a\n    id: b\n    text: x\n    reply: y\n')).toEqual([
      "3:5: YAML: key 'id' appears twice in the same mapping; keep one",
    ]);
  });

  it('the YAML mistakes new users make say what to change, once per line', async () => {
    expect(await problemsOf('rules:\n  - id: b\n\tcommand: start\n    reply: hi\n')).toEqual([
      '3:1: YAML: a tab indents this line; YAML indents with spaces only',
    ]);
    expect(await problemsOf('rules:\n  - id: a\n    command: start\n    reply: Note: we are closed\n')).toEqual([
      "4:12: YAML: a second ': ' on this line starts a nested mapping; if it is part of the text, put the whole value in quotes",
    ]);
  });

  it('a YAML error hides none of the problems in the rules the parser still read whole', async () => {
    const yaml = [
      'rules:',
      '  - id: order',
      "    pattern: 'order ('",
      '    reply: x',
      '  - id: closed',
      '    command: hours',
      '    reply: Note: we are closed',
      '  - id: help',
      '    command: help',
      '    repyl: oops',
      '  - id: greet',
      '    text: hi',
      '    reply: "Hi {{user.frist_name}}"',
      '  - id: order',
      '    text: again',
      '    reply: dup',
      '',
    ].join('\n');
    const problems = await problemsOf(yaml);
    expect(problems).toEqual([
      "3:14: invalid pattern: missing closing ): `order (` in rule 'order'",
      "7:12: YAML: a second ': ' on this line starts a nested mapping; if it is part of the text, put the whole value in quotes",
      "10:5: unknown key 'repyl' in rule 'help'; did you mean 'reply'?",
      expect.stringMatching(/^13:\d+: unknown placeholder \{\{user\.frist_name\}\}/),
      expect.stringMatching(/^14:9: duplicate rule id 'order': already used at .*:2:9/),
    ]);
    // Still no rule set: the file is broken.
    await withRuleDir({ 'bot.yaml': yaml }, async (dir) => {
      await expect(loadRuleSet(dir)).rejects.toBeInstanceOf(RuleLoadError);
    });
  });

  it('an unquoted {{placeholder}} is reported at its position without a warning on stderr', async () => {
    const warnings: unknown[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      expect(await problemsOf('rules:\n  - id: a\n    command: start\n    reply: {{user.first_name}}\n')).toEqual([
        "4:12: the reply of rule 'a' must be a text or a list of texts, not a mapping (quote it)",
      ]);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it('an unknown key, with the nearest known key suggested', async () => {
    expect(await problemsOf('rules:\n  - id: greet\n    text: hi\n    repyl: hello\n')).toEqual([
      "4:5: unknown key 'repyl' in rule 'greet'; did you mean 'reply'?",
    ]);
    // One mistake, one problem: the misspelt key says what was meant, so the missing `rules:` is not a second one.
    expect(await problemsOf('rule:\n  - id: a\n')).toEqual(["1:1: unknown top-level key 'rule'; did you mean 'rules'?"]);
  });

  it('two triggers, no trigger, no reply', async () => {
    expect(await problemsOf("rules:\n  - id: greet\n    text: hi\n    pattern: '^hi'\n    reply: hello\n")).toEqual([
      "4:5: rule 'greet' has two triggers (text, pattern): keep one",
    ]);
    expect(await problemsOf('rules:\n  - id: lonely\n    reply: hello\n')).toEqual([
      "2:5: rule 'lonely' has no trigger: add one of command, text, pattern, keywords, all, fallback, callback, event, media",
    ]);
    expect(await problemsOf('rules:\n  - id: mute\n    text: hi\n')).toEqual([
      "2:5: rule 'mute' has no reply: add `reply:` with the text to send (or `reply: none` to answer nothing)",
    ]);
  });

  it('a command written with a slash, and an invalid command name', async () => {
    expect(await problemsOf('rules:\n  - id: s\n    command: /start\n    reply: hi\n')).toEqual(["3:14: write the command without the slash: 'start'"]);
    expect(await problemsOf('rules:\n  - id: s\n    command: "go-now"\n    reply: hi\n')).toEqual([
      "3:14: command 'go-now' in rule 's' is not a command name: use 1 to 32 letters, digits or underscores",
    ]);
  });

  it('wrong values: chat type, parse mode, reply type, fallback false', async () => {
    const yaml =
      'rules:\n  - id: c\n    text: hi\n    chat_types: [privat]\n    parse_mode: html\n    reply: [ok, 3]\n  - id: f\n    fallback: false\n    reply: x\n';
    expect(await problemsOf(yaml)).toEqual([
      "4:18: 'privat' in rule 'c' is not a chat type; did you mean 'private'? (use one of private, group, supergroup, channel)",
      "5:17: 'html' in rule 'c' is not a parse mode; did you mean 'HTML'? (use one of HTML, MarkdownV2)",
      "6:17: reply alternative #2 of rule 'c' must be text, not number 3 (quote it)",
      "8:15: fallback in rule 'f' must be `true`; to turn the fallback off, remove the rule",
    ]);
  });

  it('an invalid regular expression, at the pattern', async () => {
    expect(await problemsOf("rules:\n  - id: r\n    pattern: '(a'\n    reply: x\n")).toEqual(["3:14: invalid pattern: missing closing ): `(a` in rule 'r'"]);
    expect(await problemsOf("rules:\n  - id: r\n    pattern: '(?=a)b'\n    reply: x\n")).toEqual([
      expect.stringMatching(/^3:14: invalid pattern: .*lookarounds are not supported/),
    ]);
    expect(await problemsOf("rules:\n  - id: r\n    pattern: '(a)\\1'\n    reply: x\n")).toEqual([
      "3:14: invalid pattern: invalid escape sequence: `\\1` (back-references are not supported: RE2 syntax guarantees linear time) in rule 'r'",
    ]);
    expect(await problemsOf("rules:\n  - id: r\n    pattern: '/hello/g'\n    reply: x\n")).toEqual([
      expect.stringMatching(/^3:14: this looks like a JavaScript regex literal with flags 'g'/),
    ]);
  });

  it('each bad placeholder, at the reply string', async () => {
    const cases: [string, string, RegExp][] = [
      ['command: go', '"{{user.frist_name}}"', /unknown placeholder \{\{user\.frist_name\}\}/],
      ['command: go', '"{{constructor}}"', /unknown placeholder \{\{constructor\}\}/],
      ['command: go', '"{{__proto__}}"', /unknown placeholder \{\{__proto__\}\}/],
      ['command: go', '"{{match.x}}"', /\{\{match\.x\}\} needs a pattern or callback rule/],
      ["pattern: 'order (?<num>\\d+)'", '"{{match.nmu}}"', /the pattern has no group named 'nmu' \(it has 'num'\)/],
      ["pattern: 'order (\\d+)'", '"{{match.3}}"', /\{\{match\.3\}\}: the pattern has only 1 capturing group/],
      ['text: hi', '"{{args}}"', /\{\{args\}\} is only available in command rules/],
      ['text: hi', '"{{ text }"', /unbalanced '\{\{' or '\}\}'/],
    ];
    for (const [trigger, reply, message] of cases) {
      const problems = await problemsOf(`rules:\n  - id: t\n    ${trigger}\n    reply: ${reply}\n`);
      expect(problems, reply).toEqual([expect.stringMatching(new RegExp(`^4:12: .*${message.source}`))]);
    }
    // In a list, the position is the alternative's own.
    expect(await problemsOf('rules:\n  - id: t\n    text: hi\n    reply:\n      - fine\n      - "{{nope}}"\n')).toEqual([
      expect.stringMatching(/^6:9: unknown placeholder \{\{nope\}\}/),
    ]);
  });

  it('a rule that fails the schema still has its pattern and placeholders checked in the same run', async () => {
    expect(await problemsOf("rules:\n  - id: order\n    pattern: 'order (?<num>\\d+'\n    repyl: x\n")).toEqual([
      "3:14: invalid pattern: missing closing ): `order (?<num>\\d+` in rule 'order'",
      "4:5: unknown key 'repyl' in rule 'order'; did you mean 'reply'?",
    ]);
    expect(await problemsOf('rules:\n  - id: s\n    command: /start\n    reply: "Hi {{user.first_nam}}"\n')).toEqual([
      "3:14: write the command without the slash: 'start'",
      expect.stringMatching(/^4:12: unknown placeholder \{\{user\.first_nam\}\}; available: /),
    ]);
    // With two triggers, which placeholders the reply may use is unknown: no guess is reported.
    expect(await problemsOf("rules:\n  - id: g\n    text: hi\n    pattern: '^hi'\n    reply: '{{match.1}}'\n")).toEqual([
      "4:5: rule 'g' has two triggers (text, pattern): keep one",
    ]);
  });

  it('duplicate ids across files, naming both places', async () => {
    await withRuleDir(
      { '10-a.yaml': 'rules:\n  - id: greet\n    text: hi\n    reply: a\n', '20-b.yaml': '# second\nrules:\n  - id: greet\n    text: hey\n    reply: b\n' },
      async (dir) => {
        const { problems } = await checkRules(dir);
        expect(problems.map((p) => p.format())).toEqual([
          `${dir}/20-b.yaml:3:9: duplicate rule id 'greet': already used at ${dir}/10-a.yaml:2:9; ids must be unique across all rule files`,
        ]);
      },
    );
  });

  it('reports all problems of all files at once and throws RuleLoadError carrying them', async () => {
    await withRuleDir(
      {
        'a.yaml': 'rules:\n  - id: a\n    txt: hi\n    reply: x\n',
        'b.yml': "rules:\n  - id: b\n    pattern: '(b'\n    reply: x\n",
        'c.yaml': '',
        'notes.txt': 'not a rule file',
      },
      async (dir) => {
        const result = await checkRules(dir);
        expect(result.fileCount).toBe(3);
        expect(result.problems.map((p) => `${p.file.slice(dir.length + 1)}:${p.line}:${p.column}`)).toEqual(['a.yaml:3:5', 'b.yml:3:14', 'c.yaml:1:1']);
        const error = await loadRuleSet(dir).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RuleLoadError);
        expect((error as RuleLoadError).problems).toHaveLength(3);
        expect((error as RuleLoadError).message).toContain('a.yaml:3:5');
      },
    );
  });

  it('warns (without failing) about rules that can never fire and examples that miss their rule', async () => {
    const yaml = [
      'rules:',
      '  - id: hello',
      '    text: hello',
      '    reply: a',
      '  - id: hello-again',
      '    text: "  HELLO "',
      '    reply: b',
      '  - id: greet',
      "    pattern: '^hel'",
      '    reply: c',
      '    examples: ["hello", "help me", "nothing"]',
      '',
    ].join('\n');
    const problems = await problemsOf(yaml);
    expect(problems).toEqual([
      expect.stringMatching(/^6:11: warning: rule 'hello-again' can never fire: rule 'hello' at .*bot\.yaml:2:5 has the same text trigger and comes first$/),
      expect.stringMatching(/^11:16: warning: example "hello" does not reach rule 'greet': rule 'hello' at .*:2:5 answers it first$/),
      '11:36: warning: example "nothing" does not reach rule \'greet\': no rule matches it',
    ]);
    await withRuleDir({ 'bot.yaml': yaml }, async (dir) => expect((await loadRuleSet(dir)).rules).toHaveLength(3));
  });

  it('warns about a static reply longer than 4096 characters', async () => {
    expect(await problemsOf(`rules:\n  - id: long\n    text: essay\n    reply: ${'a'.repeat(5000)}\n`)).toEqual([
      "4:12: warning: the reply of rule 'long' is 5000 characters; the service refuses more than 4096, so it will be sent in several messages",
    ]);
  });

  it('a template in a `when` value is an error: `when` compares with fixed values, and {{…}} would never be filled in', async () => {
    const yaml = [
      'rules:',
      '  - id: same-name',
      '    text: again',
      '    when:',
      '      user.name: "{{user.first_name}}"',
      '      chat.mode: { not: "{{var.chat.old}}" }',
      '    reply: hi',
      '',
    ].join('\n');
    expect(await problemsOf(yaml)).toEqual([
      "5:18: 'user.name' in the `when` of rule 'same-name' compares with \"{{user.first_name}}\": `when` compares with fixed values, {{…}} is not filled in there",
      "6:18: 'chat.mode' in the `when` of rule 'same-name' compares with \"{{var.chat.old}}\": `when` compares with fixed values, {{…}} is not filled in there",
    ]);
  });

  it('an empty directory and a missing path are problems, not crashes', async () => {
    await withRuleDir({}, async (dir) => {
      expect((await checkRules(dir)).problems.map((p) => p.format())).toEqual([`${dir}: no rule files here (*.yaml or *.yml)`]);
      expect((await checkRules(`${dir}/missing`)).problems.map((p) => p.message)).toEqual(['cannot read the rules: no such file or directory']);
    });
  });
});
