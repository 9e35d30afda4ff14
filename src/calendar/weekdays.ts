// Weekday names as rules write them (mon … sun, or the full English names) and as a calendar or a recurrence
// lists days: one day, a range (mon-fri, wrapping: fri-mon), a comma list of either, or `daily`.

/** mon … sun as written in rules, 0 Monday … 6 Sunday. */
export const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const FULL = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** The weekday (0 Monday … 6 Sunday) of `mon` or `monday` (any case); undefined otherwise. */
export function weekdayIndex(name: string): number | undefined {
  const lower = name.toLowerCase();
  const short = WEEKDAY_KEYS.indexOf(lower as (typeof WEEKDAY_KEYS)[number]);
  if (short >= 0) return short;
  const full = FULL.indexOf(lower);
  return full >= 0 ? full : undefined;
}

/** The weekdays a day list names (`mon-fri`, `sat,sun`, `daily`), or why it names none. */
export function parseDayList(text: string): ReadonlySet<number> | string {
  const days = new Set<number>();
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'daily' || trimmed === 'day') return new Set([0, 1, 2, 3, 4, 5, 6]);
  for (const item of trimmed.split(',')) {
    const [from, to, extra] = item.trim().split('-');
    if (extra !== undefined) return `'${item.trim()}' is not a day or a range of days (write mon-fri)`;
    const first = weekdayIndex(from ?? '');
    if (first === undefined) return unknownDay(from ?? '');
    if (to === undefined) {
      days.add(first);
      continue;
    }
    const last = weekdayIndex(to);
    if (last === undefined) return unknownDay(to);
    for (let day = first; ; day = (day + 1) % 7) {
      days.add(day);
      if (day === last) break;
    }
  }
  return days;
}

function unknownDay(name: string): string {
  return `'${name}' is not a weekday: write mon, tue, wed, thu, fri, sat or sun (or a range such as mon-fri)`;
}
