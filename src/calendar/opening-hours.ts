// Named opening hours (`hours:` in the rules): per weekday one or more local time ranges, and dates on which
// the place is closed, in the rule set's time zone. Asked: is it open at an instant, when does it open next,
// when does the open period around an instant close. Periods that touch (mon-sun 00:00-24:00, or 22:00-24:00
// then 00:00-02:00) count as one, so a place open around the clock never "closes" at midnight.
import { dateOf, dayNumber, parseClockTime, parseIsoDate, weekdayOf, type DayNumber } from './civil-date.js';
import { parseDayList } from './weekdays.js';
import { instantOf, localTime } from './zone.js';

/** One open period of a day, in minutes from its midnight; `end` may pass 1440 (open past midnight). */
interface Range {
  readonly start: number;
  readonly end: number;
}

/** Compiled opening hours. */
export interface OpeningHours {
  readonly name: string;
  readonly zone: string;
  /** Index 0 Monday … 6 Sunday. */
  readonly week: readonly (readonly Range[])[];
  /** Days closed whatever their weekday says. */
  readonly closed: ReadonlySet<DayNumber>;
}

/** How the rules write them: weekday lists to ranges ("09:00-18:00", a list of them, or "closed"), and `closed` dates. */
export type HoursSpec = Readonly<Record<string, string | readonly string[]>> & { readonly closed?: readonly string[] };

/** Reports a problem at a key of the spec (or its list index). */
export type HoursProblemSink = (path: (string | number)[], message: string) => void;

/** The longest look ahead for an opening: a place closed for a year and more has none. */
const HORIZON_DAYS = 400;

/** Compiles one calendar, reporting each problem at its place; undefined when it has any. */
export function compileOpeningHours(name: string, spec: HoursSpec, zone: string, report: HoursProblemSink): OpeningHours | undefined {
  let ok = true;
  const fail: HoursProblemSink = (path, message) => {
    ok = false;
    report(path, message);
  };
  const week: Range[][] = [[], [], [], [], [], [], []];
  const givenBy = new Map<number, string>();
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'closed') continue;
    const days = parseDayList(key);
    if (typeof days === 'string') {
      fail([key], `hours '${name}': ${days}`);
      continue;
    }
    const ranges = parseRanges(value as string | readonly string[], (index, message) =>
      fail(typeof value === 'string' ? [key] : [key, index], `hours '${name}', ${key}: ${message}`),
    );
    for (const day of days) {
      const earlier = givenBy.get(day);
      if (earlier !== undefined) fail([key], `hours '${name}': ${DAY_NAMES[day]} is given twice (in '${earlier}' and '${key}'); give each day once`);
      givenBy.set(day, key);
      if (ranges) week[day] = ranges;
    }
  }
  const closed = new Set<DayNumber>();
  for (const [i, date] of (spec.closed ?? []).entries()) {
    const day = parseIsoDate(date);
    if (day === undefined) fail(['closed', i], `hours '${name}': closed date '${date}' is not a date: write YYYY-MM-DD, e.g. 2026-12-24`);
    else closed.add(day);
  }
  return ok ? Object.freeze({ name, zone, week, closed }) : undefined;
}

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const RANGE = /^\s*(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})\s*$/;

function parseRanges(value: string | readonly string[], report: (index: number, message: string) => void): Range[] | undefined {
  if (value === 'closed') return [];
  const list = typeof value === 'string' ? [value] : value;
  const ranges: Range[] = [];
  for (const [i, text] of list.entries()) {
    const match = RANGE.exec(text);
    const start = match ? parseClockTime(match[1]!) : undefined;
    const end = match ? parseClockTime(match[2]!) : undefined;
    if (start === undefined || end === undefined || start === 1440) {
      report(i, `'${text}' is not a time range: write HH:MM-HH:MM with times from 00:00 to 24:00, e.g. "09:00-18:00" (or closed)`);
      return undefined;
    }
    if (start === end) {
      report(i, `'${text}' is empty: it opens and closes at the same time`);
      return undefined;
    }
    // An end at or before the start runs past midnight (18:00-02:00).
    ranges.push({ start, end: end > start ? end : end + 1440 });
  }
  ranges.sort((a, b) => a.start - b.start);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i]!.start < ranges[i - 1]!.end) {
      report(i, `the ranges overlap; list each open period once`);
      return undefined;
    }
  }
  return ranges;
}

/** Each calendar's periods of the days asked lately: every message a rule with `open:` sees asks for the same two days. */
const periodCache = new WeakMap<OpeningHours, Map<DayNumber, readonly Period[]>>();
const CACHED_DAYS = 64;

interface Period {
  readonly start: number;
  readonly end: number;
}

/** The open periods (instants) that start on a local day. */
function periodsOf(hours: OpeningHours, day: DayNumber): readonly Period[] {
  let cache = periodCache.get(hours);
  if (!cache) periodCache.set(hours, (cache = new Map()));
  const known = cache.get(day);
  if (known) return known;
  const { year, month, day: d } = dateOf(day);
  const periods = hours.closed.has(day)
    ? []
    : hours.week[weekdayOf(day)]!.map((range) => ({ start: instantOf(year, month, d, range.start, hours.zone), end: endInstant(day, range.end, hours.zone) }));
  if (cache.size >= CACHED_DAYS) cache.clear();
  cache.set(day, periods);
  return periods;
}

function endInstant(day: DayNumber, minute: number, zone: string): number {
  const next = day + Math.floor(minute / 1440);
  const { year, month, day: d } = dateOf(next);
  return instantOf(year, month, d, minute % 1440, zone);
}

/** The local day an instant falls on. */
export function localDay(ms: number, zone: string): DayNumber {
  const t = localTime(ms, zone);
  return dayNumber(t.year, t.month, t.day)!;
}

/** The open period around `ms` (touching periods joined), or null when closed then. */
function periodAround(hours: OpeningHours, ms: number): Period | null {
  const today = localDay(ms, hours.zone);
  for (let day = today - 1; day <= today; day++) {
    for (const period of periodsOf(hours, day)) {
      if (period.start <= ms && ms < period.end) return { start: period.start, end: joinedEnd(hours, period.end, day) };
    }
  }
  return null;
}

/** The end of an open period, carried through the periods that start right when it ends. */
function joinedEnd(hours: OpeningHours, end: number, fromDay: DayNumber): number {
  let current = end;
  for (let day = fromDay; day < fromDay + HORIZON_DAYS; day++) {
    const next = periodsOf(hours, day).find((period) => period.start === current);
    if (next) current = next.end;
    else if (localDay(current, hours.zone) < day) break;
  }
  return current;
}

/** Whether the place is open at `ms`. */
export function isOpenAt(hours: OpeningHours, ms: number): boolean {
  return periodAround(hours, ms) !== null;
}

/** When it opens next after `ms` (`ms` itself when open then); null when it never opens within a year. */
export function nextOpening(hours: OpeningHours, ms: number): number | null {
  if (periodAround(hours, ms) !== null) return ms;
  const today = localDay(ms, hours.zone);
  for (let day = today; day < today + HORIZON_DAYS; day++) {
    const period = periodsOf(hours, day).find((p) => p.start > ms);
    if (period) return period.start;
  }
  return null;
}

/** When the open period around `ms` closes; when closed then, when the next one closes; null when none within a year. */
export function nextClosing(hours: OpeningHours, ms: number): number | null {
  const around = periodAround(hours, ms);
  if (around) return around.end;
  const opens = nextOpening(hours, ms);
  return opens === null ? null : (periodAround(hours, opens)?.end ?? null);
}
