// Compiles a flow step's `accept: { date: ... }` and `accept: { time: ... }`: the bounds of the dates or times
// it takes (`from`/`to`: today, tomorrow, 60d, 2026-12-24; 18:00), checked for a range no answer can meet,
// and the warnings for retry texts that can never be sent.
import { parseClockTime } from '../calendar/civil-date.js';
import type { Flow } from '../generated/rules-schema.js';
import { parseDayBound, type DayBound } from './date-bounds.js';
import type { CompiledAccept } from './rule-set.js';

type Step = Flow['steps'][number];
type Reporter = (path: (string | number)[], message: string) => void;

/** The accept of a date or time step; undefined for any other step (or a bound with a mistake, reported). */
export function compileDateOrTime(accept: Step['accept'], where: string, report: Reporter, zone: string): CompiledAccept | undefined {
  if (accept?.date !== undefined) {
    const from = accept.date.from === undefined ? null : bound(accept.date.from, ['date', 'from'], where, report);
    const to = accept.date.to === undefined ? null : bound(accept.date.to, ['date', 'to'], where, report);
    if (from === undefined || to === undefined) return undefined;
    if (from && to && comparable(from, to) && start(from) > start(to))
      report(['date'], `${where} can never be answered: no date is from ${accept.date.from} to ${accept.date.to}`);
    return { kind: 'date', from, to, zone };
  }
  if (accept?.time !== undefined) {
    const from = accept.time.from === undefined ? null : clock(accept.time.from, ['time', 'from'], where, report);
    const to = accept.time.to === undefined ? null : clock(accept.time.to, ['time', 'to'], where, report);
    if (from === undefined || to === undefined) return undefined;
    if (from !== null && to !== null && from > to)
      report(['time'], `${where} can never be answered: no time of day is from ${accept.time.from} to ${accept.time.to}`);
    return { kind: 'time', from, to };
  }
  return undefined;
}

function bound(text: string, path: string[], where: string, report: Reporter): DayBound | undefined {
  const parsed = parseDayBound(text);
  if (parsed === undefined) report(path, `'${text}' in ${where} is not a date: write today, tomorrow, a number of days (60d, -7d) or a date (2026-12-24)`);
  return parsed;
}

function clock(text: string, path: string[], where: string, report: Reporter): number | null | undefined {
  const minute = parseClockTime(text);
  if (minute === undefined || minute >= 1440) {
    report(path, `'${text}' in ${where} is not a time of day: write HH:MM from 00:00 to 23:59`);
    return undefined;
  }
  return minute;
}

/** Two fixed dates, or two days relative to today, can be ordered at load time. */
function comparable(a: DayBound, b: DayBound): boolean {
  return 'day' in a === 'day' in b;
}

function start(b: DayBound): number {
  return 'day' in b ? b.day : b.daysFromToday;
}

/** `retry_past` belongs to date steps and `retry_range` to date and time steps: anywhere else they are never sent. */
export function warnOfUnusedRetries(step: Step, accept: CompiledAccept | undefined, where: string, warn: (key: string, message: string) => void): void {
  if (!accept) return;
  if (step.retry_past !== undefined && accept.kind !== 'date')
    warn('retry_past', `retry_past is sent for a date in the past, and ${where} takes no date: remove it`);
  if (step.retry_range !== undefined && accept.kind !== 'date' && accept.kind !== 'time')
    warn('retry_range', `retry_range is sent for a date or time outside from … to, and ${where} takes neither: remove it`);
}
