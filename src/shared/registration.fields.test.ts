import { afterEach, describe, expect, it, vi } from 'vitest';
import { schoolToday } from './dates.js';
import { adminEditFieldMessage } from './students.schemas.js';
import { checkFieldRules, checkFieldValue, crossFieldProblems, FIELD_MESSAGES, findField, formatPhone, isAfterToday, isFieldVisible, PLACE_IN_FAMILY_MESSAGES, REGISTRATION_FIELDS, yesNoAnswer, yesNoText } from './registration.fields.js';
import { missingFields } from './registration.progress.js';

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

/** Names are shown in lists, report cards and exports: a text-direction control would reorder them. */
describe('names refuse bidirectional control characters', () => {
  const BIDI_CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
  const NAME_FIELDS = ['first_name', 'middle_name', 'last_name', 'mother_name', 'father_name', 'guardian_name', 'emergency_contact', 'relative_in_school'];

  it('every name field refuses each of U+202A–U+202E and U+2066–U+2069 with a message saying so', () => {
    for (const name of NAME_FIELDS) {
      const field = findField(name)!;
      for (const control of BIDI_CONTROLS) {
        const check = checkFieldRules(field, `Ann${control}eve`);
        expect(check, `${name} with U+${control.codePointAt(0)!.toString(16).toUpperCase()}`).toEqual({ ok: false, messages: [FIELD_MESSAGES.bidiControl] });
      }
    }
    expect(FIELD_MESSAGES.bidiControl).toMatch(/text-direction/);
  });

  it('the Edit Student dialog says the same before it saves', () => {
    expect(adminEditFieldMessage('last_name', 'Smith\u202Eevil')).toBe(FIELD_MESSAGES.bidiControl);
    expect(adminEditFieldMessage('last_name', 'Smith')).toBeNull();
  });

  it('names in any script, with accents, apostrophes and hyphens, still pass', () => {
    for (const name of ["O'Brien", 'Ramdass-Lee', 'Zoë', 'محمد', 'אברהם', 'José María']) {
      expect(checkFieldRules(findField('first_name')!, name)).toEqual({ ok: true, value: name });
    }
  });
});

describe('formatPhone', () => {
  it('prints a stored 7-digit number with the area prefix and a hyphen, as every document and export does', () => {
    expect(formatPhone('4713674')).toBe('(868) 471-3674');
    expect(formatPhone(' 6221234 ')).toBe('(868) 622-1234');
  });

  it('prints anything else stored as it is, and nothing for an empty value', () => {
    expect(formatPhone('12345')).toBe('12345');
    expect(formatPhone('')).toBeNull();
    expect(formatPhone('   ')).toBeNull();
    expect(formatPhone(null)).toBeNull();
    expect(formatPhone(undefined)).toBeNull();
  });
});

describe('yes/no answers have three states (D75)', () => {
  const hepatitis = findField('hepatitis')!;

  it('every question of the record is a yes/no with its question in words; the terms stay 0/1 marks', () => {
    const yesNo = REGISTRATION_FIELDS.filter((field) => field.control === 'yesno');
    expect(yesNo.map((field) => field.name)).toEqual(expect.arrayContaining(['hepatitis', 'polio', 'immigration_permit', 'internet_access', 'parent_attended']));
    for (const field of yesNo) expect(field.question, field.name).toMatch(/\?$/);
    expect(findField('agree_terms_conditions')!.control).toBe('switch');
    expect(findField('terms_and_conditions')!.control).toBe('switch');
  });

  it('accepts yes, no and clearing, and nothing else', () => {
    expect(checkFieldValue(hepatitis, 1)).toEqual({ ok: true, value: 1 });
    expect(checkFieldValue(hepatitis, 0)).toEqual({ ok: true, value: 0 });
    expect(checkFieldValue(hepatitis, true)).toEqual({ ok: true, value: 1 });
    expect(checkFieldValue(hepatitis, false)).toEqual({ ok: true, value: 0 });
    expect(checkFieldValue(hepatitis, null)).toEqual({ ok: true, value: null });
    expect(checkFieldValue(hepatitis, '')).toEqual({ ok: true, value: null });
    for (const raw of [2, -1, 'yes', 'no', 'maybe', undefined, [], {}]) {
      expect(checkFieldValue(hepatitis, raw), JSON.stringify(raw)).toEqual({ ok: false, messages: [FIELD_MESSAGES.yesNo] });
    }
  });

  it('reads a stored value as Yes, No or Not answered, never an unanswered one as No', () => {
    expect([1, 0, null, undefined, '1', '0', ''].map(yesNoAnswer)).toEqual([1, 0, null, null, 1, 0, null]);
    expect([1, 0, null].map(yesNoText)).toEqual(['Yes', 'No', 'Not answered']);
  });

  it('a section shown by a yes/no shows only when answered Yes', () => {
    const permitDate = findField('permit_issue_date')!;
    expect(isFieldVisible(permitDate, { immigration_permit: 1 })).toBe(true);
    expect(isFieldVisible(permitDate, { immigration_permit: 0 })).toBe(false);
    expect(isFieldVisible(permitDate, { immigration_permit: null })).toBe(false);
  });
});

describe('place in family is at most the number in family (D77)', () => {
  it('refuses "7 of 5" on the place, and passes the place up to the number', () => {
    expect(crossFieldProblems({ place_in_family: '7', no_in_family: '5' })).toEqual({ place_in_family: [PLACE_IN_FAMILY_MESSAGES.place(5)] });
    expect(crossFieldProblems({ place_in_family: 7, no_in_family: 5 })).toEqual({ place_in_family: [PLACE_IN_FAMILY_MESSAGES.place(5)] });
    expect(PLACE_IN_FAMILY_MESSAGES.place(5)).toBe('Place in family cannot be more than the number in family (5).');
    for (const place of ['1', '4', '5', ' 5 ']) expect(crossFieldProblems({ place_in_family: place, no_in_family: '5' }), place).toEqual({});
  });

  it('tells a lowered number on the number when the save changed the number alone', () => {
    expect(crossFieldProblems({ place_in_family: '7', no_in_family: '5' }, ['no_in_family'])).toEqual({ no_in_family: [PLACE_IN_FAMILY_MESSAGES.number(7)] });
    expect(crossFieldProblems({ place_in_family: '7', no_in_family: '5' }, ['no_in_family', 'place_in_family'])).toEqual({ place_in_family: [PLACE_IN_FAMILY_MESSAGES.place(5)] });
  });

  it("says nothing while either is missing or not a number: each field's own rules say so", () => {
    for (const record of [{}, { place_in_family: '7' }, { place_in_family: '7', no_in_family: null }, { place_in_family: 'seven', no_in_family: '5' }, { place_in_family: '7', no_in_family: '5a' }]) {
      expect(crossFieldProblems(record), JSON.stringify(record)).toEqual({});
    }
  });

  it('keeps the Family Data step from being done', () => {
    expect(missingFields('family', { no_in_family: '5', no_at_home: '5', place_in_family: '7' })).toContain('place_in_family');
    expect(missingFields('family', { no_in_family: '5', no_at_home: '5', place_in_family: '5' })).not.toContain('place_in_family');
  });
});

describe('a select with its own values', () => {
  const sex = findField('sex')!;

  it('lists the values it takes when it refuses one (docs/decisions.md D79)', () => {
    expect(checkFieldRules(sex, 'X')).toEqual({ ok: false, messages: ['Choose one of: Female, Male (or F, M).'] });
    expect(checkFieldRules(findField('living_status')!, 'Nobody')).toEqual({ ok: false, messages: [FIELD_MESSAGES.optionOf(findField('living_status')!.options!)] });
    expect(FIELD_MESSAGES.optionOf(findField('living_status')!.options!)).toBe('Choose one of: Both Parents, Father Only, Mother Only, Guardian, Other.');
  });

  it('reads F and M, in any case, as Female and Male, and stores them in full', () => {
    expect(checkFieldRules(sex, 'F')).toEqual({ ok: true, value: 'Female' });
    expect(checkFieldRules(sex, ' m ')).toEqual({ ok: true, value: 'Male' });
    expect(checkFieldRules(sex, 'Male')).toEqual({ ok: true, value: 'Male' });
    expect(checkFieldRules(sex, 'Fem')).toMatchObject({ ok: false });
  });
});
