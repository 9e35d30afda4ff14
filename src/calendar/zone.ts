// Wall-clock time in a named time zone, from the time zone data built into Node (Intl with the full ICU): the
// local date and time of an instant, and the instant of a local date and time — with the two cases daylight
// saving time makes awkward: a local time that does not exist (the hour skipped in spring) moves forward by the
// gap, and one that exists twice (the hour repeated in autumn) is its first occurrence.

/** A local date and time in a zone; `weekday` 0 is Monday … 6 Sunday. */
export interface LocalTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly weekday: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

function formatFor(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}

/** Whether the time zone data knows `name` (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(name: string): boolean {
  try {
    formatFor(name);
    return true;
  } catch {
    return false;
  }
}

/** The local date and time of an instant (ms since the epoch) in `zone`. */
export function localTime(ms: number, zone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatFor(zone).formatToParts(new Date(ms))) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday!]!,
  };
}

/** How far `zone` is ahead of UTC at an instant, in ms (Europe/Berlin in winter: 3,600,000). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const t = localTime(ms, zone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * The instant of a local date and time (minute precision) in `zone`. A time the zone skips (spring forward)
 * moves forward by the gap (02:30 on the last Sunday of March in Berlin is 03:30 CEST); a time it repeats
 * (autumn) is its first occurrence.
 */
export function instantOf(year: number, month: number, day: number, minuteOfDay: number, zone: string): number {
  const wall = Date.UTC(year, month - 1, day, 0, minuteOfDay);
  // Any transition is within a day of the wall time read as UTC: the offsets before and after it bound the answer.
  const before = zoneOffsetMs(wall - 86_400_000, zone);
  const after = zoneOffsetMs(wall + 86_400_000, zone);
  const candidates = [...new Set([before, after, zoneOffsetMs(wall, zone)])]
    .map((offset) => wall - offset)
    .filter((instant) => wall === instant + zoneOffsetMs(instant, zone))
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0]!;
  // Skipped: read with the offset before the gap, the wall time lands after it by the gap's length.
  return wall - before;
}
