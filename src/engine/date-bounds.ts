// The dates and times rules compare with: a date step's `from`/`to` (today, tomorrow, 60d, 2026-12-24) and a
// `when` condition's `after`/`before` (also now, or a time of day 19:00), read once at load time and turned
// into a day or a minute of the day at the moment they are judged, in the rules' zone.
import { parseClockTime, parseIsoDate, type DayNumber } from '../calendar/civil-date.js';
import { localDay } from '../calendar/opening-hours.js';
import { localTime } from '../calendar/zone.js';

/** A day relative to today (today 0, tomorrow 1, 60d 60, -7d -7), or a fixed date. */
export type DayBound = { readonly daysFromToday: number } | { readonly day: DayNumber };

/** What `after`/`before` compare with: a day (as DayBound), the current time of day (`now`), or a fixed time of day. */
export type MomentBound = DayBound | { readonly now: true } | { readonly minute: number };

const RELATIVE: Readonly<Record<string, number>> = { today: 0, tomorrow: 1, yesterday: -1 };

/** `today`, `tomorrow`, `yesterday`, `60d`, `-7d` or `2026-12-24`; undefined when it is none of them. */
export function parseDayBound(text: string): DayBound | undefined {
  const relative = RELATIVE[text];
  if (relative !== undefined) return { daysFromToday: relative };
  const days = /^(-?\d{1,4})d$/.exec(text);
  if (days) return { daysFromToday: Number(days[1]) };
  const day = parseIsoDate(text);
  return day === undefined ? undefined : { day };
}

/** A day bound, or `now`, or a time of day (HH:MM); undefined when it is none of them. */
export function parseMomentBound(text: string): MomentBound | undefined {
  if (text === 'now') return { now: true };
  const minute = /^\d{1,2}:\d{2}$/.test(text) ? parseClockTime(text) : undefined;
  if (minute !== undefined && minute < 1440) return { minute };
  return parseDayBound(text);
}

/** The day a bound names, judged at `now` in `zone`. */
export function dayOf(bound: DayBound, now: number, zone: string): DayNumber {
  return 'day' in bound ? bound.day : localDay(now, zone) + bound.daysFromToday;
}

/**
 * How a stored value compares with a bound at `now`: negative before it, 0 equal, positive after; undefined
 * when they cannot be compared (a time against a date, a text that is neither).
 */
export function compareWithBound(value: unknown, bound: MomentBound, now: number, zone: string): number | undefined {
  if (typeof value !== 'string') return undefined;
  const asDay = parseIsoDate(value);
  const asMinute = /^\d{1,2}:\d{2}$/.test(value) ? parseClockTime(value) : undefined;
  if ('now' in bound) {
    if (asDay !== undefined) return asDay - localDay(now, zone);
    if (asMinute === undefined) return undefined;
    const t = localTime(now, zone);
    return asMinute - (t.hour * 60 + t.minute);
  }
  if ('minute' in bound) return asMinute === undefined ? undefined : asMinute - bound.minute;
  return asDay === undefined ? undefined : asDay - dayOf(bound, now, zone);
}
