import { registrationStateOf } from '../../shared/admin.schemas.js';
import { documentUrl } from '../../shared/documents.schemas.js';
import {
  QUEUE_PAGE,
  REVIEW_MESSAGES,
  REVIEW_STEPS,
  returnReasonText,
  reviewStepLabel,
  type DocumentQueue,
  type DocumentQueueQuery,
  type RegistrationReview,
  type RegistrationReviewAnswer,
  type ReturnRegistrationInput,
  type ReviewDocumentAnswer,
  type ReviewDocumentInput,
  type ReviewStep,
} from '../../shared/review.schemas.js';
import { findSlot, type DocumentType } from '../../shared/documents.slots.js';
import { writeAudit } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import { conflict, notFound } from '../http/errors.js';
import { requireOnRoll } from '../http/policy.js';
import type { Actor } from '../http/request-context.js';
import { notifyFamily } from '../notices/notices.service.js';
import * as registration from '../registration/registration.service.js';
import * as repo from './review.repository.js';

/**
 * The office's review (docs/decisions.md D56): the document queue and its decisions,
 * and verifying, returning and reopening registration records. Every change is one transaction
 * with its audit rows; a return or a verification tells the family (notices, D57) in the same
 * transaction, and the route wakes the mail sender after the commit.
 */

/** The documents waiting for review, oldest first, with the student's details beside each. */
export async function documentQueue(db: Db, filter: DocumentQueueQuery): Promise<DocumentQueue> {
  const { rows, total } = await repo.listQueue(db, filter, QUEUE_PAGE);
  return {
    total,
    items: rows.map((row) => ({
      public_id: row.public_id,
      url: documentUrl(row.public_id),
      file_type: row.file_type as DocumentType,
      file_name: row.file_name,
      mime: row.mime,
      uploaded_at: row.updated_at,
      student: {
        id: row.student_id,
        first_name: row.first_name,
        last_name: row.last_name,
        class_id: row.class_id,
        date_of_birth: row.date_of_birth,
        birth_certificate_no: row.birth_certificate_no,
        sex: row.sex,
      },
    })),
  };
}

/** The student a document belongs to (the route asks the policy about them), or 404. */
export async function studentOfDocument(db: Db, publicId: string): Promise<string> {
  const document = await repo.findForReview(db, publicId);
  if (!document) throw notFound('This file does not exist. It may have been replaced or removed.');
  return document.student_id;
}

const stateText = (state: string, reason: string | null) => (reason ? `${state}: ${reason}` : state);

/**
 * Accepts or returns one document. A returned document keeps its file until the family replaces
 * it, and no longer fills its slot (the Documents step is open again).
 */
export async function reviewDocument(db: Db, actor: Actor, publicId: string, input: ReviewDocumentInput, now = new Date()): Promise<ReviewDocumentAnswer> {
  return db.transaction().execute(async (trx) => {
    const document = await repo.findForReview(trx, publicId);
    if (!document) throw notFound('This file does not exist. It may have been replaced or removed.');
    await requireOnRoll(trx, document.student_id);
    const state = input.decision === 'accept' ? 'accepted' : 'returned';
    const reason = state === 'returned' ? returnReasonText(input.reason!, input.details) : null;
    const updated = await repo.setDocumentReview(trx, publicId, { review_state: state, review_reason: reason, reviewed_by: actor.actor_user_id, reviewed_at: nowIso() });
    // A new upload between the read and the write has a new public id: that file is not the one decided on.
    if (!updated) throw conflict('This slot now holds another file. Reload the queue.');
    await writeAudit(trx, {
      ...actor,
      action: state === 'accepted' ? 'accept' : 'return',
      entity: 'document',
      entity_id: document.student_id,
      field: document.file_type,
      old_value: stateText(document.review_state, document.review_reason),
      new_value: stateText(state, reason),
    });
    await registration.refreshProgress(trx, document.student_id, now);
    if (state === 'returned') {
      const documentLabel = findSlot(document.file_type)?.label ?? document.file_type;
      await notifyFamily(trx, { studentId: document.student_id, kind: 'document-returned', data: { documentLabel, reason: reason! } });
    }
    return { message: state === 'accepted' ? REVIEW_MESSAGES.accepted : REVIEW_MESSAGES.returned, review_state: state, review_reason: reason };
  });
}

const STEP_KEYS = new Set<string>(REVIEW_STEPS.map((step) => step.key));
const parseSteps = (text: string): ReviewStep[] => {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed.filter((step): step is ReviewStep => typeof step === 'string' && STEP_KEYS.has(step)) : [];
};

/** Where a record stands: its state, the office's note and steps while returned, each document's review. */
export async function getRegistrationReview(db: Db, studentId: string, now = new Date()): Promise<RegistrationReview> {
  const record = await registration.getStudentRecord(db, studentId, now);
  const [review, documents] = await Promise.all([repo.findRegistrationReview(db, studentId), repo.listDocumentReviews(db, studentId)]);
  return {
    state: registrationStateOf(record.progress, review?.state ?? null),
    note: review?.state === 'returned' ? review.note : null,
    steps: review?.state === 'returned' ? parseSteps(review.steps) : [],
    reviewed_at: review?.reviewed_at ?? null,
    documents: documents.map((row) => ({ file_type: row.file_type as DocumentType, review_state: row.review_state, review_reason: row.review_reason })),
  };
}

type Decision = { state: 'returned' | 'verified'; note: string | null; steps: readonly ReviewStep[] } | null;

/** One decision on a record in a transaction: the state it must be in, the new one, the audit row. */
async function decide(
  db: Db,
  actor: Actor,
  studentId: string,
  allowed: (state: RegistrationReview['state']) => boolean,
  refusal: string,
  decision: Decision,
  message: string,
  now: Date,
): Promise<RegistrationReviewAnswer> {
  await db.transaction().execute(async (trx) => {
    await requireOnRoll(trx, studentId);
    const before = await getRegistrationReview(trx, studentId, now);
    if (!allowed(before.state)) throw conflict(refusal);
    const at = nowIso();
    if (decision) await repo.saveRegistrationReview(trx, studentId, { ...decision, reviewed_by: actor.actor_user_id }, at);
    else await repo.deleteVerified(trx, studentId);
    await writeAudit(trx, {
      ...actor,
      action: decision ? (decision.state === 'verified' ? 'verify' : 'return') : 'reopen',
      entity: 'registration',
      entity_id: studentId,
      field: 'review',
      old_value: before.state,
      new_value: decision ? (decision.state === 'returned' ? `returned: ${decision.note ?? ''} [${decision.steps.join(', ')}]` : 'verified') : null,
    });
    if (decision?.state === 'returned') {
      const steps = decision.steps.map((key) => reviewStepLabel(key));
      await notifyFamily(trx, { studentId, kind: 'registration-returned', data: { note: decision.note ?? '', steps } });
    } else if (decision?.state === 'verified') {
      await notifyFamily(trx, { studentId, kind: 'registration-verified', data: {} });
    }
  });
  return { ...(await getRegistrationReview(db, studentId, now)), message };
}

/** Marks a complete record verified (from submitted, or returned when the office changes its mind). */
export function verifyRegistration(db: Db, actor: Actor, studentId: string, now = new Date()): Promise<RegistrationReviewAnswer> {
  return decide(db, actor, studentId, (s) => s === 'submitted' || s === 'returned', REVIEW_MESSAGES.notSubmitted, { state: 'verified', note: null, steps: [] }, REVIEW_MESSAGES.verified, now);
}

/** Returns a submitted (or verified) record to the family with a note naming the steps to fix. */
export function returnRegistration(db: Db, actor: Actor, studentId: string, input: ReturnRegistrationInput, now = new Date()): Promise<RegistrationReviewAnswer> {
  return decide(
    db,
    actor,
    studentId,
    (s) => s === 'submitted' || s === 'returned' || s === 'verified',
    REVIEW_MESSAGES.notReturnable,
    { state: 'returned', note: input.note, steps: input.steps },
    REVIEW_MESSAGES.registrationReturned,
    now,
  );
}

/** Opens a verified record to the family again. */
export function reopenRegistration(db: Db, actor: Actor, studentId: string, now = new Date()): Promise<RegistrationReviewAnswer> {
  return decide(db, actor, studentId, (s) => s === 'verified', REVIEW_MESSAGES.notVerified, null, REVIEW_MESSAGES.reopened, now);
}
