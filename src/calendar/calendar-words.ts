// The words of dates and times in the languages hearsay reads and writes them in (English and German): weekday
// and month names, "today", "tomorrow", "at". Another language writes ISO forms (2026-12-24, 19:00) and reads
// the words of every language listed here.

/** What one language calls days and months, and how it joins a day and a time. */
export interface CalendarWords {
  /** Monday first. */
  readonly weekdays: readonly string[];
  readonly months: readonly string[];
  readonly today: string;
  readonly tomorrow: string;
  /** The word between a day and a time: "Monday at 09:00". */
  readonly at: string;
  /** The relative days it reads: word → days from today. */
  readonly relative: Readonly<Record<string, number>>;
  /** A date with a weekday: "Friday, 27 November" / "Freitag, 27. November" (with the year when it is not this year). */
  formatDate(weekday: string, day: number, month: string, year: number | null): string;
}

const EN: CalendarWords = {
  weekdays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  months: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  today: 'today',
  tomorrow: 'tomorrow',
  at: 'at',
  relative: { today: 0, tonight: 0, tomorrow: 1, 'day after tomorrow': 2, 'the day after tomorrow': 2, yesterday: -1, 'day before yesterday': -2 },
  formatDate: (weekday, day, month, year) => `${weekday}, ${day} ${month}${year === null ? '' : ` ${year}`}`,
};

const DE: CalendarWords = {
  weekdays: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag'],
  months: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  today: 'heute',
  tomorrow: 'morgen',
  at: 'um',
  relative: { heute: 0, morgen: 1, übermorgen: 2, uebermorgen: 2, gestern: -1, vorgestern: -2 },
  formatDate: (weekday, day, month, year) => `${weekday}, ${day}. ${month}${year === null ? '' : ` ${year}`}`,
};

/** The words of the languages hearsay writes dates in, by language code. */
export const CALENDAR_LANGUAGES: ReadonlyMap<string, CalendarWords> = new Map([
  ['en', EN],
  ['de', DE],
]);

/** Other names a reader meets: short forms and spellings without umlauts. */
export const EXTRA_WEEKDAY_NAMES: Readonly<Record<string, number>> = {
  mon: 0,
  tue: 1,
  tues: 1,
  wed: 2,
  thu: 3,
  thur: 3,
  thurs: 3,
  fri: 4,
  sat: 5,
  sun: 6,
  mo: 0,
  di: 1,
  mi: 2,
  do: 3,
  fr: 4,
  sa: 5,
  so: 6,
  sonnabend: 5,
};

export const EXTRA_MONTH_NAMES: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  maerz: 3,
  mrz: 3,
  mär: 3,
  okt: 10,
  dez: 12,
  jänner: 1,
  jaenner: 1,
};
