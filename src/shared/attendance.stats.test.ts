import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ABSENCE_PARTS,
  ATTENDANCE_WORDS,
  DAY_ATTENDANCE_WORDS,
  attendanceFigures,
  attendanceLines,
  attendancePercent,
  countAttendance,
  dayAttendanceOf,
  excusedDaysOf,
  isPresentAm,
  isPresentPm,
  punctualityPercent,
  summarizeAttendance,
  wholePercent,
  type AbsencePart,
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

describe('attendance percentage (requirements R5: present / possible, whole percent, 0 % when nothing is possible)', () => {
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

describe('punctuality percentage (requirements R5: (attendance − lates) / attendance, 0 % when attendance is 0)', () => {
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

describe('sessions of a day (requirements R10: a time in without a time out is present AM and PM)', () => {
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

  it('summarises the report card in sessions: present, absent and late', () => {
    expect(summarizeAttendance(10, 7, 2)).toEqual({
      possible: 10,
      present: 7,
      absent: 3,
      lates: 2,
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

/** Five school days: on time, late, a morning missed (arrived after midday), gone home at noon, absent. */
const WEEK = {
  schoolDays: ['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06'],
  records: [
    { date_scanned: '2026-11-02', ...day() },
    { date_scanned: '2026-11-03', ...day({ late: 1, time_in: '08:12' }) },
    { date_scanned: '2026-11-04', ...day({ attendance_am: 0, late: 1, time_in: '12:20' }) },
    { date_scanned: '2026-11-05', ...day({ attendance_pm: 0, time_out: '12:05' }) },
    // A Saturday sports day: shown on the screen, never counted.
    { date_scanned: '2026-11-07', ...day() },
  ],
};

describe('sessions and days, each said as such (D76)', () => {
  const { schoolDays, records } = WEEK;

  it('counts attendance in sessions, two a school day, and being at school in days', () => {
    const figures = attendanceFigures(schoolDays, records);
    expect(figures).toEqual({
      schoolDays: 5,
      possibleSessions: 10,
      sessionsPresent: 6,
      sessionsAbsent: 4,
      sessionsAbsentExcused: 0,
      sessionsAbsentUnexcused: 4,
      daysAtSchool: 4,
      daysAbsent: 1,
      daysLate: 2,
      daysLateExcused: 0,
      daysOnTime: 2,
      attendancePercent: 60,
      punctualityPercent: 50,
    });
  });

  it('counts punctuality in days at school: a late arrival is one day, whatever sessions the day had', () => {
    // 58 days, every one at school and 5 late: punctuality is 53 of 58 days, not (116 − 5) of 116 sessions.
    const days = Array.from({ length: 58 }, (_, i) => `2026-${String(9 + Math.floor(i / 28)).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`);
    const all = days.map((date, i) => ({ date_scanned: date, ...day({ late: i < 5 ? 1 : 0 }) }));
    const figures = attendanceFigures(days, all);
    expect(figures.daysOnTime).toBe(53);
    expect(figures.daysLate).toBe(5);
    expect(figures.punctualityPercent).toBe(91); // 53 / 58 = 91.4 %; sessions would have said 96 %
  });

  it('counts a day with no session attended as absent, never late', () => {
    const figures = attendanceFigures(['2026-11-02'], [{ date_scanned: '2026-11-02', ...day({ attendance_am: 0, attendance_pm: 0, time_in: '12:30', time_out: '12:50', late: 1 }) }]);
    expect(figures).toMatchObject({ sessionsPresent: 0, daysAtSchool: 0, daysAbsent: 1, daysLate: 0, punctualityPercent: 0 });
  });

  it('counts nothing in a range the school recorded nothing for', () => {
    expect(attendanceFigures(schoolDays, [], false)).toMatchObject({ schoolDays: 0, possibleSessions: 0, sessionsAbsent: 0, daysAbsent: 0 });
  });

  it('says each figure with its unit, in the words the screen and the report share', () => {
    const lines = attendanceLines(attendanceFigures(schoolDays, records));
    expect(lines.map((line) => `${line.label}: ${line.value}`)).toEqual([
      'School days: 5',
      'Sessions present: 6 of 10 (two a day)',
      'Sessions absent: 4',
      'Sessions absent (excused): 0',
      'Sessions absent (unexcused): 4',
      'Days absent: 1',
      'Days at school: 4 of 5',
      'On time: 2 days of 4',
      'Late: 2 days',
      'Late (excused): 0 days',
      'Attendance: 60% of sessions',
      'Punctuality: 50% of days at school on time',
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/Early|Punctual\b/);
    expect(ATTENDANCE_WORDS.explained).toContain('two a school day');
  });
});

describe('excused and unexcused: what accepted absence notes cover (D93)', () => {
  // The week above: on time, late, a morning missed and late, gone home at noon, absent all day.
  const { schoolDays, records } = WEEK;

  it('maps each part to what it excuses, over the school days of its range', () => {
    const days = excusedDaysOf([
      { date_from: '2026-11-06', date_to: '2026-11-09', part: 'whole_day' },
      { date_from: '2026-11-04', date_to: '2026-11-04', part: 'am' },
      { date_from: '2026-11-04', date_to: '2026-11-04', part: 'pm' },
    ]);
    expect(Object.fromEntries(days)).toEqual({
      '2026-11-04': { am: true, pm: true, late: true },
      // The weekend between is no school day.
      '2026-11-06': { am: true, pm: true, late: true },
      '2026-11-09': { am: true, pm: true, late: true },
    });
    expect(Object.fromEntries(excusedDaysOf([{ date_from: '2026-11-03', date_to: '2026-11-03', part: 'late' }]))).toEqual({ '2026-11-03': { am: false, pm: false, late: true } });
    expect(Object.fromEntries(excusedDaysOf([{ date_from: '2026-11-05', date_to: '2026-11-05', part: 'pm' }]))).toEqual({ '2026-11-05': { am: false, pm: true, late: false } });
  });

  it('splits absent sessions and late days into excused and not; the percentages stay as they were', () => {
    const excused = excusedDaysOf([
      // Absent all day, no record at all: both sessions excused.
      { date_from: '2026-11-06', date_to: '2026-11-06', part: 'whole_day' },
      // A morning note covers the missed morning and the late arrival after it.
      { date_from: '2026-11-04', date_to: '2026-11-04', part: 'am' },
      // A late note covers the late arrival only.
      { date_from: '2026-11-03', date_to: '2026-11-03', part: 'late' },
      // A note on a day at school on time excuses nothing.
      { date_from: '2026-11-02', date_to: '2026-11-02', part: 'whole_day' },
    ]);
    const plain = attendanceFigures(schoolDays, records);
    const figures = attendanceFigures(schoolDays, records, true, excused);
    expect(figures).toMatchObject({ sessionsAbsent: 4, sessionsAbsentExcused: 3, sessionsAbsentUnexcused: 1, daysLate: 2, daysLateExcused: 2 });
    expect({ ...figures, sessionsAbsentExcused: 0, sessionsAbsentUnexcused: 4, daysLateExcused: 0 }).toEqual(plain);
    // The totals the screen and the report PDF list say the split in the same words.
    const lines = attendanceLines(figures).map((line) => `${line.label}: ${line.value}`);
    expect(lines).toContain('Sessions absent (excused): 3');
    expect(lines).toContain('Sessions absent (unexcused): 1');
    expect(lines).toContain('Late (excused): 2 days');
  });

  it('never excuses more than was missed, and nothing in a range the school recorded nothing for', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ day: fc.integer({ min: 0, max: 4 }), part: fc.constantFrom<AbsencePart>(...ABSENCE_PARTS) })), (notes) => {
        const excused = excusedDaysOf(notes.map((note) => ({ date_from: schoolDays[note.day]!, date_to: schoolDays[note.day]!, part: note.part })));
        const figures = attendanceFigures(schoolDays, records, true, excused);
        expect(figures.sessionsAbsentExcused + figures.sessionsAbsentUnexcused).toBe(figures.sessionsAbsent);
        expect(figures.sessionsAbsentUnexcused).toBeGreaterThanOrEqual(0);
        expect(figures.daysLateExcused).toBeLessThanOrEqual(figures.daysLate);
        expect(attendanceFigures(schoolDays, [], false, excused)).toMatchObject({ sessionsAbsentExcused: 0, daysLateExcused: 0 });
      }),
    );
  });
});

describe('one school day, as the daily digest and the home card say it', () => {
  it('tells absent, a missed session, late and on time apart', () => {
    expect(dayAttendanceOf(undefined)).toBe('absent');
    expect(dayAttendanceOf(day({ attendance_am: 0, late: 1, time_in: '12:20' }))).toBe('absent-am');
    expect(dayAttendanceOf(day({ late: 1 }))).toBe('late');
    expect(dayAttendanceOf(day({ attendance_pm: 0, time_out: '11:30' }))).toBe('absent-pm');
    expect(dayAttendanceOf(day())).toBe('on-time');
    // In the morning, scanned in and not yet out: at school for both sessions so far.
    expect(dayAttendanceOf(day({ attendance_am: 0, attendance_pm: 0, time_out: null }))).toBe('on-time');
    expect(DAY_ATTENDANCE_WORDS['on-time']).toBe('at school, on time');
  });
});
