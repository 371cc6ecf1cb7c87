import { afterEach, describe, expect, it, vi } from 'vitest';
import { schoolToday } from './dates.js';
import { checkPartialSave, FIELD_MESSAGES, isAfterToday, REGISTRATION_FIELDS } from './registration.fields.js';

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

/** The body of `POST /api/student` as the server checks it: only the fields sent, each by its rules. */
describe('checkPartialSave', () => {
  const options = { today: '2026-11-22' };

  it('answers the id and the stored values of the fields sent: trimmed, empty as null, switches 0/1', () => {
    const checked = checkPartialSave({ id: ' 20260001 ', home_address: '  1 Bench Street ', mother_business_place: '', sibling_attending: true, date_of_birth: '2014-02-28' }, options);
    expect(checked).toEqual({
      ok: true,
      id: '20260001',
      changes: { home_address: '1 Bench Street', mother_business_place: null, sibling_attending: 1, date_of_birth: '2014-02-28' },
    });
  });

  it("refuses each broken field with its rule's messages, the id first, then catalogue order, then unknown names as sent", () => {
    const checked = checkPartialSave(
      { zzz: 1, date_of_birth: '2030-01-01', id: 'bad id!', constructor: 'x', first_name: '', sibling_attending: '1', home_address: 7 },
      options,
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(Object.getPrototypeOf(checked.errors)).toBeNull();
    expect(Object.keys(checked.errors)).toEqual(['id', 'first_name', 'date_of_birth', 'home_address', 'sibling_attending', 'zzz', 'constructor']);
    expect(checked.errors).toMatchObject({
      id: ['Student ID has only letters, digits and dashes.'],
      first_name: [FIELD_MESSAGES.required],
      date_of_birth: [FIELD_MESSAGES.futureDate],
      home_address: [FIELD_MESSAGES.text],
      // A client sends a switch as 0, 1 or a boolean; the screens' '1' is not a client's value.
      sibling_attending: [FIELD_MESSAGES.flag],
      zzz: ['Unknown field.'],
      constructor: ['Unknown field.'],
    });
  });

  it('refuses the fields only the server writes, by name', () => {
    const managed = REGISTRATION_FIELDS.filter((field) => field.serverManaged);
    expect(managed.length).toBeGreaterThan(0);
    for (const field of managed) {
      const checked = checkPartialSave({ id: '20260001', [field.name]: null }, options);
      expect(checked).toEqual({ ok: false, errors: expect.objectContaining({ [field.name]: ['Unknown field.'] }) });
    }
  });
});
