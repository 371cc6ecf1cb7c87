import { z } from 'zod';
import { IsoDateSchema } from './attendance.schemas.js';
import { StudentIdSchema } from './auth.schemas.js';
import { isIsoDate, toDayFirstDate } from './dates.js';
import { ClassIdSchema } from './form-class.js';
import { BIDI_CONTROL_PATTERN } from './person-name.js';

/**
 * A student's enrolment history (docs/decisions.md D80): dated entries (how they came on the roll,
 * into which class) and exits (why they left, from which class). Withdrawing a student and
 * readmitting a former one add to it; so do the intake, Add Student, Import Students and the year
 * rollover. A student is "former" exactly when `students.left_on` is set (D60), whatever the reason.
 */

export const ENTRY_REASONS = ['form1_intake', 'transfer_in', 'readmitted', 'enrolled'] as const;
export type EntryReason = (typeof ENTRY_REASONS)[number];
export const EXIT_REASONS = ['graduated', 'transferred', 'emigrated', 'withdrawn', 'other'] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];
/** The reasons the office gives when it withdraws one student; "graduated" is the year rollover's. */
export const WITHDRAW_REASONS = ['transferred', 'emigrated', 'withdrawn', 'other'] as const satisfies readonly ExitReason[];
export type WithdrawReason = (typeof WITHDRAW_REASONS)[number];

export const ENTRY_REASON_LABELS: Record<EntryReason, string> = {
  form1_intake: 'Form 1 intake',
  transfer_in: 'Transfer in',
  readmitted: 'Readmitted',
  /** Students on the roll before the history was kept, and those Import Students creates: how they came is not recorded. */
  enrolled: 'Enrolled (reason not recorded)',
};
export const EXIT_REASON_LABELS: Record<ExitReason, string> = {
  graduated: 'Graduated',
  transferred: 'Transferred to another school',
  emigrated: 'Emigrated',
  withdrawn: 'Withdrawn',
  other: 'Other',
};

export const OTHER_SCHOOL_MAX = 100;
export const ENROLMENT_NOTE_MAX = 500;

export const ENROLMENT_MESSAGES = {
  chooseDate: 'Choose a date.',
  chooseReason: 'Choose a reason.',
  nameSchool: 'Name the school the student moves to.',
  writeNote: 'Write a note saying why.',
  schoolTooLong: `At most ${OTHER_SCHOOL_MAX} characters.`,
  noteTooLong: `At most ${ENROLMENT_NOTE_MAX} characters.`,
  noControls: 'Remove the line breaks and direction controls.',
  dateOutOfRange: (earliest: string, latest: string) =>
    earliest === latest ? `The date can only be ${toDayFirstDate(latest)}.` : `Choose a date from ${toDayFirstDate(earliest)} to ${toDayFirstDate(latest)}.`,
} as const;

/** One line of text a person typed: no line breaks, other controls or direction overrides (they would reorder a list or a cell). */
const oneLine = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .refine((text) => !/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/.test(text) && !BIDI_CONTROL_PATTERN.test(text), ENROLMENT_MESSAGES.noControls);

const OtherSchoolSchema = oneLine(OTHER_SCHOOL_MAX, ENROLMENT_MESSAGES.schoolTooLong);
const NoteSchema = oneLine(ENROLMENT_NOTE_MAX, ENROLMENT_MESSAGES.noteTooLong);

/**
 * Withdraw one student: the day they left (today or earlier in the current school year, checked by
 * the server against the school's terms: `dateInWindow`), the reason, the school a transfer goes
 * to, and a note (needed for "other").
 */
export const WithdrawInputSchema = z
  .object({
    date: IsoDateSchema,
    reason: z.enum(WITHDRAW_REASONS, { message: ENROLMENT_MESSAGES.chooseReason }),
    other_school: OtherSchoolSchema.optional(),
    note: NoteSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.reason === 'transferred' && !input.other_school) ctx.addIssue({ code: 'custom', path: ['other_school'], message: ENROLMENT_MESSAGES.nameSchool });
    if (input.reason === 'other' && !input.note) ctx.addIssue({ code: 'custom', path: ['note'], message: ENROLMENT_MESSAGES.writeNote });
  });
export type WithdrawInput = z.infer<typeof WithdrawInputSchema>;

/** Readmit a former student: the day they are back and the class they join (of the form they left, or the next). */
export const ReadmitInputSchema = z.object({
  date: IsoDateSchema,
  class_id: ClassIdSchema,
  note: NoteSchema.optional(),
});
export type ReadmitInput = z.infer<typeof ReadmitInputSchema>;

export const EnrolmentStudentParamsSchema = z.object({ studentId: StudentIdSchema });

export const EnrolmentEventSchema = z.object({
  id: z.number(),
  kind: z.enum(['entry', 'exit']),
  /** The school day (yyyy-MM-dd). */
  on: z.string(),
  reason: z.union([z.enum(ENTRY_REASONS), z.enum(EXIT_REASONS)]),
  /** The class joined (an entry) or left (an exit); null when not recorded. */
  class_id: z.string().nullable(),
  other_school: z.string().nullable(),
  note: z.string().nullable(),
});
export type EnrolmentEvent = z.infer<typeof EnrolmentEventSchema>;

/** The dates a withdrawal or a readmission may take: from `earliest` to `latest` (the school's today). */
export const DateWindowSchema = z.object({ earliest: z.string(), latest: z.string() });
export type DateWindow = z.infer<typeof DateWindowSchema>;

/** One student's enrolment: where they stand, their history (oldest first) and the dates a change may take. */
export const EnrolmentSchema = z.object({
  student_id: z.string(),
  on_roll: z.boolean(),
  class_id: z.string().nullable(),
  left_on: z.string().nullable(),
  left_class: z.string().nullable(),
  events: z.array(EnrolmentEventSchema),
  /** The dates a withdrawal (on the roll) or a readmission (former) may take. */
  window: DateWindowSchema,
});
export type Enrolment = z.infer<typeof EnrolmentSchema>;

export const EnrolmentChangeAnswerSchema = z.object({ message: z.string(), enrolment: EnrolmentSchema });
export type EnrolmentChangeAnswer = z.infer<typeof EnrolmentChangeAnswerSchema>;

/** Whether a date lies in the window: the one rule of the dialogs and the server. */
export function dateInWindow(date: string, window: DateWindow): boolean {
  return isIsoDate(date) && date >= window.earliest && date <= window.latest;
}

/** "Transferred to another school: St. Mary's College", "Form 1 intake": an event's reason as people read it. */
export function reasonText(event: Pick<EnrolmentEvent, 'kind' | 'reason' | 'other_school'>): string {
  const label = event.kind === 'entry' ? ENTRY_REASON_LABELS[event.reason as EntryReason] : EXIT_REASON_LABELS[event.reason as ExitReason];
  return event.other_school ? `${label ?? event.reason}: ${event.other_school}` : (label ?? event.reason);
}

/** The class a readmission may choose: a class of the form the student left from, or of the next form. */
export function readmitFormLevels(leftFormLevel: number | null): readonly number[] | null {
  return leftFormLevel === null ? null : [leftFormLevel, leftFormLevel + 1];
}
