// Dates and times as people write them, in English and German.
import { describe, expect, it } from 'vitest';
import { dayNumber, isoDate } from '../../src/calendar/civil-date.js';
import { formatDate, formatMoment } from '../../src/calendar/format-time.js';
import { readDate, readTimeOfDay } from '../../src/calendar/read-date.js';

// Friday, 27 November 2026.
const TODAY = dayNumber(2026, 11, 27)!;
const read = (text: string) => {
  const day = readDate(text, TODAY);
  return day === undefined ? undefined : isoDate(day);
};

describe('reading a date', () => {
  it('relative words in English and German', () => {
    expect(read('today')).toBe('2026-11-27');
    expect(read('Tomorrow!')).toBe('2026-11-28');
    expect(read('day after tomorrow')).toBe('2026-11-29');
    expect(read('heute')).toBe('2026-11-27');
    expect(read('morgen')).toBe('2026-11-28');
    expect(read('Übermorgen')).toBe('2026-11-29');
    expect(read('gestern')).toBe('2026-11-26');
  });

  it('weekdays: the next one, today included; "next" is after today', () => {
    expect(read('friday')).toBe('2026-11-27');
    expect(read('next friday')).toBe('2026-12-04');
    expect(read('Monday')).toBe('2026-11-30');
    expect(read('on thursday')).toBe('2026-12-03');
    expect(read('Freitag')).toBe('2026-11-27');
    expect(read('am Samstag')).toBe('2026-11-28');
    expect(read('Mo.')).toBe('2026-11-30');
    expect(read('sat')).toBe('2026-11-28');
  });

  it('numbers: day.month, ISO and month/day', () => {
    expect(read('24.12.')).toBe('2026-12-24');
    expect(read('24.12')).toBe('2026-12-24');
    expect(read('24.12.2026')).toBe('2026-12-24');
    expect(read('1.1.27')).toBe('2027-01-01');
    expect(read('2026-12-24')).toBe('2026-12-24');
    expect(read('12/24')).toBe('2026-12-24');
    expect(read('12/24/2026')).toBe('2026-12-24');
    // Without a year: the next one to come.
    expect(read('3.1.')).toBe('2027-01-03');
    expect(read('27.11.')).toBe('2026-11-27');
    expect(read('29.2.')).toBe('2028-02-29');
  });

  it('month names', () => {
    expect(read('24 December')).toBe('2026-12-24');
    expect(read('24. Dezember')).toBe('2026-12-24');
    expect(read('December 24th')).toBe('2026-12-24');
    expect(read('dec 24, 2027')).toBe('2027-12-24');
    expect(read('3rd of march')).toBe('2027-03-03');
    expect(read('3. März 2027')).toBe('2027-03-03');
  });

  it('refuses what names no date', () => {
    for (const text of ['soon', '31.2.', '2026-02-30', '13/40', 'friday week', '24 decembre', 'next', '']) expect(read(text)).toBeUndefined();
  });
});

describe('reading a time of day', () => {
  const time = (text: string) => readTimeOfDay(text);
  it('24-hour, 12-hour and German forms', () => {
    expect(time('19:00')).toBe(19 * 60);
    expect(time('19.30')).toBe(19 * 60 + 30);
    expect(time('7pm')).toBe(19 * 60);
    expect(time('7:30 pm')).toBe(19 * 60 + 30);
    expect(time('12 am')).toBe(0);
    expect(time('12pm')).toBe(12 * 60);
    expect(time('7 a.m.')).toBe(7 * 60);
    expect(time('19 Uhr')).toBe(19 * 60);
    expect(time('um 19:30 Uhr')).toBe(19 * 60 + 30);
    expect(time('19 Uhr 30')).toBe(19 * 60 + 30);
    expect(time('19h')).toBe(19 * 60);
    expect(time('at 8')).toBe(8 * 60);
    expect(time('noon')).toBe(12 * 60);
  });
  it('refuses what names no time', () => {
    for (const text of ['25:00', '13pm', '19:75', 'soon', '19 30', '']) expect(time(text)).toBeUndefined();
  });
});

describe('writing dates for a user', () => {
  it('in English and German, the year only when it is not this year', () => {
    expect(formatDate(TODAY, 'en', 2026)).toBe('Friday, 27 November');
    expect(formatDate(TODAY, 'de', 2026)).toBe('Freitag, 27. November');
    expect(formatDate(dayNumber(2027, 1, 1)!, 'en', 2026)).toBe('Friday, 1 January 2027');
    expect(formatDate(TODAY, 'de-AT', 2026)).toBe('Freitag, 27. November');
    expect(formatDate(TODAY, 'fr', 2026)).toBe('2026-11-27');
  });
  it('a moment relative to now', () => {
    const now = Date.parse('2026-11-27T20:00:00+01:00');
    const zone = 'Europe/Berlin';
    expect(formatMoment(Date.parse('2026-11-27T21:00:00+01:00'), now, zone, 'en')).toBe('today at 21:00');
    expect(formatMoment(Date.parse('2026-11-28T10:00:00+01:00'), now, zone, 'de')).toBe('morgen um 10:00');
    expect(formatMoment(Date.parse('2026-11-30T09:00:00+01:00'), now, zone, 'en')).toBe('Monday at 09:00');
    expect(formatMoment(Date.parse('2026-11-30T09:00:00+01:00'), now, zone, 'de')).toBe('Montag um 09:00');
    expect(formatMoment(Date.parse('2026-12-07T09:00:00+01:00'), now, zone, 'en')).toBe('Monday, 7 December at 09:00');
    expect(formatMoment(Date.parse('2026-12-07T09:00:00+01:00'), now, zone, 'fr')).toBe('2026-12-07 09:00');
  });
});
