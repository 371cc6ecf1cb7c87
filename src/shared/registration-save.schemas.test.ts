import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkFieldRules, checkFieldValue, FIELD_MESSAGES, REGISTRATION_FIELDS, WRITABLE_FIELDS } from './registration.fields.js';
import { SaveStudentBodySchema } from './registration-save.schemas.js';

/** The issues of a failed parse as the error body's `errors`: field → its messages, in order. */
function errorsOf(body: unknown): Record<string, string[]> {
  const result = SaveStudentBodySchema.safeParse(body);
  if (result.success) throw new Error(`expected a refusal, got ${JSON.stringify(result.data)}`);
  const errors = Object.create(null) as Record<string, string[]>;
  for (const issue of result.error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  return errors;
}

/** The body of `POST /api/student` as its route parses it: generated from the field catalogue. */
describe('SaveStudentBodySchema', () => {
  it('answers the id and the stored values of the fields sent: trimmed, empty as null, switches 0/1', () => {
    const parsed = SaveStudentBodySchema.parse({
      id: ' 20260001 ',
      home_address: '  1 Bench Street ',
      mother_business_place: '',
      sibling_attending: true,
      date_of_birth: '2014-02-28',
      no_in_family: 4,
    });
    expect(parsed).toEqual({
      id: '20260001',
      home_address: '1 Bench Street',
      mother_business_place: null,
      sibling_attending: 1,
      date_of_birth: '2014-02-28',
      no_in_family: '4',
    });
  });

  it("refuses each broken field with its rule's messages, the id first, then catalogue order, then other keys as sent", () => {
    const errors = errorsOf({ zzz: 1, date_of_birth: '2014-02-30', id: 'bad id!', constructor: 'x', first_name: '', sibling_attending: '1', home_address: 7 });
    expect(Object.keys(errors)).toEqual(['id', 'first_name', 'date_of_birth', 'home_address', 'sibling_attending', 'zzz', 'constructor']);
    expect(errors).toEqual({
      id: ['Student ID has only letters, digits and dashes.'],
      first_name: [FIELD_MESSAGES.required],
      date_of_birth: [FIELD_MESSAGES.date],
      home_address: [FIELD_MESSAGES.text],
      // A client sends a yes/no as 0, 1, a boolean or null; the screens' '1' is not a client's value.
      sibling_attending: [FIELD_MESSAGES.yesNo],
      zzz: ['Unknown field.'],
      constructor: ['Unknown field.'],
    });
  });

  it('refuses a body that is not an object with the type message, not an exception', () => {
    for (const body of [null, [], 'text', 7, true]) expect(Object.keys(errorsOf(body))).toEqual(['body']);
  });

  it('refuses the fields only the server writes, by name', () => {
    const managed = REGISTRATION_FIELDS.filter((field) => field.serverManaged);
    expect(managed.length).toBeGreaterThan(0);
    for (const field of managed) expect(errorsOf({ id: '20260001', [field.name]: null })).toEqual({ [field.name]: ['Unknown field.'] });
  });

  it('leaves the rules of the day to the service: a future date passes the schema, the full check refuses it', () => {
    const field = WRITABLE_FIELDS.find((f) => f.name === 'date_of_birth')!;
    expect(SaveStudentBodySchema.parse({ id: '20260001', date_of_birth: '2999-01-01' })).toEqual({ id: '20260001', date_of_birth: '2999-01-01' });
    expect(checkFieldValue(field, '2999-01-01', { today: '2026-11-22' })).toEqual({ ok: false, messages: [FIELD_MESSAGES.futureDate] });
  });

  /**
   * The schema and the catalogue agree: for every writable field and every kind of value a client
   * can send, the schema answers what `checkFieldRules` answers (value or messages). A value of a
   * JSON type the field never takes is refused by both.
   */
  const SAMPLES: unknown[] = [
    null, '', '   ', 'x', ' A value ', 'x'.repeat(300), 'Female', 'O+', 'Both Parents', 'Married', 'Phone',
    '6221234', '622123', '62a1234', ' 6221234 ', 'parent@example.tt', 'parent.example.tt',
    '2012-07-21', '2012-02-30', '1949-12-31', '1998', '98', '12', '123', '1a',
    0, 1, 2, 7, -1, 1.5, true, false, '0', '1', [], {},
  ];
  it.each(WRITABLE_FIELDS.map((field) => [field.name, field] as const))('%s: the schema answers what checkFieldRules answers', (_name, field) => {
    for (const raw of SAMPLES) {
      const result = SaveStudentBodySchema.safeParse({ id: '20260001', [field.name]: raw });
      const check = checkFieldRules(field, raw);
      if (result.success) {
        expect(check, JSON.stringify(raw)).toEqual({ ok: true, value: result.data[field.name] });
      } else {
        const messages = result.error.issues.map((issue) => issue.message);
        // The screens hold a switch as '0' or '1'; a client sends 0, 1 or a boolean (the flag
        // message), and for a yes/no also null to clear it (D75).
        if ((field.control === 'switch' || field.control === 'yesno') && typeof raw === 'string') {
          expect(messages).toEqual([field.control === 'switch' ? FIELD_MESSAGES.flag : FIELD_MESSAGES.yesNo]);
          continue;
        }
        expect(check, JSON.stringify(raw)).toEqual({ ok: false, messages });
      }
    }
  });

  it('documents every writable field for OpenAPI, with its type and the rules the catalogue gives it', () => {
    const json = z.toJSONSchema(SaveStudentBodySchema, { io: 'input', unrepresentable: 'any' }) as {
      properties: Record<string, Record<string, unknown> & { description?: string; anyOf?: Record<string, unknown>[] }>;
      required: string[];
      additionalProperties: unknown;
    };
    expect(Object.keys(json.properties).sort()).toEqual(['id', ...WRITABLE_FIELDS.map((f) => f.name)].sort());
    expect(json.required).toEqual(['id']);
    expect(json.additionalProperties).toBe(false);
    for (const field of WRITABLE_FIELDS) {
      const property = json.properties[field.name]!;
      expect(property.description, field.name).toContain(field.label);
      // zod writes `type: ['string', 'null']` for a text branch without keywords of its own.
      const text = property.anyOf?.find((branch) => branch.type === 'string') ?? (Array.isArray(property.type) && property.type.includes('string') ? property : undefined);
      if (field.control === 'switch') expect(property.anyOf?.map((b) => b.const ?? b.type)).toEqual([0, 1, 'boolean']);
      else if (field.control === 'yesno') expect(property.anyOf?.map((b) => b.const ?? b.type)).toEqual([0, 1, 'boolean', 'null']);
      else expect(text, field.name).toBeDefined();
      if (field.maxLength !== undefined && field.format !== 'year') expect(text?.maxLength, field.name).toBe(field.maxLength);
      if (field.options) expect(text?.enum, field.name).toEqual(expect.arrayContaining([...field.options]));
      if (field.control === 'phone' || field.control === 'date' || field.control === 'email' || field.control === 'number') expect(text?.pattern, field.name).toBeTypeOf('string');
    }
  });
});
