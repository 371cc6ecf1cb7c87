import { z } from 'zod';
import { ClassIdSchema } from './form-class.js';

/**
 * The new Form 1 from the SEA placement list (docs/decisions.md D61): the imported
 * intake, the class allocation screen's view of it, a move, and what finalising created. One
 * definition for the routes and the screen.
 */

/** The placement list's columns, in the order the README and the screen name them. */
export const INTAKE_COLUMNS = ['SEA Number', 'First Name', 'Middle Name', 'Last Name', 'Date of Birth', 'Sex', 'Primary School'] as const;

/** One child of the intake, before they are a student. */
export const IntakeStudentSchema = z.object({
  id: z.number().int(),
  /** The row of the placement list it came from. */
  row: z.number().int(),
  sea_no: z.string(),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  date_of_birth: z.string(),
  sex: z.string(),
  primary_school: z.string(),
  /** The Form 1 class chosen; null until balanced or moved. */
  class_id: z.string().nullable(),
  /** A warning that does not stop the import: a sex that does not match a girls' or boys' primary school (D79). */
  warning: z.string().nullable(),
});
export type IntakeStudent = z.infer<typeof IntakeStudentSchema>;

const CountsSchema = z.object({ total: z.number().int(), female: z.number().int(), male: z.number().int() });
export type IntakeCounts = z.infer<typeof CountsSchema>;

/** A Form 1 class: the intake allocated to it (by sex and by primary school) and who is already in it. */
export const IntakeClassSchema = z.object({
  id: z.string(),
  intake: CountsSchema,
  /** Intake children per primary school, by name, largest first. */
  bySchool: z.array(z.object({ school: z.string(), count: z.number().int() })),
  /** Students already in the class (not part of the intake). */
  existing: CountsSchema,
});
export type IntakeClass = z.infer<typeof IntakeClassSchema>;

/** A finalise, for the screen's undo (D79). */
export const IntakeFinaliseRunSchema = z.object({
  id: z.number().int(),
  /** The school day it ran (yyyy-MM-dd). */
  finalised_on: z.string(),
  finalised_at: z.string(),
  file_name: z.string(),
  count: z.number().int(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  undone_at: z.string().nullable(),
  /** The server's verdict: the finalise is today's, the newest standing one, and not undone. */
  can_undo: z.boolean(),
});
export type IntakeFinaliseRun = z.infer<typeof IntakeFinaliseRunSchema>;

/** GET /api/intake and every change's answer: the whole allocation as the screen shows it. */
export const IntakeViewSchema = z.object({
  fileName: z.string().nullable(),
  classes: z.array(IntakeClassSchema),
  /** Ordered by class (unallocated last), then last name, first name, SEA number. */
  students: z.array(IntakeStudentSchema),
  unallocated: z.number().int(),
  /** The finalises, newest first (the last 20). */
  finalises: z.array(IntakeFinaliseRunSchema),
});
export type IntakeView = z.infer<typeof IntakeViewSchema>;

const INTAKE_ROW_MESSAGE = 'Name a child of the intake by their number.';
export const IntakeStudentParamsSchema = z.object({
  /** A database integer: positive and within 32 bits (PostgreSQL's integer). */
  id: z.coerce.number({ message: INTAKE_ROW_MESSAGE }).int(INTAKE_ROW_MESSAGE).positive(INTAKE_ROW_MESSAGE).max(2_147_483_647, INTAKE_ROW_MESSAGE),
});

/** PATCH /api/intake/students/:id: the class a child moves to (null: back to not allocated). */
export const MoveIntakeStudentSchema = z.object({
  class_id: ClassIdSchema.nullable(),
});
export type MoveIntakeStudentInput = z.infer<typeof MoveIntakeStudentSchema>;

/** POST /api/intake/finalise: the students it created, in the order their IDs were given, and the finalise (for its undo). */
export const IntakeFinaliseResultSchema = z.object({
  created: z.array(z.object({ id: z.string(), sea_no: z.string(), name: z.string(), class_id: z.string() })),
  finalise_id: z.number().int(),
});
export type IntakeFinaliseResult = z.infer<typeof IntakeFinaliseResultSchema>;

export const IntakeFinaliseParamsSchema = z.object({
  id: z.coerce.number({ message: 'Name a finalise by its number.' }).int('Name a finalise by its number.').positive('Name a finalise by its number.').max(2_147_483_647, 'Name a finalise by its number.'),
});

/** POST /api/intake/finalises/:id/undo: what was done, and the intake as it is again. */
export const IntakeUndoAnswerSchema = z.object({ message: z.string(), view: IntakeViewSchema });
export type IntakeUndoAnswer = z.infer<typeof IntakeUndoAnswerSchema>;

/**
 * The sex a primary school's name says it teaches (D79): a name with the word "Girls" (Girls',
 * Girl's) and not "Boys" is a girls' school, and the reverse a boys' school; a name with both
 * words or neither says nothing. The placement list's Primary School is a name of the primary
 * schools list, whose single-sex schools are named so ("St Rose's Girls' RC Primary School").
 */
export function singleSexOfSchool(schoolName: string): 'Female' | 'Male' | null {
  const girls = /\bgirls?\b/i.test(schoolName);
  const boys = /\bboys?\b/i.test(schoolName);
  if (girls === boys) return null;
  return girls ? 'Female' : 'Male';
}

/** The intake's warning for a child whose sex does not match their single-sex primary school, or null. */
export function sexSchoolWarning(child: { sex: string; primary_school: string }): string | null {
  const schoolSex = singleSexOfSchool(child.primary_school);
  if (schoolSex === null || schoolSex === child.sex) return null;
  const kind = schoolSex === 'Female' ? "a girls' school" : "a boys' school";
  return `Sex is ${child.sex}, but ${child.primary_school} is ${kind}: check the Sex and the Primary School.`;
}
