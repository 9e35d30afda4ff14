// The one place where message and trigger text is normalised, so that `text` and `keywords` triggers
// compare like with like. Documented in docs/rules.md ("Normalisation").
//
// Steps: Unicode NFKC (full-width letters, ligatures and compatibility forms become plain ones),
// then, unless case-sensitive, case folding approximated as toUpperCase().toLowerCase() (so 'ß' equals
// 'ss' and a final sigma equals 'σ', which plain toLowerCase does not do), NFKC again (folding may
// decompose), every run of whitespace collapsed to one space, and the ends trimmed.

const WHITESPACE = /\s+/gu;

export function normalize(text: string, caseSensitive = false): string {
  let out = text.normalize('NFKC');
  if (!caseSensitive) out = out.toUpperCase().toLowerCase().normalize('NFKC');
  return out.replace(WHITESPACE, ' ').trim();
}

/** What patterns are matched against: NFKC and trimmed, but case and inner whitespace kept. */
export function normalizeForPattern(text: string): string {
  return text.normalize('NFKC').trim();
}

/** A word character for keyword edges: a Unicode letter, mark or number (not `\b`, which is ASCII-only). */
export const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
export const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu;

export function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}
