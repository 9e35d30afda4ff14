// A per-code-point case fold for the pattern prefilter. It must merge at least every pair of
// characters that re2js's case-insensitive matching treats as equal (its simple-fold orbits), so that
// "the folded literal occurs in the folded message" is a sound necessary condition for a match.
// Merging more than re2js does (e.g. 'ı' with 'i') only lets more messages reach the regex: safe. The Turkish
// 'İ' and 'ı' must fold to 'i': a case-insensitive pattern reads them as i on its second chance (turkish-i.ts).
// test/engine/pattern-fold.test.ts checks this against re2js for every code point.

// Orbits that upper-then-lower casing does not join, because one member's upper case is several
// characters (Unicode gives these pairs a simple fold to each other; re2js follows it).
const EXTRA: ReadonlyMap<number, string> = new Map([
  [0x1fd3, '\u0390'], // ΐ ↔ ΐ
  [0x1fe3, '\u03b0'], // ΰ ↔ ΰ
  [0xfb05, '\ufb06'], // ﬅ ↔ ﬆ
]);

/** 'İ': its lower case is two code points (i and a combining dot), so the rule below would keep it apart from i. */
const TURKISH_CAPITAL_I = 0x130;

const singleCodePoint = (s: string) => s.length === 1 || (s.length === 2 && s.codePointAt(0)! > 0xffff);

/** The representative of a character's fold class (one code point, so positions and substrings are kept). */
export function foldCodePoint(cp: number): string {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 0x20) : String.fromCharCode(cp);
  if (cp === TURKISH_CAPITAL_I) return 'i';
  const extra = EXTRA.get(cp);
  if (extra !== undefined) return extra;
  const c = String.fromCodePoint(cp);
  // Upper first, then lower: joins 'ſ' with 's', 'K' (Kelvin) with 'k', 'ς' with 'σ', 'ẞ' with 'ß'.
  const upper = c.toUpperCase();
  const base = singleCodePoint(upper) ? upper : c;
  const lower = base.toLowerCase();
  return singleCodePoint(lower) ? lower : base;
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;

// Folding a letter costs two case conversions; messages reuse few distinct letters, so remember them
// (bounded: at most 64k entries).
const folded = new Map<number, string>();

/** Folds every code point of `text` independently (no context rules such as final sigma). */
export function foldForPrefilter(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    let f = folded.get(cp);
    if (f === undefined) {
      f = foldCodePoint(cp);
      if (folded.size < 0x10000) folded.set(cp, f);
    }
    out += f;
  }
  return out;
}
