// Finds the rule that answers a message: the matching rule with the lowest position in the global
// order, found through the indexes (commands; texts, keywords and `all` groups in each view of the message:
// as written, with case, and reduced to word stems per language) plus an ordered walk over the pattern
// rules whose required literal occurs in the message, stopping at an earlier indexed winner;
// `fallback` only when nothing matched.
import type { Message } from '@grammyjs/types';
import { isForBot, parseCommand, type ParsedCommand } from './command.js';
import { conditionsPass, WHEN_ON_EMPTY_STATE, type WhenCheck } from './conditions.js';
import type { Correction } from './fuzzy.js';
import { containsKeyword, keywordAt } from './keywords.js';
import { normalize, normalizeForPattern, WORD_RUN } from './normalize.js';
import { patternCandidates } from './pattern-index.js';
import { applySynonyms } from './synonyms.js';
import type { AllEntry, CompiledRule, KeywordEntry, RuleIndex, RuleSet, WordView } from './rule-set.js';

/**
 * How a rule was reached when not by its words as written: by another form of a word (`forms: auto`), by
 * words corrected from typos (`fuzzy: auto`), or by the user pressing it among suggestions (`suggest`).
 */
export type MatchVia =
  | { readonly kind: 'forms'; readonly language: string }
  | { readonly kind: 'corrected'; readonly corrections: readonly Correction[] }
  /** Pressed among suggestions for `text` (what the user had written); `declined`: "None of these", the fallback answered. */
  | { readonly kind: 'suggested'; readonly text: string; readonly declined?: true };

export interface MatchResult {
  rule: CompiledRule;
  /** For command rules: the text after the command. */
  args?: string;
  /** For pattern rules: captures by number (0 = whole match) and by name; null for a group that did not take part. */
  captures?: ReadonlyMap<number | string, string | null>;
  /** How the rule was reached, when not by its words as written (see MatchVia); absent for an exact match. */
  via?: MatchVia;
}

/** What every matcher needs from the message, computed once (always the same fields: one object shape for every message). */
export interface PreparedMessage {
  message: Message;
  text: string;
  command: ParsedCommand | undefined;
  /** Set when the message is a command addressed to another bot: nothing answers it. */
  notForUs: boolean;
  /** The text normalised (see normalize.ts), before synonyms. */
  plain: string;
  /** `plain` with the rule set's synonyms applied: what text, keyword and `all` triggers compare with. */
  folded: string;
  /** The text normalised but not case-folded; only when some rule is case-sensitive. */
  exact: string | undefined;
  patternInput: string;
}

export function prepareMessage(message: Message, botUsername: string, needsExact: boolean): PreparedMessage | undefined {
  const text = message.text;
  if (typeof text !== 'string' || text.length === 0) return undefined;
  const command = parseCommand(text, message.entities);
  // "hi @our_bot" in a group means "hi": triggers see the text without the bot's own mention.
  const addressed = command ? text : withoutBotMention(text, message.entities, botUsername);
  const plain = normalize(addressed);
  // A literal without spreads: each message's object has the same shape, so the matchers reading it stay monomorphic.
  return {
    message,
    text,
    command,
    notForUs: command !== undefined && !isForBot(command, botUsername),
    plain,
    folded: plain,
    exact: needsExact ? normalize(addressed, true) : undefined,
    patternInput: normalizeForPattern(addressed),
  };
}

/**
 * Where `text` mentions the bot (@its_username in any case): its `mention` entities or, in a message
 * without entities (a client that sends none), the whole words that are the mention.
 */
export function botMentionSpans(text: string, entities: Message['entities'], botUsername: string): [number, number][] {
  if (botUsername === '' || !text.includes('@')) return [];
  const wanted = `@${botUsername.toLowerCase()}`;
  if (entities && entities.length > 0) {
    return entities
      .filter((e) => e.type === 'mention' && text.slice(e.offset, e.offset + e.length).toLowerCase() === wanted)
      .map((e) => [e.offset, e.offset + e.length]);
  }
  return [...text.matchAll(/@[A-Za-z0-9_]{1,32}\b/g)].filter((m) => m[0].toLowerCase() === wanted).map((m) => [m.index, m.index + m[0].length]);
}

/** `text` without the bot's mentions; the text itself when it has none, or when it is nothing but the mention. */
export function withoutBotMention(text: string, entities: Message['entities'], botUsername: string): string {
  const spans = botMentionSpans(text, entities, botUsername);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(at, start)} `;
    at = end;
  }
  out = (out + text.slice(at)).replace(/\s+/g, ' ').trim();
  return out === '' ? text : out;
}

/**
 * The rule that answers `message` among `rules` (by default the whole rule set's index; `index` picks
 * another, e.g. the during_flows rules); `whenHolds` judges rules' `when` conditions.
 */
export function matchMessage(
  message: Message,
  rules: Pick<RuleSet, 'index'>,
  botUsername: string,
  whenHolds: WhenCheck = WHEN_ON_EMPTY_STATE,
): MatchResult | null {
  const prepared = prepareMessage(message, botUsername, rules.index.needsExact);
  if (!prepared || prepared.notForUs) return null;
  return matchPrepared(prepared, rules.index, whenHolds);
}

/**
 * The first rule in the order that matches the prepared message, found through the indexes. With `wordsOnly`
 * (a message whose typos were corrected), only text, keyword and `all` triggers are tried, before `before`,
 * and no fallback.
 */
export function matchPrepared(prepared: PreparedMessage, index: RuleIndex, whenHolds: WhenCheck, wordsOnly = false, before = Infinity): MatchResult | null {
  // Synonyms stand for their group's word in messages as in the triggers.
  prepared.folded = applySynonyms(prepared.plain, index.synonyms);
  const msg = prepared.message;
  let best: CompiledRule | undefined;
  let via: MatchVia | undefined;
  const bound = () => (best ? best.order : before);
  // A corrected message reaches fuzzy rules only.
  const check: RuleCheck = { msg, whenHolds, fuzzyOnly: wordsOnly };
  if (prepared.command && !wordsOnly) best = firstPassing(index.commands.get(prepared.command.name), check, bound());
  if (index.folded.size > 0) best = bestInView(index.folded, prepared.folded, check, bound()) ?? best;
  if (prepared.exact !== undefined && index.exact.size > 0) best = bestInView(index.exact, prepared.exact, check, bound()) ?? best;
  for (const view of index.forms) {
    if (view.firstOrder >= bound()) continue;
    const found = bestInView(view, applySynonyms(view.forms.stemText(prepared.folded), view.synonyms), check, bound());
    if (!found) continue;
    best = found;
    via = { kind: 'forms', language: view.forms.language };
  }
  if (wordsOnly) return best ? { rule: best, ...(via ? { via } : {}) } : null;

  // Only patterns whose required literal occurs in the message, and only those before the best so far.
  for (const rule of patternCandidates(index.patterns, prepared.patternInput, bound())) {
    if (!conditionsPass(rule, msg, whenHolds)) continue;
    const captures = patternCaptures(rule, prepared.patternInput);
    if (captures) return { rule, captures };
  }
  if (best) {
    const result = resultFor(best, prepared);
    if (via) result.via = via;
    return result;
  }
  for (const rule of index.fallbacks) {
    if (conditionsPass(rule, msg, whenHolds)) return { rule };
  }
  return null;
}

/** Whether a rule may answer this message: its conditions, and, for a corrected message, whether it is fuzzy. */
interface RuleCheck {
  readonly msg: Message;
  readonly whenHolds: WhenCheck;
  readonly fuzzyOnly: boolean;
}

function passes(rule: CompiledRule, check: RuleCheck): boolean {
  return (!check.fuzzyOnly || rule.fuzzy) && conditionsPass(rule, check.msg, check.whenHolds);
}

/** The first rule of `list` (in order) before `before` that passes. */
function firstPassing(list: readonly CompiledRule[] | undefined, check: RuleCheck, before: number): CompiledRule | undefined {
  if (!list) return undefined;
  for (const rule of list) {
    if (rule.order >= before) return undefined;
    if (passes(rule, check)) return rule;
  }
  return undefined;
}

/** The first rule before `before` whose text, keyword or `all` trigger `view` finds in `text` (the message as the view reads it). */
function bestInView(view: WordView, text: string, check: RuleCheck, before: number): CompiledRule | undefined {
  let best = firstPassing(view.text.get(text), check, before);
  if (view.keywords.size > 0) best = bestKeyword(text, view.keywords, check, best ? best.order : before) ?? best;
  if (view.all.size > 0) best = bestAll(text, view.all, check, best ? best.order : before) ?? best;
  return best;
}

/** The message's word runs, for the keyword look-up (lastIndex is set before every use). */
const WORDS = new RegExp(WORD_RUN.source, WORD_RUN.flags);

/** The first rule before `before` with a keyword in `text`; undefined when there is none. */
function bestKeyword(text: string, map: ReadonlyMap<string, readonly KeywordEntry[]>, check: RuleCheck, before: number): CompiledRule | undefined {
  let best: CompiledRule | undefined;
  // An exec() loop on a regex of this module's own: matchAll() would copy the regex and build an iterator per message.
  for (let from = 0; ;) {
    WORDS.lastIndex = from;
    const token = WORDS.exec(text);
    if (!token) return best;
    from = WORDS.lastIndex;
    const entries = map.get(token[0]);
    if (!entries) continue;
    for (const entry of entries) {
      if (entry.rule.order >= before) break;
      if (keywordAt(text, entry.keyword, token.index - entry.lead) && passes(entry.rule, check)) {
        best = entry.rule;
        before = best.order;
      }
    }
  }
}

/** The first rule before `before` all of whose words of one `all` group are in `text`; undefined when there is none. */
function bestAll(text: string, map: ReadonlyMap<string, readonly AllEntry[]>, check: RuleCheck, before: number): CompiledRule | undefined {
  let best: CompiledRule | undefined;
  for (let from = 0; ;) {
    WORDS.lastIndex = from;
    const token = WORDS.exec(text);
    if (!token) return best;
    from = WORDS.lastIndex;
    const entries = map.get(token[0]);
    if (!entries) continue;
    for (const entry of entries) {
      if (entry.rule.order >= before) break;
      if (entry.words.every((word) => containsKeyword(text, word)) && passes(entry.rule, check)) {
        best = entry.rule;
        before = best.order;
      }
    }
  }
}

export function resultFor(rule: CompiledRule, prepared: PreparedMessage): MatchResult {
  if (rule.trigger.kind === 'command') return { rule, args: prepared.command?.args ?? '' };
  if (rule.trigger.kind === 'pattern') {
    const captures = patternCaptures(rule, prepared.patternInput);
    if (captures) return { rule, captures };
  }
  return { rule };
}

/**
 * Runs a pattern rule once; undefined when it does not match. One search with captures costs less than a
 * `test()` followed by it (re2js: ~0.8 against ~1.1 µs for a hit here, and less for a miss too).
 */
export function patternCaptures(rule: CompiledRule, input: string): Map<number | string, string | null> | undefined {
  return rule.trigger.kind === 'pattern' ? rule.trigger.pattern.captures(input) : undefined;
}
