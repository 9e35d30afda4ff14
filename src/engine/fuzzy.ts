// Typo tolerance: the words of the fuzzy rules' texts and keywords, indexed by their deletion neighbourhood
// (SymSpell's idea: a word and a typo of it share a string reachable from both by deleting letters), so a
// message word is corrected with a few map lookups whatever the number of rules. A word gets one edit from 6
// letters and two from 10 (Damerau-Levenshtein: an adjacent swap is one edit); shorter words none, and a typo
// two vocabulary words are equally close to is left alone rather than guessed.
import { WORD_RUN } from './normalize.js';

/** Edits a vocabulary word of this length tolerates. */
export function allowedEdits(length: number): number {
  return length >= 10 ? 2 : length >= 6 ? 1 : 0;
}

export interface FuzzyIndex {
  /** Every word of the fuzzy rules' texts and keywords (normalised). */
  readonly vocabulary: ReadonlySet<string>;
  /**
   * A string reachable by deleting letters → the vocabulary word it comes from, or the words when several
   * do (most have one: a bare string keeps the index at a fraction of the memory arrays would take).
   */
  readonly deletions: ReadonlyMap<string, string | readonly string[]>;
}

/** The vocabulary words a deletion variant comes from. */
function wordsFrom(entry: string | readonly string[] | undefined): readonly string[] {
  return entry === undefined ? [] : typeof entry === 'string' ? [entry] : entry;
}

/** Builds the index over `words` (normalised, synonyms applied); null when there is nothing to correct towards. */
export function buildFuzzyIndex(words: Iterable<string>): FuzzyIndex | null {
  const vocabulary = new Set<string>();
  const deletions = new Map<string, string | string[]>();
  for (const word of words) {
    if (vocabulary.has(word)) continue;
    vocabulary.add(word);
    const letters = [...word];
    const edits = allowedEdits(letters.length);
    if (edits === 0) continue;
    for (const variant of deletionsOf(letters, edits)) {
      const entry = deletions.get(variant);
      if (entry === undefined) deletions.set(variant, word);
      else if (typeof entry === 'string') deletions.set(variant, [entry, word]);
      else entry.push(word);
    }
  }
  return deletions.size === 0 ? null : { vocabulary, deletions };
}

/**
 * The vocabulary word `word` is a typo of, or undefined: the word itself when known, else the one closest
 * candidate within its allowed edits (none when two are equally close).
 */
export function correctWord(index: FuzzyIndex, word: string): string | undefined {
  if (index.vocabulary.has(word)) return word;
  const letters = [...word];
  // A candidate of length L tolerates allowedEdits(L) edits, so it can be up to 2 letters longer than the typo.
  const depth = letters.length >= 8 ? 2 : letters.length >= 5 ? 1 : 0;
  if (depth === 0) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  const seen = new Set<string>();
  for (const variant of deletionsOf(letters, depth)) {
    for (const candidate of wordsFrom(index.deletions.get(variant))) {
      if (seen.has(candidate)) continue;
      seen.add(candidate);
      const candidateLetters = [...candidate];
      const limit = allowedEdits(candidateLetters.length);
      const distance = editDistance(letters, candidateLetters, limit);
      if (distance > limit) continue;
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
        tie = false;
      } else if (distance === bestDistance) tie = true;
    }
  }
  return tie ? undefined : best;
}

/** The other vocabulary words within the edits either of the two words allows (for check's warnings). */
export function similarWords(index: FuzzyIndex, word: string): string[] {
  const letters = [...word];
  const found: string[] = [];
  for (const variant of deletionsOf(letters, Math.max(allowedEdits(letters.length), letters.length >= 8 ? 2 : letters.length >= 5 ? 1 : 0))) {
    for (const other of wordsFrom(index.deletions.get(variant))) {
      if (other === word || found.includes(other)) continue;
      const otherLetters = [...other];
      const limit = Math.max(allowedEdits(letters.length), allowedEdits(otherLetters.length));
      if (editDistance(letters, otherLetters, limit) <= limit) found.push(other);
    }
  }
  return found;
}

/** `text` with each word that is a typo of a vocabulary word replaced by that word; the same text when none is. */
export function correctText(index: FuzzyIndex, text: string): string {
  return text.replace(WORD_RUN, (word) => correctWord(index, word) ?? word);
}

/** The word itself and every string reachable by deleting up to `depth` letters (code points). */
function deletionsOf(letters: readonly string[], depth: number): Set<string> {
  const word = letters.join('');
  const out = new Set<string>([word]);
  // Slicing the string is much cheaper than copying arrays; it is right when every letter is one UTF-16 unit.
  const units = letters.length === word.length;
  let frontier: string[] = [word];
  for (let level = 0; level < depth; level++) {
    const next: string[] = [];
    for (const current of frontier) {
      const chars = units ? null : [...current];
      const length = chars ? chars.length : current.length;
      for (let i = 0; i < length; i++) {
        const shorter = chars ? [...chars.slice(0, i), ...chars.slice(i + 1)].join('') : current.slice(0, i) + current.slice(i + 1);
        if (out.has(shorter)) continue;
        out.add(shorter);
        next.push(shorter);
      }
    }
    frontier = next;
  }
  return out;
}

/** Damerau-Levenshtein (optimal string alignment) distance, cut short once it must exceed `limit`. */
export function editDistance(a: readonly string[], b: readonly string[], limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
