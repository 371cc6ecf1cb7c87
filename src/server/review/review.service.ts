import { registrationStateOf } from '../../shared/students.schemas.js';
import { documentUrl } from '../../shared/documents.schemas.js';
import { schoolDateTime } from '../../shared/dates.js';
import {
  QUEUE_PAGE,
  REVIEW_MESSAGES,
  REVIEW_STEPS,
  confirmUnreviewedMessage,
  registrationDecisionsFor,
  returnReasonText,
  reviewStepLabel,
  sameDecisionMessage,
  type DocumentQueue,
  type FamilyReach,
  type OfficeStudentReview,
  type RegistrationDecisionAction,
  type VerifyRegistrationInput,
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
import { conflict, fieldError, notFound } from '../http/errors.js';
import { requireOnRoll } from '../access/scopes.js';
import type { Actor } from '../http/request-context.js';
import { notifyFamily, recipientsOf } from '../notices/notices.service.js';
import * as registration from '../registration/registration.service.js';
import type { FamilyNoticeInput } from './family-notice.pdf.js';
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

const stateText = (state: string, reason: string | null) => (reason ? `${state}: ${reason}` : state);

/**
 * Accepts or returns one document, or changes an earlier decision on it (docs/decisions.md D81).
 * A decision that would leave the document as it is (accepted → accepted: a key held down, a
 * second tab) is refused with 409 and stores nothing. Changing an accepted or returned document
 * needs the reason for the change, which the audit row keeps. A returned document keeps its file
 * until the family replaces it, and no longer fills its slot (the Documents step is open again).
 */
export async function reviewDocument(db: Db, actor: Actor, publicId: string, input: ReviewDocumentInput, now = new Date()): Promise<ReviewDocumentAnswer> {
  return db.transaction().execute(async (trx) => {
    const document = await repo.findForReview(trx, publicId);
    if (!document) throw notFound('This file does not exist. It may have been replaced or removed.');
    await requireOnRoll(trx, document.student_id);
    const state = input.decision === 'accept' ? 'accepted' : 'returned';
    if (document.review_state === state) throw conflict(sameDecisionMessage(state));
    const isChange = document.review_state !== 'submitted';
    const changeReason = input.change_reason?.trim() ?? '';
    if (isChange && !changeReason) throw fieldError('change_reason', REVIEW_MESSAGES.changeReasonNeeded);
    const reason = state === 'returned' ? returnReasonText(input.reason!, input.details) : null;
    const updated = await repo.setDocumentReview(trx, publicId, { review_state: state, review_reason: reason, reviewed_by: actor.actor_user_id, reviewed_at: nowIso() });
    // A new upload between the read and the write has a new public id: that file is not the one decided on.
    if (!updated) throw conflict('This slot now holds another file. Reload the queue.');
    await writeAudit(trx, {
      ...actor,
      action: isChange ? 'change-decision' : state === 'accepted' ? 'accept' : 'return',
      entity: 'document',
      entity_id: document.student_id,
      field: document.file_type,
      old_value: stateText(document.review_state, document.review_reason),
      new_value: isChange ? `${stateText(state, reason)} (why changed: ${changeReason})` : stateText(state, reason),
    });
    await registration.refreshProgress(trx, document.student_id, now);
    if (state === 'returned') {
      const documentLabel = findSlot(document.file_type)?.label ?? document.file_type;
      await notifyFamily(trx, { studentId: document.student_id, kind: 'document-returned', data: { documentLabel, reason: reason! } });
    }
    const message = isChange ? REVIEW_MESSAGES.decisionChanged : state === 'accepted' ? REVIEW_MESSAGES.accepted : REVIEW_MESSAGES.returned;
    return { message, review_state: state, review_reason: reason };
  });
}

/** Whom a message about the student reaches (the notices' own recipients): linked accounts, verified parent e-mails. */
export async function familyReachOf(db: Db, studentId: string): Promise<FamilyReach> {
  const { recipients } = await recipientsOf(db, [studentId]);
  return { recipients: recipients.map((r) => ({ email: r.email, via: r.userId === null ? 'verified_parent_email' : 'family_account' })) };
}

/** The office's view of one student: each document's decision (who, when in school time) and the family's reach. */
export async function officeStudentReview(db: Db, studentId: string): Promise<OfficeStudentReview> {
  await registration.getStudentRecord(db, studentId);
  const [rows, paper, reach] = await Promise.all([repo.listDocumentDecisions(db, studentId), repo.listPaperDocuments(db, studentId), familyReachOf(db, studentId)]);
  return {
    reach,
    paper: paper.map((row) => ({
      file_type: row.file_type as DocumentType,
      received_at: schoolDateTime(new Date(row.received_at)),
      received_by: row.display_name ?? row.username ?? null,
    })),
    documents: rows.map((row) => ({
      public_id: row.public_id,
      file_type: row.file_type as DocumentType,
      file_name: row.file_name,
      review_state: row.review_state,
      review_reason: row.review_reason,
      reviewed_at: row.reviewed_at ? schoolDateTime(new Date(row.reviewed_at)) : null,
      reviewed_by: row.reviewed_at ? (row.display_name ?? row.username ?? null) : null,
    })),
  };
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
  const state = registrationStateOf(record.progress, review?.state ?? null);
  return {
    state,
    note: review?.state === 'returned' ? review.note : null,
    steps: review?.state === 'returned' ? parseSteps(review.steps) : [],
    reviewed_at: review?.reviewed_at ?? null,
    documents: documents.map((row) => ({ file_type: row.file_type as DocumentType, review_state: row.review_state, review_reason: row.review_reason })),
    documents_unreviewed: documents.filter((row) => row.review_state === 'submitted').length,
    documents_returned: documents.filter((row) => row.review_state === 'returned').length,
    decisions: registrationDecisionsFor(state),
  };
}

type Decision = { state: 'returned' | 'verified'; note: string | null; steps: readonly ReviewStep[] } | null;

/** One decision on a record in a transaction: the state it must be in (one rule, D81), the new one, the audit row. */
async function decide(
  db: Db,
  actor: Actor,
  studentId: string,
  action: RegistrationDecisionAction,
  decision: Decision,
  message: string,
  now: Date,
  check: (before: RegistrationReview) => void = () => undefined,
): Promise<RegistrationReviewAnswer> {
  await db.transaction().execute(async (trx) => {
    await requireOnRoll(trx, studentId);
    const before = await getRegistrationReview(trx, studentId, now);
    const open = before.decisions[action];
    if (!open.allowed) throw conflict(open.reason ?? message);
    check(before);
    const at = nowIso();
    if (decision) await repo.saveRegistrationReview(trx, studentId, { ...decision, reviewed_by: actor.actor_user_id }, at);
    else await repo.deleteVerified(trx, studentId);
    await writeAudit(trx, {
      ...actor,
      action,
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

/**
 * Marks a complete record verified (from submitted, or returned when the office changes its mind).
 * Documents not reviewed yet, or returned, need `confirm_unreviewed` (D81): a stale tab or a
 * second caller never verifies over them without having been told how many.
 */
export function verifyRegistration(db: Db, actor: Actor, studentId: string, input: VerifyRegistrationInput = {}, now = new Date()): Promise<RegistrationReviewAnswer> {
  const requireConfirmed = (before: RegistrationReview) => {
    const pending = before.documents_unreviewed + before.documents_returned;
    if (pending > 0 && input.confirm_unreviewed !== true) throw conflict(confirmUnreviewedMessage(before.documents_unreviewed, before.documents_returned));
  };
  return decide(db, actor, studentId, 'verify', { state: 'verified', note: null, steps: [] }, REVIEW_MESSAGES.verified, now, requireConfirmed);
}

/** Returns a submitted (or verified) record to the family with a note naming the steps to fix. */
export function returnRegistration(db: Db, actor: Actor, studentId: string, input: ReturnRegistrationInput, now = new Date()): Promise<RegistrationReviewAnswer> {
  return decide(db, actor, studentId, 'return', { state: 'returned', note: input.note, steps: input.steps }, REVIEW_MESSAGES.registrationReturned, now);
}

/** Opens a verified record to the family again. */
export function reopenRegistration(db: Db, actor: Actor, studentId: string, now = new Date()): Promise<RegistrationReviewAnswer> {
  return decide(db, actor, studentId, 'reopen', null, REVIEW_MESSAGES.reopened, now);
}

/** What the printable notice says: the student, the returned record's note and steps, each returned document. */
export async function familyNoticeContent(db: Db, studentId: string, now = new Date()): Promise<Pick<FamilyNoticeInput, 'student' | 'registration' | 'returnedDocuments'>> {
  const record = await registration.getStudentRecord(db, studentId, now);
  const [review, documents] = await Promise.all([getRegistrationReview(db, studentId, now), repo.listDocumentReviews(db, studentId)]);
  const nameParts = [record.first_name, record.last_name].filter((part): part is string => typeof part === 'string' && part.trim() !== '');
  const name = nameParts.join(' ') || studentId;
  return {
    student: { id: studentId, name, className: record.class_id ?? '—' },
    registration: review.state === 'returned' ? { note: review.note ?? '', steps: review.steps.map((key) => reviewStepLabel(key)) } : null,
    returnedDocuments: documents
      .filter((row) => row.review_state === 'returned')
      .map((row) => ({ label: findSlot(row.file_type)?.label ?? row.file_type, reason: row.review_reason ?? '' })),
  };
}
