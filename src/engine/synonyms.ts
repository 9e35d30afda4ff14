// `synonyms: [[shipping, delivery, postage]]`: words that mean the same to text and keyword triggers. Each
// word of a group stands for the group's first word, in the triggers and in every message, so a keyword
// written with one matches a message that uses another, without listing them all in every rule.
import { normalize, WORD_RUN } from './normalize.js';

/** Each synonym (normalised) → its group's first word; later groups do not take over a word already given. */
export function buildSynonyms(groups: readonly (readonly string[])[] | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const group of groups ?? []) {
    const words = group.map((word) => normalize(word));
    for (const word of words) if (!map.has(word)) map.set(word, words[0]!);
  }
  return map;
}

/** `text` (normalised) with every synonym replaced by its group's first word; the same string when there are none. */
export function applySynonyms(text: string, synonyms: ReadonlyMap<string, string>): string {
  if (synonyms.size === 0) return text;
  return text.replace(WORD_RUN, (word) => synonyms.get(word) ?? word);
}
