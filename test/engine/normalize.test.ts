// Unicode cases a user expects to match, end to end through real rule files: Turkish İ, the capital ẞ, ❤ with
// and without its emoji selector, right-to-left marks, Arabic vowel marks; and what normalisation leaves alone.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { normalize, normalizeForPattern } from '../../src/engine/normalize.js';
import { loadRuleSet } from '../../src/rules/load.js';
import { decideMessage, message, replyText } from './messages.js';

const RULES = `rules:
  - id: istanbul
    text: İstanbul
    reply: city
  - id: strasse
    keywords: [straße]
    reply: street
  - id: heart
    text: "❤️"
    reply: love
  - id: hello-ar
    text: "مَرْحَبًا"
    reply: ahlan
  - id: shalom
    keywords: [שלום]
    reply: shalom
  - id: order
    pattern: '^order (?<n>\\d+)$'
    reply: "order {{match.n}}"
`;

let dir: string;
let rules: RuleSet;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-unicode-'));
  await writeFile(join(dir, 'bot.yaml'), RULES);
  rules = await loadRuleSet(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const answer = (text: string) => replyText(decideMessage(message(text), rules, 'bot'));

describe('normalisation as a user expects it', () => {
  it('Turkish İ matches i, I and İ in any case', () => {
    for (const text of ['istanbul', 'İstanbul', 'ISTANBUL', 'İSTANBUL', 'I\u0307stanbul']) expect(answer(text), text).toBe('city');
  });

  it('the capital ẞ, ß and ss are the same letter', () => {
    for (const text of ['STRAẞE', 'straße', 'STRASSE', 'die Strasse']) expect(answer(text), text).toBe('street');
  });

  it('❤ matches with or without the emoji variation selector', () => {
    expect(answer('❤')).toBe('love');
    expect(answer('❤\uFE0F')).toBe('love');
    expect(answer('❤\uFE0E')).toBe('love');
  });

  it('right-to-left marks and bidi controls are invisible, also to patterns', () => {
    expect(answer('\u200Fשלום\u200F')).toBe('shalom');
    expect(answer('\u2067שלום\u2069 חברים')).toBe('shalom');
    expect(answer('\u200Eorder 12\u200E')).toBe('order 12');
  });

  it('Arabic vowel marks and tatweel do not count', () => {
    expect(answer('مرحبا')).toBe('ahlan');
    expect(answer('مَرْحَبًا')).toBe('ahlan');
    expect(answer('مرحـــبا')).toBe('ahlan');
  });

  it('leaves alone what carries meaning: ZWJ emoji sequences, Persian ZWNJ, case-sensitive text', () => {
    expect(normalize('👩\u200D💻')).toBe('👩\u200D💻');
    expect(normalize('می\u200Cخواهم')).toBe('می\u200Cخواهم');
    expect(normalize('İstanbul', true)).toBe('İstanbul');
    expect(normalizeForPattern(' \u200FAbc\u200E ')).toBe('Abc');
  });
});
