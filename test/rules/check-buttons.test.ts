// `hearsay check` on buttons, keyboards, presses and formatted texts: the service's limits (callback data
// 1–64 bytes, a label that is not blank, at most 100 buttons, links it accepts), what goes with what,
// presses nobody answers, and parse_mode markup the service would refuse — each at its line:column.
import { describe, expect, it } from 'vitest';
import { checkRules } from '../../src/rules/load.js';
import { withRuleDir } from './rule-files.js';

async function problemsOf(yaml: string): Promise<string[]> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => (await checkRules(dir)).problems.map((p) => p.format('').replace(/^:/, '')));
}

const POLL = `rules:
  - id: poll
    command: poll
    reply: "Where should the next meetup be?"
    buttons:
      - [{ text: "Café Kiez", data: "vote:kiez" }, { text: "Park Café", data: "vote:park" }]
      - [{ text: "Our website", url: "https://example.com" }]
  - id: vote
    callback: '^vote:(?<choice>\\w+)$'
    answer: "Thanks!"
    edit: "You chose {{match.choice}}."
    examples: ["vote:kiez"]
  - id: start
    command: start
    reply: "Which language?"
    keyboard: [["English", "Deutsch"]]
`;

describe('check: buttons and presses', () => {
  it('the issue example has no problem', async () => {
    expect(await problemsOf(POLL)).toEqual([]);
  });

  it('an empty button text, answer or keyboard label is named as what it is, not as the reply', async () => {
    const yaml = `rules:
  - id: a
    command: a
    reply: x
    buttons: [[{ text: "", data: "ok" }, { text: { en: "" }, data: "ok" }, { text: { EN: "B" }, data: "ok" }]]
  - id: ok
    callback: ok
    answer: ""
  - id: k
    command: k
    reply: x
    keyboard: [["", "b"]]
`;
    expect(await problemsOf(yaml)).toEqual([
      "5:24: 'buttons[0][0].text' in rule 'a' must not be empty",
      "5:50: 'buttons[0][1].text.en' in rule 'a' must not be empty",
      "5:84: 'buttons[0][2].text' in rule 'a' has 'EN', which is not a language code (two or three lowercase letters, like en)",
      "8:13: 'answer' in rule 'ok' must not be empty",
      "12:17: 'keyboard[0][0]' in rule 'k' must not be empty",
    ]);
  });

  it('the service limits: data over 64 bytes, a blank label, a link it refuses, more than 100 buttons', async () => {
    // 6 to a row: rows of 9 or more have a warning of their own.
    const many = Array.from({ length: 17 }, () => `[${Array.from({ length: 6 }, () => '{ text: "b", url: "https://example.com" }').join(', ')}]`);
    const yaml = `rules:
  - id: a
    command: a
    reply: x
    buttons:
      - [{ text: "long", data: "${'x'.repeat(65)}" }, { text: " ", data: "ok" }]
      - [{ text: "ftp", url: "ftp://example.com" }, { text: "host", url: "https://localhost" }]
  - id: b
    command: b
    reply: x
    buttons:
${many.map((row) => `      - ${row}`).join('\n')}
  - id: ok
    callback: ok
    answer: fine
`;
    expect(await problemsOf(yaml)).toEqual([
      `6:32: the data of button "long" in rule 'a' is 65 bytes; the service takes 1 to 64 bytes`,
      "6:111: a button of rule 'a' has only spaces as its text; the service refuses it",
      `7:30: the link 'ftp://example.com' of button "ftp" in rule 'a' is refused by the service: Unsupported URL protocol`,
      `7:74: the link 'https://localhost' of button "host" in rule 'a' is refused by the service: Wrong HTTP URL`,
      "12:7: rule 'b' has 102 buttons; the service takes at most 100 on one message",
    ]);
  });

  it('warns about a button whose data no callback rule answers, and about callback examples that miss their rule', async () => {
    const yaml = `${POLL}  - id: menu
    command: menu
    reply: Menu
    buttons: [[{ text: "Lost", data: "lost.1" }, { text: "Vote", data: "vote:x" }, { text: "Mine", data: "{{user.id}}" }]]
  - id: catch-all
    callback: '^vote'
    answer: "?"
    examples: ["vote:park", "other"]
`;
    expect(await problemsOf(yaml)).toEqual([
      `20:38: warning: no callback rule answers the data "lost.1" of button "Lost" in rule 'menu': a press would only stop the button spinning (add a rule with \`callback: '^lost\\.1$'\`)`,
      expect.stringMatching(/^24:16: warning: example data "vote:park" does not reach rule 'catch-all': rule 'vote' at \S+bot\.yaml:8:5 answers it first$/),
      '24:29: warning: example data "other" does not reach rule \'catch-all\': its pattern does not match it',
    ]);
  });

  it('what goes with what: answer/edit/alert only on callback rules, a press must do something, one keyboard per message', async () => {
    const yaml = `rules:
  - id: msg
    command: m
    reply: x
    answer: "no"
    edit: "no"
  - id: idle
    callback: x
  - id: both
    command: both
    reply: x
    buttons: [[{ text: a, data: x }]]
    keyboard: [[a]]
  - id: no-reply
    callback: x
    answer: ok
    keyboard: remove
    alert: true
  - id: long-answer
    callback: x
    answer: "${'a'.repeat(201)}"
`;
    expect(await problemsOf(yaml)).toEqual([
      "5:13: `answer` is for button presses, but rule 'msg' answers messages: give it a `callback:` trigger, or remove `answer`",
      "6:11: `edit` is for button presses, but rule 'msg' answers messages: give it a `callback:` trigger, or remove `edit`",
      "7:5: rule 'idle' does nothing with a press: add `answer`, `edit` or `reply`",
      "13:15: rule 'both' has both `buttons` and `keyboard`, but a message carries one of them: keep one (with `edit`, the buttons go on the edited message)",
      "17:15: a `keyboard` goes with a new message, and rule 'no-reply' has no `reply`: add one",
      "21:13: the answer of rule 'long-answer' is 201 characters; the service shows at most 200",
    ]);
  });

  it('placeholders in labels, data, answers and edits are checked like replies (captures of the callback pattern)', async () => {
    const yaml = `rules:
  - id: p
    callback: '^p:(?<id>\\d+)$'
    answer: "{{match.nope}}"
    edit: "{{args}}"
    buttons: [[{ text: "{{user.frist_name}}", data: "p:{{match.id}}" }]]
`;
    expect(await problemsOf(yaml)).toEqual([
      "4:13: {{match.nope}}: the pattern has no group named 'nope' (it has 'id'); name one with (?<nope>...) (in the answer of rule 'p')",
      "5:11: {{args}} is only available in command rules (it holds the text after the command) (in the edit of rule 'p')",
      expect.stringMatching(/^6:24: unknown placeholder \{\{user\.frist_name\}\}; .* \(in the text of button "\{\{user\.frist_name\}\}" of rule 'p'\)$/),
    ]);
  });

  it('formatted texts the service would refuse: unbalanced or unknown HTML tags, unescaped MarkdownV2 characters', async () => {
    const yaml = `rules:
  - id: html
    command: h
    parse_mode: HTML
    reply: ["<b>fine</b> {{user.first_name}} &amp; <i>ok</i>", "<b>open", "<div>x</div>"]
  - id: md
    command: m
    parse_mode: MarkdownV2
    reply: "Hello *{{user.first_name}}*\\\\. Done!"
  - id: edit
    callback: e
    parse_mode: MarkdownV2
    edit: "*bold"
`;
    expect(await problemsOf(yaml)).toEqual([
      `5:64: the service would refuse reply alternative #2 of rule 'html' (parse_mode HTML): can't parse entities: Can't find end tag corresponding to start tag "b"`,
      `5:75: the service would refuse reply alternative #3 of rule 'html' (parse_mode HTML): can't parse entities: Unsupported start tag "div" at byte offset 0`,
      "9:12: the service would refuse the reply of rule 'md' (parse_mode MarkdownV2): can't parse entities: Character '!' is reserved and must be escaped with the preceding '\\'",
      "13:11: the service would refuse the edit of rule 'edit' (parse_mode MarkdownV2): can't parse entities: Can't find end of Bold entity at byte offset 0",
    ]);
  });

  it('formatted texts are checked in every language and in each message of a sequence with its own parse_mode', async () => {
    const yaml = `languages: { default: en, supported: [en, de] }
rules:
  - id: html
    command: h
    parse_mode: HTML
    reply: { en: "<b>fine</b>", de: ["<b>gut</b>", "<b>offen"] }
  - id: edit
    callback: e
    parse_mode: HTML
    edit: { en: "<i>ok</i>", de: "<i>kaputt" }
  - id: seq
    command: s
    messages:
      - "plain <b"
      - reply: "Hello *there"
        parse_mode: MarkdownV2
`;
    expect(await problemsOf(yaml)).toEqual([
      `6:52: the service would refuse the 'de' text of reply alternative #2 of rule 'html' (parse_mode HTML): can't parse entities: Can't find end tag corresponding to start tag "b"`,
      `10:34: the service would refuse the edit of rule 'edit' (parse_mode HTML): can't parse entities: Can't find end tag corresponding to start tag "i"`,
      `15:16: the service would refuse message 2 of rule 'seq' (parse_mode MarkdownV2): can't parse entities: Can't find end of Bold entity at byte offset 6`,
    ]);
  });

  it('a static MarkdownV2 text names where the unescaped character is', async () => {
    const yaml = `rules:\n  - id: md\n    command: m\n    parse_mode: MarkdownV2\n    reply: "Price: 5.50 *today*"\n`;
    expect(await problemsOf(yaml)).toEqual([
      `5:12: the service would refuse the reply of rule 'md' (parse_mode MarkdownV2): can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\' (character 9 of the text: "Price: 5.50 *toda")`,
    ]);
  });

  it('flow steps: buttons on a step without a choice is a warning', async () => {
    const yaml = `flows:
  - id: f
    start: { command: f }
    steps:
      - id: name
        ask: "Name?"
        buttons: keyboard
`;
    expect(await problemsOf(yaml)).toEqual([
      "7:18: warning: `buttons` shows the options of a choice, and step 'name' of flow 'f' has no `accept: { choice: ... }`: remove it",
    ]);
  });
});
