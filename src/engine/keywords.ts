// Keyword matching with Unicode word edges: a keyword matches where the message contains it and the
// characters just outside it are not letters, marks or numbers (when the keyword's own edge is one).
import { isWordChar, WORD_RUN } from './normalize.js';

/** The first word run of a normalised keyword and the offset where it starts, or undefined if it has none. */
export function firstWord(keyword: string): { word: string; lead: number } | undefined {
  WORD_RUN.lastIndex = 0;
  const m = WORD_RUN.exec(keyword);
  WORD_RUN.lastIndex = 0;
  return m ? { word: m[0], lead: m.index } : undefined;
}

/** Every word run of a normalised keyword with the offset where it starts. */
export function wordsOf(keyword: string): { word: string; lead: number }[] {
  return [...keyword.matchAll(WORD_RUN)].map((m) => ({ word: m[0], lead: m.index }));
}

/** Whether `keyword` occurs in `text` at `start` with word edges on both sides. */
export function keywordAt(text: string, keyword: string, start: number): boolean {
  if (start < 0 || !text.startsWith(keyword, start)) return false;
  const end = start + keyword.length;
  if (isWordChar(firstChar(keyword)) && isWordChar(lastChar(text, start))) return false;
  if (isWordChar(lastChar(keyword, keyword.length)) && isWordChar(firstChar(text, end))) return false;
  return true;
}

/** Linear search used by the reference scan and by checks: any edge-respecting occurrence. */
export function containsKeyword(text: string, keyword: string): boolean {
  for (let i = text.indexOf(keyword); i >= 0; i = text.indexOf(keyword, i + 1)) {
    if (keywordAt(text, keyword, i)) return true;
  }
  return false;
}

// Code-point aware neighbours, so astral letters (e.g. many CJK extension characters) count as letters.
function firstChar(text: string, at = 0): string | undefined {
  const cp = text.codePointAt(at);
  return cp === undefined ? undefined : String.fromCodePoint(cp);
}

function lastChar(text: string, before: number): string | undefined {
  if (before <= 0) return undefined;
  const low = text.charCodeAt(before - 1);
  if (low >= 0xdc00 && low <= 0xdfff && before >= 2) return text.slice(before - 2, before);
  return text[before - 1];
}
