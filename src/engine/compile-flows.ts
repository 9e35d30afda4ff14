// Compiles schema-valid `flows:` into immutable CompiledFlows: each step's question, accepted answers and
// retry, the cancel trigger, the timeout and the done branches, with every placeholder and condition
// checked against the steps answered by then. A flow's start is compiled as a rule (see flowStartRules),
// so it is matched, ordered and checked exactly like one.
import type { Flow, FlowStart, Rule } from '../generated/rules-schema.js';
import { problemAt, type RuleProblem, type SourcePosition } from '../diagnostics/problem.js';
import { MAX_BUTTONS } from './keyboards.js';
import { firstWord } from './keywords.js';
import type { LazyPattern } from './lazy-pattern.js';
import { choiceKey } from './flows.js';
import { normalize } from './normalize.js';
import { compileMedia, UNREAD_MEDIA, type MediaLookup, type MediaSite } from './compile-media.js';
import type { CompiledMedia } from './media.js';
import { INCOMING_MEDIA_KINDS } from './message-media.js';
import type { CompiledAccept, CompiledDoneBranch, CompiledFlow, CompiledStep } from './rule-set.js';
import { allStaticTexts, compileStaticText, compileText, type LanguageSettings, type StaticText, type TextSource } from './languages.js';
import type { Template, TemplateContext } from './template.js';
import { compileOpen, UTC_TIME, type TimeSettings } from './time-settings.js';
import { compileDateOrTime, warnOfUnusedRetries } from './compile-date-steps.js';
import { compileReminders, NO_REMINDERS } from './compile-reminders.js';
import { compileAssignments, compileConditions } from './variables.js';
import type { RuleEnvironment } from './compile-reach.js';
import { compileDoneCall, compileStepCall } from './compile-flow-calls.js';
import { handoffWithoutConfig } from './compile-sends.js';
import { compileModeration } from './compile-moderation.js';

/** A flow as read from a file, with a way to place its problems. */
export interface FlowSource {
  readonly flow: Flow;
  /** Position of a path inside the flow, e.g. ['steps', 1, 'ask']. */
  readonly locate: (path: readonly (string | number)[]) => SourcePosition;
  /** The positions of the flow's start rules in the global rule order, one per start (see flowStartRules). */
  readonly startOrders: readonly number[];
}

/** Compiles a pattern or reports why it cannot be (shared with rules, so both use one cache). */
export type PatternCompiler = (source: string, caseSensitive: boolean, report: (message: string) => void) => LazyPattern | undefined;

/** The longest timeout: a flow left open longer is rather forgotten than waiting. */
const MAX_TIMEOUT_MS = 30 * 24 * 3600 * 1000;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A flow's starts as a list: `start:` is one trigger or several. */
export function flowStarts(flow: Flow): readonly FlowStart[] {
  return Array.isArray(flow.start) ? flow.start : [flow.start as FlowStart];
}

/**
 * The rules that start a flow, one per start: its trigger, conditions, `set` and examples under the flow's
 * id. Their reply is never sent (starting a flow sends its first question instead).
 */
export function flowStartRules(flow: Flow): Rule[] {
  return flowStarts(flow).map((start) => ({ ...start, id: flow.id, reply: '-' }) as Rule);
}

/** Compiles every flow; problems (errors and warnings) are added to `problems`. */
export function compileFlows(
  sources: readonly FlowSource[],
  problems: RuleProblem[],
  compilePattern: PatternCompiler,
  languages?: LanguageSettings,
  environment?: RuleEnvironment,
  media: MediaLookup = UNREAD_MEDIA,
  time: TimeSettings = UTC_TIME,
): Map<string, CompiledFlow> {
  const flows = new Map<string, CompiledFlow>();
  for (const source of sources) {
    const compiled = compileFlow(source, problems, compilePattern, languages, environment, media, time);
    if (compiled) flows.set(compiled.id, compiled);
  }
  return flows;
}

/** What the parts of one flow's compile share: its name and steps, where problems go, how texts and patterns are compiled. */
export interface FlowSite {
  readonly flow: Flow;
  /** "flow 'booking'". */
  readonly name: string;
  readonly stepIds: readonly string[];
  readonly report: (path: (string | number)[], message: string, severity?: 'error' | 'warning') => void;
  /** Compiles one of the flow's texts (any may be given per language); null when it has errors (they are reported). */
  readonly template: (source: TextSource, path: (string | number)[], context: TemplateContext, where: string) => Template | null;
  /** The template context of a text shown once `answered` steps are answered. */
  readonly flowContext: (answered: readonly string[], extra?: Partial<TemplateContext>) => TemplateContext;
  readonly compilePattern: PatternCompiler;
  /** What the configuration declares (backends), when known. */
  readonly environment?: RuleEnvironment;
  readonly languages: LanguageSettings | undefined;
  /** Compiles the media of a step or a done branch at `path`: null when none, undefined when broken (reported). */
  readonly media: (site: MediaSite, path: (string | number)[], context: TemplateContext, where: string) => CompiledMedia | null | undefined;
  readonly time: TimeSettings;
}

function flowSite(
  flow: Flow,
  locate: FlowSource['locate'],
  problems: RuleProblem[],
  compilePattern: PatternCompiler,
  languages: LanguageSettings | undefined,
  environment: RuleEnvironment | undefined,
  lookup: MediaLookup,
  time: TimeSettings,
): FlowSite {
  const stepIds = flow.steps.map((s) => s.id);
  // Steps whose answer a backend accepts keep its JSON: {{flow.STEP.PATH}} reads it once they are answered.
  const called = flow.steps.filter((s) => s.accept?.call !== undefined).map((s) => s.id);
  // Date and time steps: {{flow.STEP}} writes a date in the user's language, {{flow.STEP.iso}} as kept.
  const kinds = new Map<string, 'date' | 'time'>();
  for (const step of flow.steps) {
    if (step.accept?.date !== undefined) kinds.set(step.id, 'date');
    else if (step.accept?.time !== undefined) kinds.set(step.id, 'time');
  }
  const report: FlowSite['report'] = (path, message, severity = 'error') => problems.push(problemAt(locate(path), message, severity));
  return {
    flow,
    name: `flow '${flow.id}'`,
    stepIds,
    report,
    template: (source, path, context, where) =>
      compileText(source, { ...context, time, ...(languages ? { languages } : {}) }, where, {
        error: (at, message) => report([...path, ...at], message),
        warning: (at, message) => report([...path, ...at], message, 'warning'),
      }) ?? null,
    flowContext: (answered, extra = {}) => ({
      trigger: 'fallback',
      flow: { id: flow.id, answered, steps: stepIds, called, kinds },
      time,
      ...(languages ? { languages } : {}),
      ...extra,
    }),
    compilePattern,
    ...(environment ? { environment } : {}),
    languages,
    media: (site, path, context, where) =>
      compileMedia(
        site,
        { ...context, ...(languages ? { languages } : {}) },
        { name: where, report: (at, message, severity) => report([...path, ...at], message, severity), lookup },
      ),
    time,
  };
}

const errorCount = (problems: readonly RuleProblem[]) => problems.filter((p) => p.severity === 'error').length;

function compileFlow(
  { flow, locate }: FlowSource,
  problems: RuleProblem[],
  compilePattern: PatternCompiler,
  languages: LanguageSettings | undefined,
  environment: RuleEnvironment | undefined,
  media: MediaLookup,
  time: TimeSettings,
): CompiledFlow | undefined {
  const site = flowSite(flow, locate, problems, compilePattern, languages, environment, media, time);
  const before = errorCount(problems);
  const steps = compileSteps(site);
  const done = compileDone(site);
  const cancel = flow.cancel ? compileCancel(site) : null;
  const timeout = flow.timeout ? compileTimeout(flow.timeout, site) : null;
  if (errorCount(problems) > before) return undefined;
  const position = locate([]);
  return Object.freeze({
    id: flow.id,
    file: position.file,
    line: position.line,
    column: position.column,
    steps: Object.freeze(steps),
    stepIndex: new Map(steps.map((s, i) => [s.id, i])),
    cancel,
    timeout,
    done: Object.freeze(done),
  });
}

/** The steps that compiled; a step with a problem is reported and left out (the flow is then refused). */
function compileSteps(site: FlowSite): CompiledStep[] {
  const { flow, name, stepIds, report, template, flowContext, time } = site;
  const steps: CompiledStep[] = [];
  const seen = new Map<string, number>();
  for (const [i, step] of flow.steps.entries()) {
    const where = `step '${step.id}' of ${name}`;
    if (seen.has(step.id)) report(['steps', i, 'id'], `duplicate step id '${step.id}' in ${name}: step #${seen.get(step.id)! + 1} has it already`);
    seen.set(step.id, i);
    const context = flowContext(stepIds.slice(0, i));
    const ask = template(step.ask, ['steps', i, 'ask'], context, `the question of ${where}`);
    const retry = step.retry === undefined ? null : template(step.retry, ['steps', i, 'retry'], context, `the retry of ${where}`);
    const retryPast = step.retry_past === undefined ? null : template(step.retry_past, ['steps', i, 'retry_past'], context, `the retry_past of ${where}`);
    const retryRange = step.retry_range === undefined ? null : template(step.retry_range, ['steps', i, 'retry_range'], context, `the retry_range of ${where}`);
    const reportAccept: Reporter = (path, message, severity) => report(['steps', i, 'accept', ...path], message, severity);
    const accept =
      step.accept?.call !== undefined
        ? compileStepCall(step.accept.call, flowContext(stepIds.slice(0, i), { answer: true }), where, reportAccept, site.environment)
        : (compileDateOrTime(step.accept, where, reportAccept, time.zone) ??
          compileAccept(step.accept, where, reportAccept, site.compilePattern, site.languages));
    warnOfUnusedRetries(step, accept, where, (key, message) => report(['steps', i, key], message, 'warning'));
    const buttons = step.buttons ?? 'inline';
    if (step.buttons !== undefined && step.accept?.choice === undefined)
      report(['steps', i, 'buttons'], `\`buttons\` shows the options of a choice, and ${where} has no \`accept: { choice: ... }\`: remove it`, 'warning');
    if (accept?.kind === 'choice' && buttons !== 'none' && accept.choices.length > MAX_BUTTONS)
      report(
        ['steps', i, 'accept', 'choice'],
        `${where} has ${accept.choices.length} options, more than the ${MAX_BUTTONS} buttons a message can carry: use \`buttons: none\``,
      );
    const media = site.media(step, ['steps', i], context, where);
    if (ask && accept && media !== undefined) steps.push(Object.freeze({ id: step.id, ask, retry, retryPast, retryRange, accept, buttons, media }));
  }
  return steps;
}

/** The done branches, judged with every step answered; a branch after one without `when` is never used (a warning). */
function compileDone(flowSite: FlowSite): CompiledDoneBranch[] {
  const { flow, name, stepIds, report, template, flowContext, time } = flowSite;
  const done: CompiledDoneBranch[] = [];
  for (const [i, branch] of (flow.done ?? []).entries()) {
    const site = { name: `done branch #${i + 1} of ${name}`, flow: { id: flow.id, answered: stepIds, steps: stepIds }, zone: time.zone };
    const when = compileConditions(branch.when, site, (key, message, severity) => report(['done', i, 'when', ...(key ? [key] : [])], message, severity));
    const set = compileAssignments(branch.set, site, flowContext(stepIds), (key, message) => report(['done', i, 'set', ...(key ? [key] : [])], message));
    const reply = branch.reply === undefined ? null : template(branch.reply, ['done', i, 'reply'], flowContext(stepIds), `the reply of ${site.name}`);
    const calls = compileDoneCall(branch, ['done', i], site.name, flowSite);
    const media = flowSite.media(branch, ['done', i], flowContext(stepIds), site.name);
    const open = compileOpen(branch.open, time, site.name, (message) => report(['done', i, 'open'], message));
    const reminders = compileReminders(branch, flowContext(stepIds), site.name, (path, message, severity) => report(['done', i, ...path], message, severity));
    const missing = branch.handoff === true ? handoffWithoutConfig(site.name, flowSite.environment) : undefined;
    if (missing) report(['done', i, 'handoff'], missing);
    const moderation = compileModeration(branch, site.name, (path, message, severity) => report(['done', i, ...path], message, severity), {
      without: 'a done branch',
      joinRequest: flowStarts(flow).some((start) => start.event === 'join_request'),
      hasReply: branch.reply !== undefined || media !== null || Object.values(branch.on ?? {}).some((on) => on?.reply !== undefined),
    });
    const handoff = branch.handoff === true;
    if (media !== undefined)
      done.push(Object.freeze({ when, open: open ?? null, set, reply, media, ...calls, handoff, reminders: reminders ?? NO_REMINDERS, moderation }));
    if (!branch.when && !branch.open && i < flow.done!.length - 1)
      report(['done', i + 1], `done branch #${i + 2} of ${name} is never used: branch #${i + 1} has no \`when\`, so it always answers first`, 'warning');
  }
  return done;
}

function compileTimeout(timeout: NonNullable<Flow['timeout']>, { name, report, template, flowContext }: FlowSite): CompiledFlow['timeout'] {
  const afterMs = durationMs(timeout.after);
  if (afterMs === 0 || afterMs > MAX_TIMEOUT_MS)
    report(['timeout', 'after'], `the timeout of ${name} must be more than 0 and at most 30 days, not '${timeout.after}'`);
  const reply = template(timeout.reply, ['timeout', 'reply'], flowContext([], { withoutMessage: true }), `the timeout reply of ${name}`);
  return reply ? Object.freeze({ afterMs, reply }) : null;
}

type Reporter = (path: (string | number)[], message: string, severity?: 'error' | 'warning') => void;

function compileCancel({ flow, report, template, flowContext }: FlowSite): CompiledFlow['cancel'] {
  const cancel = flow.cancel!;
  const keywords: string[] = [];
  for (const [i, keyword] of (cancel.keywords ?? []).entries()) {
    const normalized = normalize(keyword);
    if (!firstWord(normalized))
      report(['cancel', 'keywords', i], `cancel keyword ${JSON.stringify(keyword)} of flow '${flow.id}' has no letter or digit, so it can never match`);
    else if (!keywords.includes(normalized)) keywords.push(normalized);
  }
  const reply = template(cancel.reply, ['cancel', 'reply'], flowContext([]), `the cancel reply of flow '${flow.id}'`);
  if (!reply) return null;
  return Object.freeze({ keywords: Object.freeze(keywords), command: cancel.command?.toLowerCase() ?? null, reply });
}

function compileAccept(
  accept: Flow['steps'][number]['accept'],
  where: string,
  report: Reporter,
  compilePattern: PatternCompiler,
  languages: LanguageSettings | undefined,
): CompiledAccept | undefined {
  if (!accept) return { kind: 'text' };
  const caseSensitive = accept.case_sensitive === true;
  if (accept.pattern !== undefined) {
    const pattern = compilePattern(accept.pattern, caseSensitive, (message) => report(['pattern'], `${message} in ${where}`));
    return pattern ? { kind: 'pattern', source: accept.pattern, pattern, caseSensitive } : undefined;
  }
  const media = INCOMING_MEDIA_KINDS.find((kind) => accept[kind] === true);
  if (media !== undefined) return { kind: 'media', media };
  if (accept.number !== undefined) {
    const { min, max, decimal } = accept.number;
    const low = min ?? -Infinity;
    const high = max ?? Infinity;
    if (low > high || (!decimal && Math.ceil(low) > Math.floor(high)))
      report(['number'], `${where} can never be answered: no ${decimal ? '' : 'whole '}number is from ${min} to ${max}`);
    return { kind: 'number', min: low, max: high, decimal: decimal === true };
  }
  return compileChoice(accept.choice ?? {}, caseSensitive, where, report, languages);
}

/** A choice's options: the words (and the key, and the label in every language) that choose each, and each option's label. */
function compileChoice(
  choice: NonNullable<NonNullable<Flow['steps'][number]['accept']>['choice']>,
  caseSensitive: boolean,
  where: string,
  report: Reporter,
  languages: LanguageSettings | undefined,
): CompiledAccept {
  const options = new Map<string, string>();
  const labels: (StaticText | null)[] = [];
  for (const [value, option] of Object.entries(choice)) {
    const given: { words?: readonly string[]; label?: TextSource } = Array.isArray(option) ? { words: option } : (option ?? {});
    const wordsPath = Array.isArray(option) ? [] : ['words'];
    const label =
      given.label === undefined
        ? undefined
        : compileStaticText(given.label, languages, `the label of option '${value}' of ${where}`, {
            error: (path, message) => report(['choice', value, 'label', ...path], message),
            warning: (path, message) => report(['choice', value, 'label', ...path], message, 'warning'),
          });
    labels.push(label ?? null);
    // Typing an option's label chooses it too: a reply keyboard sends the label as the answer.
    const words = [value, ...(given.words ?? []), ...(label ? allStaticTexts(label) : [])];
    const written = 1 + (given.words?.length ?? 0);
    for (const [i, word] of words.entries()) {
      const normalized = choiceKey(word, caseSensitive);
      const path = ['choice', value, ...wordsPath, i - 1];
      if (normalized === '') {
        if (i > 0 && i < written) report(path, `choice word ${JSON.stringify(word)} in ${where} is only spaces or punctuation, which answers lose`);
        continue;
      }
      const owner = options.get(normalized);
      if (owner !== undefined && owner !== value && i > 0)
        report(
          i < written ? path : ['choice', value, 'label'],
          `choice ${i < written ? 'word' : 'label'} ${JSON.stringify(word)} in ${where} already chooses '${owner}'; a word can choose one option only`,
        );
      else if (owner === undefined) options.set(normalized, value);
    }
  }
  return { kind: 'choice', options, caseSensitive, choices: Object.keys(choice), labels };
}

/** `15m` → 900000; the schema guarantees the shape. */
/** A duration as flows write it (`90s`, `15m`, `2h`, `1d`) in milliseconds; 0 when it is not one. */
export function durationMs(text: string): number {
  const m = /^(\d+)([smhd])$/.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : 0;
}
