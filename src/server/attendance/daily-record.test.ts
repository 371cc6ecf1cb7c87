import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveDailyRecord, timesOnRecord } from './daily-record.js';

const DATE = '2026-11-05';

describe('a day record from its scans', () => {
  it('is nothing without scans', () => {
    expect(deriveDailyRecord(DATE, [], '08:00')).toBeUndefined();
  });

  it('takes the first scan as time in and the last as time out; both sessions for a full day', () => {
    expect(deriveDailyRecord(DATE, ['14:42:10', '07:41:05', '12:01:00'], '08:00')).toEqual({
      date_scanned: DATE,
      attendance_am: 1,
      attendance_pm: 1,
      time_in: '07:41',
      time_out: '14:42',
      late: 0,
      time_scanned_in: `${DATE} 07:41:05`,
      time_scanned_out: `${DATE} 14:42:10`,
    });
  });

  it('is late only after the bell time', () => {
    expect(deriveDailyRecord(DATE, ['08:00:00'], '08:00')?.late).toBe(0);
    expect(deriveDailyRecord(DATE, ['08:00:01'], '08:00')?.late).toBe(1);
    expect(deriveDailyRecord(DATE, ['08:20:00'], '08:30')?.late).toBe(0);
  });

  it('counts AM and PM for a time in without a time out (requirements R10)', () => {
    const record = deriveDailyRecord(DATE, ['07:30:00'], '08:00')!;
    expect(record).toMatchObject({ attendance_am: 1, attendance_pm: 1, time_out: null, time_scanned_out: null });
  });

  it('treats a second scan within five minutes as the same arrival, not a time out', () => {
    expect(deriveDailyRecord(DATE, ['07:30:00', '07:34:59'], '08:00')).toMatchObject({ time_out: null, attendance_pm: 1 });
    expect(deriveDailyRecord(DATE, ['07:30:00', '07:35:00'], '08:00')).toMatchObject({ time_out: '07:35', attendance_pm: 0 });
  });

  it('misses the afternoon when leaving before the afternoon register, the morning when arriving after midday', () => {
    expect(deriveDailyRecord(DATE, ['07:50:00', '12:30:00'], '08:00')).toMatchObject({ attendance_am: 1, attendance_pm: 0 });
    expect(deriveDailyRecord(DATE, ['12:40:00', '15:00:00'], '08:00')).toMatchObject({ attendance_am: 0, attendance_pm: 1, late: 1 });
  });

  it('gives the same record whatever the order and however often scans repeat', () => {
    const time = fc
      .tuple(fc.integer({ min: 6, max: 17 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m, s]) => [h, m, s].map((n) => String(n).padStart(2, '0')).join(':'));
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 8 }), (times, picks) => {
        const repeated = [...times, ...picks.map((p) => times[p % times.length]!)];
        const shuffled = [...repeated].reverse();
        expect(deriveDailyRecord(DATE, shuffled, '08:00')).toEqual(deriveDailyRecord(DATE, times, '08:00'));
      }),
    );
  });

  it('reads the times of a stored record back as scans', () => {
    expect(timesOnRecord({ time_in: '07:10', time_out: '14:50', time_scanned_in: `${DATE} 07:10:33`, time_scanned_out: null })).toEqual([
      '07:10:33',
      '14:50:00',
    ]);
    expect(timesOnRecord({ time_in: null, time_out: null, time_scanned_in: null, time_scanned_out: null })).toEqual([]);
  });
});
