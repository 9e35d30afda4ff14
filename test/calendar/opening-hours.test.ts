// Opening hours: open at the minute it opens and closed at the minute it closes, holidays, the next opening
// over a weekend, periods past midnight, around-the-clock hours, and the two DST days of 2026.
import { describe, expect, it } from 'vitest';
import { compileOpeningHours, isOpenAt, nextClosing, nextOpening, type HoursSpec } from '../../src/calendar/opening-hours.js';

const BERLIN = 'Europe/Berlin';
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);

function hours(spec: HoursSpec, zone = BERLIN) {
  const problems: string[] = [];
  const compiled = compileOpeningHours('office', spec, zone, (path, message) => problems.push(`${path.join('.')}: ${message}`));
  return { compiled: compiled!, problems };
}

const office = hours({ 'mon-fri': '09:00-18:00', sat: '10:00-14:00', closed: ['2026-12-24', '2026-12-25', '2027-01-01'] }).compiled;

describe('opening hours', () => {
  it('is open from the opening minute and closed from the closing minute', () => {
    expect(isOpenAt(office, at('2026-11-27T07:59:59+01:00'))).toBe(false);
    expect(isOpenAt(office, at('2026-11-27T09:00:00+01:00'))).toBe(true);
    expect(isOpenAt(office, at('2026-11-27T17:59:59+01:00'))).toBe(true);
    expect(isOpenAt(office, at('2026-11-27T18:00:00+01:00'))).toBe(false);
    expect(isOpenAt(office, at('2026-11-28T11:00:00+01:00'))).toBe(true); // Saturday
    expect(isOpenAt(office, at('2026-11-29T11:00:00+01:00'))).toBe(false); // Sunday
  });

  it('is closed on holidays and opens after them', () => {
    expect(isOpenAt(office, at('2026-12-24T10:00:00+01:00'))).toBe(false);
    expect(iso(nextOpening(office, at('2026-12-23T19:00:00+01:00')))).toBe('2026-12-26T09:00:00.000Z'); // Saturday 26th, 10:00 CET
    expect(iso(nextOpening(office, at('2026-12-31T18:30:00+01:00')))).toBe('2027-01-02T09:00:00.000Z');
  });

  it('says when it opens next and when it closes', () => {
    const friday = at('2026-11-27T20:00:00+01:00');
    expect(iso(nextOpening(office, friday))).toBe('2026-11-28T09:00:00.000Z');
    expect(iso(nextOpening(office, at('2026-11-28T15:00:00+01:00')))).toBe('2026-11-30T08:00:00.000Z');
    expect(iso(nextClosing(office, at('2026-11-27T10:00:00+01:00')))).toBe('2026-11-27T17:00:00.000Z');
    expect(nextOpening(office, at('2026-11-27T10:00:00+01:00'))).toBe(at('2026-11-27T10:00:00+01:00'));
  });

  it('handles the spring DST day (29 March 2026, a Sunday): hours keep their wall times', () => {
    const daily = hours({ daily: '01:00-03:30' }).compiled;
    // 02:00-03:00 does not exist: 01:00 CET to 03:30 CEST is 1.5 hours.
    expect(iso(nextOpening(daily, at('2026-03-28T23:00:00Z')))).toBe('2026-03-29T00:00:00.000Z');
    expect(iso(nextClosing(daily, at('2026-03-29T00:30:00Z')))).toBe('2026-03-29T01:30:00.000Z');
    expect(isOpenAt(office, at('2026-03-30T09:00:00+02:00'))).toBe(true);
    expect(isOpenAt(office, at('2026-03-30T08:30:00+02:00'))).toBe(false);
  });

  it('handles the autumn DST day (25 October 2026): the repeated hour is open once', () => {
    const night = hours({ daily: '02:00-04:00' }).compiled;
    const opens = nextOpening(night, at('2026-10-24T22:00:00Z'))!;
    expect(iso(opens)).toBe('2026-10-25T00:00:00.000Z'); // 02:00 CEST
    expect(iso(nextClosing(night, opens))).toBe('2026-10-25T03:00:00.000Z'); // 04:00 CET: three hours
    expect(isOpenAt(office, at('2026-10-26T08:59:00+01:00'))).toBe(false);
    expect(isOpenAt(office, at('2026-10-26T09:00:00+01:00'))).toBe(true);
  });

  it('runs past midnight and joins touching periods', () => {
    const bar = hours({ 'fri-sat': '18:00-02:00' }).compiled;
    expect(isOpenAt(bar, at('2026-11-28T01:30:00+01:00'))).toBe(true); // Saturday night from Friday
    expect(isOpenAt(bar, at('2026-11-29T01:30:00+01:00'))).toBe(true);
    expect(isOpenAt(bar, at('2026-11-30T01:30:00+01:00'))).toBe(false);
    const always = hours({ daily: '00:00-24:00', closed: ['2026-12-25'] }).compiled;
    expect(iso(nextClosing(always, at('2026-12-20T12:00:00+01:00')))).toBe('2026-12-24T23:00:00.000Z');
  });

  it('never opens when every day is closed', () => {
    const none = hours({ daily: 'closed' }).compiled;
    expect(nextOpening(none, at('2026-11-27T10:00:00Z'))).toBeNull();
    expect(nextClosing(none, at('2026-11-27T10:00:00Z'))).toBeNull();
  });

  it('reports bad days, times, overlaps and dates at their place', () => {
    expect(hours({ 'mon-fry': '09:00-18:00' }).problems).toEqual([
      "mon-fry: hours 'office': 'fry' is not a weekday: write mon, tue, wed, thu, fri, sat or sun (or a range such as mon-fri)",
    ]);
    expect(hours({ mon: '9-18' }).problems[0]).toContain("'9-18' is not a time range");
    expect(hours({ mon: '09:00-25:00' }).problems[0]).toContain("'09:00-25:00' is not a time range");
    expect(hours({ mon: ['09:00-13:00', '12:00-18:00'] }).problems[0]).toBe("mon.1: hours 'office', mon: the ranges overlap; list each open period once");
    expect(hours({ 'mon-fri': '09:00-18:00', fri: '09:00-12:00' }).problems[0]).toContain('Friday is given twice');
    expect(hours({ mon: '09:00-18:00', closed: ['24.12.2026'] }).problems[0]).toContain("closed date '24.12.2026' is not a date");
  });
});
