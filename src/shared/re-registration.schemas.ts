import { z } from 'zod';
import { StudentIdSchema } from './auth.schemas.js';
import { findField } from './registration.fields.js';
import { REVIEW_STEPS } from './review.schemas.js';
import { academicYearLabel } from './school.constants.js';

/**
 * Re-registration (docs/decisions.md D62): at the start of a school year each returning
 * record asks the family to confirm every step again, and the office sees what changed. One
 * definition of the steps, the messages and the call schemas for the routes and the screens.
 */

/** The steps a family confirms: the four data steps and the documents (the terms stay as agreed). */
export const RE_REGISTRATION_STEPS = REVIEW_STEPS.filter((step) => step.key !== 'complete') as readonly {
  key: ReRegistrationStep;
  label: string;
}[];
export type ReRegistrationStep = 'student' | 'family' | 'health' | 'other' | 'documents';
const STEP_KEYS = ['student', 'family', 'health', 'other', 'documents'] as const satisfies readonly ReRegistrationStep[];

export const reRegistrationStepLabel = (key: string): string => RE_REGISTRATION_STEPS.find((step) => step.key === key)?.label ?? key;

/** Whether a registration step (a catalogue field's `step`) is one the family confirms. */
export function isReRegistrationStep(step: string): step is ReRegistrationStep {
  return (STEP_KEYS as readonly string[]).includes(step);
}

export const RE_REGISTRATION_MESSAGES = {
  chooseStep: 'Choose a step of the registration: student, family, health, other or documents.',
  chooseYear: 'Choose the academic year by the year it starts, e.g. 2026.',
  notOpen: 'No re-registration is waiting for this record.',
  alreadyOpen: (year: number) => `Re-registration for ${academicYearLabel(year)} is already open. Close it first to open it again.`,
  notFound: (year: number) => `Re-registration for ${academicYearLabel(year)} was never opened.`,
  opened: (year: number, students: number) => `Re-registration for ${academicYearLabel(year)} is open: ${students} returning students asked to confirm their records.`,
  closed: (year: number) => `Re-registration for ${academicYearLabel(year)} is closed and its confirmations removed.`,
  confirmed: (label: string) => `${label}: confirmed, nothing changed.`,
} as const;

/** Path parameters naming a student. */
export const ReRegistrationStudentParamsSchema = z.object({ studentId: StudentIdSchema });

/** `POST /api/students/{studentId}/re-registration/{step}`: the step confirmed as it is. */
export const ConfirmStepParamsSchema = z.object({
  studentId: StudentIdSchema,
  step: z.enum(STEP_KEYS, { message: RE_REGISTRATION_MESSAGES.chooseStep }),
});

const YearSchema = z.coerce
  .number({ message: RE_REGISTRATION_MESSAGES.chooseYear })
  .int(RE_REGISTRATION_MESSAGES.chooseYear)
  .min(2000, RE_REGISTRATION_MESSAGES.chooseYear)
  .max(2100, RE_REGISTRATION_MESSAGES.chooseYear);

/** `POST /api/re-registrations`: open the year's re-registration. */
export const OpenReRegistrationSchema = z.object({ year: YearSchema });
export type OpenReRegistrationInput = z.infer<typeof OpenReRegistrationSchema>;

/** `DELETE /api/re-registrations/{year}`. */
export const ReRegistrationYearParamsSchema = z.object({ year: YearSchema });

/** One step of a record's re-registration. */
export const ReRegistrationStepStateSchema = z.object({
  step: z.enum(STEP_KEYS),
  label: z.string(),
  /** Null while the family has not confirmed it. */
  confirmed_at: z.string().nullable(),
  /** Who confirmed it, as the audit log names them (`guardian:…`, `student:…`, `admin:…`). */
  confirmed_by: z.string().nullable(),
  /** `unchanged`: "Nothing changed"; `changed`: a change saved on the step. */
  how: z.enum(['unchanged', 'changed']).nullable(),
});
export type ReRegistrationStepState = z.infer<typeof ReRegistrationStepStateSchema>;

/** `GET /api/students/{studentId}/re-registration`: the record's newest re-registration, if any. */
export const StudentReRegistrationSchema = z.object({
  /** Null when no re-registration asks anything of this record. */
  year: z.number().int().nullable(),
  opened_at: z.string().nullable(),
  steps: z.array(ReRegistrationStepStateSchema),
  pending: z.number().int(),
});
export type StudentReRegistration = z.infer<typeof StudentReRegistrationSchema>;

/** One field's change since the re-registration opened, from the audit log. */
export const FieldChangeSchema = z.object({
  field: z.string(),
  label: z.string(),
  step: z.string(),
  /** The value before the first change since opening, and after the last one. */
  old_value: z.string().nullable(),
  new_value: z.string().nullable(),
  /** Who made the last change, and when. */
  by: z.string(),
  at: z.string(),
});
export type FieldChange = z.infer<typeof FieldChangeSchema>;

/** `GET /api/re-registration/changes/{studentId}`: what the office reviews. */
export const ReRegistrationChangesSchema = StudentReRegistrationSchema.extend({ changes: z.array(FieldChangeSchema) });
export type ReRegistrationChanges = z.infer<typeof ReRegistrationChangesSchema>;

/** A year's re-registration with its counts, for the settings screen. */
export const ReRegistrationYearSchema = z.object({
  year: z.number().int(),
  opened_at: z.string(),
  students: z.number().int(),
  /** Students with every step confirmed. */
  confirmed: z.number().int(),
});

/** `GET /api/re-registrations`: every opened year, newest first, and the year the screen proposes. */
export const ReRegistrationListSchema = z.object({
  suggested_year: z.number().int(),
  years: z.array(ReRegistrationYearSchema),
});
export type ReRegistrationList = z.infer<typeof ReRegistrationListSchema>;

/** `POST /api/re-registrations` and `DELETE /api/re-registrations/{year}`. */
export const ReRegistrationAnswerSchema = z.object({ message: z.string(), year: z.number().int(), students: z.number().int() });
export type ReRegistrationAnswer = z.infer<typeof ReRegistrationAnswerSchema>;

/** The label of a registration field for the office's list of changes (the catalogue's; else its column). */
export function fieldChangeLabel(name: string): { label: string; step: string } {
  const field = findField(name);
  return field ? { label: field.label, step: field.step } : { label: name, step: 'complete' };
}

/** Who did it, for people: the audit log's actor label without its kind (`guardian:a@b.c` → `a@b.c (family)`). */
export function actorText(label: string | null): string {
  if (!label) return 'unknown';
  const [kind, ...rest] = label.split(':');
  const name = rest.join(':');
  if (kind === 'guardian') return `${name} (family)`;
  if (kind === 'student') return `${name} (student)`;
  if (kind === 'admin') return `${name} (staff)`;
  return label;
}
