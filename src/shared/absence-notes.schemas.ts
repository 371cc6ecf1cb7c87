import { z } from 'zod';
import { IsoDateSchema } from './attendance.schemas.js';
import { ABSENCE_PARTS, type AbsencePart } from './attendance.stats.js';
import { StudentIdSchema } from './auth.schemas.js';
import { ClassIdSchema } from './form-class.js';

/**
 * Absence notes (docs/decisions.md D93): a family (or a student with no family account) explains
 * an absence or a late arrival; the form teacher, the office or the principal accepts or declines
 * it. The lists, the limits, the messages and the calls' schemas, one definition for the routes
 * and the screens.
 */

export { ABSENCE_PARTS, type AbsencePart };

// ---- the lists ----------------------------------------------------------------------------------

/** The parts of a day, in a family's words. */
export const ABSENCE_PART_LABELS: Record<AbsencePart, string> = {
  whole_day: 'Whole day',
  am: 'Morning session',
  pm: 'Afternoon session',
  late: 'Late arrival',
};

/** Why the child was away: one list for the form, the queue's filter and the answer. */
export const ABSENCE_REASONS = [
  { code: 'illness', label: 'Illness' },
  { code: 'medical_appointment', label: 'Medical or dental appointment' },
  { code: 'family_emergency', label: 'Family emergency' },
  { code: 'bereavement', label: 'Bereavement' },
  { code: 'religious_observance', label: 'Religious observance' },
  { code: 'transport', label: 'Transport' },
  { code: 'weather', label: 'Weather or flooding' },
  { code: 'other', label: 'Other' },
] as const;
export type AbsenceReason = (typeof ABSENCE_REASONS)[number]['code'];
const ABSENCE_REASON_CODES = ABSENCE_REASONS.map((reason) => reason.code) as [AbsenceReason, ...AbsenceReason[]];

export function absenceReasonLabel(code: string): string {
  return ABSENCE_REASONS.find((reason) => reason.code === code)?.label ?? code;
}

/** A note's life: it waits for the school, which accepts or declines it; the family may withdraw it while it waits. */
export const ABSENCE_NOTE_STATES = ['waiting', 'accepted', 'declined', 'withdrawn'] as const;
export type AbsenceNoteState = (typeof ABSENCE_NOTE_STATES)[number];
export const ABSENCE_NOTE_STATE_LABELS: Record<AbsenceNoteState, string> = {
  waiting: 'Waiting for the school',
  accepted: 'Accepted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};

/** Who sent a note: a family account linked to the child, or the student themself (only when no family account is linked). */
export const ABSENCE_NOTE_SENDERS = ['family', 'student'] as const;
export type AbsenceNoteSender = (typeof ABSENCE_NOTE_SENDERS)[number];

/** The school's short list of reasons for a decision; `other` asks for the school's own words. */
export const ABSENCE_DECISION_REASONS = [
  { code: 'as_explained', label: 'Accepted as explained', decision: 'accept' },
  { code: 'evidence_seen', label: "A doctor's note or other evidence was seen", decision: 'accept' },
  { code: 'evidence_needed', label: "A doctor's note or other evidence is needed", decision: 'decline' },
  { code: 'not_excusable', label: 'The school does not excuse an absence for this reason', decision: 'decline' },
  { code: 'was_present', label: 'The student was at school at that time', decision: 'decline' },
  { code: 'other', label: 'Other', decision: 'both' },
] as const;
export type AbsenceDecisionReason = (typeof ABSENCE_DECISION_REASONS)[number]['code'];
const DECISION_REASON_CODES = ABSENCE_DECISION_REASONS.map((reason) => reason.code) as [AbsenceDecisionReason, ...AbsenceDecisionReason[]];
export type AbsenceDecision = 'accept' | 'decline';

/** The reasons offered for one decision, in list order. */
export function decisionReasonsFor(decision: AbsenceDecision) {
  return ABSENCE_DECISION_REASONS.filter((reason) => reason.decision === decision || reason.decision === 'both');
}

/** The words a family reads for a decision: the reason, and the school's own words when given. */
export function decisionReasonText(reason: AbsenceDecisionReason, details: string | null | undefined): string {
  const label = ABSENCE_DECISION_REASONS.find((r) => r.code === reason)?.label ?? reason;
  const text = details?.trim() ?? '';
  if (reason === 'other') return text;
  return text ? `${label}: ${text}` : label;
}

// ---- limits and messages ------------------------------------------------------------------------

/** Longest text of a note, and of the school's own words on a decision. */
export const ABSENCE_NOTE_TEXT_MAX = 500;
/** The most school days one note covers: a longer absence is a matter for a talk with the school. */
export const ABSENCE_NOTE_MAX_SCHOOL_DAYS = 30;
/** The queue answers at most this many notes a page. */
export const ABSENCE_QUEUE_PAGE = 50;

/** What an attachment may be: a doctor's note as a PDF or a photo, through the documents' checks. */
export const ABSENCE_ATTACHMENT = { label: 'attachment', accepts: ['pdf', 'jpeg', 'png'] } as const;

export const ABSENCE_NOTE_MESSAGES = {
  chooseReason: 'Choose a reason from the list.',
  choosePart: 'Choose the whole day, a session or a late arrival.',
  textTooLong: `At most ${ABSENCE_NOTE_TEXT_MAX} characters.`,
  describeOther: 'Say why, in a few words.',
  endBeforeStart: 'The last day cannot be before the first day.',
  tooManyDays: `A note covers at most ${ABSENCE_NOTE_MAX_SCHOOL_DAYS} school days. Send one note for each part of a longer absence, or speak to the school.`,
  noSchoolDay: 'There is no school day in these dates (weekends and school holidays are not school days).',
  noTerm: 'These dates are not in a school term.',
  acrossTerms: 'A note covers days of one term only. Send one note for each term.',
  otherTerm: "A note is for days of this term only (the term the attendance screen shows). Ask the school about another term's days.",
  beforeEnrolment: (date: string) => `The student joined the school on ${date}: a note cannot cover days before that.`,
  overlapsWaiting: 'A note for some of these days is already waiting for the school. Withdraw it first, or wait for the answer.',
  studentHasFamily: 'Your family account sends absence notes for you: ask your parent or guardian to send it.',
  notYours: 'You can only see the absence notes you sent.',
  notWaiting: (state: AbsenceNoteState) => `This note is ${ABSENCE_NOTE_STATE_LABELS[state].toLowerCase()} already: nothing was changed. Reload to see the latest answer.`,
  sent: 'Your note was sent to the school.',
  withdrawn: 'Your note was withdrawn.',
  accepted: 'Note accepted: the absences and lates it covers are excused.',
  declined: 'Note declined: the absences and lates it covers stay unexcused.',
} as const;

// ---- calls --------------------------------------------------------------------------------------

/**
 * `POST /api/absence-notes` (multipart/form-data: these fields, and an optional file part named
 * `file`, a PDF or a photo). One call makes the note and stores its attachment, in one transaction.
 */
export const SendAbsenceNoteFieldsSchema = z
  .object({
    student_id: StudentIdSchema,
    date_from: IsoDateSchema,
    /** The last day; the first day again, left out or empty (a form's unused field) for one day. */
    date_to: z.preprocess((value) => (value === '' ? undefined : value), IsoDateSchema.optional()),
    part: z.enum(ABSENCE_PARTS, { message: ABSENCE_NOTE_MESSAGES.choosePart }),
    reason: z.enum(ABSENCE_REASON_CODES, { message: ABSENCE_NOTE_MESSAGES.chooseReason }),
    text: z.string().max(ABSENCE_NOTE_TEXT_MAX, ABSENCE_NOTE_MESSAGES.textTooLong).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.reason === 'other' && !value.text?.trim()) ctx.addIssue({ code: 'custom', path: ['text'], message: ABSENCE_NOTE_MESSAGES.describeOther });
    if (value.date_to !== undefined && value.date_to < value.date_from) ctx.addIssue({ code: 'custom', path: ['date_to'], message: ABSENCE_NOTE_MESSAGES.endBeforeStart });
  });
export type SendAbsenceNoteFields = z.infer<typeof SendAbsenceNoteFieldsSchema>;

export const AbsenceNoteParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** `GET /api/absence-notes?student_id=`: one child's notes, newest first. */
export const AbsenceNoteListQuerySchema = z.object({ student_id: StudentIdSchema });

const AttachmentSchema = z.object({
  /** Where the file is served, to whoever may read the note. */
  url: z.string(),
  file_name: z.string(),
  mime: z.string(),
  size: z.number().int(),
});

/** One note, as the family, the student who sent it and the school read it. */
export const AbsenceNoteSchema = z.object({
  id: z.number().int(),
  student_id: z.string(),
  sender: z.enum(ABSENCE_NOTE_SENDERS),
  /** The sender's name: the family account's, or the student's. */
  sent_by: z.string().nullable(),
  date_from: z.string(),
  date_to: z.string(),
  part: z.enum(ABSENCE_PARTS),
  reason: z.enum(ABSENCE_REASON_CODES),
  text: z.string(),
  attachment: AttachmentSchema.nullable(),
  state: z.enum(ABSENCE_NOTE_STATES),
  /** The school days the note covers. */
  school_days: z.number().int(),
  /** The school's answer, once it decided. */
  decision: z
    .object({
      reason: z.enum(DECISION_REASON_CODES),
      /** The words the family reads (decisionReasonText). */
      text: z.string(),
      decided_by: z.string().nullable(),
      decided_at: z.string(),
    })
    .nullable(),
  created_at: z.string(),
  withdrawn_at: z.string().nullable(),
});
export type AbsenceNote = z.infer<typeof AbsenceNoteSchema>;

export const AbsenceNoteListSchema = z.object({
  /** Whether the caller may send a note for this student now: a linked family account, or the student while no family account is linked (D93). */
  can_send: z.boolean(),
  notes: z.array(AbsenceNoteSchema),
});
export type AbsenceNoteList = z.infer<typeof AbsenceNoteListSchema>;

export const AbsenceNoteAnswerSchema = z.object({ message: z.string(), note: AbsenceNoteSchema });
export type AbsenceNoteAnswer = z.infer<typeof AbsenceNoteAnswerSchema>;

/** The child's attendance on one school day of a note: what the record says, and what accepted notes excuse. */
export const AbsenceNoteDaySchema = z.object({
  date: z.string(),
  /** The day's record in the shared words (dayAttendanceOf); `not-recorded` before the school recorded anyone that day (a planned absence ahead). */
  status: z.enum(['absent', 'absent-am', 'absent-pm', 'late', 'on-time', 'not-recorded']),
  time_in: z.string().nullable(),
  excused: z.object({ am: z.boolean(), pm: z.boolean(), late: z.boolean() }),
});

/** `GET /api/absence-notes/{id}`: the note with the child and the child's attendance on its school days. */
export const AbsenceNoteDetailSchema = z.object({
  note: AbsenceNoteSchema,
  student: z.object({ id: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable(), class_id: z.string().nullable() }),
  days: z.array(AbsenceNoteDaySchema),
});
export type AbsenceNoteDetail = z.infer<typeof AbsenceNoteDetailSchema>;

/** `GET /api/absence-notes/queue`: waiting first (oldest first), then the decided and withdrawn (newest first). */
export const AbsenceNoteQueueQuerySchema = z.object({
  state: z.enum(ABSENCE_NOTE_STATES).optional(),
  class_id: ClassIdSchema.optional(),
  /** Notes covering any day from `from` to `to`. */
  from: IsoDateSchema.optional(),
  to: IsoDateSchema.optional(),
  reason: z.enum(ABSENCE_REASON_CODES, { message: ABSENCE_NOTE_MESSAGES.chooseReason }).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
export type AbsenceNoteQueueQuery = z.infer<typeof AbsenceNoteQueueQuerySchema>;

export const AbsenceNoteQueueItemSchema = AbsenceNoteSchema.extend({
  student: z.object({ first_name: z.string().nullable(), last_name: z.string().nullable(), class_id: z.string().nullable() }),
});
export const AbsenceNoteQueueSchema = z.object({ total: z.number().int(), waiting: z.number().int(), items: z.array(AbsenceNoteQueueItemSchema) });
export type AbsenceNoteQueue = z.infer<typeof AbsenceNoteQueueSchema>;

/** `POST /api/absence-notes/{id}/decision`: accept or decline; a decline needs a reason, `other` the school's words. */
export const DecideAbsenceNoteSchema = z
  .object({
    decision: z.enum(['accept', 'decline'], { message: 'Decide accept or decline.' }),
    reason: z.enum(DECISION_REASON_CODES, { message: 'Choose a reason.' }).optional(),
    details: z.string().max(ABSENCE_NOTE_TEXT_MAX, ABSENCE_NOTE_MESSAGES.textTooLong).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.decision === 'decline' && !value.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Choose a reason.' });
    const offered = decisionReasonsFor(value.decision).some((reason) => reason.code === value.reason);
    if (value.reason && !offered) ctx.addIssue({ code: 'custom', path: ['reason'], message: `Choose a reason to ${value.decision}.` });
    if (value.reason === 'other' && !value.details?.trim()) ctx.addIssue({ code: 'custom', path: ['details'], message: 'Say why, in your own words.' });
  });
export type DecideAbsenceNoteInput = z.infer<typeof DecideAbsenceNoteSchema>;

/** Where a note's attachment is served. */
export function absenceNoteAttachmentUrl(id: number): string {
  return `/api/absence-notes/${id}/attachment`;
}
