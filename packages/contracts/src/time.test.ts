import { describe, expect, it } from 'vitest';
import { addDays, ageOn, daysBetween, computeAge, formatBusinessDate, formatManilaDateTime, isIsoDate, manilaDate } from './time';

describe('Manila business dates', () => {
  it('takes the calendar date in Asia/Manila, not UTC', () => {
    // 16:30 UTC is 00:30 the next day in Manila (UTC+8)
    expect(manilaDate(new Date('2026-03-31T16:30:00Z'))).toBe('2026-04-01');
    expect(manilaDate(new Date('2026-03-31T15:59:59Z'))).toBe('2026-03-31');
  });

  it('turns the day at Manila midnight to the millisecond, one call after another (the date is remembered per minute)', () => {
    expect(manilaDate(new Date('2026-03-31T15:59:00.000Z'))).toBe('2026-03-31');
    expect(manilaDate(new Date('2026-03-31T15:59:59.999Z'))).toBe('2026-03-31');
    expect(manilaDate(new Date('2026-03-31T16:00:00.000Z'))).toBe('2026-04-01');
    expect(manilaDate(new Date('2026-03-31T15:59:59.999Z'))).toBe('2026-03-31');
    expect(manilaDate(new Date('2027-03-31T15:59:30.000Z'))).toBe('2027-03-31');
  });

  it('adds days across month and year ends', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', 30)).toBe('2026-03-31');
  });

  it('counts days between dates across month, year and leap-day ends', () => {
    expect(daysBetween('2026-01-30', '2026-02-02')).toBe(3);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-03-05', '2026-03-01')).toBe(-4);
    expect(daysBetween('2026-11-25', '2026-11-25')).toBe(0);
  });

  it('knows real calendar dates', () => {
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('26-01-01')).toBe(false);
  });
});

describe('age in whole years', () => {
  it('counts a birthday only once it is reached', () => {
    expect(ageOn('1990-05-17', '2026-05-16')).toBe(35);
    expect(ageOn('1990-05-17', '2026-05-17')).toBe(36);
    expect(ageOn('1990-05-17', '2026-12-31')).toBe(36);
  });

  it('handles 29 February birthdays', () => {
    expect(ageOn('2000-02-29', '2026-02-28')).toBe(25);
    expect(ageOn('2000-02-29', '2026-03-01')).toBe(26);
    expect(ageOn('2000-02-29', '2028-02-29')).toBe(28);
  });

  it('computeAge is empty for missing, invalid or future dates', () => {
    expect(computeAge(undefined)).toBeUndefined();
    expect(computeAge('not-a-date')).toBeUndefined();
    expect(computeAge('2999-01-01')).toBeUndefined();
    expect(computeAge(addDays(manilaDate(), -366 * 20))).toBe(20);
  });
});

describe('business date-time display', () => {
  it('shows instants in Manila time', () => {
    expect(formatManilaDateTime('2026-03-31T16:30:00Z')).toMatch(/Apr 1, 2026.*12:30/);
  });
});

describe('formatBusinessDate', () => {
  it('shows a business date as the business reads it, whatever the browser’s time zone; anything else as given', () => {
    expect(formatBusinessDate('2026-11-24')).toBe('Nov 24, 2026');
    expect(formatBusinessDate('2027-01-01')).toBe('Jan 1, 2027');
    expect(formatBusinessDate('2026-02-30')).toBe('2026-02-30');
    expect(formatBusinessDate('soon')).toBe('soon');
  });
});
