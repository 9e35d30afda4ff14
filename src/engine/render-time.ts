// The placeholders of the clock, written for the user answered: {{now.date}} ("Friday, 27 November"),
// {{now.time}} ("20:00"), {{now.weekday}}, {{hours.NAME.next_open}} ("Monday at 09:00", "now" while open),
// {{hours.NAME.closes}} ("18:00", or "Monday at 18:00" when not today), and a date step's answer
// ({{flow.date}}), each in the rules' zone and the user's language (ISO forms for a language without
// calendar words).
import { parseIsoDate } from '../calendar/civil-date.js';
import { formatClock, formatDate, formatMoment, formatWeekday } from '../calendar/format-time.js';
import { localDay, nextClosing, nextOpening } from '../calendar/opening-hours.js';
import { localTime } from '../calendar/zone.js';
import { resolveLanguage } from './languages.js';
import type { RenderValues } from './render.js';
import { valueIn } from './state.js';
import type { TimeSettings } from './time-settings.js';
import type { TemplateValue } from './template.js';

type TimeVariable = Extract<TemplateValue, { kind: 'now' | 'hours' }> | (Extract<TemplateValue, { kind: 'flow' }> & { as: 'date'; time: TimeSettings });

/** What "now" is called while a place is open. */
const OPEN_NOW: Readonly<Record<string, string>> = { en: 'now', de: 'jetzt' };

/**
 * The language a text's dates are written in: the one the caller fixed (a reminder rendered for each
 * language), else the user's, else English when the rules declare no languages.
 */
export function renderLanguage(values: RenderValues, time: TimeSettings): string {
  return values.language ?? resolveLanguage(time.languages, values.message.from, values.vars?.user ?? {}) ?? 'en';
}

/** The text of a clock placeholder. */
export function timeText(variable: TimeVariable, values: RenderValues): string {
  const now = values.now ?? Date.now();
  const { time } = variable;
  const language = renderLanguage(values, time);
  const thisYear = localTime(now, time.zone).year;
  if (variable.kind === 'flow') {
    const stored = valueIn(values.flow, variable.key);
    const day = typeof stored === 'string' ? parseIsoDate(stored) : undefined;
    return day === undefined ? String(stored ?? '') : formatDate(day, language, thisYear);
  }
  if (variable.kind === 'now') {
    if (variable.field === 'time') {
      const t = localTime(now, time.zone);
      return formatClock(t.hour * 60 + t.minute);
    }
    const today = localDay(now, time.zone);
    return variable.field === 'date' ? formatDate(today, language, thisYear) : formatWeekday(today, language);
  }
  if (variable.field === 'next_open') {
    const opens = nextOpening(variable.hours, now);
    if (opens === null) return '';
    return opens === now ? (OPEN_NOW[language.split('-')[0]!] ?? OPEN_NOW.en!) : formatMoment(opens, now, time.zone, language);
  }
  const closes = nextClosing(variable.hours, now);
  if (closes === null) return '';
  if (localDay(closes, time.zone) === localDay(now, time.zone)) {
    const t = localTime(closes, time.zone);
    return formatClock(t.hour * 60 + t.minute);
  }
  return formatMoment(closes, now, time.zone, language);
}
