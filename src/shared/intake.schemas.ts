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

/** GET /api/intake and every change's answer: the whole allocation as the screen shows it. */
export const IntakeViewSchema = z.object({
  fileName: z.string().nullable(),
  classes: z.array(IntakeClassSchema),
  /** Ordered by class (unallocated last), then last name, first name, SEA number. */
  students: z.array(IntakeStudentSchema),
  unallocated: z.number().int(),
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

/** POST /api/intake/finalise: the students it created, in the order their IDs were given. */
export const IntakeFinaliseResultSchema = z.object({
  created: z.array(z.object({ id: z.string(), sea_no: z.string(), name: z.string(), class_id: z.string() })),
});
export type IntakeFinaliseResult = z.infer<typeof IntakeFinaliseResultSchema>;
