import { z } from 'zod';
import { isIsoDate } from './dates.js';
import { REGISTRATION_FIELDS, type FieldValue, type RegistrationField } from './registration.fields.js';
import type { ProgressFlags } from './registration.progress.js';

/** Request and answer schemas of the registration calls (docs/requirements.md R15). */

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

/** A record column holds a whole number (the switches 0/1; yes/no answers 0/1 or null) rather than text. */
export function isNumberColumn(field: RegistrationField): boolean {
  return field.control === 'switch' || field.control === 'yesno';
}

/** The kinds of account that may agree to the parent's declaration online (D75): a family account. */
export const AGREEING_KINDS = ['guardian'] as const;
export type AgreeingKind = (typeof AGREEING_KINDS)[number];
/** How each kind is named beside the name on the screens and the printed form. */
export const AGREEING_KIND_WORDS: Readonly<Record<AgreeingKind, string>> = { guardian: 'parent or guardian' };

/**
 * Who agreed to the declaration online (D75): the account's name and kind as they were then, and
 * when (ISO). Null name: agreed before the portal recorded who did.
 */
export const AgreementSchema = z.object({
  name: z.string().nullable(),
  kind: z.enum(AGREEING_KINDS).nullable(),
  at: z.string().nullable(),
});
export type Agreement = z.infer<typeof AgreementSchema>;

/**
 * The agreement line under the declaration, on the Complete step and the printed form alike: who
 * agreed online and when, or that the parent or guardian signs the printed form.
 */
export function agreementLine(agreedOn: string | null, agreement: Agreement | null): string {
  if (!agreedOn) return 'Not yet agreed online: the parent or guardian signs below to agree.';
  if (!agreement?.name) return `Agreed online on ${agreedOn}; who agreed was not recorded, so the parent or guardian signs below.`;
  const kind = agreement.kind ? ` (${AGREEING_KIND_WORDS[agreement.kind]})` : '';
  return `Agreed online by ${agreement.name}${kind} on ${agreedOn}.`;
}

/** What the declaration step shows and the form prints: the agreement, or who must agree. */
export const DECLARATION_MESSAGES = {
  studentRefused: 'Only your parent or guardian can agree to this declaration. They agree here when they sign in with their own account, or sign the printed form.',
  staffRefused: 'The parent or guardian agrees online with their own account, or signs the printed form.',
  studentWithFamily: 'Your parent or guardian agrees here when they sign in.',
  studentWithoutFamily: 'Your parent or guardian signs the printed registration form to agree.',
} as const;

/** One registration record as `GET /api/student-record/{id}` answers it (in a list). */
export interface StudentRecord {
  id: string;
  house_code: string | null;
  class_id: string | null;
  agree_terms_date: string | null;
  updated_at: string;
  progress: ProgressFlags;
  /** Who agreed to the declaration, while it is agreed (D75). */
  agreement: Agreement | null;
  /** Whether a family account is linked to the student (who can agree online). */
  family_linked: boolean;
  [field: string]: FieldValue | ProgressFlags | Agreement | boolean | null;
}

/**
 * The record's schema (in a list, as the screens have always read it): every catalogue field, plus the
 * id, the agreement date and the progress flags.
 */
const recordShape: Record<string, z.ZodType> = {
  id: z.string(),
  agree_terms_date: z.string().nullable(),
  updated_at: z.string(),
  progress: ProgressFlagsSchema,
  agreement: AgreementSchema.nullable(),
  family_linked: z.boolean(),
};
for (const field of REGISTRATION_FIELDS) {
  if (field.control === 'yesno') recordShape[field.name] = z.number().int().nullable();
  else recordShape[field.name] = isNumberColumn(field) ? z.number().int() : z.string().nullable();
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

// ---------------------------------------------------------------------------------------------
// POST /api/student: the body is generated from the field catalogue, in registration-save.schemas.ts
// (the server's alone: building it for every field is work a browser never needs).

export const SaveStudentAnswerSchema = z.object({
  id: z.string(),
  /** The stored values of the fields sent (trimmed; empty optional values as null). */
  saved: z.record(z.string(), FieldValueSchema),
  progress: ProgressFlagsSchema,
  updated_at: z.string(),
});
export type SaveStudentAnswer = z.infer<typeof SaveStudentAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// Registration window (docs/requirements.md R6)

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

/** Messages of the read-only banner (R6: read-only when closed or past the deadline). */
export const WINDOW_MESSAGES = {
  closed: 'Registration is closed. The record can be viewed but not changed.',
  deadlinePassed: (deadline: string) =>
    `The registration deadline (${deadline}) has passed. The record can be viewed but not changed.`,
} as const;
