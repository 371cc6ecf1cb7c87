import { describe, expect, it } from 'vitest';
import { RegistrationStatusParser, StudentRecordListParser } from './registration.answers.js';
import { REGISTRATION_FIELDS } from './registration.fields.js';
import { RegistrationStatusSchema, StudentRecordListSchema } from './registration.schemas.js';

/**
 * The browser checks the record and status answers without zod (registration.answers.ts); these
 * checks must accept and refuse exactly what the routes' zod schemas do, and answer the same data.
 */

function sameAsSchema(
  parser: { safeParse(value: unknown): { success: boolean; data?: unknown } },
  schema: typeof StudentRecordListSchema | typeof RegistrationStatusSchema,
  value: unknown,
): void {
  const expected = schema.safeParse(value);
  const actual = parser.safeParse(value);
  expect(actual.success, JSON.stringify(value)?.slice(0, 200)).toBe(expected.success);
  // The same data, keys in the same order (what the screens and the cache hold).
  if (expected.success) expect(JSON.stringify(actual.data)).toBe(JSON.stringify(expected.data));
}

const PROGRESS = {
  studentData: 1,
  familyData: 0,
  healthData: 0,
  otherData: 1,
  documents: 0,
  submit: 0,
  termsAndConditions: 1,
};

/** A record as the server answers it: every catalogue column, switches 0/1, text or null. */
function validRecord(): Record<string, unknown> {
  const record: Record<string, unknown> = {
    progress: { ...PROGRESS },
    updated_at: '2026-11-22T10:00:00.000Z',
    id: '20220001',
    agree_terms_date: null,
  };
  REGISTRATION_FIELDS.forEach((field, index) => {
    record[field.name] = field.control === 'switch' ? index % 2 : index % 3 === 0 ? null : `value ${index}`;
  });
  return record;
}

describe('the record check', () => {
  it('accepts what StudentRecordListSchema accepts, with the same data', () => {
    sameAsSchema(StudentRecordListParser, StudentRecordListSchema, [validRecord()]);
    sameAsSchema(StudentRecordListParser, StudentRecordListSchema, []);
    sameAsSchema(StudentRecordListParser, StudentRecordListSchema, [
      validRecord(),
      { ...validRecord(), id: '20260001', agree_terms_date: '2026-01-05' },
    ]);
    // Keys the schema does not name are dropped, as zod drops them.
    sameAsSchema(StudentRecordListParser, StudentRecordListSchema, [{ ...validRecord(), password_hash: 'x', extra: 1 }]);
    sameAsSchema(StudentRecordListParser, StudentRecordListSchema, [{ ...validRecord(), progress: { ...PROGRESS, extra: 5 } }]);
  });

  it('refuses what the schema refuses: every column with a wrong type, a missing one, a bad flag', () => {
    for (const value of [null, undefined, {}, 'x', 1, [null], [[]], [validRecord(), 5]])
      sameAsSchema(StudentRecordListParser, StudentRecordListSchema, value);
    for (const key of ['id', 'updated_at', 'agree_terms_date', 'progress']) {
      for (const wrong of [undefined, 5, true, {}, []])
        sameAsSchema(StudentRecordListParser, StudentRecordListSchema, [{ ...validRecord(), [key]: wrong }]);
    }
    for (const flag of Object.keys(PROGRESS)) {
      for (const wrong of [undefined, 2, -1, '1', true, null, 0.5]) {
        sameAsSchema(StudentRecordListParser, StudentRecordListSchema, [
          { ...validRecord(), progress: { ...PROGRESS, [flag]: wrong } },
        ]);
      }
    }
    for (const field of REGISTRATION_FIELDS) {
      for (const wrong of [undefined, 1.5, 'x', '', 0, 1, 2, -3, null, true, {}, [], Number.MAX_SAFE_INTEGER + 2]) {
        sameAsSchema(StudentRecordListParser, StudentRecordListSchema, [{ ...validRecord(), [field.name]: wrong }]);
      }
    }
  });
});

describe('the window status check', () => {
  const open = {
    open: 1,
    deadline: '2026-12-31',
    editable: true,
    form_level: 3,
  };

  it('accepts what RegistrationStatusSchema accepts, with the same data', () => {
    for (const value of [
      open,
      { ...open, deadline: null, form_level: null },
      { ...open, open: 0, editable: false, reason: 'Registration is closed.' },
      { reason: 'r', form_level: 1, editable: false, deadline: null, open: 0 },
      { ...open, reason: undefined },
      { ...open, extra: 'dropped' },
    ]) {
      sameAsSchema(RegistrationStatusParser, RegistrationStatusSchema, value);
    }
  });

  it('refuses what the schema refuses', () => {
    for (const value of [null, [], 'x', {}]) sameAsSchema(RegistrationStatusParser, RegistrationStatusSchema, value);
    const wrongs: Record<string, unknown[]> = {
      open: [undefined, 2, true, '1', null],
      deadline: [undefined, 5, false],
      editable: [undefined, 1, 'true', null],
      reason: [null, 5, false],
      form_level: [undefined, 1.5, '3', true, Number.MAX_SAFE_INTEGER + 2],
    };
    for (const [key, values] of Object.entries(wrongs)) {
      for (const wrong of values)
        sameAsSchema(RegistrationStatusParser, RegistrationStatusSchema, {
          ...open,
          [key]: wrong,
        });
    }
  });
});
