import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  attendancePercent,
  countAttendance,
  isPresentAm,
  isPresentPm,
  punctualityPercent,
  summarizeAttendance,
  wholePercent,
} from './attendance.stats.js';
import { addDays, earlierDate } from './school-days.js';

const day = (overrides: Partial<Parameters<typeof countAttendance>[0][number]> = {}) => ({
  attendance_am: 1,
  attendance_pm: 1,
  time_in: '07:45',
  time_out: '14:40',
  late: 0,
  ...overrides,
});

describe('attendance percentage (SPEC §5: present / possible, whole percent, 0 % when nothing is possible)', () => {
  it('is 0 % when nothing is possible, whatever was present', () => {
    expect(attendancePercent(0, 0)).toBe(0);
    expect(attendancePercent(5, 0)).toBe(0);
    expect(attendancePercent(3, -2)).toBe(0);
  });

  it('is 0 % when nothing was attended, and 100 % when everything was', () => {
    expect(attendancePercent(0, 120)).toBe(0);
    expect(attendancePercent(120, 120)).toBe(100);
    expect(attendancePercent(2, 2)).toBe(100);
  });

  it('rounds partial attendance to the nearest whole percent, halves up', () => {
    expect(attendancePercent(1, 2)).toBe(50);
    expect(attendancePercent(1, 3)).toBe(33);
    expect(attendancePercent(2, 3)).toBe(67);
    expect(attendancePercent(87, 120)).toBe(73); // 72.5 → 73
    expect(attendancePercent(111, 120)).toBe(93); // 92.5 → 93
    expect(attendancePercent(7, 8)).toBe(88); // 87.5 → 88
  });

  it('never shows 100 % with a session missed, nor 0 % with one attended', () => {
    expect(attendancePercent(199, 200)).toBe(99); // 99.5 would round to 100
    expect(attendancePercent(1, 201)).toBe(1); // 0.497 would round to 0
  });

  it('caps attendance above possible at 100 %', () => {
    expect(attendancePercent(130, 120)).toBe(100);
  });

  it('is a whole number from 0 to 100, monotonic in what was present', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 0, max: 2000 }), (possible, raw) => {
        const present = raw % (possible + 1);
        const percent = attendancePercent(present, possible);
        expect(Number.isInteger(percent)).toBe(true);
        expect(percent).toBeGreaterThanOrEqual(0);
        expect(percent).toBeLessThanOrEqual(100);
        expect(Math.abs(percent - (present * 100) / possible)).toBeLessThanOrEqual(1);
        if (present < possible) expect(attendancePercent(present + 1, possible)).toBeGreaterThanOrEqual(percent);
      }),
    );
  });
});

describe('punctuality percentage (SPEC §5: (attendance − lates) / attendance, 0 % when attendance is 0)', () => {
  it('is 0 % when nothing was attended, even with lates', () => {
    expect(punctualityPercent(0, 0)).toBe(0);
    expect(punctualityPercent(0, 3)).toBe(0);
  });

  it('is 100 % with no lates and 0 % when every attendance was late', () => {
    expect(punctualityPercent(40, 0)).toBe(100);
    expect(punctualityPercent(40, 40)).toBe(0);
  });

  it('rounds partial punctuality', () => {
    expect(punctualityPercent(40, 10)).toBe(75);
    expect(punctualityPercent(3, 1)).toBe(67);
    expect(punctualityPercent(8, 1)).toBe(88); // 87.5 → 88
  });

  it('treats more lates than attendance as all late, never negative', () => {
    expect(punctualityPercent(4, 9)).toBe(0);
  });
});

describe('wholePercent', () => {
  it('rejects NaN as a whole', () => {
    expect(wholePercent(1, Number.NaN)).toBe(0);
  });
});

describe('sessions of a day (SPEC §4: a time in without a time out is present AM and PM)', () => {
  it('counts the stored flags', () => {
    expect(isPresentAm(day())).toBe(true);
    expect(isPresentPm(day({ attendance_pm: 0, time_out: '12:05' }))).toBe(false);
  });

  it('counts both sessions for a time in without a time out, whatever the flags', () => {
    const forgot = day({ attendance_am: 0, attendance_pm: 0, time_out: null });
    expect(isPresentAm(forgot)).toBe(true);
    expect(isPresentPm(forgot)).toBe(true);
  });

  it('totals present sessions and lates over records', () => {
    const records = [day(), day({ late: 1 }), day({ attendance_pm: 0, time_out: '11:50' }), day({ attendance_am: 0, attendance_pm: 0, time_out: null, late: 1 })];
    expect(countAttendance(records)).toEqual({ present: 7, lates: 2 });
  });

  it('summarises with Present, Absent, Late and Early', () => {
    expect(summarizeAttendance(10, 7, 2)).toEqual({
      possible: 10,
      present: 7,
      absent: 3,
      lates: 2,
      early: 5,
      attendancePercent: 70,
      punctualityPercent: 71,
    });
    expect(summarizeAttendance(0, 0, 0)).toMatchObject({ absent: 0, attendancePercent: 0, punctualityPercent: 0 });
  });
});

describe('date helpers attendance adds to school-days.ts', () => {
  it('moves across month, year and leap-day ends', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2026-11-22', 0)).toBe('2026-11-22');
  });

  it('picks the earlier of two dates', () => {
    expect(earlierDate('2026-11-22', '2026-12-11')).toBe('2026-11-22');
    expect(earlierDate('2027-01-05', '2026-12-11')).toBe('2026-12-11');
  });
});
