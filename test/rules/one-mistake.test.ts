// One mistake, one problem: a typo anywhere in the demo's rules (a settings block, any kind of rule, a flow)
// gives exactly one problem, at the typo, and never a cascade of false ones in other rules or files.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRules } from '../../src/rules/load.js';
import { STARTER_RULES } from '../../src/scaffold/project-files.js';

const DEMO = new URL('../../rules', import.meta.url).pathname;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearsay-one-mistake-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error problems of the demo rules with one file's text changed by `edit` (which must change it). */
async function errorsAfter(file: string, edit: (text: string) => string, base = DEMO): Promise<string[]> {
  const copy = mkdtempSync(join(dir, 'rules-'));
  cpSync(base, copy, { recursive: true });
  const path = join(copy, file);
  const before = readFileSync(path, 'utf8');
  const after = edit(before);
  expect(after, `the edit of ${file} changes nothing`).not.toBe(before);
  writeFileSync(path, after);
  const { problems } = await checkRules(copy);
  return problems.filter((p) => p.severity === 'error').map((p) => p.format(p.file.slice(copy.length + 1)));
}

/** Replaces the `nth` (0-based) match of `find` in the text. */
function replaceNth(find: RegExp, nth: number, by: string): (text: string) => string {
  return (text) => {
    let seen = -1;
    return text.replace(new RegExp(find.source, `${find.flags.replace('g', '')}g`), (whole, ...groups: unknown[]) => {
      seen += 1;
      if (seen !== nth) return whole;
      return by.replace(/\$(\d)/g, (_, n: string) => String(groups[Number(n) - 1] ?? ''));
    });
  };
}

describe('one mistake, one problem: the settings blocks', () => {
  const cases: Array<[string, string, (text: string) => string, RegExp]> = [
    [
      'a misspelt key in languages',
      '10-commands.yaml',
      (t) => t.replace('  default: en', '  defualt: en'),
      /unknown key 'defualt' in languages; did you mean 'default'\?/,
    ],
    [
      'a key languages does not have',
      '10-commands.yaml',
      (t) => t.replace('  supported: [en, de]', '  supported: [en, de]\n  colour: red'),
      /unknown key 'colour' in languages/,
    ],
    [
      'supported as a text',
      '10-commands.yaml',
      (t) => t.replace('  supported: [en, de]', '  supported: en'),
      /'supported' in languages must be a list: write \[en\]/,
    ],
    ['a language that is no code', '10-commands.yaml', (t) => t.replace('  default: en', '  default: EN'), /'EN' in languages is not a language code/],
    [
      'languages as a text',
      '10-commands.yaml',
      (t) => t.replace('languages:\n  default: en\n  supported: [en, de]', 'languages: en'),
      /languages must be a mapping/,
    ],
    [
      'a synonym group as a text',
      '20-conversation.yaml',
      (t) => t.replace('  - [shipping, delivery, postage, versand, lieferung]', '  - shipping delivery'),
      /synonyms\[0\] must be a list of words that mean the same: write \[shipping, delivery\]/,
    ],
    [
      'a synonym group of one word',
      '20-conversation.yaml',
      (t) => t.replace('  - [shipping, delivery, postage, versand, lieferung]', '  - [shipping]'),
      /synonyms\[0\] needs at least two words/,
    ],
    ['fuzzy: on', '20-conversation.yaml', (t) => t.replace('synonyms:', 'fuzzy: on\nsynonyms:'), /fuzzy must be auto or off, not text "on"/],
  ];
  for (const [what, file, edit, message] of cases) {
    it(what, async () => {
      const errors = await errorsAfter(file, edit);
      expect(errors).toEqual([expect.stringMatching(message)]);
      expect(errors[0]).toMatch(new RegExp(`^${file.replace('.', '\\.')}:\\d+:\\d+: `));
    });
  }
});

describe('one mistake, one problem: each kind of rule', () => {
  const kinds: Array<[string, string, (text: string) => string]> = [
    ['a command rule (in the file that declares languages)', '10-commands.yaml', (t) => t.replace('    command: start', '    comand: start')],
    ['a text rule', '20-conversation.yaml', (t) => t.replace('    text: ping', '    txet: ping')],
    ['a pattern rule', '20-conversation.yaml', replaceNth(/ {4}pattern: /, 0, '    patern: ')],
    ['a keywords rule', '20-conversation.yaml', replaceNth(/ {4}keywords: /, 0, '    keyword: ')],
    ['a keywords rule given as a text', '20-conversation.yaml', (t) => t.replace('    keywords: [shipping]', '    keywords: shipping')],
    ['a callback rule', '40-buttons.yaml', replaceNth(/ {4}callback: /, 0, '    calback: ')],
    ['an event rule', '50-members.yaml', replaceNth(/ {4}event: /, 0, '    evnet: ')],
    ['the fallback', '99-fallback.yaml', (t) => t.replace('    fallback: true', '    falback: true')],
    ['a flow step', '30-booking.yaml', replaceNth(/ {8}ask:/, 0, '        aks:')],
    ['a flow start', '30-booking.yaml', (t) => t.replace('      command: book', '      comand: book')],
    ['a misspelt reply', '10-commands.yaml', replaceNth(/ {4}reply:/, 0, '    repyl:')],
  ];
  for (const [what, file, edit] of kinds) {
    it(what, async () => {
      expect(await errorsAfter(file, edit)).toEqual([expect.stringMatching(new RegExp(`^${file.replace('.', '\\.')}:\\d+:\\d+: `))]);
    });
  }

  it('every rule of the demo with its trigger misspelt, in turn', async () => {
    for (const file of readdirSync(DEMO).filter((name) => name.endsWith('.yaml'))) {
      const text = readFileSync(join(DEMO, file), 'utf8');
      const triggers = /^ {4}(command|text|pattern|keywords|callback|event|fallback): /gm;
      const count = [...text.matchAll(triggers)].length;
      for (let nth = 0; nth < count; nth++) {
        const errors = await errorsAfter(file, replaceNth(triggers, nth, '    x$1: '));
        expect(errors, `${file}, trigger #${nth + 1}`).toHaveLength(1);
      }
    }
  });

  it('the starter project of hearsay init: a typo in a rule of the file that declares the languages', async () => {
    const starter = mkdtempSync(join(dir, 'starter-'));
    writeFileSync(join(starter, '10-start.yaml'), STARTER_RULES);
    expect(await errorsAfter('10-start.yaml', (t) => t.replace('    command: help', '    comand: help'), starter)).toEqual([
      expect.stringMatching(/^10-start\.yaml:\d+:5: unknown key 'comand' in rule 'help'; did you mean 'command'\?$/),
    ]);
  });
});

describe('wrong types say what was given and what is wanted', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['    keywords: [refund, "money back", return]', '    keywords: refund', /'keywords' in rule 'refund' must be a list: write \[refund\]$/],
    ['    chat_types: [private]', '    chat_types: private', /'chat_types' in rule 'refund' must be a list: write \[private\]$/],
    ['    examples: ["ping", "  PING "]', '    examples: ping', /'examples' in rule 'ping' must be a list: write \[ping\]$/],
    ['    text: ping', '    text: 42', /'text' in rule 'ping' must be a text: write "42"$/],
  ];
  for (const [from, to, message] of cases) {
    it(to.trim(), async () => {
      expect(await errorsAfter('20-conversation.yaml', replaceNth(new RegExp(from.replace(/[[\]()"^$.*+?{}|\\]/g, '\\$&')), 0, to))).toEqual([
        expect.stringMatching(message),
      ]);
    });
  }
});
