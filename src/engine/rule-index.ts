// Builds the indexes of a compiled rule set: commands by name; the text, keyword and `all` triggers by
// word in views (the case-folded message, the case-kept one, and per language the message reduced to its
// word stems for `forms: auto` rules); patterns by literal; fallbacks and events; and the vocabulary that
// typos are corrected towards.
import { buildFuzzyIndex, type VocabularyWord } from './fuzzy.js';
import { firstWord, wordsOf } from './keywords.js';
import type { LanguageSettings } from './languages.js';
import { buildPatternIndex } from './pattern-index.js';
import type { AllEntry, CompiledRule, FormsView, KeywordEntry, RuleIndex, WordView } from './rule-set.js';
import { applySynonyms, buildSynonyms, synonymWords, type SynonymTable } from './synonyms.js';
import { FORMS_DEFAULT_LANGUAGE, wordFormsOf, type WordForms } from './word-forms.js';

/** A view while it is being filled. */
interface ViewBuilder {
  text: Map<string, CompiledRule[]>;
  keywords: Map<string, KeywordEntry[]>;
  all: Map<string, AllEntry[]>;
}

const newView = (): ViewBuilder => ({ text: new Map(), keywords: new Map(), all: new Map() });

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A word of `text` that the fewest entries of `map` are filed under yet, so no bucket grows that every message walks. */
function leastSharedWord(map: ReadonlyMap<string, readonly unknown[]>, text: string): { word: string; lead: number } {
  let chosen = firstWord(text)!;
  for (const w of wordsOf(text)) if ((map.get(w.word)?.length ?? 0) < (map.get(chosen.word)?.length ?? 0)) chosen = w;
  return chosen;
}

/** What of a rule's text, keyword and `all` triggers goes into one view. */
interface TriggerParts {
  readonly text: string | null;
  readonly keywords: readonly string[];
  readonly all: readonly (readonly string[])[];
}

/** Files a rule's text, keywords and `all` groups in `view`, each passed through `as` (the view's reading of a trigger's text). */
function fileTriggers(view: ViewBuilder, rule: CompiledRule, as: (text: string) => string, { text, keywords, all }: TriggerParts): void {
  if (text !== null) push(view.text, as(text), rule);
  for (const raw of keywords) {
    const keyword = as(raw);
    // Filed under its least shared word, so thousands of keywords starting alike ("phrase 1 here",
    // "phrase 2 here", …) do not pile up in one bucket that every message walks.
    const chosen = leastSharedWord(view.keywords, keyword);
    push(view.keywords, chosen.word, { keyword, lead: chosen.lead, rule });
  }
  for (const group of all) {
    const words = group.map(as);
    push(view.all, leastSharedWord(view.all, words.join(' ')).word, { words, rule });
  }
}

function frozenView(view: ViewBuilder): WordView {
  return Object.freeze({ text: view.text, keywords: view.keywords, all: view.all, size: view.text.size + view.keywords.size + view.all.size });
}

/**
 * The languages a `forms` rule's words are stemmed in: a keyword or `all` group listed under a language, in
 * that one; the others in the rule's `lang`, else every supported language, else English.
 */
function formsLanguages(rule: CompiledRule, listed: readonly string[] | null, languages: LanguageSettings | undefined): string[] {
  if (listed && listed.length > 0) return [...listed];
  if (rule.lang) return [...rule.lang];
  return languages ? [...languages.supported] : [FORMS_DEFAULT_LANGUAGE];
}

/** A rule's text, keyword and `all` triggers as they go into its plain view. */
function triggerParts(rule: CompiledRule): TriggerParts {
  const t = rule.trigger;
  if (t.kind === 'text') return { text: t.text, keywords: [], all: [] };
  return t.kind === 'keywords' ? { text: null, keywords: t.keywords, all: t.all.map((g) => g.words) } : { text: null, keywords: [], all: [] };
}

/** What of a forms rule's triggers goes into each language's view. */
function formsPartsOf(
  rule: CompiledRule,
  languages: LanguageSettings | undefined,
): Map<string, { text: string | null; keywords: string[]; all: (readonly string[])[] }> {
  const parts = new Map<string, { text: string | null; keywords: string[]; all: (readonly string[])[] }>();
  const at = (language: string) => {
    let p = parts.get(language);
    if (!p) parts.set(language, (p = { text: null, keywords: [], all: [] }));
    return p;
  };
  const t = rule.trigger;
  if (t.kind === 'text') for (const language of formsLanguages(rule, null, languages)) at(language).text = t.text;
  if (t.kind !== 'keywords') return parts;
  for (const keyword of t.keywords)
    for (const language of formsLanguages(rule, t.keywordLanguages.get(keyword) ?? null, languages)) at(language).keywords.push(keyword);
  for (const group of t.all)
    for (const language of formsLanguages(rule, group.language ? [group.language] : null, languages)) at(language).all.push(group.words);
  return parts;
}

/** The words a fuzzy rule contributes to the vocabulary typos are corrected towards, with their languages. */
function vocabularyOf(rule: CompiledRule): VocabularyWord[] {
  const t = rule.trigger;
  const ruleLanguage = rule.lang && rule.lang.size === 1 ? [...rule.lang][0]! : null;
  const words = (text: string, language: string | null) => wordsOf(text).map((w) => ({ word: w.word, rule: rule.order, language: language ?? ruleLanguage }));
  if (t.kind === 'text') return words(t.text, null);
  if (t.kind !== 'keywords') return [];
  return [
    ...t.keywords.flatMap((keyword) => {
      const listed = t.keywordLanguages.get(keyword);
      return listed ? listed.flatMap((language) => words(keyword, language)) : words(keyword, null);
    }),
    ...t.all.flatMap((group) => group.words.flatMap((word) => words(word, group.language))),
  ];
}

/** The vocabulary of the fuzzy rules, with every synonym as a known word leading where its group's word leads. */
function fuzzyVocabulary(rules: readonly CompiledRule[], synonyms: SynonymTable): VocabularyWord[] {
  const vocabulary = rules.filter((rule) => rule.fuzzy).flatMap(vocabularyOf);
  if (vocabulary.length === 0) return vocabulary;
  const byWord = new Map<string, VocabularyWord[]>();
  for (const entry of vocabulary) push(byWord, entry.word, entry);
  // "delivery" is no typo of anything, and "delivry" is one of it: it leads where "shipping" does.
  for (const [word, group] of synonymWords(synonyms))
    for (const owner of byWord.get(group) ?? []) vocabulary.push({ word, rule: owner.rule, language: owner.language });
  return vocabulary;
}

/** Builds the index of `rules` (in the global order), with the rule set's synonyms and languages. */
export function buildIndex(
  rules: readonly CompiledRule[],
  synonyms: SynonymTable,
  languages: LanguageSettings | undefined,
  synonymGroups?: readonly (readonly string[])[],
): RuleIndex {
  const commands = new Map<string, CompiledRule[]>();
  const folded = newView();
  const exact = newView();
  const forms = new Map<string, FormsBuilder>();
  const patterns: CompiledRule[] = [];
  const fallbacks: CompiledRule[] = [];
  const events = new Map<string, CompiledRule[]>();
  const same = (text: string) => text;
  for (const rule of rules) {
    const t = rule.trigger;
    switch (t.kind) {
      case 'command':
        push(commands, t.name, rule);
        break;
      case 'text':
      case 'keywords':
        if (rule.forms) fileFormsTrigger(rule, folded, forms, languages, synonymGroups);
        else fileTriggers(rule.caseSensitive ? exact : folded, rule, same, triggerParts(rule));
        break;
      case 'pattern':
        patterns.push(rule);
        break;
      case 'fallback':
        fallbacks.push(rule);
        break;
      case 'callback':
        // Presses are matched apart (RuleSet.callbacks): a callback rule never answers a message.
        break;
      case 'event':
        push(events, t.event, rule);
        break;
      case 'media':
        // Filed under its media kind (or 'any'), beside the events: matched by matchMedia (media-events.ts).
        push(events, t.media, rule);
        break;
    }
  }
  const vocabulary = fuzzyVocabulary(rules, synonyms);
  return Object.freeze({
    commands,
    folded: frozenView(folded),
    exact: frozenView(exact),
    forms: Object.freeze([...forms.values()].map(formsView)),
    patterns: buildPatternIndex(patterns),
    fallbacks,
    events,
    fuzzy: vocabulary.length > 0 ? buildFuzzyIndex(vocabulary) : null,
    synonyms,
    needsExact: exact.text.size > 0 || exact.keywords.size > 0 || exact.all.size > 0,
  });
}

/** A forms view while it is being filled: its language's stems, and the synonyms stemmed alike. */
interface FormsBuilder extends ViewBuilder {
  readonly forms: WordForms;
  readonly synonyms: SynonymTable;
  /** A trigger's text as the view reads it: stemmed, then the stemmed synonyms applied. */
  readonly as: (text: string) => string;
  readonly firstOrder: number;
}

/** Files a forms rule in the forms view of each of its languages that has a stemmer; a language without one keeps its words as written. */
function fileFormsTrigger(
  rule: CompiledRule,
  plain: ViewBuilder,
  forms: Map<string, FormsBuilder>,
  languages: LanguageSettings | undefined,
  synonymGroups: readonly (readonly string[])[] | undefined,
): void {
  for (const [language, parts] of formsPartsOf(rule, languages)) {
    const wordForms = wordFormsOf(language);
    if (!wordForms) {
      fileTriggers(plain, rule, (text) => text, parts);
      continue;
    }
    let view = forms.get(language);
    if (!view) {
      const synonyms = buildSynonyms(synonymGroups, wordForms.stemText);
      view = { ...newView(), forms: wordForms, synonyms, as: (text) => applySynonyms(wordForms.stemText(text), synonyms), firstOrder: rule.order };
      forms.set(language, view);
    }
    fileTriggers(view, rule, view.as, parts);
  }
}

function formsView(view: FormsBuilder): FormsView {
  return Object.freeze({ ...frozenView(view), forms: view.forms, synonyms: view.synonyms, firstOrder: view.firstOrder });
}
