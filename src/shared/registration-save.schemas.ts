import { z } from 'zod';
import { StudentIdSchema } from './auth.schemas.js';
import {
  checkFieldRules,
  EMAIL_PATTERN,
  FIELD_MESSAGES,
  PHONE_DIGITS,
  PHONE_PATTERN,
  PHONE_PREFIX,
  WRITABLE_FIELDS,
  type FieldValue,
  type RegistrationField,
} from './registration.fields.js';
import { OWN_NAME_RULE_TEXT, PERSON_NAME_RULE_TEXT } from './person-name.js';

/**
 * The body of `POST /api/student`, generated from the field catalogue (docs/requirements.md R15).
 * A module of its own: the server validates saves with it and the OpenAPI page documents it;
 * the screens check a field with the catalogue's own rules (`checkFieldValue`), so a browser never
 * loads or builds it.
 */

/** The JSON Schema keywords and description the OpenAPI page shows for a field, read from the catalogue. */
function documentedRules(field: RegistrationField): { text: Record<string, unknown>; description: string } {
  const optional = (pattern: string) => (field.required ? `^${pattern}$` : `^(${pattern})?$`);
  const rules: string[] = [];
  const text: Record<string, unknown> = {};
  if (field.maxLength !== undefined && field.format !== 'year') text.maxLength = field.maxLength;
  switch (field.control) {
    case 'phone':
      text.pattern = optional(PHONE_PATTERN.source.slice(1, -1));
      rules.push(`${PHONE_DIGITS} digits, without the ${PHONE_PREFIX} prefix`);
      break;
    case 'email':
      text.pattern = optional(EMAIL_PATTERN.source.slice(1, -1));
      rules.push('an e-mail address');
      break;
    case 'date':
      text.pattern = optional('\\d{4}-\\d{2}-\\d{2}');
      rules.push(`a date, yyyy-MM-dd${field.minDate ? `, not before ${field.minDate}` : ''}${field.allowFuture ? '' : ', not in the future (the school\'s day)'}`);
      break;
    case 'number':
      text.pattern = optional(field.format === 'year' ? '\\d{4}' : `\\d{1,${field.maxLength ?? 15}}`);
      rules.push(field.format === 'year' ? 'a 4-digit year, not in the future' : `a whole number of at most ${field.maxLength ?? 15} digits, as text or a JSON number`);
      break;
    case 'select':
      if (field.options) {
        const values = [...field.options, ...Object.keys(field.abbreviations ?? {})];
        text.enum = field.required ? values : [...values, ''];
      }
      if (field.abbreviations) rules.push(`${Object.entries(field.abbreviations).map(([short, long]) => `${short} for ${long}`).join(', ')} also read, stored in full`);
      if (field.lookup) rules.push(`a value of the ${field.lookup} lookup`);
      break;
    case 'switch':
      rules.push('0 or 1 (true or false also accepted)');
      break;
    case 'yesno':
      rules.push('1 yes or 0 no (true or false also accepted); null clears the answer (not answered)');
      break;
    default:
      break;
  }
  if (field.maxLength !== undefined && field.format !== 'year') rules.push(`at most ${field.maxLength} characters after trimming`);
  if (field.control !== 'switch' && field.control !== 'yesno') rules.push(field.required ? 'required while its section is shown (cannot be emptied)' : "optional: '' or null clears it");
  if (field.personName) rules.push(field.personName === 'own' ? OWN_NAME_RULE_TEXT : PERSON_NAME_RULE_TEXT);
  if (field.readOnlyForStudents) rules.push('administrators only');
  return { text, description: `${field.label}: ${rules.join('; ')}.` };
}

/**
 * The JSON a client may send for a field, with the catalogue's message for a wrong type: a switch
 * as 0, 1 or a boolean, a number field as text or a JSON number, anything else as text or null.
 */
function jsonInputOf(field: RegistrationField, documented: Record<string, unknown>) {
  if (field.control === 'switch') return z.union([z.literal(0), z.literal(1), z.boolean()], { error: FIELD_MESSAGES.flag });
  if (field.control === 'yesno') return z.union([z.literal(0), z.literal(1), z.boolean(), z.null()], { error: FIELD_MESSAGES.yesNo });
  const text = z.string().meta(documented);
  if (field.control === 'number') return z.union([text, z.number().meta({ type: 'integer', minimum: 0 }), z.null()], { error: FIELD_MESSAGES.text });
  return z.union([text, z.null()], { error: FIELD_MESSAGES.text });
}

/**
 * One writable field of a save: its JSON type, then the catalogue's rules that hold whatever the
 * day (`checkFieldRules`, the same function the screens check with), answering the value to store.
 * The rules that need the server's day, the caller or the database are the service's.
 */
function savedFieldSchema(field: RegistrationField) {
  const { text, description } = documentedRules(field);
  return jsonInputOf(field, text)
    .transform((raw, ctx): FieldValue => {
      const check = checkFieldRules(field, raw);
      if (check.ok) return check.value;
      for (const message of check.messages) ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .optional()
    .meta({ description });
}

const saveShape: Record<string, z.ZodType<FieldValue | undefined, unknown>> = {};
for (const field of WRITABLE_FIELDS) saveShape[field.name] = savedFieldSchema(field);

/** A save: the student's id and the stored values of the fields sent (each checked by its rules). */
export interface SaveStudentBody {
  id: string;
  [field: string]: FieldValue | undefined;
}

/**
 * `POST /api/student`: the student's `id` plus any writable catalogue fields, each optional and
 * checked by its rules; any other key (unknown, or set only by the server such as
 * `agree_terms_date`) is refused by name. Problems are reported together: `id`, then the fields in
 * catalogue order, then the other keys as sent.
 */
export const SaveStudentBodySchema = z
  .looseObject({ id: StudentIdSchema, ...saveShape })
  .superRefine(
    (body: unknown, ctx) => {
      // Runs even when the body failed (see `when`): it may not be an object at all.
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
      for (const key of Object.keys(body)) {
        if (key !== 'id' && !Object.hasOwn(saveShape, key)) ctx.addIssue({ code: 'custom', path: [key], message: 'Unknown field.' });
      }
    },
    // Also when a field failed, so that every problem is named in one answer.
    { when: () => true },
  )
  .meta({ additionalProperties: false }) as unknown as z.ZodType<SaveStudentBody, Record<string, unknown>>;
