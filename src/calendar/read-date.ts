// Reads a date or a time of day the way people write them in a chat, in English or German whatever the
// user's language: "today", "tomorrow", "day after tomorrow", "morgen", "übermorgen", a weekday ("friday",
// "Freitag": the next one, today included; "next friday" the one after today), "24.12.", "24.12.2026",
// "2026-12-24", "12/24" (month first), "24 December", "December 24th"; and "19:00", "19.30", "7pm",
// "7:30 pm", "19 Uhr", "19h". A date without a year is the next one to come (today included).
import { CALENDAR_LANGUAGES, EXTRA_MONTH_NAMES, EXTRA_WEEKDAY_NAMES } from './calendar-words.js';
import { dateOf, dayNumber, parseIsoDate, weekdayOf, type DayNumber } from './civil-date.js';

const RELATIVE = new Map<string, number>();
const WEEKDAY_NAMES = new Map<string, number>(Object.entries(EXTRA_WEEKDAY_NAMES));
const MONTH_NAMES = new Map<string, number>(Object.entries(EXTRA_MONTH_NAMES));
for (const words of CALENDAR_LANGUAGES.values()) {
  for (const [word, days] of Object.entries(words.relative)) RELATIVE.set(word, days);
  words.weekdays.forEach((name, i) => WEEKDAY_NAMES.set(name.toLowerCase(), i));
  words.months.forEach((name, i) => MONTH_NAMES.set(name.toLowerCase(), i + 1));
}

/** Words before a weekday that change nothing, and those that mean "not today". */
const SAME_WEEKDAY = new Set(['on', 'this', 'coming', 'am', 'diesen', 'kommenden', 'kommender', 'an']);
const NEXT_WEEKDAY = new Set(['next', 'nächsten', 'naechsten', 'nächster', 'naechster']);

function clean(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .trim()
    .replace(/[!?,;]+$/u, '')
    .replace(/\s+/g, ' ');
}

/** The date a user's answer names, relative to `today` (a local day); undefined when it names none. */
export function readDate(text: string, today: DayNumber): DayNumber | undefined {
  const answer = clean(text);
  const relative = RELATIVE.get(answer);
  if (relative !== undefined) return today + relative;
  return readWeekday(answer, today) ?? readNumericDate(answer, today) ?? readNamedDate(answer, today);
}

function readWeekday(answer: string, today: DayNumber): DayNumber | undefined {
  const words = answer.replace(/\.$/, '').split(' ');
  const name = words.pop()!;
  const weekday = WEEKDAY_NAMES.get(name);
  if (weekday === undefined || words.length > 1) return undefined;
  const prefix = words[0];
  if (prefix !== undefined && !SAME_WEEKDAY.has(prefix) && !NEXT_WEEKDAY.has(prefix)) return undefined;
  let ahead = (weekday - weekdayOf(today) + 7) % 7;
  if (ahead === 0 && prefix !== undefined && NEXT_WEEKDAY.has(prefix)) ahead = 7;
  return today + ahead;
}

const DOTTED = /^(\d{1,2})\.(\d{1,2})(?:\.(\d{4}|\d{2})?)?$/;
const SLASHED = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?$/;

function readNumericDate(answer: string, today: DayNumber): DayNumber | undefined {
  const iso = parseIsoDate(answer);
  if (iso !== undefined) return iso;
  const dotted = DOTTED.exec(answer);
  if (dotted) return dateIn(Number(dotted[1]), Number(dotted[2]), dotted[3], today);
  const slashed = SLASHED.exec(answer);
  if (slashed) return dateIn(Number(slashed[2]), Number(slashed[1]), slashed[3], today);
  return undefined;
}

/** "24 december", "24. dezember 2026", "december 24th", "dec 24, 2026", "24th of december". */
function readNamedDate(answer: string, today: DayNumber): DayNumber | undefined {
  const words = answer.replace(/,/g, ' ').replace(/\s+/g, ' ').split(' ');
  if (words[1] === 'of') words.splice(1, 1);
  const dayFirst = /^(\d{1,2})(?:\.|st|nd|rd|th)?$/.exec(words[0] ?? '');
  const monthFirst = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(words[1] ?? '');
  let day: number;
  let month: number | undefined;
  if (dayFirst) {
    day = Number(dayFirst[1]);
    month = MONTH_NAMES.get((words[1] ?? '').replace(/\.$/, ''));
  } else if (monthFirst) {
    day = Number(monthFirst[1]);
    month = MONTH_NAMES.get((words[0] ?? '').replace(/\.$/, ''));
  } else return undefined;
  const year = words[2];
  if (month === undefined || words.length > 3 || (year !== undefined && !/^\d{4}$/.test(year))) return undefined;
  return dateIn(day, month, year, today);
}

/** A day of a month in the year given (two digits: 20xx), or the next such date to come. */
function dateIn(day: number, month: number, yearText: string | undefined, today: DayNumber): DayNumber | undefined {
  if (yearText !== undefined) return dayNumber(yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText), month, day);
  const thisYear = dateOf(today).year;
  for (let year = thisYear; year <= thisYear + 4; year++) {
    const date = dayNumber(year, month, day);
    if (date !== undefined && date >= today) return date;
    // 29 February comes back in a leap year; any other day that does not exist never does.
    if (date === undefined && !(month === 2 && day === 29)) return undefined;
  }
  return undefined;
}

const TWELVE_HOUR = /^(\d{1,2})(?:[:.](\d{2}))? ?([ap])\.? ?m\.?$/;
const TWENTY_FOUR_HOUR = /^(\d{1,2})(?:[:.h](\d{2}))? ?(?:uhr|h|o'clock)?(?: (\d{2}))?$/;

/** The minute of the day an answer names ("19:00", "7pm", "19 Uhr"); undefined when it names none. */
export function readTimeOfDay(text: string): number | undefined {
  const answer = clean(text).replace(/^(?:at|um|gegen) /, '');
  if (answer === 'noon' || answer === 'mittag') return 720;
  if (answer === 'midnight' || answer === 'mitternacht') return 0;
  const twelve = TWELVE_HOUR.exec(answer);
  if (twelve) {
    const hour = Number(twelve[1]);
    const minute = Number(twelve[2] ?? 0);
    if (hour < 1 || hour > 12 || minute > 59) return undefined;
    return ((hour % 12) + (twelve[3] === 'p' ? 12 : 0)) * 60 + minute;
  }
  const plain = TWENTY_FOUR_HOUR.exec(answer);
  if (!plain || (plain[2] !== undefined && plain[3] !== undefined)) return undefined;
  const hour = Number(plain[1]);
  const minute = Number(plain[2] ?? plain[3] ?? 0);
  // "19 30" reads as 19:30 only after "Uhr" ("19 Uhr 30").
  if (plain[3] !== undefined && !answer.includes('uhr')) return undefined;
  return hour <= 23 && minute <= 59 ? hour * 60 + minute : undefined;
}
