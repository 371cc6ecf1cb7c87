import { describe, expect, it } from 'vitest';
import { countPossibleSessions, countSchoolDays, isWeekday, listSchoolDays } from './school-days.js';

describe('school days', () => {
  it('counts weekdays only, both ends included', () => {
    // 2025-09-08 is a Monday; two full weeks to Friday 2025-09-19.
    expect(countSchoolDays('2025-09-08', '2025-09-19')).toBe(10);
    expect(countSchoolDays('2025-09-06', '2025-09-07')).toBe(0); // a weekend
    expect(countSchoolDays('2025-09-08', '2025-09-08')).toBe(1);
    expect(isWeekday('2025-09-13')).toBe(false);
  });
  it('leaves out holidays, and holidays on a weekend change nothing', () => {
    const holidays = ['2025-09-24', '2025-09-27'];
    expect(listSchoolDays('2025-09-22', '2025-09-28', holidays)).toEqual(['2025-09-22', '2025-09-23', '2025-09-25', '2025-09-26']);
    expect(countSchoolDays('2025-09-22', '2025-09-28', new Set(holidays))).toBe(4);
  });
  it('is empty when the end is before the start, or a date is not a date', () => {
    expect(countSchoolDays('2025-09-19', '2025-09-08')).toBe(0);
    expect(countSchoolDays('not-a-date', '2025-09-08')).toBe(0);
  });
  it('crosses month, year and leap-day boundaries in UTC', () => {
    expect(listSchoolDays('2028-02-28', '2028-03-01')).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(countSchoolDays('2025-12-29', '2026-01-02', ['2026-01-01'])).toBe(4);
  });
  it('gives two sessions (AM and PM) per school day', () => {
    expect(countPossibleSessions('2025-09-08', '2025-09-19', ['2025-09-10'])).toBe(18);
  });
});
