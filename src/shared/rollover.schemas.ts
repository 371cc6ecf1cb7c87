import { z } from 'zod';
import { IsoDateSchema } from './attendance.schemas.js';
import { StudentIdSchema } from './auth.schemas.js';
import { isIsoDate } from './dates.js';
import { ClassIdSchema } from './form-class.js';
import { DeadlineSchema } from './registration.schemas.js';

/**
 * The new school year (docs/decisions.md D60): the administrator's year rollover. One
 * plan (the class mapping, the new year's terms, the registration deadline) is previewed and run
 * by the same server function, so the dry run's counts are the run's.
 */

/** Form levels whose classes leave by default at a rollover (Form 5, and Form 6 where the school has it). */
export const LEAVING_FORM_LEVELS: readonly number[] = [5, 6];

/** One class's move: `to` is the class its students join, or null when they leave the school. */
export const RolloverMoveSchema = z.object({
  from: ClassIdSchema,
  to: ClassIdSchema.nullable(),
});
export type RolloverMove = z.infer<typeof RolloverMoveSchema>;

/** A term of the new year; dates yyyy-MM-dd. */
export const RolloverTermSchema = z.object({
  term: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: 'Terms are 1, 2 and 3.' }),
  start_date: IsoDateSchema,
  end_date: IsoDateSchema,
});
export type RolloverTerm = z.infer<typeof RolloverTermSchema>;

/** At most this many students retained in one plan: more than any school's roll. */
export const MAX_RETAINED = 5000;

/**
 * What the administrator previews and runs: every class's move, the three terms of the new year
 * (in order, each ending after it starts, none overlapping the next), the registration
 * deadline of the new year (null: open without a deadline) and the students retained: those who
 * do not go with their class (docs/decisions.md D79; `retainedTarget` says where they go).
 */
export const RolloverPlanInputSchema = z
  .object({
    mapping: z.array(RolloverMoveSchema).min(1, 'Give every class a move.').max(200, 'At most 200 classes.'),
    terms: z.array(RolloverTermSchema).length(3, 'Give the dates of the three terms.'),
    registration_deadline: DeadlineSchema,
    /** Student IDs of students on the roll who stay behind (or stay on) instead of going with their class; none by default. */
    retained: z.array(StudentIdSchema).max(MAX_RETAINED, `At most ${MAX_RETAINED} students.`).default([]),
  })
  .superRefine((plan, ctx) => {
    const seen = new Set<string>();
    plan.mapping.forEach((move, index) => {
      const key = move.from.toUpperCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['mapping', index, 'from'], message: `${move.from} is given twice.` });
      seen.add(key);
    });
    const retained = new Set<string>();
    plan.retained.forEach((id, index) => {
      if (retained.has(id)) ctx.addIssue({ code: 'custom', path: ['retained', index], message: `${id} is given twice.` });
      retained.add(id);
    });
    plan.terms.forEach((term, index) => {
      if (term.term !== index + 1) ctx.addIssue({ code: 'custom', path: ['terms', index, 'term'], message: 'Give the terms in order: 1, 2, 3.' });
      if (isIsoDate(term.start_date) && isIsoDate(term.end_date) && term.end_date < term.start_date) {
        ctx.addIssue({ code: 'custom', path: ['terms', index, 'end_date'], message: `Term ${term.term} ends before it starts.` });
      }
      const next = plan.terms[index + 1];
      if (next && isIsoDate(term.end_date) && isIsoDate(next.start_date) && next.start_date <= term.end_date) {
        ctx.addIssue({ code: 'custom', path: ['terms', index + 1, 'start_date'], message: `Term ${next.term} starts before term ${term.term} ends.` });
      }
    });
  });
export type RolloverPlanInput = z.infer<typeof RolloverPlanInputSchema>;

/**
 * Where a retained student goes (D79): a student of a class that moves up stays in their own
 * class (the same form and letter; after the run it also holds the students who came up into
 * it). A student of a leaving class stays on: in the next form's class of the same letter when
 * the school has that form (Form 5 → Form 6: 5A → 6A, else the next form's first class), else in
 * their own class, repeating the year.
 */
export function retainedTarget(from: { class_id: string; form_level: number }, leaves: boolean, classes: readonly { class_id: string; form_level: number }[]): string {
  if (!leaves) return from.class_id;
  return nextFormClass(from.class_id, from.form_level, classes) ?? from.class_id;
}

/** One class in the preview: where its students go and how many. */
export const RolloverClassSchema = z.object({
  class_id: z.string(),
  form_level: z.number().int(),
  /** Students in the class now (on the roll). */
  students: z.number().int(),
  /** The class they join, or null: they leave and are kept as former students. */
  to: z.string().nullable(),
  /** Students in this class after the run (those arriving from the class mapped to it, and the retained who stay or come here). */
  after: z.number().int(),
  /** Students of this class retained (not going with it); runs before D79 stored none. */
  retained: z.number().int().default(0),
});
export type RolloverClass = z.infer<typeof RolloverClassSchema>;

/** The dry run's answer, and what the run did. */
export const RolloverPreviewSchema = z.object({
  from_year: z.number().int(),
  to_year: z.number().int(),
  classes: z.array(RolloverClassSchema),
  moving: z.number().int(),
  leaving: z.number().int(),
  /** Students retained: they stay in their form, or stay on for the next form (D79). */
  retained: z.number().int().default(0),
  terms: z.array(RolloverTermSchema),
  /** Registration windows re-opened (rows of registration_periods; the default is created when missing). */
  periods: z.number().int(),
  registration_deadline: z.string().nullable(),
  /** The office's verified / returned decisions cleared so families can edit again. */
  reviews_cleared: z.number().int(),
});
export type RolloverPreview = z.infer<typeof RolloverPreviewSchema>;

/** A past run, for the screen's undo. */
export const RolloverRunSchema = z.object({
  id: z.number().int(),
  from_year: z.number().int(),
  to_year: z.number().int(),
  run_on: z.string(),
  run_at: z.string(),
  undone_at: z.string().nullable(),
  /** The server's verdict: the run is today's, the newest, and not undone. */
  can_undo: z.boolean(),
  summary: RolloverPreviewSchema,
});
export type RolloverRun = z.infer<typeof RolloverRunSchema>;

/** A student on the roll, for the preview's per-student ticks. */
export const RolloverStudentSchema = z.object({ id: z.string(), name: z.string(), class_id: z.string() });
export type RolloverStudent = z.infer<typeof RolloverStudentSchema>;

/**
 * GET /api/year-rollover: the current year, the default plan (editable), the students on the
 * roll by class and the runs. `not_before` is set while the year rolled into has not begun
 * (D79): the next rollover waits until its first term starts, and `not_before_reason` says so.
 */
export const RolloverStateSchema = z.object({
  from_year: z.number().int(),
  to_year: z.number().int(),
  /** Every class, for the mapping's choices. */
  classes: z.array(z.object({ class_id: z.string(), form_level: z.number().int(), students: z.number().int() })),
  /** Every student on the roll in a class, in class order then by name. */
  students: z.array(RolloverStudentSchema),
  plan: RolloverPlanInputSchema,
  runs: z.array(RolloverRunSchema),
  /** The school day (yyyy-MM-dd) from which a rollover is possible, when it is not today. */
  not_before: z.string().nullable(),
  not_before_reason: z.string().nullable(),
});
export type RolloverState = z.infer<typeof RolloverStateSchema>;

export const RolloverRunAnswerSchema = z.object({ message: z.string(), run: RolloverRunSchema });
export type RolloverRunAnswer = z.infer<typeof RolloverRunAnswerSchema>;

export const RolloverRunParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/**
 * The default target of a class: the class of the next form with the same letter (3A → 4A), else
 * the next form's first class; null (the class leaves) for Form 5 and 6 and for the school's top form.
 */
export function defaultRolloverTarget(classId: string, formLevel: number, classes: readonly { class_id: string; form_level: number }[]): string | null {
  if (LEAVING_FORM_LEVELS.includes(formLevel)) return null;
  return nextFormClass(classId, formLevel, classes);
}

/** The next form's class of the same letter (3A → 4A), else its first class; null when the school has no next form. */
function nextFormClass(classId: string, formLevel: number, classes: readonly { class_id: string; form_level: number }[]): string | null {
  const next = classes.filter((c) => c.form_level === formLevel + 1);
  const suffix = classId.startsWith(String(formLevel)) ? classId.slice(String(formLevel).length) : classId;
  const wanted = `${formLevel + 1}${suffix}`.toUpperCase();
  return (next.find((c) => c.class_id.toUpperCase() === wanted) ?? next[0])?.class_id ?? null;
}

/** A date moved to the same day one year later (29 February → 28 February). */
export function sameDayNextYear(date: string): string {
  const next = `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`;
  return isIsoDate(next) ? next : `${next.slice(0, 8)}28`;
}

/** The words of the refusal every edit of a former student's record gets (422). */
export const FORMER_STUDENT_MESSAGE = 'This student has left the school: a former student’s record is kept read-only.';

/** The list's and the export's option: former students are left out unless this asks for them. */
export const FormerStudentsQuerySchema = z.object({
  former: z.enum(['include'], { message: 'former is include, or left out.' }).optional(),
});
export type FormerStudentsQuery = z.infer<typeof FormerStudentsQuerySchema>;
