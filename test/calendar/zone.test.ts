// Local time in a named zone on the days daylight saving time changes (Europe/Berlin, 2026: clocks go
// forward at 02:00 on 29 March, back at 03:00 on 25 October).
import { describe, expect, it } from 'vitest';
import { instantOf, isTimeZone, localTime, zoneOffsetMs } from '../../src/calendar/zone.js';

const BERLIN = 'Europe/Berlin';

describe('local time in a zone', () => {
  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Atlantis')).toBe(false);
  });

  it('reads the local date, time and weekday of an instant', () => {
    expect(localTime(Date.parse('2026-11-27T19:00:00Z'), BERLIN)).toEqual({ year: 2026, month: 11, day: 27, hour: 20, minute: 0, second: 0, weekday: 4 });
    expect(zoneOffsetMs(Date.parse('2026-01-05T12:00:00Z'), BERLIN)).toBe(3_600_000);
    expect(zoneOffsetMs(Date.parse('2026-07-05T12:00:00Z'), BERLIN)).toBe(7_200_000);
  });

  it('spring forward (29 March 2026): a skipped time moves on by the gap, the times around it are exact', () => {
    expect(new Date(instantOf(2026, 3, 29, 90, BERLIN)).toISOString()).toBe('2026-03-29T00:30:00.000Z'); // 01:30 CET
    expect(new Date(instantOf(2026, 3, 29, 150, BERLIN)).toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 02:30 → 03:30 CEST
    expect(new Date(instantOf(2026, 3, 29, 180, BERLIN)).toISOString()).toBe('2026-03-29T01:00:00.000Z'); // 03:00 CEST
    expect(new Date(instantOf(2026, 3, 29, 600, BERLIN)).toISOString()).toBe('2026-03-29T08:00:00.000Z'); // 10:00 CEST
  });

  it('fall back (25 October 2026): a repeated time is its first occurrence', () => {
    expect(new Date(instantOf(2026, 10, 25, 150, BERLIN)).toISOString()).toBe('2026-10-25T00:30:00.000Z'); // 02:30 CEST, not CET
    expect(new Date(instantOf(2026, 10, 25, 180, BERLIN)).toISOString()).toBe('2026-10-25T02:00:00.000Z'); // 03:00 CET
    expect(new Date(instantOf(2026, 10, 25, 600, BERLIN)).toISOString()).toBe('2026-10-25T09:00:00.000Z'); // 10:00 CET
  });

  it('works in zones west of UTC and with half hours', () => {
    expect(new Date(instantOf(2026, 3, 8, 150, 'America/New_York')).toISOString()).toBe('2026-03-08T07:30:00.000Z'); // 02:30 skipped → 03:30 EDT
    expect(new Date(instantOf(2026, 1, 5, 540, 'Asia/Kolkata')).toISOString()).toBe('2026-01-05T03:30:00.000Z');
    expect(new Date(instantOf(2026, 1, 5, 540, 'UTC')).toISOString()).toBe('2026-01-05T09:00:00.000Z');
  });
});
