// Turns schema-valid rules into an immutable RuleSet: compiles patterns (re2js, linear time) and
// reply templates, normalises text and keywords, and builds the lookup indexes. Every problem is
// collected with its source position instead of stopping at the first.
import type { Rule } from '../generated/rules-schema.js';
import { compileDescription, type CommandDescription } from './compile-description.js';
import { problemAt, RuleLoadError, type RuleLocator, type RuleProblem, type SourcePosition } from '../diagnostics/problem.js';
import { compileRuleActions, type RuleProblemSink } from './compile-actions.js';
import { compileModeration, warnOfMemberInPrivate } from './compile-moderation.js';
import { compileMedia, UNREAD_MEDIA } from './compile-media.js';
import { compileOutbound, type CompiledOutbound } from './compile-sends.js';
import { branchesReply, compileRuleCalls } from './compile-rule-calls.js';
import { compileReminders, placedReminders, reminderTextConflicts } from './compile-reminders.js';
import { compileSchedules } from './compile-schedules.js';
import { compileFlows, type FlowSource, type PatternCompiler } from './compile-flows.js';
import { compileRuleTexts, type RuleSetSettings, type RuleTexts } from './compile-reach.js';
import { compilePattern, compileTrigger, type KnownPattern } from './compile-trigger.js';
import type { LazyPattern } from './lazy-pattern.js';
import { mentionsMemberScope } from './member-counts.js';
import { buildIndex } from './rule-index.js';
import type { CompiledRule, CompiledTrigger, RuleSet } from './rule-set.js';
import { compileStaticText, type StaticText } from './languages.js';
import { buildSuggestions } from './suggestions.js';
import { buildSynonyms, type SynonymTable } from './synonyms.js';
import type { TemplateContext } from './template.js';
import { compileOpen, timeSettingsWith, type TimeSettings } from './time-settings.js';
import { compileAssignments, compileConditions } from './variables.js';

export type { RuleSetSettings } from './compile-reach.js';

export interface CompileResult {
  /** Undefined when there were errors (warnings alone still give a rule set). */
  ruleSet?: RuleSet;
  problems: RuleProblem[];
}

const inlineLocator: RuleLocator = (ruleIndex) => ({ file: `<rule #${ruleIndex + 1}>`, line: 1, column: 1 });

/**
 * Validated patterns of one owner's latest compile, by case and source: validating is much of the cost of
 * a reload, and a reload usually keeps most patterns. A LazyPattern keeps no state between matches, so
 * old and new rule sets may share one. Whoever recompiles the same rules (a rule loader, for the life of
 * its watcher) owns one; it holds that owner's latest rule set's patterns at most.
 */
export class PatternCache {
  private latest: ReadonlyMap<string, LazyPattern> = new Map();

  /** A pattern the previous compile validated, if any. */
  get(key: string): LazyPattern | undefined {
    return this.latest.get(key);
  }

  /** Keeps exactly this compile's patterns: those the rules no longer use are let go. */
  replace(patterns: ReadonlyMap<string, LazyPattern>): void {
    this.latest = patterns;
  }
}

/**
 * Compiles rules given in the global order; `files` names the files they came from (for reports). The
 * starts of each flow in `flows` are among `rules` (see flowStartRules), at its `startOrders`. With a `cache`,
 * patterns its previous compile validated are reused, and this compile's patterns are kept for the next.
 */
export function compileRulesCollecting(
  rules: readonly Rule[],
  locate: RuleLocator = inlineLocator,
  files: readonly string[] = [],
  flows: readonly FlowSource[] = [],
  cache?: PatternCache,
  settings: RuleSetSettings = {},
): CompileResult {
  const problems: RuleProblem[] = [];
  const synonyms = buildSynonyms(settings.synonyms);
  const compiled: CompiledRule[] = [];
  const patterns = new Map<string, LazyPattern>();
  const known = (key: string) => cache?.get(key) ?? patterns.get(key);
  const starts = new Map(flows.flatMap((f) => f.startOrders.map((order) => [order, f.flow.id] as const)));
  const time = timeSettingsWith(settings.time, settings.languages);
  const shared: RuleCompileSite = { locate, problems, compilePattern: patternCompiler(patterns, known), settings, synonyms, time };
  for (const [order, rule] of rules.entries()) {
    const result = compileRule(rule, order, shared, starts.get(order));
    if (result) compiled.push(result);
  }
  if (!settings.incomingLimit) warnOfFloodingWithoutLimit(compiled, locate, problems);
  const schedules = settings.schedules
    ? compileSchedules(settings.schedules.list, time, settings.environment, (path, message, severity) =>
        problems.push(problemAt(settings.schedules!.locate(path), message, severity)),
      )
    : [];
  const compiledFlows = compileFlows(flows, problems, shared.compilePattern, settings.languages, settings.environment, settings.media, time);
  problems.push(...reminderTextConflicts(placedReminders(compiled, locate, flows, compiledFlows)));
  cache?.replace(patterns);
  if (problems.some((p) => p.severity === 'error')) return { problems };
  const ruleSet: RuleSet = Object.freeze({
    rules: Object.freeze(compiled),
    files: Object.freeze([...files]),
    index: buildIndex(compiled, synonyms, settings.languages, settings.synonyms),
    flows: compiledFlows,
    duringFlowsIndex: buildIndex(
      compiled.filter((rule) => rule.duringFlows),
      synonyms,
      settings.languages,
      settings.synonyms,
    ),
    duringHandoffIndex: buildIndex(
      compiled.filter((rule) => rule.duringHandoff),
      synonyms,
      settings.languages,
      settings.synonyms,
    ),
    ...(settings.handoffEnd ? { handoffEnd: settings.handoffEnd } : {}),
    callbacks: Object.freeze(compiled.filter((rule) => rule.trigger.kind === 'callback')),
    schedules,
    ...(settings.languages ? { languages: settings.languages } : {}),
    ...(settings.suggest ? { suggestions: buildSuggestions(compiled, settings.suggest, synonyms, settings.languages) } : {}),
    ...(mentionsMemberScope([rules, flows.map((f) => f.flow)]) ? { keepsMembers: true } : {}),
    ...(settings.incomingLimit ? { incomingLimit: settings.incomingLimit } : {}),
  });
  return { ruleSet, problems };
}

/**
 * The problems compiling would find in these rules (patterns, templates, keywords), without building a
 * rule set or touching the pattern cache: used on rules that failed the schema elsewhere, so that their
 * other mistakes are reported in the same run.
 */
export function compileProblems(rules: readonly Rule[], locate: RuleLocator, settings: RuleSetSettings = {}): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const patterns = new Map<string, LazyPattern>();
  const synonyms = buildSynonyms(settings.synonyms);
  const time = timeSettingsWith(settings.time, settings.languages);
  const shared: RuleCompileSite = { locate, problems, compilePattern: patternCompiler(patterns, (key) => patterns.get(key)), settings, synonyms, time };
  for (const [order, rule] of rules.entries()) compileRule(rule, order, shared);
  return problems;
}

/** Compiles rules (and flows whose starts are among them) or throws a RuleLoadError listing every problem. */
export function compileRules(
  rules: readonly Rule[],
  locate?: RuleLocator,
  files?: readonly string[],
  flows?: readonly FlowSource[],
  settings?: RuleSetSettings,
): RuleSet {
  const { ruleSet, problems } = compileRulesCollecting(rules, locate, files, flows, undefined, settings);
  if (!ruleSet) throw new RuleLoadError(problems);
  return ruleSet;
}

/** What every rule of one compile shares: where problems are placed and collected, how patterns are compiled, the settings. */
interface RuleCompileSite {
  readonly locate: RuleLocator;
  readonly problems: RuleProblem[];
  readonly compilePattern: PatternCompiler;
  readonly settings: RuleSetSettings;
  readonly synonyms: SynonymTable;
  /** The zone and opening hours, for `open:` and the clock's placeholders. */
  readonly time: TimeSettings;
}

/** A compile's pattern compiler: reuses what `known` validated, and collects this compile's patterns in `patterns`. */
function patternCompiler(patterns: Map<string, LazyPattern>, known: KnownPattern): PatternCompiler {
  return (source, caseSensitive, report) => compilePattern(source, caseSensitive, report, patterns, known);
}

function compileRule(rule: Rule, order: number, shared: RuleCompileSite, startsFlow?: string): CompiledRule | undefined {
  const { locate, problems, settings } = shared;
  const name = startsFlow ? `the start of flow '${startsFlow}'` : `rule '${rule.id}'`;
  const report: RuleProblemSink = (path, message, severity) => problems.push(problemAt(locate(order, path), message, severity));
  const context: TemplateContext = { trigger: 'fallback', time: shared.time, ...(settings.languages ? { languages: settings.languages } : {}) };
  const trigger = compileTrigger(rule, { name, error: report, compilePattern: shared.compilePattern, synonyms: shared.synonyms }, context);
  // A broken pattern already reported its error; the templates cannot be judged without its groups.
  const judgeable = (context.trigger !== 'pattern' && context.trigger !== 'callback') || trigger !== undefined;

  const gated = (path: (string | number)[], message: string, severity?: 'error' | 'warning') => {
    if (judgeable || severity === 'warning') report(path, message, severity);
  };
  const texts = compileRuleTexts(rule, context, settings.languages, name, gated, settings.media);
  const media = compileMedia(rule, context, { name, report: gated, lookup: settings.media ?? UNREAD_MEDIA, parseMode: rule.parse_mode });
  const site = { name, zone: shared.time.zone };
  const reportUnder = (field: string) => (key: string | undefined, message: string, severity?: 'error' | 'warning') =>
    report(key ? [field, key] : [field], message, severity);
  const when = compileConditions(rule.when, site, reportUnder('when'));
  const open = compileOpen(rule.open, shared.time, name, (message) => report(['open'], message));
  const set = judgeable ? compileAssignments(rule.set, site, context, reportUnder('set')) : [];
  const actions = judgeable ? compileRuleActions(rule, context, name, report) : undefined;
  const outbound = judgeable ? compileOutbound(rule, context, name, report, settings.environment) : undefined;
  const calls = judgeable ? compileRuleCalls(rule, context, name, report, settings) : undefined;
  const moderation = compileModeration(rule, name, report, { hasReply: branchesReply(rule) });
  warnOfMemberInPrivate(rule, name, report);
  const label = rule.label === undefined ? undefined : compileLabel(rule.label, settings, name, report);
  const reminders = judgeable ? compileReminders(rule, context, name, report) : undefined;
  if (!trigger || !actions || !outbound || !calls || label === null || media === undefined || !reminders || open === undefined) return undefined;
  warnOfNeverFuzzy(rule, trigger, name, report);
  const description = compileDescription(rule, name, report, settings.languages);
  const parts = {
    trigger,
    texts,
    media,
    actions,
    when,
    open,
    set,
    outbound,
    calls,
    moderation,
    reminders,
    label: label ?? null,
    ...(description !== undefined ? { description } : {}),
  };
  return assembleRule(rule, order, locate(order, []), parts, settings, startsFlow);
}

/** A rule's suggestion `label`, checked as any text given per language; null when it has errors. */
function compileLabel(source: NonNullable<Rule['label']>, settings: RuleSetSettings, name: string, report: RuleProblemSink): StaticText | null {
  const compiled = compileStaticText(source, settings.languages, `the label of ${name}`, {
    error: (path, message) => report(['label', ...path], message),
    warning: (path, message) => report(['label', ...path], message, 'warning'),
  });
  return compiled ?? null;
}

/** `fuzzy: auto` or `forms: auto` where it can never apply is a warning: the writer expects typos or other forms to be forgiven. */
function warnOfNeverFuzzy(rule: Rule, trigger: CompiledTrigger, name: string, report: RuleProblemSink): void {
  for (const [key, what] of [
    ['fuzzy', 'fuzzy matching'],
    ['forms', 'matching other forms of words'],
  ] as const) {
    if (rule[key] !== 'auto') continue;
    if (trigger.kind !== 'text' && trigger.kind !== 'keywords')
      report([key], `${what} is for text, keywords and all triggers; ${name} has a ${trigger.kind} trigger, so it never applies: remove \`${key}\``, 'warning');
    else if (rule.case_sensitive === true) report([key], `${name} is case_sensitive, so ${what} never applies: remove one of them`, 'warning');
  }
}

/** The compiled parts of one rule, before they are put together. */
interface RuleParts {
  trigger: CompiledTrigger;
  texts: RuleTexts;
  media: CompiledRule['media'];
  actions: NonNullable<ReturnType<typeof compileRuleActions>>;
  when: CompiledRule['when'];
  open: CompiledRule['open'];
  set: CompiledRule['set'];
  outbound: CompiledOutbound;
  calls: NonNullable<ReturnType<typeof compileRuleCalls>>;
  moderation: CompiledRule['moderation'];
  label: StaticText | null;
  description?: CommandDescription;
  reminders: CompiledRule['reminders'];
}

function assembleRule(
  rule: Rule,
  order: number,
  position: SourcePosition,
  { trigger, texts, media, actions, when, open, set, outbound, calls, moderation, label, description, reminders }: RuleParts,
  settings: RuleSetSettings,
  startsFlow: string | undefined,
): CompiledRule {
  const caseSensitive = rule.case_sensitive === true;
  // Typos and other forms apply to text, keyword and `all` triggers compared without case.
  const wordTrigger = !caseSensitive && (trigger.kind === 'text' || trigger.kind === 'keywords');
  return Object.freeze({
    id: rule.id,
    order,
    file: position.file,
    line: position.line,
    column: position.column,
    trigger: Object.freeze(trigger),
    caseSensitive,
    chatTypes: rule.chat_types ? new Set<string>(rule.chat_types) : null,
    chats: rule.chats ? new Set<number>(rule.chats) : null,
    topics: rule.topics ? new Set<number>(rule.topics) : null,
    replies: texts.replies,
    ...(texts.localizedReplies ? { localizedReplies: texts.localizedReplies } : {}),
    ...(texts.messages ? { messages: texts.messages } : {}),
    media,
    lang: rule.lang ? new Set<string>(rule.lang) : null,
    mentioned: rule.mentioned === true,
    fuzzy: wordTrigger && (rule.fuzzy ?? settings.fuzzy ?? 'off') === 'auto',
    forms: wordTrigger && (rule.forms ?? settings.forms ?? 'off') === 'auto',
    ...(rule.parse_mode ? { parseMode: rule.parse_mode } : {}),
    ...actions,
    replyToMessage: rule.reply_to_message === true,
    disableNotification: rule.disable_notification === true,
    examples: Object.freeze([...(rule.examples ?? [])]),
    ...(description !== undefined ? { description } : {}),
    when,
    open,
    set,
    sends: outbound.sends,
    relays: outbound.relays,
    ...(calls.call ? { call: calls.call } : {}),
    ...(calls.notifies.length > 0 ? { notifies: calls.notifies } : {}),
    moderation,
    reminders,
    duringFlows: rule.during_flows === true,
    ...(rule.handoff !== undefined ? { handoff: rule.handoff ? ('start' as const) : ('end' as const) } : {}),
    duringHandoff: rule.during_handoff === true,
    ...(startsFlow ? { startsFlow } : {}),
    suggest: rule.suggest !== false,
    label,
  });
}

/** An `event: flooding` rule with no `limits.incoming` never fires: said once per rule, at its event. */
function warnOfFloodingWithoutLimit(rules: readonly CompiledRule[], locate: RuleLocator, problems: RuleProblem[]): void {
  for (const rule of rules) {
    if (rule.trigger.kind === 'event' && rule.trigger.event === 'flooding')
      problems.push(
        problemAt(
          locate(rule.order, ['event']),
          `rule '${rule.id}' answers flooding, and no rule file declares \`limits: { incoming: { per_user: N, per: DURATION } }\`: it never fires`,
          'warning',
        ),
      );
  }
}
