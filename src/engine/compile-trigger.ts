// Compiles a rule's trigger (command, text, pattern, keywords and/or all, fallback, callback, event, or media a
// user sends with its caption filter) and validates patterns as RE2 syntax; the templates of the rule learn from
// it which placeholders the trigger fills.
import type { Rule } from '../generated/rules-schema.js';
import type { PatternCompiler } from './compile-flows.js';
import { keywordSources } from './compile-reach.js';
import { firstWord } from './keywords.js';
import type { LazyPattern } from './lazy-pattern.js';
import { INCOMING_MEDIA_KINDS, type IncomingMediaKind } from './message-media.js';
import { normalize } from './normalize.js';
import { checkPattern } from './pattern-syntax.js';
import type { AllGroup, CompiledTrigger, RuleEvent } from './rule-set.js';
import { applySynonyms, type SynonymTable } from './synonyms.js';
import type { TemplateContext } from './template.js';

/** What compiling a trigger needs besides the rule: where to report, how to compile a pattern, the synonyms. */
export interface TriggerSite {
  /** "rule 'greet'" or "the start of flow 'booking'". */
  readonly name: string;
  readonly error: (path: (string | number)[], message: string) => void;
  readonly compilePattern: PatternCompiler;
  readonly synonyms: SynonymTable;
}

/**
 * The rule's trigger, or undefined when it cannot be compiled (its error is reported). Sets `context.trigger`
 * and, for a pattern or callback, the groups its templates may use.
 */
export function compileTrigger(rule: Rule, site: TriggerSite, context: TemplateContext): CompiledTrigger | undefined {
  const caseSensitive = rule.case_sensitive === true;
  if (rule.media !== undefined || (rule.event !== undefined && (INCOMING_MEDIA_KINDS as readonly string[]).includes(rule.event)))
    return compileMediaTrigger(rule, site, context);
  if (rule.event !== undefined) {
    const filter = rule.keywords !== undefined ? 'keywords' : rule.pattern !== undefined ? 'pattern' : rule.all !== undefined ? 'all' : undefined;
    if (filter) site.error([filter], `${site.name} answers ${rule.event}, which has no text: \`${filter}\` beside \`event\` is only for the caption of media`);
    context.trigger = 'event';
    return { kind: 'event', event: rule.event as RuleEvent };
  }
  if (rule.command !== undefined) {
    context.trigger = 'command';
    return { kind: 'command', name: rule.command.toLowerCase() };
  }
  if (rule.text !== undefined) {
    context.trigger = 'text';
    const text = normalizeTrigger(rule.text, caseSensitive, site.synonyms);
    if (text === '') site.error(['text'], `the text of ${site.name} is only whitespace: a message is trimmed before comparing, so it can never match`);
    return { kind: 'text', text };
  }
  if (rule.pattern !== undefined) return compilePatternTrigger('pattern', rule.pattern, caseSensitive, site, context);
  if (rule.keywords !== undefined || rule.all !== undefined) {
    context.trigger = 'keywords';
    const keywordLanguages = new Map<string, string[]>();
    const keywords = rule.keywords === undefined ? [] : compileKeywords(rule.keywords, caseSensitive, site, keywordLanguages);
    const all = rule.all === undefined ? [] : compileAll(rule.all, caseSensitive, site);
    return { kind: 'keywords', keywords, all, keywordLanguages };
  }
  if (rule.fallback === true) return { kind: 'fallback' };
  if (rule.callback !== undefined) return compilePatternTrigger('callback', rule.callback, caseSensitive, site, context);
  return undefined;
}

/**
 * `event: photo` (…) or `media: any`: a message carrying that media, whose caption `keywords` or `pattern`
 * (when given beside it) must match; a pattern's groups fill {{match.N}}.
 */
function compileMediaTrigger(rule: Rule, site: TriggerSite, context: TemplateContext): CompiledTrigger | undefined {
  const media = (rule.media ?? rule.event) as IncomingMediaKind | 'any';
  if (rule.keywords !== undefined && rule.pattern !== undefined) {
    site.error(['pattern'], `${site.name} has both keywords and pattern for the caption: keep one`);
    return undefined;
  }
  if (rule.all !== undefined) {
    site.error(['all'], `${site.name} answers media: its caption is matched by \`keywords\` or \`pattern\`, not \`all\``);
    return undefined;
  }
  if (rule.pattern !== undefined) {
    const compiled = compilePatternTrigger('pattern', rule.pattern, rule.case_sensitive === true, site, context);
    if (!compiled || compiled.kind !== 'pattern') return undefined;
    return { kind: 'media', media, caption: { kind: 'pattern', pattern: compiled.pattern } };
  }
  context.trigger = 'event';
  if (rule.keywords === undefined) return { kind: 'media', media, caption: null };
  const keywords = compileKeywords(rule.keywords, rule.case_sensitive === true, site, new Map());
  return { kind: 'media', media, caption: { kind: 'keywords', keywords } };
}

/** A text or keyword as messages are compared with it: normalised, and folded and with synonyms applied unless case-sensitive. */
function normalizeTrigger(text: string, caseSensitive: boolean, synonyms: SynonymTable): string {
  return caseSensitive ? normalize(text, true) : applySynonyms(normalize(text), synonyms);
}

/** A `pattern` (matched against messages) or a `callback` (against a press's data). */
function compilePatternTrigger(
  kind: 'pattern' | 'callback',
  source: string,
  caseSensitive: boolean,
  site: TriggerSite,
  context: TemplateContext,
): CompiledTrigger | undefined {
  context.trigger = kind;
  const pattern = site.compilePattern(source, caseSensitive, (message) => site.error([kind], `${message} in ${site.name}`));
  if (!pattern) return undefined;
  context.groupCount = pattern.groupCount;
  context.groupNames = new Set(pattern.groupNames);
  return { kind, source, pattern };
}

/**
 * The distinct normalised keywords, and in `languages` the languages each was listed under; one without a
 * letter or digit is reported, as it has no word edges.
 */
function compileKeywords(keywords: NonNullable<Rule['keywords']>, caseSensitive: boolean, site: TriggerSite, languages: Map<string, string[]>): string[] {
  const compiled: string[] = [];
  for (const { keyword, path } of keywordSources(keywords)) {
    const normalized = normalizeTrigger(keyword, caseSensitive, site.synonyms);
    if (!firstWord(normalized)) {
      site.error(
        ['keywords', ...path],
        `keyword ${JSON.stringify(keyword)} in ${site.name} has no letter or digit, so it has no word edges to match; use a pattern instead`,
      );
      continue;
    }
    if (!compiled.includes(normalized)) compiled.push(normalized);
    const language = typeof path[0] === 'string' ? path[0] : undefined;
    if (language !== undefined) languages.set(normalized, [...new Set([...(languages.get(normalized) ?? []), language])]);
  }
  return compiled;
}

/** The groups of an `all` trigger: one list, or one per language; each word normalised (a word without a letter or digit is reported). */
function compileAll(all: NonNullable<Rule['all']>, caseSensitive: boolean, site: TriggerSite): AllGroup[] {
  const lists: [string | null, readonly string[]][] = Array.isArray(all)
    ? [[null, all]]
    : Object.entries(all).map(([language, list]) => [language, list ?? []]);
  const groups: AllGroup[] = [];
  for (const [language, list] of lists) {
    const words: string[] = [];
    for (const [i, word] of list.entries()) {
      const normalized = normalizeTrigger(word, caseSensitive, site.synonyms);
      if (!firstWord(normalized))
        site.error(
          ['all', ...(language === null ? [] : [language]), i],
          `${JSON.stringify(word)} in the \`all\` of ${site.name} has no letter or digit, so it has no word edges to match`,
        );
      else if (!words.includes(normalized)) words.push(normalized);
    }
    if (words.length > 0) groups.push(Object.freeze({ words: Object.freeze(words), language }));
  }
  return groups;
}

/** An already validated pattern by case and source: from the cache's previous compile or this one. */
export type KnownPattern = (key: string) => LazyPattern | undefined;

/**
 * Validates a pattern, or reuses one already validated; this compile's patterns are collected in `patterns`.
 * RE2 syntax via re2js: matching time is linear in the message length, so no pattern can hang us.
 */
export function compilePattern(
  source: string,
  caseSensitive: boolean,
  report: (message: string) => void,
  patterns: Map<string, LazyPattern>,
  known: KnownPattern,
): LazyPattern | undefined {
  const key = `${caseSensitive ? 's' : 'i'}${source}`;
  const validated = known(key);
  if (validated) {
    patterns.set(key, validated);
    return validated;
  }
  const checked = checkPattern(source, caseSensitive, 'use case_sensitive for case');
  if ('problem' in checked) {
    report(checked.problem);
    return undefined;
  }
  patterns.set(key, checked.pattern);
  return checked.pattern;
}
