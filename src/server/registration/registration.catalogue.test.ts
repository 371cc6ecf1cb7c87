import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { schoolToday } from '../../shared/dates.js';
import { LOOKUPS, toLookupOptions } from '../../shared/lookups.schemas.js';
import { FIELD_MESSAGES, WRITABLE_FIELDS, type FieldValue, type RegistrationField } from '../../shared/registration.fields.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * Table-driven API tests generated from the field catalogue: for every field and every rule it
 * has (required, max length, options or lookup, phone, e-mail, number, year, date, switch), one
 * value the server accepts (and stores as expected) and one it refuses with the rule's message
 * (storing nothing). A new field or rule in the catalogue gets its cases without editing here.
 */

const { inProgress } = DEMO_STUDENTS;
const today = schoolToday();
const tomorrow = (() => {
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
})();

interface Case {
  rule: string;
  field: RegistrationField;
  value: unknown;
  /** Accepted: the stored value; refused: the message expected among the field's errors. */
  stored?: FieldValue;
  message?: string;
}

/** A lookup's first value, read from the API the screens use. */
const lookupValues = new Map<string, string>();

function casesFor(field: RegistrationField): Case[] {
  const cases: Case[] = [];
  const accept = (rule: string, value: unknown, stored: FieldValue = value as FieldValue) => cases.push({ rule, field, value, stored });
  const refuse = (rule: string, value: unknown, message: string) => cases.push({ rule, field, value, message });

  if (field.required) refuse('required', '', FIELD_MESSAGES.required);
  else if (field.control === 'yesno') accept('optional: null clears (not answered)', null, null);
  else if (field.control !== 'switch') accept('optional: empty clears', '', null);

  switch (field.control) {
    case 'text':
    case 'textarea':
      accept('text is trimmed', '  A value  ', 'A value');
      break;
    case 'select':
      if (field.options) {
        for (const option of field.options) accept(`option ${option}`, option);
        for (const [short, long] of Object.entries(field.abbreviations ?? {})) {
          accept(`short form ${short}`, short, long);
          accept(`short form ${short.toLowerCase()}`, short.toLowerCase(), long);
        }
        refuse('not an option', 'Not a value', FIELD_MESSAGES.optionOf(field.options, field.abbreviations));
      } else if (field.lookup) {
        accept(`a ${field.lookup} value`, `lookup:${field.lookup}`);
        refuse(`not a ${field.lookup} value`, 'Nowhere In Particular', FIELD_MESSAGES.option);
      }
      break;
    case 'phone':
      accept('7 digits', '6221234');
      refuse('6 digits', '622123', FIELD_MESSAGES.phoneLength);
      refuse('8 digits', '62212345', FIELD_MESSAGES.phoneLength);
      // As people type them: separators and the shown area code are dropped, the 7 digits stored.
      accept('with a hyphen', '471-3674', '4713674');
      accept('with the area code', '(868) 471-3674', '4713674');
      accept('with the country code', '+1 868 471 3674', '4713674');
      refuse('letters', '62a1234', FIELD_MESSAGES.onlyNumbers);
      refuse('another area code', '(212) 471-3674', FIELD_MESSAGES.phoneLength);
      break;
    case 'email':
      accept('an e-mail', 'parent.name@example.tt');
      refuse('no @', 'parent.example.tt', FIELD_MESSAGES.email);
      break;
    case 'number':
      if (field.format === 'year') {
        accept('a past year', '1998');
        refuse('a future year', String(Number(today.slice(0, 4)) + 1), FIELD_MESSAGES.futureYear);
        refuse('not 4 digits', '98', FIELD_MESSAGES.year);
      } else {
        accept('digits', '12');
        accept('a JSON number', 7, '7');
        refuse('letters', '1a', FIELD_MESSAGES.onlyNumbers);
      }
      break;
    case 'date':
      accept('a past date', '2012-07-21');
      refuse('not a calendar date', '2012-02-30', FIELD_MESSAGES.date);
      if (field.allowFuture) accept('a future date', tomorrow);
      else refuse('a future date (server clock)', tomorrow, FIELD_MESSAGES.futureDate);
      if (field.minDate) refuse('before the earliest date', '1949-12-31', FIELD_MESSAGES.beforeMinDate(field.minDate));
      break;
    case 'switch':
      // The declaration is the parent's (D75): registration.routes.test.ts saves it as a family account.
      if (field.name === 'agree_terms_conditions') break;
      accept('on', 1);
      accept('off', 0);
      refuse('not 0/1', 2, FIELD_MESSAGES.flag);
      break;
    case 'yesno':
      accept('yes', 1);
      accept('no', 0);
      accept('true is yes', true, 1);
      refuse('not 0/1', 2, FIELD_MESSAGES.yesNo);
      refuse('a word', 'maybe', FIELD_MESSAGES.yesNo);
      break;
  }
  if (field.maxLength !== undefined && field.format !== 'year' && (field.control === 'text' || field.control === 'textarea' || field.control === 'email' || field.control === 'number')) {
    const max = field.maxLength;
    const fill = (length: number) =>
      field.control === 'email' ? `${'a'.repeat(length - '@example.tt'.length)}@example.tt` : field.control === 'number' ? '9'.repeat(length) : 'x'.repeat(length);
    accept(`exactly ${max} characters`, fill(max));
    refuse(`${max + 1} characters`, fill(max + 1), FIELD_MESSAGES.maxLength(max));
  }
  return cases;
}

const CASES = WRITABLE_FIELDS.flatMap(casesFor);

let t: TestApp;
let student: TestClient;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  student = await new TestClient(t.app, '10.4.0.1').signInStudent(inProgress.student_id, inProgress.password);
  admin = await new TestClient(t.app, '10.4.0.2').signInAdmin();
  for (const [name, lookup] of Object.entries(LOOKUPS)) {
    const rows = lookup.schema.parse((await student.get(lookup.path)).json());
    lookupValues.set(name, toLookupOptions(name as keyof typeof LOOKUPS, rows)[0]!.value);
  }
});
afterAll(async () => {
  await t.close();
});

const resolve = (value: unknown) => (typeof value === 'string' && value.startsWith('lookup:') ? lookupValues.get(value.slice(7)) : value);

async function storedValue(name: string): Promise<unknown> {
  const row = await t.database.db.selectFrom('students').selectAll().where('id', '=', inProgress.student_id).executeTakeFirstOrThrow();
  return (row as unknown as Record<string, unknown>)[name];
}

describe('every catalogue rule holds on the server', () => {
  it('covers every writable field', () => {
    expect(new Set(CASES.map((c) => c.field.name))).toEqual(new Set(WRITABLE_FIELDS.map((f) => f.name).filter((name) => name !== 'agree_terms_conditions')));
    expect(CASES.filter((c) => c.message).length).toBeGreaterThan(WRITABLE_FIELDS.length);
  });

  it.each(CASES.filter((c) => c.message === undefined).map((c) => [c.field.name, c.rule, c] as const))('%s accepts: %s', async (_name, _rule, c) => {
    // house_code and class_id are written by administrators only.
    const caller = c.field.readOnlyForStudents ? admin : student;
    const value = resolve(c.value);
    const response = await caller.post('/api/student', { id: inProgress.student_id, [c.field.name]: value });
    expect(response.statusCode, response.body).toBe(200);
    const expected = c.stored === c.value ? value : c.stored;
    expect(await storedValue(c.field.name)).toEqual(expected);
  });

  it.each(CASES.filter((c) => c.message !== undefined).map((c) => [c.field.name, c.rule, c] as const))('%s refuses: %s', async (_name, _rule, c) => {
    const caller = c.field.readOnlyForStudents ? admin : student;
    const before = await storedValue(c.field.name);
    const response = await caller.post('/api/student', { id: inProgress.student_id, [c.field.name]: c.value });
    expect(response.statusCode, response.body).toBe(400);
    const body = ApiErrorSchema.parse(response.json());
    expect(body.code).toBe('validation_failed');
    expect(body.errors?.[c.field.name]).toContain(c.message);
    expect(await storedValue(c.field.name)).toEqual(before);
  });
});
