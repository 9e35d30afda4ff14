// `forms: auto`: a word matches its other forms ("orders", "ordered" for `order`; "Bestellungen" for
// `Bestellung`) by reducing both the trigger's words and the message's words to their stem. English uses
// Porter2 (the Snowball English stemmer, from wink-porter2-stemmer); the other languages listed here the
// Snowball stemmers of @orama/stemmers (both pure JavaScript without dependencies). Porter2 rather than the
// original Porter algorithm: Porter cuts "his" to "hi" and "news" to "new", so `hi` would answer "his".
// A language without a stemmer keeps its words as written.
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import porter2 from 'wink-porter2-stemmer';
import { WORD_RUN } from './normalize.js';

/** The languages `forms: auto` knows (ISO 639-1), each with its stemmer. */
const STEMMERS: Readonly<Record<string, (word: string) => string>> = {
  da: danish,
  de: german,
  en: porter2,
  es: spanish,
  fi: finnish,
  fr: french,
  it: italian,
  nb: norwegian,
  nl: dutch,
  no: norwegian,
  pt: portuguese,
  ru: russian,
  sv: swedish,
};

/** The languages with a stemmer, for the docs and for check's messages. */
export const FORMS_LANGUAGES: readonly string[] = Object.keys(STEMMERS);

/** The language `forms: auto` stems by when the rules declare no `languages`. */
export const FORMS_DEFAULT_LANGUAGE = 'en';

/**
 * Stems cost a few µs a word (the stemmers build their objects per call), and a bot sees the same words
 * over and over: each language keeps the stems it computed, up to this many words, then starts afresh.
 */
const MEMO_LIMIT = 20_000;
/** A stem shorter than this is not used (see `stem` below). */
const MIN_STEM = 3;

/** Reduces the words of a normalised text to their stems, keeping everything between the words as it is. */
export interface WordForms {
  readonly language: string;
  /** The stem of one word (normalised, case-folded). */
  readonly stem: (word: string) => string;
  /** The text with each word run replaced by its stem. */
  readonly stemText: (text: string) => string;
}

const made = new Map<string, WordForms>();

/** The word forms of `language`, or undefined when it has no stemmer (its words are matched as written). */
export function wordFormsOf(language: string): WordForms | undefined {
  const known = made.get(language);
  if (known) return known;
  const stemmer = STEMMERS[language];
  if (!stemmer) return undefined;
  let memo = new Map<string, string>();
  const stem = (word: string): string => {
    const cached = memo.get(word);
    if (cached !== undefined) return cached;
    // Stemmers read letters; digits and words of another script come back unchanged, and so does a word the
    // stemmer would cut to nothing or to fewer than MIN_STEM letters: such a stem is a common little word
    // ("ons" → "on", "ins" → "in"), and a keyword that matched every message with it would answer wrong.
    const cut = stemmer(word);
    const stemmed = cut === word || [...cut].length >= MIN_STEM ? cut : word;
    if (memo.size >= MEMO_LIMIT) memo = new Map();
    memo.set(word, stemmed);
    return stemmed;
  };
  const forms: WordForms = { language, stem, stemText: (text) => text.replace(WORD_RUN, stem) };
  made.set(language, forms);
  return forms;
}
