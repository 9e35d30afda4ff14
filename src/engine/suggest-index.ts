// "Did you mean …?": how close a message is to each rule that may be suggested, built once per rule set.
// A rule's words are those of its keywords, `all` groups, `text`, `examples` and `label`; both they and
// the message's words are normalised, synonyms applied, and each word is also taken in its stem for every
// language with a stemmer (see word-forms.ts). The score is BM25 (k1 1.2, b 0.75) over those terms, and a
// message word that is no term at all (a typo) counts as the vocabulary words that share most of its
// character trigrams (Dice coefficient at least 0.5), weighted by that similarity. Lookups go through
// postings (term → rules) and a trigram index (trigram → words), so a message costs what its words'
// postings hold, not a walk over the rules; terms found in more rules than POSTINGS_LIMIT are too common
// to tell rules apart and are skipped (so are trigrams in more than TRIGRAM_LIMIT words).
import { normalize, WORD_RUN } from './normalize.js';
import { applySynonyms, type SynonymTable } from './synonyms.js';
import type { WordForms } from './word-forms.js';

/** One rule as the index sees it: its position in the candidates and the texts it is known by. */
export interface SuggestDocument {
  readonly texts: readonly string[];
}

interface Posting {
  readonly doc: number;
  readonly tf: number;
}

export interface SuggestIndex {
  readonly postings: ReadonlyMap<string, readonly Posting[]>;
  /** Trigram → vocabulary words (the words as written in the rules, normalised) that have it. */
  readonly trigrams: ReadonlyMap<string, readonly string[]>;
  readonly docLengths: Float64Array;
  readonly averageLength: number;
  readonly synonyms: SynonymTable;
  readonly forms: readonly WordForms[];
}

/** One scored candidate: its position among the documents and its score. */
export interface Scored {
  readonly doc: number;
  readonly score: number;
}

const K1 = 1.2;
const B = 0.75;
/** A term in more rules than this says little about any one of them; looking it up would cost a walk. */
const POSTINGS_LIMIT = 200;
/** A trigram in more words than this is skipped for the same reason. */
const TRIGRAM_LIMIT = 500;
/** How alike (Dice over trigrams) a typo must be to a vocabulary word to count as it. */
const MIN_SIMILARITY = 0.5;
/** Words shorter than this are not corrected by trigrams (too few trigrams to tell words apart). */
const MIN_TYPO_LENGTH = 4;

/** The words of a text as the index compares them: normalised, synonyms applied. */
export function suggestWords(text: string, synonyms: SynonymTable): string[] {
  return applySynonyms(normalize(text), synonyms).match(WORD_RUN) ?? [];
}

/** A word and its stems in every language with a stemmer (each once). */
function termsOf(word: string, forms: readonly WordForms[]): string[] {
  const terms = [word];
  for (const f of forms) {
    const stem = `${f.language}:${f.stem(word)}`;
    if (!terms.includes(stem)) terms.push(stem);
  }
  return terms;
}

function trigramsOf(word: string): string[] {
  const padded = ` ${word} `;
  const letters = [...padded];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= letters.length; i++) grams.add(letters.slice(i, i + 3).join(''));
  return [...grams];
}

/** Builds the index over the documents, in their order (a document's position is its id in every answer). */
export function buildSuggestIndex(documents: readonly SuggestDocument[], synonyms: SynonymTable, forms: readonly WordForms[]): SuggestIndex {
  const counts = new Map<string, Map<number, number>>();
  const trigrams = new Map<string, string[]>();
  const docLengths = new Float64Array(documents.length);
  const seenWords = new Set<string>();
  documents.forEach((document, doc) => {
    for (const text of document.texts) {
      for (const word of suggestWords(text, synonyms)) {
        docLengths[doc]!++;
        for (const term of termsOf(word, forms)) {
          const byDoc = counts.get(term) ?? new Map<number, number>();
          byDoc.set(doc, (byDoc.get(doc) ?? 0) + 1);
          counts.set(term, byDoc);
        }
        if (seenWords.has(word) || [...word].length < MIN_TYPO_LENGTH) continue;
        seenWords.add(word);
        for (const gram of trigramsOf(word)) {
          const words = trigrams.get(gram) ?? [];
          words.push(word);
          trigrams.set(gram, words);
        }
      }
    }
  });
  const postings = new Map<string, Posting[]>();
  for (const [term, byDoc] of counts)
    postings.set(
      term,
      [...byDoc].map(([doc, tf]) => ({ doc, tf })),
    );
  const total = docLengths.reduce((sum, n) => sum + n, 0);
  return { postings, trigrams, docLengths, averageLength: documents.length > 0 ? total / documents.length : 1, synonyms, forms };
}

/** The vocabulary words most like a typo, with their similarity (only the best ones, at least MIN_SIMILARITY). */
function likeWords(index: SuggestIndex, word: string): { word: string; similarity: number }[] {
  if ([...word].length < MIN_TYPO_LENGTH) return [];
  const grams = trigramsOf(word);
  const shared = new Map<string, number>();
  for (const gram of grams) {
    const words = index.trigrams.get(gram);
    if (!words || words.length > TRIGRAM_LIMIT) continue;
    for (const candidate of words) shared.set(candidate, (shared.get(candidate) ?? 0) + 1);
  }
  let best: { word: string; similarity: number }[] = [];
  for (const [candidate, n] of shared) {
    const similarity = (2 * n) / (grams.length + [...candidate].length + 1);
    if (similarity < MIN_SIMILARITY) continue;
    if (best.length === 0 || similarity > best[0]!.similarity) best = [{ word: candidate, similarity }];
    else if (similarity === best[0]!.similarity) best.push({ word: candidate, similarity });
  }
  return best;
}

/** The BM25 weight of one term in each document that has it, added to `into` (times `weight`), best per word kept in `word`. */
function addTerm(index: SuggestIndex, term: string, weight: number, word: Map<number, number>): void {
  const postings = index.postings.get(term);
  if (!postings || postings.length > POSTINGS_LIMIT) return;
  const n = index.docLengths.length;
  const idf = Math.log(1 + (n - postings.length + 0.5) / (postings.length + 0.5));
  for (const { doc, tf } of postings) {
    const norm = tf + K1 * (1 - B + (B * index.docLengths[doc]!) / index.averageLength);
    const score = (weight * idf * (tf * (K1 + 1))) / norm;
    if (score > (word.get(doc) ?? 0)) word.set(doc, score);
  }
}

/**
 * Every document that shares a term with the message (or a word like one of its typos), with its score, best
 * first (ties in document order). Each message word counts once per document: by the best of its terms.
 */
export function scoreMessage(index: SuggestIndex, text: string): Scored[] {
  const totals = new Map<number, number>();
  for (const word of new Set(suggestWords(text, index.synonyms))) {
    const best = new Map<number, number>();
    const terms = termsOf(word, index.forms);
    const known = terms.some((term) => index.postings.has(term));
    if (known) for (const term of terms) addTerm(index, term, 1, best);
    else for (const like of likeWords(index, word)) for (const term of termsOf(like.word, index.forms)) addTerm(index, term, like.similarity, best);
    for (const [doc, score] of best) totals.set(doc, (totals.get(doc) ?? 0) + score);
  }
  return [...totals].map(([doc, score]) => ({ doc, score })).sort((a, b) => b.score - a.score || a.doc - b.doc);
}
