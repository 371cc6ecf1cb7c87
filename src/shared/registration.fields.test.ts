import { afterEach, describe, expect, it, vi } from 'vitest';
import { schoolToday } from './dates.js';
import { isAfterToday } from './registration.fields.js';

/**
 * `isAfterToday` without a `today` answers from the UTC date when a date is more than a day away
 * and asks the school's clock (Intl) only near today: it must answer exactly what comparing with
 * the school's day (America/Port_of_Spain) answers, at any instant.
 */
describe('isAfterToday', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const shift = (iso: string, days: number) =>
    new Date(Date.parse(`${iso}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  it("answers as the school's day does, around midnight in Trinidad and in UTC and across a year's end", () => {
    const instants = [
      '2026-06-15T03:59:59Z', // 23:59:59 the day before in Trinidad (UTC-4)
      '2026-06-15T04:00:00Z', // midnight in Trinidad
      '2026-06-15T00:00:00Z', // midnight UTC, still the day before in Trinidad
      '2026-06-15T23:59:59Z',
      '2026-12-31T23:30:00Z', // a new year in UTC, not yet in Trinidad
      '2027-01-01T03:30:00Z',
      '2027-01-01T04:30:00Z',
    ];
    for (const instant of instants) {
      vi.useFakeTimers({ now: new Date(instant) });
      const today = schoolToday(new Date(instant));
      for (const days of [-800, -400, -3, -2, -1, 0, 1, 2, 3, 400]) {
        const date = shift(today, days);
        expect(isAfterToday(date), `${date} at ${instant}`).toBe(date > today);
        const year = date.slice(0, 4);
        expect(isAfterToday(year), `${year} at ${instant}`).toBe(year > today.slice(0, 4));
      }
      vi.useRealTimers();
    }
  });

  it('compares with the given day when there is one', () => {
    expect(isAfterToday('2026-06-16', { today: '2026-06-15' })).toBe(true);
    expect(isAfterToday('2026-06-15', { today: '2026-06-15' })).toBe(false);
    expect(isAfterToday('2027', { today: '2026-06-15' })).toBe(true);
    expect(isAfterToday('2026', { today: '2026-06-15' })).toBe(false);
    // Far from the real clock: the given day decides, not the UTC shortcut.
    expect(isAfterToday('1990-01-02', { today: '1990-01-01' })).toBe(true);
  });
});
