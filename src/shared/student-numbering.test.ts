import { describe, expect, it } from 'vitest';
import { createStudentNumberer, sequenceOf, studentIdOf } from './student-numbering.js';

describe('the numbering rule (D61)', () => {
  it('writes the entry year and a 4-digit sequence, and reads it back only for that year', () => {
    expect(studentIdOf(2026, 7)).toBe('20260007');
    expect(sequenceOf('20260007', 2026)).toBe(7);
    expect(sequenceOf('20260007', 2025)).toBeNull();
    expect(sequenceOf('2026007', 2026)).toBeNull();
    expect(sequenceOf('2026-007', 2026)).toBeNull();
  });

  it('continues after the highest number of the year, never filling a gap, each year on its own', () => {
    const next = createStudentNumberer(['20260001', '20260040', '20250999', 'S-ABC', '202600041']);
    expect([next(2026), next(2026), next(2025), next(2027)]).toEqual(['20260041', '20260042', '20251000', '20270001']);
  });

  it('refuses a year whose 9,999 numbers are used', () => {
    const next = createStudentNumberer(['20269999']);
    expect(() => next(2026)).toThrow(RangeError);
  });
});
