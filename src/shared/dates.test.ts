import { describe, expect, it } from 'vitest';
import { fromCompactDate, fromDayFirstDate, instantOfSchoolTime, isIsoDate, parseBirthDate, schoolDayOf, schoolTimeOf, toDayFirstDate } from './dates.js';

/** What isIsoDate answered when it read the date through Date.UTC: the reference it is held to. */
function throughDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('isIsoDate', () => {
  it('answers as a calendar does for every day number 00–32 of every month 00–13, over leap and common years', () => {
    const years = [0, 4, 99, 100, 400, 1000, 1899, 1900, 1999, 2000, 2023, 2024, 2025, 2100, 2400, 9999];
    let checked = 0;
    for (const year of years) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const value = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          expect(isIsoDate(value), value).toBe(throughDate(value));
          checked++;
        }
      }
    }
    expect(checked).toBe(years.length * 14 * 33);
  });

  it('knows the leap days and the month ends', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('1900-02-29')).toBe(false);
    expect(isIsoDate('2000-02-29')).toBe(true);
    expect(isIsoDate('2026-04-31')).toBe(false);
    expect(isIsoDate('2026-12-31')).toBe(true);
  });

  it('refuses anything not written yyyy-MM-dd', () => {
    for (const value of ['', '2026-1-05', '2026/01/05', '20260105', ' 2026-01-05', '2026-01-05 ', '2026-01-05T00:00', '２０２６-01-05', 'abcd-ef-gh']) {
      expect(isIsoDate(value), JSON.stringify(value)).toBe(false);
    }
  });

  it('reads the compact form of a reset password back only for real dates', () => {
    expect(fromCompactDate('20240229')).toBe('2024-02-29');
    expect(fromCompactDate('20230229')).toBeNull();
  });

  it('reads a typed date of birth: dd/MM/yyyy as the placeholder says, yyyy-MM-dd, or the digits alone (D77)', () => {
    expect(parseBirthDate('09/03/2014')).toBe('2014-03-09');
    expect(parseBirthDate(' 9/3/2014 ')).toBe('2014-03-09');
    expect(parseBirthDate('29/02/2024')).toBe('2024-02-29');
    expect(parseBirthDate('2014-03-09')).toBe('2014-03-09');
    expect(parseBirthDate(' 20140309 ')).toBe('2014-03-09');
    // Day first, never month first: 03/09/2014 is the 3rd of September.
    expect(parseBirthDate('03/09/2014')).toBe('2014-09-03');
    for (const value of ['2014-3-9', '31/02/2014', '29/02/2023', '13/13/2014', '09/03/14', '09-03-2014', '09.03.2014', '009/03/2014', '2014-02-30', '201403', '']) {
      expect(parseBirthDate(value), value).toBeNull();
    }
  });

  it('reads dd/MM/yyyy alone, and writes a date back that way', () => {
    expect(fromDayFirstDate('01/12/1999')).toBe('1999-12-01');
    expect(fromDayFirstDate('2014-03-09')).toBeNull();
    expect(toDayFirstDate('2014-03-09')).toBe('09/03/2014');
    expect(parseBirthDate(toDayFirstDate('2024-02-29'))).toBe('2024-02-29');
  });

  it('shows a stored instant in the school’s time and day, and reads a typed school time back to the instant (D84)', () => {
    expect(schoolTimeOf('2026-11-28T01:30:00.000Z')).toBe('2026-11-27 21:30');
    expect(schoolDayOf('2026-11-28T01:30:00.000Z')).toBe('2026-11-27');
    expect(schoolDayOf('2026-11-28T04:00:00.000Z')).toBe('2026-11-28');
    expect(instantOfSchoolTime('2026-12-18T08:00')?.toISOString()).toBe('2026-12-18T12:00:00.000Z');
    expect(instantOfSchoolTime('2026-12-31T21:15')?.toISOString()).toBe('2027-01-01T01:15:00.000Z');
    for (const value of ['', '2026-12-18', '2026-12-18 08:00', '2026-02-30T08:00', '2026-12-18T24:00', '2026-12-18T08:00Z']) {
      expect(instantOfSchoolTime(value), value).toBeNull();
    }
  });
});
