// When a reminder goes out: its `at` as rendered ("2026-12-24 10:00", "2026-12-24" at midnight, "10:00" the
// next such time; "T" between date and time accepted) read in the rules' zone, or `in` from now.
import { dateOf, parseClockTime, parseIsoDate, type DayNumber } from '../calendar/civil-date.js';
import { localDay } from '../calendar/opening-hours.js';
import { instantOf } from '../calendar/zone.js';

/** A reminder time as written: a date and a minute of the day, or a minute of the day alone. */
export type ReminderTime = { readonly day: DayNumber | null; readonly minute: number };

/** Reads "YYYY-MM-DD HH:MM", "YYYY-MM-DD" or "HH:MM"; undefined when it is none of them. */
export function parseReminderTime(text: string): ReminderTime | undefined {
  const match = /^\s*(?:(\d{4}-\d{2}-\d{2})(?:[ T]+(\d{1,2}:\d{2}))?|(\d{1,2}:\d{2}))\s*$/.exec(text);
  if (!match) return undefined;
  const day = match[1] === undefined ? null : parseIsoDate(match[1]);
  const minute = parseClockTime(match[2] ?? match[3] ?? '00:00');
  if (day === undefined || minute === undefined || minute >= 1440) return undefined;
  return { day, minute };
}

/** The instant of a reminder time in `zone`, judged at `now` (a time alone: today if still to come, else tomorrow). */
export function reminderInstant(time: ReminderTime, now: number, zone: string): number {
  const today = localDay(now, zone);
  const at = (day: DayNumber) => {
    const { year, month, day: d } = dateOf(day);
    return instantOf(year, month, d, time.minute, zone);
  };
  if (time.day !== null) return at(time.day);
  const todayAt = at(today);
  return todayAt > now ? todayAt : at(today + 1);
}
