// Compiles `remind:` and `forget_reminder:` of a rule or a flow's done branch: each reminder's time (`at`, a
// template that must give a date and time; or `in`, a duration), its text in every language, its options and
// how late it may still go out (`late_after`, default 1h). `at` is checked at load time when its shape is
// known: a static text, or placeholders that give dates and times ({{flow.date.iso}}, a time step).
import { problemAt, type RuleLocator, type RuleProblem, type SourcePosition } from '../diagnostics/problem.js';
import type { ForgetReminder, Reminder, Reminders } from '../generated/rules-schema.js';
import { parseReminderTime } from './reminder-time.js';
import { durationMs } from './compile-flows.js';
import { markupProblem } from './compile-actions.js';
import { compileInlineKeyboard, type InlineKeyboardTemplate } from './keyboards.js';
import { allTranslations, compileText, type LanguageSettings } from './languages.js';
import type { ParseMode } from './reply.js';
import type { CompiledFlow, CompiledRule } from './rule-set.js';
import type { FlowSource } from './compile-flows.js';
import { compileTemplate, type Template, type TemplateContext } from './template.js';

/** One reminder, compiled. */
export interface CompiledReminder {
  readonly id: string;
  /** `at`: a template giving "YYYY-MM-DD HH:MM", "YYYY-MM-DD" or "HH:MM" in the rules' zone; null with `in`. */
  readonly at: Template | null;
  /** `in`: how long from the moment it is set; null with `at`. */
  readonly inMs: number | null;
  readonly text: Template;
  /** The reply as written, to tell reminders of one id with different texts apart. */
  readonly textSource: string;
  readonly parseMode?: ParseMode;
  readonly buttons: InlineKeyboardTemplate | null;
  readonly lateAfterMs: number;
  /** Where it is written (its path under the rule or branch). */
  readonly path: readonly (string | number)[];
  /** The rules' time zone, which `at` is read in. */
  readonly zone: string;
  /** The `languages` block: with several languages the text is written in each, and sent in the user's of the moment it fires. */
  readonly languages?: LanguageSettings;
}

/** What a rule or a done branch does with reminders. */
export interface CompiledReminders {
  readonly remind: readonly CompiledReminder[];
  readonly forget: readonly string[];
}

export const NO_REMINDERS: CompiledReminders = Object.freeze({ remind: Object.freeze([]), forget: Object.freeze([]) });

/** The default of `late_after`: a reminder more than an hour overdue (the bot was down) is dropped. */
const DEFAULT_LATE_AFTER_MS = 3_600_000;

type Report = (path: (string | number)[], message: string, severity?: 'error' | 'warning') => void;

/** Compiles `remind` and `forget_reminder`; undefined when a reminder has a mistake (reported). */
export function compileReminders(
  source: { remind?: Reminders | undefined; forget_reminder?: ForgetReminder | undefined },
  context: TemplateContext,
  name: string,
  report: Report,
): CompiledReminders | undefined {
  if (source.remind === undefined && source.forget_reminder === undefined) return NO_REMINDERS;
  const list: readonly Reminder[] = source.remind === undefined ? [] : Array.isArray(source.remind) ? source.remind : [source.remind];
  const remind: CompiledReminder[] = [];
  let ok = true;
  for (const [i, reminder] of list.entries()) {
    const path = Array.isArray(source.remind) ? ['remind', i] : ['remind'];
    const compiled = compileReminder(reminder, path, context, name, report);
    if (compiled) remind.push(compiled);
    else ok = false;
  }
  const forget =
    source.forget_reminder === undefined ? [] : typeof source.forget_reminder === 'string' ? [source.forget_reminder] : [...source.forget_reminder];
  return ok ? Object.freeze({ remind: Object.freeze(remind), forget: Object.freeze(forget) }) : undefined;
}

function compileReminder(reminder: Reminder, path: (string | number)[], context: TemplateContext, name: string, report: Report): CompiledReminder | undefined {
  const what = `reminder '${reminder.id}' of ${name}`;
  const at = reminder.at === undefined ? null : compileAt(reminder.at, [...path, 'at'], context, what, report);
  const inMs = reminder.in === undefined ? null : durationMs(reminder.in);
  if (inMs === 0) report([...path, 'in'], `${what}: 'in' must be more than 0 (90s, 15m, 2h, 1d)`);
  const text = compileText(reminder.reply, context, `the text of ${what}`, {
    error: (p, message) => report([...path, 'reply', ...p], message),
    warning: (p, message) => report([...path, 'reply', ...p], message, 'warning'),
  });
  const buttons = reminder.buttons
    ? compileInlineKeyboard(reminder.buttons, context, what, (p, message, severity) => report([...path, 'buttons', ...p], message, severity))
    : null;
  if (!text || buttons === undefined || at === undefined || inMs === 0) return undefined;
  for (const translation of allTranslations(text)) {
    const problem = reminder.parse_mode ? markupProblem(translation, reminder.parse_mode) : undefined;
    if (problem !== undefined)
      report([...path, 'reply'], `the service would refuse ${what} (parse_mode ${reminder.parse_mode}): can't parse entities: ${problem}`);
  }
  const lateAfterMs = reminder.late_after === undefined ? DEFAULT_LATE_AFTER_MS : durationMs(reminder.late_after);
  return Object.freeze({
    id: reminder.id,
    at,
    inMs,
    text,
    textSource: JSON.stringify(reminder.reply),
    ...(reminder.parse_mode ? { parseMode: reminder.parse_mode } : {}),
    buttons,
    lateAfterMs,
    path,
    zone: context.time?.zone ?? 'UTC',
    ...(context.languages && !context.languages.unchecked && context.languages.supported.length > 1 ? { languages: context.languages } : {}),
  });
}

/** Sample values of placeholders whose shape is known: a date step's answer, a time step's. */
const SAMPLE = { date: '2026-01-05', time: '10:00' } as const;

/** `at` as a template; an error when its shape is known and can never be a time. */
function compileAt(source: string, path: (string | number)[], context: TemplateContext, what: string, report: Report): Template | null | undefined {
  const result = compileTemplate(source, context);
  if (!result.ok) {
    for (const message of result.errors) report(path, `${message} (in the \`at\` of ${what})`);
    return undefined;
  }
  let sample = '';
  for (const part of result.template.parts) {
    if (typeof part === 'string') sample += part;
    else if (part.kind === 'flow' && part.as !== undefined) sample += SAMPLE[context.flow?.kinds?.get(part.key) ?? 'date'];
    else if (part.kind === 'flow' && context.flow?.kinds?.get(part.key) === 'time') sample += SAMPLE.time;
    // Any other placeholder (a variable, the message) may hold a date or a time: only the run can tell.
    else return result.template;
  }
  if (parseReminderTime(sample) === undefined)
    report(
      path,
      `the \`at\` of ${what} can never be a time: '${source}' gives e.g. '${sample}'; write "YYYY-MM-DD HH:MM", "YYYY-MM-DD" or "HH:MM", e.g. "{{flow.date.iso}} 10:00"`,
    );
  return result.template;
}

/** A reminder and where it is written, for the checks across the whole rule set. */
export interface PlacedReminder {
  readonly reminder: CompiledReminder;
  /**
   * Asked only to place a warning: a position other than a rule's own makes the loader build its file's YAML node
   * tree, which a clean file's fast read skips (see src/yaml/source.ts).
   */
  readonly position: () => SourcePosition;
}

/** A warning for each reminder id set with a text other than its first one (a later one silently replaces the earlier). */
export function reminderTextConflicts(placed: readonly PlacedReminder[]): RuleProblem[] {
  const first = new Map<string, PlacedReminder>();
  const problems: RuleProblem[] = [];
  for (const entry of placed) {
    const earlier = first.get(entry.reminder.id);
    if (!earlier) first.set(entry.reminder.id, entry);
    else if (earlier.reminder.textSource !== entry.reminder.textSource) {
      const { file, line, column } = earlier.position();
      const message = `reminder '${entry.reminder.id}' is set with different texts (also at ${file}:${line}:${column}); one id is one reminder, and setting it replaces the pending one: give each text its own id`;
      problems.push(problemAt(entry.position(), message, 'warning'));
    }
  }
  return problems;
}

/** Every reminder of the rules and the flows' done branches, with where it is written. */
export function placedReminders(
  rules: readonly CompiledRule[],
  locate: RuleLocator,
  flows: readonly FlowSource[],
  compiledFlows: ReadonlyMap<string, CompiledFlow>,
): PlacedReminder[] {
  const placed: PlacedReminder[] = [];
  for (const rule of rules) for (const reminder of rule.reminders.remind) placed.push({ reminder, position: () => locate(rule.order, [...reminder.path]) });
  for (const source of flows) {
    compiledFlows.get(source.flow.id)?.done.forEach((branch, i) => {
      for (const reminder of branch.reminders.remind) placed.push({ reminder, position: () => source.locate(['done', i, ...reminder.path]) });
    });
  }
  return placed;
}
