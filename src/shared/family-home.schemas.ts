import { z } from 'zod/mini';

/**
 * GET /api/family/home: one card per linked child on a family account's dashboard (docs/decisions.md
 * D76), answered by one call: the registration's progress and deadline, the documents missing or
 * returned by the office, today's attendance and the newest posted report card. The server's route
 * and the dashboard use this same definition.
 */

/** Today at school, in the attendance screen's words (src/shared/attendance.stats.ts). */
export const FamilyHomeTodaySchema = z.object({
  /**
   * `not-school-day`: a weekend, a school holiday or outside every term; `not-recorded`: the school
   * has recorded no one yet today; otherwise the child's day so far.
   */
  status: z.enum(['not-school-day', 'not-recorded', 'absent', 'absent-am', 'absent-pm', 'late', 'on-time']),
  /** 'HH:mm' of the arrival at the gate, when there was one. */
  time_in: z.nullable(z.string()),
});
export type FamilyHomeToday = z.infer<typeof FamilyHomeTodaySchema>;

export const FamilyHomeChildSchema = z.object({
  student_id: z.string(),
  first_name: z.nullable(z.string()),
  last_name: z.nullable(z.string()),
  /** "Form 4 4A", or null for a child in no class. */
  class_name: z.nullable(z.string()),
  registration: z.object({
    /** Steps done of the six (Student, Family, Health, Other data, Documents, Submit), as the registration header counts them. */
    steps_done: z.number(),
    steps_total: z.number(),
    /** The terms agreed and the record sent to the school. */
    submitted: z.boolean(),
    /** The office's decision on the record, when there is one (D56). */
    review: z.nullable(z.enum(['returned', 'verified'])),
    /** The school's deadline for the child's form ('yyyy-MM-dd'), or null when none is set. */
    deadline: z.nullable(z.string()),
    /** Whether the family may still change the record (open, the deadline not passed, not verified). */
    editable: z.boolean(),
    /** Why not, in the registration screens' words. */
    reason: z.nullable(z.string()),
  }),
  documents: z.object({
    /** Required slots without a file, in screen order. */
    missing: z.array(z.object({ type: z.string(), label: z.string() })),
    /** Files the office returned, with the reason the family reads. */
    returned: z.array(
      z.object({
        type: z.string(),
        label: z.string(),
        reason: z.nullable(z.string()),
      }),
    ),
  }),
  today: FamilyHomeTodaySchema,
  /** The newest posted report card, or null. */
  latest_report: z.nullable(z.object({ year: z.number(), term: z.number() })),
});
export type FamilyHomeChild = z.infer<typeof FamilyHomeChildSchema>;

export const FamilyHomeSchema = z.object({
  /** The school's today ('yyyy-MM-dd'), the day `today` describes. */
  date: z.string(),
  /** The linked children, in the order of the account's links; empty with no child linked. */
  children: z.array(FamilyHomeChildSchema),
});
export type FamilyHome = z.infer<typeof FamilyHomeSchema>;
