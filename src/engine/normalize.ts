// The one place where message and trigger text is normalised, so that `text` and `keywords` triggers
// compare like with like. Documented in docs/rules.md ("Normalisation").
//
// Steps: Unicode NFKC (full-width letters, ligatures and compatibility forms become plain ones); invisible
// characters removed (bidirectional marks and controls, zero-width space, byte-order mark, emoji and text
// variation selectors); Arabic vowel marks and tatweel removed (most text is written without them); then,
// unless case-sensitive, case folding (see foldCase), NFKC again (folding may decompose), every run of
// whitespace collapsed to one space, and the ends trimmed. ASCII text, nearly every message, takes a shortcut
// with the same result: on it NFKC and the removals change nothing and folding is lowercasing.

const WHITESPACE = /\s+/gu;

// LRM, RLM, ALM, LRE…RLO, LRI…PDI; ZWSP and BOM; variation selectors (❤ and ❤️ are the same heart). Not ZWJ
// (it joins emoji sequences) nor ZWNJ (it changes Persian spelling).
const INVISIBLE = /[\u200B\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069\uFEFF]|\p{Variation_Selector}/gu;

// Harakat (fatha, damma, kasra, tanwin, shadda, sukun…), superscript alef, Quranic marks, and tatweel.
const ARABIC_MARKS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E4\u06E7\u06E8\u06EA-\u06ED\u0640]/gu;

// Any character outside ASCII; its absence is what allows the shortcut.
const NON_ASCII = /[^\0-\x7F]/;
// Whitespace in ASCII text that the collapse would change: any but the space, or two spaces in a row.
const ASCII_WHITESPACE_TO_COLLAPSE = /[\t-\r]| {2}/;

/** Text for `text` and `keywords` triggers, on both the rule and the message side. */
export function normalize(text: string, caseSensitive = false): string {
  if (NON_ASCII.test(text)) return normalizeByAllSteps(text, caseSensitive);
  const out = caseSensitive ? text : text.toLowerCase();
  return (ASCII_WHITESPACE_TO_COLLAPSE.test(out) ? out.replace(WHITESPACE, ' ') : out).trim();
}

/** `normalize` without the ASCII shortcut: every step, for any text. Exported for the test that compares the two. */
export function normalizeByAllSteps(text: string, caseSensitive = false): string {
  let out = withoutInvisibles(text.normalize('NFKC')).replace(ARABIC_MARKS, '');
  if (!caseSensitive) out = foldCase(out).normalize('NFKC');
  return out.replace(WHITESPACE, ' ').trim();
}

/**
 * Unicode full case folding, approximated: `toUpperCase().toLowerCase()` makes `ß` → `ss` and final `ς` → `σ`;
 * Turkish `İ` folds to `i` (lowercasing alone gives `i` + a combining dot, which matches nothing typed); the
 * capital `ẞ` lowercases to `ß`, which is then folded to `ss` like the small one.
 */
function foldCase(text: string): string {
  return text
    .replace(/\u0130/g, 'i')
    .toUpperCase()
    .toLowerCase()
    .replace(/ß/g, 'ss');
}

function withoutInvisibles(text: string): string {
  return text.replace(INVISIBLE, '');
}

/** What patterns are matched against: NFKC, invisible characters removed, and trimmed; case and inner whitespace kept. */
export function normalizeForPattern(text: string): string {
  return NON_ASCII.test(text) ? normalizeForPatternByAllSteps(text) : text.trim();
}

/** `normalizeForPattern` without the ASCII shortcut. Exported for the test that compares the two. */
export function normalizeForPatternByAllSteps(text: string): string {
  return withoutInvisibles(text.normalize('NFKC')).trim();
}

/** A word character for keyword edges: a Unicode letter, mark or number (not `\b`, which is ASCII-only). */
export const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
export const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu;

export function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}
