import { z } from 'zod';
import { ClassIdSchema } from './form-class.js';
import { AdminStudentSchema, REGISTRATION_STATES, type RegistrationState } from './students.schemas.js';
import { StudentIdSchema } from './auth.schemas.js';
import { DOCUMENT_TYPES } from './documents.slots.js';

/**
 * The office's review of documents and registration records (docs/decisions.md D56):
 * the states, the reasons a document is returned, the steps a returned record names, and the
 * schemas of the review calls. One definition for the routes, the screens and the PDFs.
 */

// ---- documents -----------------------------------------------------------------------------------

export const DOCUMENT_REVIEW_STATES = ['submitted', 'accepted', 'returned'] as const;
export type DocumentReviewState = (typeof DOCUMENT_REVIEW_STATES)[number];
export const DOCUMENT_REVIEW_STATE_LABELS: Record<DocumentReviewState, string> = {
  submitted: 'Awaiting review',
  accepted: 'Accepted',
  returned: 'Returned',
};

/** The common reasons a document is returned; `other` asks for the office's own words. */
export const DOCUMENT_RETURN_REASONS = [
  { code: 'unreadable', label: 'Unreadable / blurred' },
  { code: 'wrong_document', label: 'Wrong document' },
  { code: 'incomplete', label: 'Incomplete (pages missing)' },
  { code: 'expired', label: 'Expired or not certified' },
  { code: 'name_mismatch', label: 'Name does not match the record' },
  { code: 'other', label: 'Other' },
] as const;
export type DocumentReturnReason = (typeof DOCUMENT_RETURN_REASONS)[number]['code'];
const REASON_CODES = DOCUMENT_RETURN_REASONS.map((reason) => reason.code) as [DocumentReturnReason, ...DocumentReturnReason[]];

/** Longest free text of a returned document or record. */
export const REVIEW_NOTE_MAX = 500;

export const REVIEW_MESSAGES = {
  chooseReason: 'Choose a reason.',
  describeOther: 'Say what is wrong with the document.',
  noteTooLong: `At most ${REVIEW_NOTE_MAX} characters.`,
  writeNote: 'Write a note for the family.',
  chooseSteps: 'Choose at least one step to fix.',
  accepted: 'Document accepted.',
  returned: 'Document returned to the family.',
  verified: 'Registration verified.',
  registrationReturned: 'Registration returned to the family.',
  reopened: 'Registration reopened.',
  /** A family change refused on a verified record. */
  readOnly: 'The office has verified this registration. Ask the school office to reopen it if something must change.',
  notSubmitted: 'Only a submitted registration (every step complete and the terms agreed) can be verified.',
  notReturnable: 'Only a submitted or verified registration can be returned; this one is not finished yet.',
  notVerified: 'Only a verified registration can be reopened.',
  /** A decision that changes an earlier one says why (docs/decisions.md D81). */
  changeReasonNeeded: 'Say why the earlier decision changes.',
  decisionChanged: 'Decision changed.',
} as const;

/** The refusal of a decision that would leave a document as it is (accepted → accepted). */
export const sameDecisionMessage = (state: DocumentReviewState) =>
  `This document is ${DOCUMENT_REVIEW_STATE_LABELS[state].toLowerCase()} already: nothing was changed. Reload to see the latest decision.`;

/** The text a family reads for a returned document: the reason, and the office's words when given. */
export function returnReasonText(reason: DocumentReturnReason, details: string | undefined): string {
  const label = DOCUMENT_RETURN_REASONS.find((r) => r.code === reason)?.label ?? reason;
  const text = details?.trim() ?? '';
  if (reason === 'other') return text;
  return text ? `${label}: ${text}` : label;
}

/** `POST /api/review/documents/{publicId}`: accept, or return with a reason (other: with words). */
export const ReviewDocumentSchema = z
  .object({
    decision: z.enum(['accept', 'return'], { message: 'Decide accept or return.' }),
    reason: z.enum(REASON_CODES, { message: REVIEW_MESSAGES.chooseReason }).optional(),
    details: z.string().max(REVIEW_NOTE_MAX, REVIEW_MESSAGES.noteTooLong).optional(),
    /** Why an earlier decision changes: required then (the server knows), audited with it (D81). */
    change_reason: z.string().max(REVIEW_NOTE_MAX, REVIEW_MESSAGES.noteTooLong).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.decision !== 'return') return;
    if (value.reason === undefined) ctx.addIssue({ code: 'custom', path: ['reason'], message: REVIEW_MESSAGES.chooseReason });
    else if (value.reason === 'other' && !value.details?.trim()) ctx.addIssue({ code: 'custom', path: ['details'], message: REVIEW_MESSAGES.describeOther });
  });
export type ReviewDocumentInput = z.infer<typeof ReviewDocumentSchema>;

/** `GET /api/review/documents`: the queue's filters. */
export const DocumentQueueQuerySchema = z.object({
  class_id: ClassIdSchema.optional(),
  file_type: z.enum(DOCUMENT_TYPES, { message: 'Choose one of the document types.' }).optional(),
});
export type DocumentQueueQuery = z.infer<typeof DocumentQueueQuerySchema>;

/** One document waiting for review, with what the office checks it against. */
export const QueueItemSchema = z.object({
  public_id: z.string(),
  url: z.string(),
  file_type: z.enum(DOCUMENT_TYPES),
  file_name: z.string(),
  mime: z.string(),
  uploaded_at: z.string(),
  // The student list's columns (one definition), and the sex the office checks a document against.
  student: AdminStudentSchema.pick({ id: true, first_name: true, last_name: true, class_id: true, date_of_birth: true, birth_certificate_no: true }).extend({
    sex: z.string().nullable(),
  }),
});
export type QueueItem = z.infer<typeof QueueItemSchema>;
export const DocumentQueueSchema = z.object({ total: z.number().int(), items: z.array(QueueItemSchema) });
export type DocumentQueue = z.infer<typeof DocumentQueueSchema>;

/** The queue answers at most this many at a time (oldest first); the office works from the top. */
export const QUEUE_PAGE = 50;

export const ReviewDocumentAnswerSchema = z.object({
  message: z.string(),
  review_state: z.enum(DOCUMENT_REVIEW_STATES),
  review_reason: z.string().nullable(),
});
export type ReviewDocumentAnswer = z.infer<typeof ReviewDocumentAnswerSchema>;

// ---- registration records --------------------------------------------------------------------------

/** The steps a returned record can name (the registration's six steps). */
export const REVIEW_STEPS = [
  { key: 'student', label: 'Student Data' },
  { key: 'family', label: 'Family Data' },
  { key: 'health', label: 'Health Data' },
  { key: 'other', label: 'Other Data' },
  { key: 'documents', label: 'Documents' },
  { key: 'complete', label: 'Terms and submission' },
] as const;
export type ReviewStep = (typeof REVIEW_STEPS)[number]['key'];
const STEP_KEYS = REVIEW_STEPS.map((step) => step.key) as [ReviewStep, ...ReviewStep[]];
export const reviewStepLabel = (key: string) => REVIEW_STEPS.find((step) => step.key === key)?.label ?? key;

/** `POST /api/review/registrations/{studentId}/return`. */
export const ReturnRegistrationSchema = z.object({
  note: z.string().trim().min(1, REVIEW_MESSAGES.writeNote).max(REVIEW_NOTE_MAX, REVIEW_MESSAGES.noteTooLong),
  steps: z
    .array(z.enum(STEP_KEYS, { message: 'Choose steps of the registration.' }), { message: REVIEW_MESSAGES.chooseSteps })
    .min(1, REVIEW_MESSAGES.chooseSteps)
    .max(STEP_KEYS.length),
});
export type ReturnRegistrationInput = z.infer<typeof ReturnRegistrationSchema>;

export const ReviewStudentParamsSchema = z.object({ studentId: StudentIdSchema });

// ---- which registration decisions are open (docs/decisions.md D81) ---------------------------------

export const REGISTRATION_DECISIONS = ['verify', 'return', 'reopen'] as const;
export type RegistrationDecisionAction = (typeof REGISTRATION_DECISIONS)[number];

const DecisionOpenSchema = z.object({ allowed: z.boolean(), reason: z.string().nullable() });
export const RegistrationDecisionsSchema = z.object({ verify: DecisionOpenSchema, return: DecisionOpenSchema, reopen: DecisionOpenSchema });
export type RegistrationDecisions = z.infer<typeof RegistrationDecisionsSchema>;

const DECISION_RULES: Record<RegistrationDecisionAction, { from: readonly RegistrationState[]; refusal: string }> = {
  verify: { from: ['submitted', 'returned'], refusal: REVIEW_MESSAGES.notSubmitted },
  return: { from: ['submitted', 'returned', 'verified'], refusal: REVIEW_MESSAGES.notReturnable },
  reopen: { from: ['verified'], refusal: REVIEW_MESSAGES.notVerified },
};

/**
 * The one rule of which decision a record in `state` takes: the service refuses (409) exactly
 * where this says no, and the screens disable the button with the same reason.
 */
export function registrationDecisionsFor(state: RegistrationState): RegistrationDecisions {
  const open = (action: RegistrationDecisionAction) => {
    const allowed = DECISION_RULES[action].from.includes(state);
    return { allowed, reason: allowed ? null : DECISION_RULES[action].refusal };
  };
  return { verify: open('verify'), return: open('return'), reopen: open('reopen') };
}

/** A document's state as the family and the office read it. */
export const DocumentReviewSchema = z.object({
  file_type: z.enum(DOCUMENT_TYPES),
  review_state: z.enum(DOCUMENT_REVIEW_STATES),
  review_reason: z.string().nullable(),
});

/**
 * `GET /api/registration-review/{studentId}`: where the record stands. `state` is the
 * registration state of the student list (students.schemas.ts); note and steps while returned.
 */
export const RegistrationReviewSchema = z.object({
  state: z.enum(REGISTRATION_STATES),
  note: z.string().nullable(),
  steps: z.array(z.enum(STEP_KEYS)),
  reviewed_at: z.string().nullable(),
  documents: z.array(DocumentReviewSchema),
  /** Documents nobody has decided on yet, and documents returned to the family (D81). */
  documents_unreviewed: z.number().int(),
  documents_returned: z.number().int(),
  /** Which of verify, return and reopen the server would take now, and why not (D81). */
  decisions: RegistrationDecisionsSchema,
});
export type RegistrationReview = z.infer<typeof RegistrationReviewSchema>;

export const RegistrationReviewAnswerSchema = RegistrationReviewSchema.extend({ message: z.string() });
export type RegistrationReviewAnswer = z.infer<typeof RegistrationReviewAnswerSchema>;

/** `POST /api/review/registrations/{studentId}/verify`: verifying over unreviewed or returned documents needs saying so. */
export const VerifyRegistrationSchema = z.object({
  confirm_unreviewed: z.boolean({ message: 'confirm_unreviewed is true or false.' }).optional(),
});
export type VerifyRegistrationInput = z.infer<typeof VerifyRegistrationSchema>;

/** How many documents nobody accepted, as a sentence's start (it starts with the number). */
export function unreviewedDocumentsText(unreviewed: number, returned: number): string {
  const parts = [
    unreviewed > 0 ? `${unreviewed} ${unreviewed === 1 ? 'document is' : 'documents are'} not reviewed yet` : '',
    returned > 0 ? `${returned} ${returned === 1 ? 'document was' : 'documents were'} returned to the family` : '',
  ].filter(Boolean);
  return parts.join(' and ');
}

export const confirmUnreviewedMessage = (unreviewed: number, returned: number) =>
  `${unreviewedDocumentsText(unreviewed, returned)}. Confirm to verify the registration anyway.`;

// ---- the office's view of one student: decisions, and whom a message reaches (D81) ---------------

export const FAMILY_REACH_VIA = ['family_account', 'verified_parent_email'] as const;
export const FAMILY_REACH_VIA_LABELS: Record<(typeof FAMILY_REACH_VIA)[number], string> = {
  family_account: 'family account',
  verified_parent_email: 'verified parent e-mail',
};

/** Whom the portal's messages about a student reach: the linked family accounts and the verified parent e-mails. */
export const FamilyReachSchema = z.object({
  recipients: z.array(z.object({ email: z.string(), via: z.enum(FAMILY_REACH_VIA) })),
});
export type FamilyReach = z.infer<typeof FamilyReachSchema>;

/** What a decision dialog says about telling the family, from the server's answer. */
export function familyReachText(reach: FamilyReach): string {
  if (reach.recipients.length === 0) {
    return 'Nobody in this family can be reached: there is no family account and no verified parent e-mail. Print the notice and send it home.';
  }
  const whom = reach.recipients.map((r) => `${r.email} (${FAMILY_REACH_VIA_LABELS[r.via]})`).join(', ');
  return `The family is told by e-mail at ${whom}.`;
}

/** One document with its decision as the office reads it: who decided and when. */
export const OfficeDocumentSchema = z.object({
  public_id: z.string(),
  file_type: z.enum(DOCUMENT_TYPES),
  file_name: z.string(),
  review_state: z.enum(DOCUMENT_REVIEW_STATES),
  review_reason: z.string().nullable(),
  /** 'yyyy-MM-dd HH:mm' in the school's time zone; null while not decided. */
  reviewed_at: z.string().nullable(),
  /** The staff member's name (or username); null while not decided, or for an account since removed. */
  reviewed_by: z.string().nullable(),
});
export type OfficeDocument = z.infer<typeof OfficeDocumentSchema>;

/** A slot the office marked as received on paper (docs/decisions.md D83). */
export const PaperDocumentSchema = z.object({
  file_type: z.enum(DOCUMENT_TYPES),
  /** 'yyyy-MM-dd HH:mm' in the school's time zone. */
  received_at: z.string(),
  /** The staff member's name (or username); null for an account since removed. */
  received_by: z.string().nullable(),
});
export type PaperDocument = z.infer<typeof PaperDocumentSchema>;

/** `GET /api/review/students/{studentId}`: the office's view of one student's decisions, paper copies and reach. */
export const OfficeStudentReviewSchema = z.object({
  documents: z.array(OfficeDocumentSchema),
  paper: z.array(PaperDocumentSchema),
  reach: FamilyReachSchema,
});
export type OfficeStudentReview = z.infer<typeof OfficeStudentReviewSchema>;
