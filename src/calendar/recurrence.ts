// When a recurring post is due: `every: "mon 09:00"` (weekdays, a range such as mon-fri, `day`), `"1st 10:00"`
// (a day of the month; a month without it is skipped), or a five-field cron expression (minute hour
// day-of-month month day-of-week, with *, lists, ranges, steps and names), all in local time of the rule
// set's zone. A local time the zone skips in spring happens at the end of the gap; one it repeats in autumn
// happens once, the first time.
import { dateOf, parseClockTime, weekdayOf, type DayNumber } from './civil-date.js';
import { localDay } from './opening-hours.js';
import { parseDayList } from './weekdays.js';
import { instantOf } from './zone.js';

/** A compiled recurrence: the local minutes, hours, days of the month, months and weekdays (0 Monday) it fires on. */
export interface Recurrence {
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly monthDays: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly weekdays: ReadonlySet<number>;
  /** cron's rule: when both the day of the month and the weekday are restricted, either one matching is enough. */
  readonly eitherDay: boolean;
}

const ALL = (from: number, to: number) => new Set(Array.from({ length: to - from + 1 }, (_, i) => from + i));
const ORDINAL = /^(\d{1,2})(st|nd|rd|th)$/;

/** `every:` — "mon 09:00", "mon-fri 08:30", "day 07:00", "1st 10:00", "15th 12:00"; or why it is not one. */
export function parseEvery(text: string): Recurrence | string {
  const parts = text.trim().split(/\s+/);
  const example = 'write e.g. "mon 09:00", "mon-fri 08:30", "day 07:00" or "1st 10:00"';
  if (parts.length !== 2) return `'${text}' is not a recurrence: ${example}`;
  const [days, time] = parts as [string, string];
  const minute = parseClockTime(time);
  if (minute === undefined || minute >= 1440) return `'${time}' in '${text}' is not a time of day: write HH:MM from 00:00 to 23:59`;
  const at = { minutes: [minute % 60], hours: [Math.floor(minute / 60)], months: ALL(1, 12) };
  const ordinal = ORDINAL.exec(days.toLowerCase());
  if (ordinal) {
    const day = Number(ordinal[1]);
    if (day < 1 || day > 31 || ordinal[2] !== ordinalSuffix(day)) return `'${days}' in '${text}' is not a day of the month: write 1st, 2nd, 3rd … 31st`;
    return { ...at, monthDays: new Set([day]), weekdays: ALL(0, 6), eitherDay: false };
  }
  const weekdays = parseDayList(days);
  if (typeof weekdays === 'string') return `${weekdays}; ${example}`;
  return { ...at, monthDays: ALL(1, 31), weekdays, eitherDay: false };
}

function ordinalSuffix(day: number): string {
  if (day % 100 >= 11 && day % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][day % 10] ?? 'th';
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface CronField {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
  readonly namesFrom?: number;
}

const FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of the month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES, namesFrom: 1 },
  { name: 'day of the week', min: 0, max: 7, names: DAY_NAMES, namesFrom: 0 },
];

/** `cron:` — five fields (minute hour day-of-month month day-of-week; 0 and 7 are Sunday); or why it is not one. */
export function parseCron(text: string): Recurrence | string {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 5) return `'${text}' is not a cron expression: it needs five fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1"`;
  const sets: Set<number>[] = [];
  for (const [i, field] of FIELDS.entries()) {
    const set = parseCronField(parts[i]!, field);
    if (typeof set === 'string') return `'${text}': ${set}`;
    sets.push(set);
  }
  const [minutes, hours, monthDays, months, cronDays] = sets as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  // cron counts weekdays from Sunday (0 and 7); here 0 is Monday.
  const weekdays = new Set([...cronDays].map((d) => (d + 6) % 7));
  return {
    minutes: [...minutes].sort((a, b) => a - b),
    hours: [...hours].sort((a, b) => a - b),
    monthDays,
    months,
    weekdays,
    eitherDay: parts[2] !== '*' && parts[4] !== '*',
  };
}

function parseCronField(text: string, field: CronField): Set<number> | string {
  const values = new Set<number>();
  for (const item of text.toLowerCase().split(',')) {
    const [range, stepText, extra] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (extra !== undefined || !Number.isInteger(step) || step < 1) return `'${item}' is not a ${field.name} (a step is /N with N from 1)`;
    let from = field.min;
    let to = field.max;
    if (range !== '*') {
      const [a, b, more] = (range ?? '').split('-');
      const first = cronValue(a ?? '', field);
      const last = b === undefined ? (stepText === undefined ? first : field.max) : cronValue(b, field);
      if (more !== undefined || first === undefined || last === undefined || first > last)
        return `'${item}' is not a ${field.name}: use numbers from ${field.min} to ${field.max}${field.names ? ' or names' : ''}, *, ranges a-b and steps /n`;
      from = first;
      to = last;
    }
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}

function cronValue(text: string, field: CronField): number | undefined {
  const named = field.names?.indexOf(text) ?? -1;
  if (named >= 0) return named + field.namesFrom!;
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= field.min && value <= field.max ? value : undefined;
}

/** Whether the recurrence fires on a local day. */
function firesOn(recurrence: Recurrence, day: DayNumber): boolean {
  const { month, day: d } = dateOf(day);
  if (!recurrence.months.has(month)) return false;
  const byMonthDay = recurrence.monthDays.has(d);
  const byWeekday = recurrence.weekdays.has(weekdayOf(day));
  return recurrence.eitherDay ? byMonthDay || byWeekday : byMonthDay && byWeekday;
}

/** The longest look ahead: 29 February on a Monday comes back within 28 years. */
const HORIZON_DAYS = 366 * 29;

/** The first time the recurrence fires strictly after `afterMs` in `zone`; null when it never does (31 February). */
export function nextOccurrence(recurrence: Recurrence, zone: string, afterMs: number): number | null {
  const first = localDay(afterMs, zone);
  for (let day = first; day < first + HORIZON_DAYS; day++) {
    if (!firesOn(recurrence, day)) continue;
    const found = firstOnDay(recurrence, day, zone, afterMs);
    if (found !== null) return found;
  }
  return null;
}

/** The earliest instant of the day's times after `afterMs`: times moved out of a spring gap can come before earlier wall times. */
function firstOnDay(recurrence: Recurrence, day: DayNumber, zone: string, afterMs: number): number | null {
  const { year, month, day: d } = dateOf(day);
  let best: number | null = null;
  let bestMinute = 0;
  for (const hour of recurrence.hours) {
    for (const minute of recurrence.minutes) {
      const wall = hour * 60 + minute;
      // No zone moves its clocks by more than three hours: later wall times cannot come first any more.
      if (best !== null && wall > bestMinute + 180) return best;
      const at = instantOf(year, month, d, wall, zone);
      if (at > afterMs && (best === null || at < best)) {
        best = at;
        bestMinute = wall;
      }
    }
  }
  return best;
}
