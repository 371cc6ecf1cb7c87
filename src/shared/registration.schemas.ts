import { z } from 'zod';
import { isIsoDate } from './dates.js';
import { StudentIdSchema } from './auth.schemas.js';
import { REGISTRATION_FIELDS, type FieldValue, type RegistrationField } from './registration.fields.js';
import type { ProgressFlags } from './registration.progress.js';

/** Request and answer schemas of the registration calls (SPEC §7, DESIGN §5). */

const Bit = z.union([z.literal(0), z.literal(1)]);

export const ProgressFlagsSchema = z.object({
  studentData: Bit,
  familyData: Bit,
  healthData: Bit,
  otherData: Bit,
  documents: Bit,
  submit: Bit,
  termsAndConditions: Bit,
}) satisfies z.ZodType<ProgressFlags>;

export const FieldValueSchema = z.union([z.string(), z.number(), z.null()]);

/** A record column holds a whole number (the switches, 0/1) rather than text or null. */
export function isNumberColumn(field: RegistrationField): boolean {
  return field.control === 'switch';
}

/** One registration record as `GET /api/student-record/{id}` answers it (in a list). */
export interface StudentRecord {
  id: string;
  house_code: string | null;
  class_id: string | null;
  agree_terms_date: string | null;
  updated_at: string;
  progress: ProgressFlags;
  [field: string]: FieldValue | ProgressFlags;
}

/**
 * The record's schema (in a list, as the spec's screens expect): every catalogue field, plus the
 * id, the agreement date and the progress flags.
 */
const recordShape: Record<string, z.ZodType> = {
  id: z.string(),
  agree_terms_date: z.string().nullable(),
  updated_at: z.string(),
  progress: ProgressFlagsSchema,
};
for (const field of REGISTRATION_FIELDS) {
  recordShape[field.name] = isNumberColumn(field) ? z.number().int() : z.string().nullable();
}
// The shape is built from the catalogue, so its static type is stated once here.
export const StudentRecordSchema = z.object(recordShape) as unknown as z.ZodType<StudentRecord>;
export const StudentRecordListSchema = z.array(StudentRecordSchema);

/** A record's field values by column name (for the screens and the progress rules). */
export function recordValues(record: StudentRecord): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const field of REGISTRATION_FIELDS) out[field.name] = (record[field.name] as FieldValue | undefined) ?? null;
  return out;
}

/**
 * `POST /api/student`: the student's id and the fields to save. Field rules are applied by the
 * service with `buildPartialSaveSchema` (they depend on the caller's role and the server's day).
 */
export const SaveStudentBodySchema = z.object({ id: StudentIdSchema }).catchall(z.unknown());
export type SaveStudentBody = z.infer<typeof SaveStudentBodySchema>;

export const SaveStudentAnswerSchema = z.object({
  id: z.string(),
  /** The stored values of the fields sent (trimmed; empty optional values as null). */
  saved: z.record(z.string(), FieldValueSchema),
  progress: ProgressFlagsSchema,
  updated_at: z.string(),
});
export type SaveStudentAnswer = z.infer<typeof SaveStudentAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// Registration window (SPEC §3 "Registration status", §4)

export const DeadlineSchema = z
  .string()
  .refine(isIsoDate, 'Enter the deadline as yyyy-MM-dd.')
  .nullable();

/**
 * The window for the signed-in student's form level. `editable` is the server's verdict:
 * open = 1 and the deadline (inclusive, Trinidad time) not passed; `reason` says why not.
 */
export const RegistrationStatusSchema = z.object({
  open: Bit,
  deadline: z.string().nullable(),
  editable: z.boolean(),
  reason: z.string().optional(),
  form_level: z.number().int().nullable(),
});
export type RegistrationStatus = z.infer<typeof RegistrationStatusSchema>;

export const RegistrationPeriodSchema = z.object({
  /** null = the default for every form level without its own row. */
  form_level: z.number().int().nullable(),
  open: Bit,
  deadline: z.string().nullable(),
  updated_at: z.string(),
});
export type RegistrationPeriod = z.infer<typeof RegistrationPeriodSchema>;
export const RegistrationPeriodListSchema = z.array(RegistrationPeriodSchema);

export const FORM_LEVELS = [1, 2, 3, 4, 5, 6] as const;

export const SaveRegistrationPeriodSchema = z.object({
  form_level: z.number().int().min(1, 'Form levels are 1 to 6.').max(6, 'Form levels are 1 to 6.').nullable(),
  open: Bit,
  deadline: DeadlineSchema,
});
export type SaveRegistrationPeriodInput = z.infer<typeof SaveRegistrationPeriodSchema>;

/** Messages of the read-only banner (SPEC §4: read-only when closed or past the deadline). */
export const WINDOW_MESSAGES = {
  closed: 'Registration is closed. The record can be viewed but not changed.',
  deadlinePassed: (deadline: string) =>
    `The registration deadline (${deadline}) has passed. The record can be viewed but not changed.`,
} as const;
