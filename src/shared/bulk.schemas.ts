import { z } from 'zod';
import { StudentListFilterSchema } from './students.schemas.js';
import { StudentIdSchema } from './auth.schemas.js';
import { DOCUMENT_TYPES } from './documents.slots.js';
import { ClassIdSchema } from './form-class.js';
import { PdfQuerySchema } from './pdf.schemas.js';

/**
 * The student list's bulk actions (docs/decisions.md D83): a selection of students, and what the
 * office does to all of them at once (change class, invite the parents on record, mark a document
 * received on paper). One definition for the routes and the toolbar.
 */

/** The most students a selection of ticked rows may name (the whole filtered list is sent as its filter). */
export const BULK_IDS_MAX = 500;

/**
 * Which students: the rows ticked (`ids`), or every student the list's filter matches
 * (`filter`), which the server applies itself, so a stale page cannot add or drop anyone.
 * Former students are never part of a selection (D60: their records are read-only).
 */
export const BulkSelectionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('ids'),
    ids: z
      .array(StudentIdSchema)
      .min(1, 'Select at least one student.')
      .max(BULK_IDS_MAX, `Select at most ${BULK_IDS_MAX} rows, or select the whole filtered list.`),
  }),
  z.object({ kind: z.literal('filter'), filter: StudentListFilterSchema }),
]);
export type BulkSelection = z.infer<typeof BulkSelectionSchema>;

/**
 * What an action's body shares: the selection, and how many students the dialog said it would
 * change (`expected`); when the selection now holds another number the answer is 409, so a
 * confirmation never covers students it did not count.
 */
const BulkBaseSchema = z.object({
  selection: BulkSelectionSchema,
  expected: z.number().int().min(0).max(100_000).optional(),
});

/** POST /api/students/bulk/summary: what the dialogs say before anything is done. */
export const BulkSummaryRequestSchema = z.object({ selection: BulkSelectionSchema });
export type BulkSummaryRequest = z.infer<typeof BulkSummaryRequestSchema>;

export const BulkSummarySchema = z.object({
  /** Students on the roll in the selection: those an action would change. */
  students: z.number().int().min(0),
  /** Former students the filter matched and the selection leaves out. */
  former_left_out: z.number().int().min(0),
  /** Invitations that would go now: one per parent e-mail on each record, less those sent recently. */
  invitations: z.number().int().min(0),
  /** Records with no parent e-mail at all: nobody can be invited for them. */
  without_parent_email: z.number().int().min(0),
  /** Parent e-mails invited to the same record within the last `BULK_INVITE_REPEAT_HOURS` hours: not sent again. */
  recently_invited: z.number().int().min(0),
});
export type BulkSummary = z.infer<typeof BulkSummarySchema>;

/** POST /api/students/bulk/class */
export const BulkChangeClassSchema = BulkBaseSchema.extend({ class_id: ClassIdSchema });
export type BulkChangeClassInput = z.infer<typeof BulkChangeClassSchema>;

/** POST /api/students/bulk/invitations */
export const BulkInviteSchema = BulkBaseSchema;
export type BulkInviteInput = z.infer<typeof BulkInviteSchema>;

/** POST /api/students/bulk/paper-documents */
export const BulkPaperDocumentSchema = BulkBaseSchema.extend({
  file_type: z.enum(DOCUMENT_TYPES, { message: 'Choose one of the document types.' }),
});
export type BulkPaperDocumentInput = z.infer<typeof BulkPaperDocumentSchema>;

/** What every bulk action answers: how many it changed or sent, how many were already so, in words too. */
export const BulkAnswerSchema = z.object({
  changed: z.number().int().min(0),
  unchanged: z.number().int().min(0),
  message: z.string(),
});
export type BulkAnswer = z.infer<typeof BulkAnswerSchema>;

/** A parent e-mail invited to a record within this many hours is not invited again by a bulk send. */
export const BULK_INVITE_REPEAT_HOURS = 24;

/** "Move 12 students to 3B?": the confirmation the change-class dialog asks. */
export function moveQuestion(count: number, classId: string): string {
  return `Move ${count} ${count === 1 ? 'student' : 'students'} to ${classId}?`;
}

export const studentsWord = (count: number) => `${count} ${count === 1 ? 'student' : 'students'}`;

// ---- class list and blank register (PDF) -----------------------------------------------------

/** GET /api/class-list/:classId and /api/class-register/:classId */
export const ClassPrintParamsSchema = z.object({ classId: ClassIdSchema });

/** The month a blank register is for (yyyy-MM); `download=1` saves the PDF, as every PDF route. */
export const RegisterQuerySchema = PdfQuerySchema.extend({
  month: z
    .string({ message: 'Choose a month (yyyy-MM).' })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month (yyyy-MM).'),
});

export const classListUrl = (classId: string) => `/api/class-list/${encodeURIComponent(classId)}`;
export const classRegisterUrl = (classId: string, month: string) => `/api/class-register/${encodeURIComponent(classId)}?month=${encodeURIComponent(month)}`;
