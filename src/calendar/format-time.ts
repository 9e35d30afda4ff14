// Dates and times written for a user, in their language: "Friday, 27 November" / "Freitag, 27. November",
// "19:00" (24-hour in every language), and a moment relative to now — "today at 14:00", "tomorrow at 09:00",
// "Monday at 09:00" within a week, "Monday, 4 January at 09:00" beyond. A language without calendar words
// gets the ISO forms (2026-11-27, 2026-11-27 09:00).
import { CALENDAR_LANGUAGES } from './calendar-words.js';
import { clockTime, dateOf, isoDate, weekdayOf, type DayNumber } from './civil-date.js';
import { localDay } from './opening-hours.js';
import { localTime } from './zone.js';

/** The base language of a code ("de-AT" → de). */
function wordsOf(language: string | undefined) {
  return CALENDAR_LANGUAGES.get((language ?? 'en').toLowerCase().split(/[-_]/)[0]!);
}

/** A date with its weekday, in `language`; the year only when it is not `thisYear`. */
export function formatDate(day: DayNumber, language: string | undefined, thisYear?: number): string {
  const words = wordsOf(language);
  if (!words) return isoDate(day);
  const { year, month, day: d } = dateOf(day);
  return words.formatDate(words.weekdays[weekdayOf(day)]!, d, words.months[month - 1]!, year === thisYear ? null : year);
}

/** The weekday's name in `language` (ISO weekday number 1–7 for a language without words). */
export function formatWeekday(day: DayNumber, language: string | undefined): string {
  const words = wordsOf(language);
  return words ? words.weekdays[weekdayOf(day)]! : String(weekdayOf(day) + 1);
}

/** "19:00". */
export function formatClock(minuteOfDay: number): string {
  return clockTime(minuteOfDay);
}

/** An instant relative to `nowMs`, in `zone` and `language` (see the module comment). */
export function formatMoment(ms: number, nowMs: number, zone: string, language: string | undefined): string {
  const words = wordsOf(language);
  const t = localTime(ms, zone);
  const time = clockTime(t.hour * 60 + t.minute);
  const day = localDay(ms, zone);
  if (!words) return `${isoDate(day)} ${time}`;
  const today = localDay(nowMs, zone);
  let when: string;
  if (day === today) when = words.today;
  else if (day === today + 1) when = words.tomorrow;
  else if (day > today && day < today + 7) when = words.weekdays[weekdayOf(day)]!;
  else when = formatDate(day, language, dateOf(today).year);
  return `${when} ${words.at} ${time}`;
}
