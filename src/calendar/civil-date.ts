// Calendar dates without a time or a zone ("2026-12-24"), as day numbers (days since 1970-01-01) so that
// adding days and comparing are plain arithmetic; the ISO form is what a flow keeps and a rule writes.

/** Days since 1970-01-01 (a Thursday). */
export type DayNumber = number;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of a date; undefined when there is no such date (31 February). */
export function dayNumber(year: number, month: number, day: number): DayNumber | undefined {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day) || month < 1 || month > 12 || day < 1) return undefined;
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  if (year < 100) date.setUTCFullYear(year);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return Math.round(Date.UTC(year, month - 1, day) / 86_400_000);
}

/** The year, month and day of a day number. */
export function dateOf(day: DayNumber): { year: number; month: number; day: number } {
  const date = new Date(day * 86_400_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 0 Monday … 6 Sunday. */
export function weekdayOf(day: DayNumber): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** "2026-12-24". */
export function isoDate(day: DayNumber): string {
  const { year, month, day: d } = dateOf(day);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The day number of an ISO date ("2026-12-24"); undefined when it is not one. */
export function parseIsoDate(text: string): DayNumber | undefined {
  const match = ISO_DATE.exec(text);
  return match ? dayNumber(Number(match[1]), Number(match[2]), Number(match[3])) : undefined;
}

/** "19:05" for minute 1145 of a day. */
export function clockTime(minuteOfDay: number): string {
  const minutes = ((minuteOfDay % 1440) + 1440) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The minute of the day of "HH:MM" (24:00 is 1440, the end of a day); undefined when it is not one. */
export function parseClockTime(text: string): number | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (minute > 59 || hour > 24 || (hour === 24 && minute > 0)) return undefined;
  return hour * 60 + minute;
}
