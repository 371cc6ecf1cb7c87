import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database.js';
import { REGISTRATION_FIELDS } from '../../shared/registration.fields.js';
import { SaveStudentAnswerSchema, StudentRecordListSchema, type StudentRecord } from '../../shared/registration.schemas.js';
import { INJECTION_STRINGS } from '../security/hostile-values.js';
import { getStudentRecord } from '../registration/registration.service.js';
import { compiledSerializerCompiler } from './compiled-serializer.js';

/**
 * The routes with a compiled serializer (the record and the save's answer) must write exactly
 * what the app's zod serializer writes (zod's parse, then JSON.stringify): the same bytes for every
 * seeded record and for values that are hard to write as JSON, and an error, not a partial
 * answer, when a required property is missing.
 */

type Schema = Parameters<typeof compiledSerializerCompiler>[0]['schema'];
const route = (schema: Schema, httpStatus = '200') => ({ schema, method: 'GET', url: '/test', httpStatus });
const writersOf = (schema: Schema) => ({
  compiled: compiledSerializerCompiler(route(schema)),
  zod: serializerCompiler(route(schema) as Parameters<typeof serializerCompiler>[0]) as (data: unknown) => string,
});

/** Strings JSON writers get wrong: quotes, backslashes, control characters, U+2028/9, lone surrogates. */
const HARD_STRINGS = [
  '"quoted" \\ back\\slash',
  'tab\there\nnew line\r\u0000\u0001\u001f\u007f',
  'line\u2028para\u2029',
  'lone \ud800 high, lone \udc00 low, pair 😀',
  'José Ñuñez — Saint-Domingue’s',
  ...INJECTION_STRINGS,
];

let database: TestDatabase;
let records: StudentRecord[];

beforeAll(async () => {
  database = await createTestDatabase();
  const ids = await database.db.selectFrom('students').select('id').orderBy('id').execute();
  records = await Promise.all(ids.map(({ id }) => getStudentRecord(database.db, id)));
});
afterAll(async () => {
  await database.destroy();
});

describe('the compiled serializer of the record (GET /api/student-record/{id})', () => {
  const { compiled, zod } = writersOf(StudentRecordListSchema);

  it('writes every seeded record byte for byte as the zod serializer does', () => {
    expect(records.length).toBeGreaterThan(100);
    for (const record of records) expect(compiled([record])).toBe(zod([record]));
  });

  it('writes hard strings in every text field as the zod serializer does', () => {
    const textFields = REGISTRATION_FIELDS.filter((field) => field.control !== 'switch' && field.control !== 'number');
    HARD_STRINGS.forEach((text, i) => {
      const record = { ...records[i % records.length]! };
      for (const field of textFields) (record as Record<string, unknown>)[field.name] = text;
      expect(compiled([record])).toBe(zod([record]));
    });
  });

  it('leaves out properties the schema does not name, and fails on a missing required one', () => {
    const record = records[0]!;
    expect(compiled([{ ...record, password_hash: 'secret' }])).toBe(zod([record]));
    const { first_name: _missing, ...incomplete } = record;
    expect(() => compiled([incomplete])).toThrow();
  });
});

describe('the compiled serializer of the save answer (POST /api/student)', () => {
  const { compiled, zod } = writersOf(SaveStudentAnswerSchema);
  const progress = { studentData: 1, familyData: 0, healthData: 1, otherData: 0, documents: 0, submit: 1, termsAndConditions: 1 };

  it('writes answers with saved texts, numbers and cleared values as the zod serializer does', () => {
    const answers = [
      { id: '20260001', saved: { home_address: '1 Bench Street' }, progress, updated_at: '2026-11-22T20:00:00.000Z' },
      { id: '20260001', saved: { middle_name: null, no_in_family: 4, immigration_permit: 1 }, progress, updated_at: '2026-11-22T20:00:00.000Z' },
      // Its keys are catalogue names (the service saves nothing else); its values and times may be anything.
      ...HARD_STRINGS.map((text) => ({ id: '20260001', saved: { allergy: text, home_address: text }, progress, updated_at: text })),
    ];
    for (const answer of answers) expect(compiled(answer)).toBe(zod(answer));
  });

  it('fails on a missing required property', () => {
    expect(() => compiled({ id: '20260001', saved: {}, updated_at: '2026-11-22T20:00:00.000Z' })).toThrow();
  });
});
