// Unicode cases a user expects to match, end to end through real rule files: Turkish İ, the capital ẞ, ❤ with
// and without its emoji selector, right-to-left marks, Arabic vowel marks; and what normalisation leaves alone.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { normalize, normalizeByAllSteps, normalizeForPattern, normalizeForPatternByAllSteps } from '../../src/engine/normalize.js';
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
  - id: izmir-with-case
    pattern: '^izmir!$'
    case_sensitive: true
    reply: with case
  - id: izmir
    pattern: '\\b(?<city>izmir)\\b'
    reply: "to {{match.city}}"
  - id: istanbul-pattern
    pattern: '^İstanbul (?<n>\\d+)'
    reply: "İstanbul {{match.n}}"
  - id: go
    pattern: '^go (?<w>[a-z]+)$'
    reply: "going {{match.w}}"
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

  it('patterns fold the Turkish İ and ı like text and keywords, and captures keep the text as written', () => {
    // A pattern run by re2js, whose case folding alone keeps İ and ı apart from i.
    for (const city of ['İZMİR', 'İzmir', 'izmir', 'IZMIR', 'ızmır']) expect(answer(`a trip to ${city}!`), city).toBe(`to ${city}`);
    // İ written in the pattern matches I and i in the message.
    for (const city of ['ISTANBUL', 'istanbul', 'İSTANBUL', 'İstanbul']) expect(answer(`${city} 34`), city).toBe('İstanbul 34');
    // An anchored pattern of the simple shape, matched without a regex program.
    expect(answer('GO SİVAS')).toBe('going SİVAS');
    expect(answer('go dıyarbakır')).toBe('going dıyarbakır');
    // With case_sensitive, case counts: İ is not i.
    expect(answer('izmir!')).toBe('with case');
    expect(answer('İZMİR!')).toBe('to İZMİR');
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

// ASCII text takes a shortcut (no NFKC, no removals, lowercasing for folding); it must give what every step gives.
describe('the ASCII shortcut', () => {
  const whitespace = fc.constantFrom(' ', '  ', '\t', '\n', '\v', '\f', '\r', ' \t ');
  const ascii = fc.string({ unit: fc.oneof(fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }), whitespace), maxLength: 40 });
  // Characters the full path changes (or that look like ASCII but are not): they must never take the shortcut.
  const unusual = fc.constantFrom('İ', 'ı', 'ß', 'ẞ', 'K', 'ſ', 'ﬁ', 'Ａ', 'µ', '\u00A0', '\u2003', '\u200E', '\u200B', '\uFE0F', 'é', 'e\u0301', 'ـ', 'َ', 'Σ');
  const mixed = fc.string({ unit: fc.oneof(fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }), whitespace, unusual), maxLength: 40 });

  it('normalize gives what every step gives, folded or case-sensitive, on ASCII and on mixed text', () => {
    fc.assert(
      fc.property(fc.oneof(ascii, mixed), fc.boolean(), (text, caseSensitive) => {
        expect(normalize(text, caseSensitive)).toBe(normalizeByAllSteps(text, caseSensitive));
      }),
      { numRuns: 2000 },
    );
  });

  it('normalizeForPattern gives what every step gives, on ASCII and on mixed text', () => {
    fc.assert(
      fc.property(fc.oneof(ascii, mixed), (text) => {
        expect(normalizeForPattern(text)).toBe(normalizeForPatternByAllSteps(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('still folds, collapses and trims ASCII text', () => {
    expect(normalize('  Hello\t\tWORLD \n ')).toBe('hello world');
    expect(normalize('  Hello\t\tWORLD \n ', true)).toBe('Hello WORLD');
    expect(normalizeForPattern('\t Order  12 \n')).toBe('Order  12');
  });
});
