// The prefilter's case fold must join every pair of characters re2js matches case-insensitively;
// otherwise a message spelled with the other variant would skip a pattern that matches it.
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { foldCodePoint, foldForPrefilter } from '../../src/engine/pattern-fold.js';

function* codePoints(): Generator<number> {
  for (let cp = 0; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) yield cp;
}

describe('prefilter case fold', () => {
  it('joins every case-insensitive pair re2js knows, over all of Unicode', () => {
    // Characters with any case mapping; re2js's fold orbits are checked among them below.
    const cased: number[] = [];
    for (const cp of codePoints()) {
      const c = String.fromCodePoint(cp);
      if (c.toUpperCase() !== c || c.toLowerCase() !== c) cased.push(cp);
    }
    const all = cased.map((cp) => String.fromCodePoint(cp)).join('');
    const split: string[] = [];
    for (const cp of cased) {
      const matcher = RE2JS.compile(`\\x{${cp.toString(16)}}`, RE2JS.CASE_INSENSITIVE).matcher(all);
      while (matcher.find()) {
        const other = matcher.group(0)!.codePointAt(0)!;
        if (foldCodePoint(other) !== foldCodePoint(cp)) split.push(`U+${cp.toString(16)} ~ U+${other.toString(16)}`);
      }
    }
    expect(split).toEqual([]);
    // And no character without a case mapping folds together with a cased one in re2js.
    const anyCased = RE2JS.compile(`[${cased.map((cp) => `\\x{${cp.toString(16)}}`).join('')}]`, RE2JS.CASE_INSENSITIVE);
    const casedSet = new Set(cased);
    const strays: number[] = [];
    for (const cp of codePoints()) if (!casedSet.has(cp) && anyCased.matches(String.fromCodePoint(cp))) strays.push(cp);
    expect(strays).toEqual([]);
  });

  it('keeps one code point per code point, so substrings survive', () => {
    for (const text of ['İstanbul', 'ΣΑΣ ς', 'Straße ẞ', 'ﬅ ΐ', 'K ſ', '😀 Ǆ']) {
      expect([...foldForPrefilter(text)].length).toBe([...text].length);
    }
    expect(foldForPrefilter('ΟΔΟΣ οδος')).toBe('οδοσ οδοσ');
    expect(foldForPrefilter('KELVIN ſ')).toBe('kelvin s');
  });
});
