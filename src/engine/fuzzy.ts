// Typo tolerance: the words of the fuzzy rules' texts, keywords and `all` groups, indexed by their deletion
// neighbourhood (SymSpell's idea: a word and a typo of it share a string reachable from both by deleting
// letters), so a message word is corrected with a few map lookups whatever the number of rules. A word gets
// one edit from 6 letters and two from 10, counting the letters of the rule's word (Damerau-Levenshtein: an
// adjacent swap is one edit); shorter words none. A typo equally close to several words goes to none of them,
// unless they all lead to one rule (`address` and `Adresse` of one rule), or the user's language leaves one.
import { WORD_RUN } from './normalize.js';

/** Edits a vocabulary word of this length tolerates. */
export function allowedEdits(length: number): number {
  return length >= 10 ? 2 : length >= 6 ? 1 : 0;
}

/** A word of a fuzzy rule: the rule's position, and the language it was listed under (null: any). */
export interface VocabularyWord {
  readonly word: string;
  readonly rule: number;
  readonly language: string | null;
}

/** Who a vocabulary word leads to. */
interface WordOwners {
  /** The positions of the rules that have it. */
  readonly rules: number[];
  /** The languages it was listed under; null when some rule lists it for every language. */
  languages: string[] | null;
}

/** One word of a message that was corrected: what was written and the rule's word it was taken for. */
export interface Correction {
  readonly from: string;
  readonly to: string;
}

export interface FuzzyIndex {
  /** Every word of the fuzzy rules' triggers (normalised) and who it leads to. */
  readonly vocabulary: ReadonlyMap<string, WordOwners>;
  /**
   * A string reachable by deleting letters → the vocabulary word it comes from, or the words when several
   * do (most have one: a bare string keeps the index at a fraction of the memory arrays would take).
   */
  readonly deletions: ReadonlyMap<string, string | readonly string[]>;
  /** The lowest position of a fuzzy rule: a message answered before it needs no correction. */
  readonly firstOrder: number;
  /**
   * The closest candidates of message words seen lately (a bot sees the same words over and over); bounded,
   * cleared when full. The index stays a pure function of its words: this only remembers answers.
   */
  readonly memo: Map<string, readonly string[]>;
}

/** Words remembered by an index's memo before it starts afresh. */
const MEMO_LIMIT = 20_000;

/** The vocabulary words a deletion variant comes from. */
function wordsFrom(entry: string | readonly string[] | undefined): readonly string[] {
  return entry === undefined ? [] : typeof entry === 'string' ? [entry] : entry;
}

/** Builds the index over `words` (normalised, synonyms applied); null when there is nothing to correct towards. */
export function buildFuzzyIndex(words: Iterable<VocabularyWord>): FuzzyIndex | null {
  const vocabulary = new Map<string, WordOwners>();
  const deletions = new Map<string, string | string[]>();
  let firstOrder = Infinity;
  for (const { word, rule, language } of words) {
    firstOrder = Math.min(firstOrder, rule);
    const known = vocabulary.get(word);
    if (known) {
      if (!known.rules.includes(rule)) known.rules.push(rule);
      if (known.languages && language) {
        if (!known.languages.includes(language)) known.languages.push(language);
      } else known.languages = null;
      continue;
    }
    vocabulary.set(word, { rules: [rule], languages: language ? [language] : null });
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
  return deletions.size === 0 ? null : { vocabulary, deletions, firstOrder, memo: new Map() };
}

/**
 * The vocabulary word `word` is a typo of, or undefined: the word itself when known, else the one closest
 * candidate within its allowed edits. Of several equally close candidates, those in other languages than
 * `language` are left out; of those left, one is taken when they all lead to the same one rule (any of
 * them answers the same), and none otherwise.
 */
export function correctWord(index: FuzzyIndex, word: string, language?: string): string | undefined {
  if (index.vocabulary.has(word)) return word;
  let closest = index.memo.get(word);
  if (closest === undefined) {
    closest = closestWords(index, word);
    if (index.memo.size >= MEMO_LIMIT) index.memo.clear();
    index.memo.set(word, closest);
  }
  return closest.length <= 1 ? closest[0] : breakTie(index, closest, language);
}

/** The candidates nearest to `word` within their allowed edits, sorted (several only when equally near). */
function closestWords(index: FuzzyIndex, word: string): string[] {
  const letters = [...word];
  // A candidate of length L tolerates allowedEdits(L) edits, so it can be up to 2 letters longer than the typo.
  const depth = letters.length >= 8 ? 2 : letters.length >= 5 ? 1 : 0;
  if (depth === 0) return [];
  let best: string[] = [];
  let bestDistance = Infinity;
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
        best = [candidate];
        bestDistance = distance;
      } else if (distance === bestDistance) best.push(candidate);
    }
  }
  return best.sort();
}

/** One of equally close candidates, when the user's language or their rules decide; else undefined. */
function breakTie(index: FuzzyIndex, candidates: readonly string[], language: string | undefined): string | undefined {
  let pool = candidates;
  if (language !== undefined) {
    const inLanguage = candidates.filter((c) => {
      const languages = index.vocabulary.get(c)!.languages;
      return languages === null || languages.includes(language);
    });
    if (inLanguage.length > 0) pool = inLanguage;
  }
  if (pool.length === 1) return pool[0];
  const rule = index.vocabulary.get(pool[0]!)!.rules;
  const oneRule = rule.length === 1 && pool.every((c) => index.vocabulary.get(c)!.rules.every((r) => r === rule[0]));
  return oneRule ? pool[0] : undefined;
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

/** The words of `text` corrected towards the vocabulary; `corrections` empty (and `text` the same string) when none was. */
export function correctText(index: FuzzyIndex, text: string, language?: string): { text: string; corrections: Correction[] } {
  const corrections: Correction[] = [];
  const corrected = text.replace(WORD_RUN, (word) => {
    const to = correctWord(index, word, language);
    if (to === undefined || to === word) return word;
    corrections.push({ from: word, to });
    return to;
  });
  return { text: corrections.length === 0 ? text : corrected, corrections };
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
