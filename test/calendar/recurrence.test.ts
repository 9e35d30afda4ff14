// Recurring posts: the next occurrence of `every:` and cron forms in a zone, across both DST days of 2026.
import { describe, expect, it } from 'vitest';
import { nextOccurrence, parseCron, parseEvery, type Recurrence } from '../../src/calendar/recurrence.js';

const BERLIN = 'Europe/Berlin';
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const rec = (value: Recurrence | string): Recurrence => {
  if (typeof value === 'string') throw new Error(value);
  return value;
};
const next = (value: Recurrence | string, after: string, zone = BERLIN) => iso(nextOccurrence(rec(value), zone, Date.parse(after)));

describe('recurrences', () => {
  it('every: a weekday at a time, the next one strictly after', () => {
    expect(next(parseEvery('mon 09:00'), '2026-11-27T12:00:00Z')).toBe('2026-11-30T08:00:00.000Z');
    expect(next(parseEvery('mon 09:00'), '2026-11-30T08:00:00Z')).toBe('2026-12-07T08:00:00.000Z');
    expect(next(parseEvery('mon 09:00'), '2026-11-30T07:59:59Z')).toBe('2026-11-30T08:00:00.000Z');
  });

  it('every: each day, weekdays, a range and a day of the month', () => {
    expect(next(parseEvery('day 08:30'), '2026-11-27T08:00:00Z')).toBe('2026-11-28T07:30:00.000Z');
    expect(next(parseEvery('mon-fri 08:30'), '2026-11-27T08:00:00Z')).toBe('2026-11-30T07:30:00.000Z');
    expect(next(parseEvery('1st 10:00'), '2026-11-27T08:00:00Z')).toBe('2026-12-01T09:00:00.000Z');
    expect(next(parseEvery('31st 10:00'), '2026-11-01T08:00:00Z')).toBe('2026-12-31T09:00:00.000Z');
  });

  it('keeps the wall time across both DST changes', () => {
    // Monday 09:00 before and after 29 March and 25 October 2026.
    expect(next(parseEvery('mon 09:00'), '2026-03-24T00:00:00Z')).toBe('2026-03-30T07:00:00.000Z');
    expect(next(parseEvery('mon 09:00'), '2026-10-20T00:00:00Z')).toBe('2026-10-26T08:00:00.000Z');
    // Sunday 09:00 on the change days themselves.
    expect(next(parseEvery('sun 09:00'), '2026-03-28T12:00:00Z')).toBe('2026-03-29T07:00:00.000Z');
    expect(next(parseEvery('sun 09:00'), '2026-10-24T12:00:00Z')).toBe('2026-10-25T08:00:00.000Z');
  });

  it('a time in the skipped hour happens at its end; a repeated one once', () => {
    expect(next(parseEvery('day 02:30'), '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    const autumn = next(parseEvery('day 02:30'), '2026-10-24T12:00:00Z');
    expect(autumn).toBe('2026-10-25T00:30:00.000Z'); // 02:30 CEST, the first
    expect(next(parseEvery('day 02:30'), autumn!)).toBe('2026-10-26T01:30:00.000Z'); // not again at 02:30 CET
  });

  it('cron: five fields with lists, ranges, steps and names', () => {
    expect(next(parseCron('0 9 * * 1'), '2026-11-27T12:00:00Z')).toBe('2026-11-30T08:00:00.000Z');
    expect(next(parseCron('*/15 * * * *'), '2026-11-27T12:07:00Z')).toBe('2026-11-27T12:15:00.000Z');
    expect(next(parseCron('0 9 * * mon-fri'), '2026-11-27T09:00:00Z')).toBe('2026-11-30T08:00:00.000Z');
    expect(next(parseCron('0 12 1 jan *'), '2026-11-27T09:00:00Z')).toBe('2027-01-01T11:00:00.000Z');
    expect(next(parseCron('0 9 * * 0'), '2026-11-27T09:00:00Z')).toBe(next(parseCron('0 9 * * 7'), '2026-11-27T09:00:00Z'));
    // Day of the month and weekday both given: either one.
    expect(next(parseCron('0 9 1 * fri'), '2026-11-28T09:00:00Z')).toBe('2026-12-01T08:00:00.000Z');
    expect(next(parseCron('0 9 29 2 *'), '2026-03-01T00:00:00Z')).toBe('2028-02-29T08:00:00.000Z');
    expect(next(parseCron('0 9 * * 1'), '2026-11-27T12:00:00Z', 'UTC')).toBe('2026-11-30T09:00:00.000Z');
  });

  it('a date that never comes has no occurrence', () => {
    expect(nextOccurrence(rec(parseCron('0 9 31 2 *')), BERLIN, Date.parse('2026-01-01T00:00:00Z'))).toBeNull();
  });

  it('says why a recurrence is wrong', () => {
    expect(parseEvery('monday')).toContain('is not a recurrence');
    expect(parseEvery('mon 9am')).toContain("'9am' in 'mon 9am' is not a time of day");
    expect(parseEvery('mun 09:00')).toContain("'mun' is not a weekday");
    expect(parseEvery('32nd 09:00')).toContain('is not a day of the month');
    expect(parseEvery('1th 09:00')).toContain('is not a day of the month');
    expect(parseCron('0 9 * *')).toContain('five fields');
    expect(parseCron('0 25 * * *')).toContain("'25' is not a hour");
    expect(parseCron('0 9 * * funday')).toContain('is not a day of the week');
  });
});
