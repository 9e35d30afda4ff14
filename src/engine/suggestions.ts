// "When unsure, ask" (`suggest:`): which rules may be suggested and how each is named, the index that scores
// a message against them (suggest-index.ts), and the offer itself — a question with one button per rule
// closest to a message no rule matched, and a last "None of these" that leads to the fallback.
import type { InlineKeyboardButton, Message } from '@grammyjs/types';
import type { Action } from './actions.js';
import { conditionsPass, type WhenCheck } from './conditions.js';
import { staticTextIn, type LanguageSettings, type StaticText } from './languages.js';
import type { CompiledRule } from './rule-set.js';
import { buildSuggestIndex, scoreMessage, type Scored, type SuggestIndex } from './suggest-index.js';
import type { SynonymTable } from './synonyms.js';
import { FORMS_DEFAULT_LANGUAGE, wordFormsOf, type WordForms } from './word-forms.js';

/** The `suggest:` block as declared. */
export interface SuggestSettings {
  readonly whenUnmatched: boolean;
  /** `when_contested`: ask also when a keyword match is closer to another rule (see suggest-decide.ts). */
  readonly whenContested: boolean;
  readonly max: number;
  /** The question above the buttons; null: "Did you mean:". */
  readonly text: StaticText | null;
  /** `none: fallback`: a last button "None of these" answered by the fallback. */
  readonly none: boolean;
  readonly noneLabel: StaticText | null;
}

/** The rule set's suggestions: its settings, the rules that may be suggested and the index over them. */
export interface Suggestions {
  readonly settings: SuggestSettings;
  /** The rules that may be suggested, in the global order (a rule's position here is its document in `index`). */
  readonly rules: readonly CompiledRule[];
  readonly index: SuggestIndex;
}

/** The user variable that remembers the latest offer (its tag, the rules offered, what the user wrote). */
export const SUGGESTED_VARIABLE = '_suggested';
/** The callback data of a suggestion button: `#suggest:<tag>:<n>` or `#suggest:<tag>:none`. */
export const SUGGESTION_DATA = /^#suggest:([0-9a-z]+):(\d|none)$/;
/** What is kept of the text a suggestion was offered for (for {{text}} and the log when it is pressed). */
const REMEMBERED_TEXT = 256;

const DEFAULT_TEXT = "I'm not sure I understood. Did you mean:";
/** "None of these" in the languages hearsay knows; others get English unless `none_label` says otherwise. */
const NONE_OF_THESE: Readonly<Record<string, string>> = {
  en: 'None of these',
  de: 'Nichts davon',
  fr: 'Aucune de ces réponses',
  es: 'Ninguna de estas',
  it: 'Nessuna di queste',
  nl: 'Geen van deze',
  pt: 'Nenhuma destas',
};

/** Whether a rule may be suggested: a message rule with words to score, not `suggest: false`, not a flow start. */
function suggestable(rule: CompiledRule): boolean {
  if (!rule.suggest || rule.startsFlow !== undefined) return false;
  const kind = rule.trigger.kind;
  return kind === 'keywords' || kind === 'text' || (kind === 'pattern' && (rule.examples.length > 0 || rule.label !== null));
}

/** The texts a rule is known by: its label (every language), keywords, `all` words, text and examples. */
function documentTexts(rule: CompiledRule): string[] {
  const texts = rule.label ? [rule.label.text, ...(rule.label.byLanguage?.values() ?? [])] : [];
  const trigger = rule.trigger;
  if (trigger.kind === 'keywords') texts.push(...trigger.keywords, ...trigger.all.flatMap((group) => group.words));
  if (trigger.kind === 'text') texts.push(trigger.text);
  return [...texts, ...rule.examples];
}

/** Builds the suggestions of a rule set; undefined without a `suggest` block. */
export function buildSuggestions(
  rules: readonly CompiledRule[],
  settings: SuggestSettings | undefined,
  synonyms: SynonymTable,
  languages: LanguageSettings | undefined,
): Suggestions | undefined {
  if (!settings) return undefined;
  const candidates = rules.filter(suggestable);
  const forms = (languages?.supported ?? [FORMS_DEFAULT_LANGUAGE]).map(wordFormsOf).filter((f): f is WordForms => f !== undefined);
  const index = buildSuggestIndex(
    candidates.map((rule) => ({ texts: documentTexts(rule) })),
    synonyms,
    forms,
  );
  return { settings, rules: candidates, index };
}

/** How a rule is named on its button: its label in `language`, else its first example, else its first word or text. */
export function suggestionLabel(rule: CompiledRule, language: string | undefined): string {
  if (rule.label) return staticTextIn(rule.label, language);
  if (rule.examples.length > 0) return rule.examples[0]!;
  const trigger = rule.trigger;
  if (trigger.kind === 'keywords') return trigger.keywords[0] ?? trigger.all[0]?.words.join(' ') ?? rule.id;
  return trigger.kind === 'text' ? trigger.text : rule.id;
}

/** The rules closest to `text`, best first, at most `max`, each only when its conditions hold for `message`. */
export function rankSuggestions(suggestions: Suggestions, text: string, message: Message, whenHolds: WhenCheck, max: number): CompiledRule[] {
  return rankScored(suggestions, scoreMessage(suggestions.index, text), message, whenHolds, max).map(({ rule }) => rule);
}

/** The scored rules worth offering, best first, at most `max`, each only when its conditions hold for `message`. */
export function rankScored(
  suggestions: Suggestions,
  scored: readonly Scored[],
  message: Message,
  whenHolds: WhenCheck,
  max: number,
): { rule: CompiledRule; score: number }[] {
  const found: { rule: CompiledRule; score: number }[] = [];
  const least = minimumScore(suggestions.index);
  for (const { doc, score } of scored) {
    if (score < least || found.length >= max) break;
    const rule = suggestions.rules[doc]!;
    if (conditionsPass(rule, message, whenHolds)) found.push({ rule, score });
  }
  return found;
}

/**
 * The least score worth offering: half the weight of one word that only one rule has (BM25's idf of a term
 * in one of N documents), so a rule must share with the message more than words every rule has.
 */
function minimumScore(index: SuggestIndex): number {
  const n = index.docLengths.length;
  return 0.5 * Math.log(1 + (n - 0.5) / 1.5);
}

/** Where an offer goes and what it says. */
export interface OfferTarget {
  readonly message: Message;
  readonly language: string | undefined;
  /** Reply to the user's message (in a group, so the offer is seen to be theirs). */
  readonly replyTo: number | undefined;
}

/**
 * The offer of `rules` for the message: the user variable that remembers it (its tag is the message's id, so
 * a press of an older offer's button is told apart), then the question with one button per rule, a row each,
 * and "None of these" last when declared.
 */
export function offerActions(suggestions: Suggestions, rules: readonly CompiledRule[], target: OfferTarget): Action[] {
  const { message, language } = target;
  const tag = message.message_id.toString(36);
  const settings = suggestions.settings;
  const buttons: InlineKeyboardButton[][] = rules.map((rule, i) => [{ text: suggestionLabel(rule, language), callback_data: `#suggest:${tag}:${i}` }]);
  if (settings.none) {
    const none = settings.noneLabel ? staticTextIn(settings.noneLabel, language) : (NONE_OF_THESE[language ?? 'en'] ?? NONE_OF_THESE.en!);
    buttons.push([{ text: none, callback_data: `#suggest:${tag}:none` }]);
  }
  const text = [...(message.text ?? '')].slice(0, REMEMBERED_TEXT).join('');
  const remembered = `${tag} ${rules.map((rule) => rule.id).join(' ')}\n${text}`;
  return [
    { type: 'set_state', scope: 'user', key: SUGGESTED_VARIABLE, value: remembered },
    {
      type: 'send_message',
      chatId: message.chat.id,
      text: settings.text ? staticTextIn(settings.text, language) : DEFAULT_TEXT,
      ...(target.replyTo !== undefined ? { replyToMessageId: target.replyTo } : {}),
      replyMarkup: { inline_keyboard: buttons },
    },
  ];
}

/** A remembered offer: its tag, the ids of the rules offered, the text it was offered for. */
export interface RememberedOffer {
  readonly tag: string;
  readonly ruleIds: readonly string[];
  readonly text: string;
}

/** Reads the user variable an offer left; undefined when there is none (or it is not one). */
export function rememberedOffer(value: unknown): RememberedOffer | undefined {
  if (typeof value !== 'string') return undefined;
  const newline = value.indexOf('\n');
  if (newline < 0) return undefined;
  const [tag, ...ruleIds] = value.slice(0, newline).split(' ');
  return tag ? { tag, ruleIds, text: value.slice(newline + 1) } : undefined;
}
