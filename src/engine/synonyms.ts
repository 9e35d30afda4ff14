// `synonyms: [[shipping, delivery, postage], [giftcard, "gift card", gift-card]]`: words and phrases that mean
// the same to text, keyword and `all` triggers. Each entry of a group stands for the group's word (its first
// entry, written as one word: `gift card` → `giftcard`), in the triggers and in every message, so a keyword
// written with one matches a message that uses another, without listing them all in every rule.
import { keywordAt } from './keywords.js';
import { normalize, WORD_RUN } from './normalize.js';

/** A phrase of a synonym group (several word runs: "gift card", "e-mail") and the group's word it stands for. */
export interface SynonymPhrase {
  readonly phrase: string;
  readonly word: string;
}

/** The synonyms as messages are rewritten with them. */
export interface SynonymTable {
  /** A single word → its group's word; later groups do not take over a word already given. */
  readonly words: ReadonlyMap<string, string>;
  /** A phrase's first word → the phrases that start with it, longest first. */
  readonly phrases: ReadonlyMap<string, readonly SynonymPhrase[]>;
}

export const NO_SYNONYMS: SynonymTable = Object.freeze({ words: new Map(), phrases: new Map() });

/** The word runs of a normalised entry, and the entry as one word (its runs joined). */
function runsOf(entry: string): string[] {
  return entry.match(WORD_RUN) ?? [];
}

/**
 * The table of `groups`: each entry normalised (and passed through `transform`, e.g. a stemmer, word by
 * word), standing for the group's first entry written as one word. Entries without a letter or digit are
 * skipped (the schema refuses them).
 */
export function buildSynonyms(groups: readonly (readonly string[])[] | undefined, transform?: (text: string) => string): SynonymTable {
  if (!groups || groups.length === 0) return NO_SYNONYMS;
  const words = new Map<string, string>();
  const phrases = new Map<string, SynonymPhrase[]>();
  const taken = new Set<string>();
  for (const group of groups) {
    const entries = group.map((entry) => (transform ? transform(normalize(entry)) : normalize(entry))).filter((e) => runsOf(e).length > 0);
    if (entries.length === 0) continue;
    const word = runsOf(entries[0]!).join('');
    for (const entry of entries) {
      if (taken.has(entry)) continue;
      taken.add(entry);
      const runs = runsOf(entry);
      if (runs.length === 1 && runs[0] === entry) {
        words.set(entry, word);
        continue;
      }
      const list = phrases.get(runs[0]!) ?? [];
      list.push({ phrase: entry, word });
      list.sort((a, b) => b.phrase.length - a.phrase.length);
      phrases.set(runs[0]!, list);
    }
  }
  return { words, phrases };
}

/** Whether the table rewrites anything. */
export function hasSynonyms(table: SynonymTable): boolean {
  return table.words.size > 0 || table.phrases.size > 0;
}

/** `text` (normalised) with every synonym replaced by its group's word; the same string when there are none. */
export function applySynonyms(text: string, table: SynonymTable): string {
  if (table.phrases.size === 0) {
    if (table.words.size === 0) return text;
    return text.replace(WORD_RUN, (word) => table.words.get(word) ?? word);
  }
  return applyWithPhrases(text, table);
}

/** The word runs of the text that phrases may start at (lastIndex is set before every use). */
const RUNS = new RegExp(WORD_RUN.source, WORD_RUN.flags);

function applyWithPhrases(text: string, table: SynonymTable): string {
  let out = '';
  let copied = 0;
  for (let from = 0; ;) {
    RUNS.lastIndex = from;
    const run = RUNS.exec(text);
    if (!run) break;
    from = RUNS.lastIndex;
    const phrase = table.phrases.get(run[0])?.find((p) => keywordAt(text, p.phrase, run.index));
    const replacement = phrase ? phrase.word : table.words.get(run[0]);
    if (replacement === undefined) continue;
    out += text.slice(copied, run.index) + replacement;
    copied = phrase ? run.index + phrase.phrase.length : from;
    from = copied;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Every word run of every synonym entry (known words for typo correction), with the group's word each belongs to. */
export function synonymWords(table: SynonymTable): [string, string][] {
  const out: [string, string][] = [...table.words];
  for (const list of table.phrases.values()) for (const { phrase, word } of list) for (const run of runsOf(phrase)) out.push([run, word]);
  return out;
}
