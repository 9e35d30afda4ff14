// Compiles `schedules:` (declared once, in any rule file): each post's recurrence (`every` or `cron`, in the
// rules' zone), the chat it goes to (a name of the configuration's `chats:` or a chat id), its text in the rules'
// default language or per language, its options, and how late a missed occurrence may still go out
// (`late_after`, default 1h). A post is written by the bot on its own: it reads the clock ({{now.*}},
// {{hours.*}}), never a message, a user or their variables. Planned and performed by src/pipeline/schedules.ts.
import { parseCron, parseEvery, type Recurrence } from '../calendar/recurrence.js';
import type { Schedule } from '../generated/rules-schema.js';
import { markupProblem } from './compile-actions.js';
import { durationMs } from './compile-flows.js';
import type { RuleEnvironment } from './compile-reach.js';
import { undeclaredChat } from './compile-sends.js';
import { compileInlineKeyboard, type InlineKeyboardTemplate } from './keyboards.js';
import { allTranslations, compileText } from './languages.js';
import type { ParseMode } from './reply.js';
import type { Template, TemplateContext } from './template.js';
import type { TimeSettings } from './time-settings.js';

/** One scheduled post, compiled. */
export interface CompiledSchedule {
  readonly id: string;
  readonly recurrence: Recurrence;
  /** The rules' zone, which the recurrence is read in. */
  readonly zone: string;
  /** A chat name of the configuration's `chats:`, or a chat id. */
  readonly to: string | number;
  readonly text: Template;
  readonly parseMode?: ParseMode;
  readonly buttons: InlineKeyboardTemplate | null;
  readonly disableNotification: boolean;
  /** An occurrence missed by more than this (the bot was down) is dropped and logged. */
  readonly lateAfterMs: number;
}

/** The default of `late_after`: an occurrence more than an hour overdue is dropped. */
const DEFAULT_LATE_AFTER_MS = 3_600_000;

type Report = (path: (string | number)[], message: string, severity?: 'error' | 'warning') => void;

/** Compiles every schedule; one with a mistake is reported and left out. */
export function compileSchedules(
  schedules: readonly Schedule[],
  time: TimeSettings,
  environment: RuleEnvironment | undefined,
  report: Report,
): readonly CompiledSchedule[] {
  const context: TemplateContext = { trigger: 'fallback', withoutMessage: true, time, ...(time.languages ? { languages: time.languages } : {}) };
  const compiled: CompiledSchedule[] = [];
  const seen = new Map<string, number>();
  for (const [i, schedule] of schedules.entries()) {
    const at = (path: (string | number)[], message: string, severity?: 'error' | 'warning') => report([i, ...path], message, severity);
    if (seen.has(schedule.id)) at(['id'], `schedule id '${schedule.id}' is used twice: schedule #${seen.get(schedule.id)! + 1} has it already`);
    seen.set(schedule.id, i);
    if (environment && typeof schedule.to === 'string' && !environment.chats.has(schedule.to))
      at(['to'], `schedule '${schedule.id}': ${undeclaredChat(schedule.to, environment)}`);
    const one = compileSchedule(schedule, context, time.zone, at);
    if (one) compiled.push(one);
  }
  return Object.freeze(compiled);
}

function compileSchedule(schedule: Schedule, context: TemplateContext, zone: string, report: Report): CompiledSchedule | undefined {
  const what = `schedule '${schedule.id}'`;
  const recurrence = schedule.every !== undefined ? parseEvery(schedule.every) : parseCron(schedule.cron ?? '');
  if (typeof recurrence === 'string') report([schedule.every !== undefined ? 'every' : 'cron'], `${what}: ${recurrence}`);
  const text = compileText(schedule.reply, context, `the text of ${what}`, {
    error: (p, message) => report(['reply', ...p], message),
    warning: (p, message) => report(['reply', ...p], message, 'warning'),
  });
  const buttons = schedule.buttons
    ? compileInlineKeyboard(schedule.buttons, context, what, (p, message, severity) => report(['buttons', ...p], message, severity))
    : null;
  const lateAfterMs = schedule.late_after === undefined ? DEFAULT_LATE_AFTER_MS : durationMs(schedule.late_after);
  if (lateAfterMs === 0) report(['late_after'], `${what}: late_after must be more than 0 (90s, 15m, 2h, 1d)`);
  const readsVariables = text !== undefined && allTranslations(text).some((t) => t.parts.some((p) => typeof p !== 'string' && p.kind === 'var'));
  if (readsVariables)
    report(['reply'], `${what} is written by the bot on its own, to a whole chat: there are no variables to read ({{var.…}}); use {{now.…}} and {{hours.…}}`);
  if (!text || buttons === undefined || typeof recurrence === 'string' || lateAfterMs === 0 || readsVariables) return undefined;
  for (const translation of allTranslations(text)) {
    const problem = schedule.parse_mode ? markupProblem(translation, schedule.parse_mode) : undefined;
    if (problem !== undefined) report(['reply'], `the service would refuse ${what} (parse_mode ${schedule.parse_mode}): can't parse entities: ${problem}`);
  }
  return Object.freeze({
    id: schedule.id,
    recurrence,
    zone,
    to: schedule.to,
    text,
    ...(schedule.parse_mode ? { parseMode: schedule.parse_mode } : {}),
    buttons,
    disableNotification: schedule.disable_notification === true,
    lateAfterMs,
  });
}
