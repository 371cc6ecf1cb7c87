import type { DocumentQueueQuery, ReviewStep } from '../../shared/review.schemas.js';
import type { Db } from '../db/database.js';
import type { DocumentReviewState } from '../db/schema.js';
import { onRoll } from '../db/student-scope.js';

/** All SQL of the office's review (docs/decisions.md D56). */

/** The documents waiting for review, oldest upload first, with the student they belong to. */
export async function listQueue(db: Db, filter: DocumentQueueQuery, limit: number) {
  let query = db
    .selectFrom('documents')
    .innerJoin('students', 'students.id', 'documents.student_id')
    .where('documents.review_state', '=', 'submitted')
    .where(onRoll);
  if (filter.class_id !== undefined) query = query.where('students.class_id', '=', filter.class_id);
  if (filter.file_type !== undefined) query = query.where('documents.file_type', '=', filter.file_type);
  const [rows, count] = await Promise.all([
    query
      .select([
        'documents.public_id',
        'documents.file_type',
        'documents.file_name',
        'documents.mime',
        'documents.updated_at',
        'students.id as student_id',
        'students.first_name',
        'students.last_name',
        'students.class_id',
        'students.date_of_birth',
        'students.birth_certificate_no',
        'students.sex',
      ])
      .orderBy('documents.updated_at')
      .orderBy('documents.id')
      .limit(limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** A document by its public id, without bytes, for a decision (locked on PostgreSQL until commit). */
export async function findForReview(db: Db, publicId: string) {
  return db
    .selectFrom('documents')
    .select(['public_id', 'student_id', 'file_type', 'file_name', 'review_state', 'review_reason'])
    .where('public_id', '=', publicId)
    .executeTakeFirst();
}

/** Records the office's decision on a document; only while it is still the same file (public id). */
export async function setDocumentReview(
  db: Db,
  publicId: string,
  review: { review_state: DocumentReviewState; review_reason: string | null; reviewed_by: number | null; reviewed_at: string },
): Promise<boolean> {
  const result = await db.updateTable('documents').set(review).where('public_id', '=', publicId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every document of a student with its review, in no particular order. */
export async function listDocumentReviews(db: Db, studentId: string) {
  return db.selectFrom('documents').select(['file_type', 'review_state', 'review_reason']).where('student_id', '=', studentId).execute();
}

/** Every document of a student with its decision and the staff member who took it (the office's view). */
export async function listDocumentDecisions(db: Db, studentId: string) {
  return db
    .selectFrom('documents')
    .leftJoin('users', 'users.id', 'documents.reviewed_by')
    .select(['documents.public_id', 'documents.file_type', 'documents.file_name', 'documents.review_state', 'documents.review_reason', 'documents.reviewed_at', 'users.display_name', 'users.username'])
    .where('documents.student_id', '=', studentId)
    .execute();
}

/** The slots the office marked as received on paper for a student (D83), with who marked them. */
export async function listPaperDocuments(db: Db, studentId: string) {
  return db
    .selectFrom('paper_documents')
    .leftJoin('users', 'users.id', 'paper_documents.received_by_user_id')
    .select(['paper_documents.file_type', 'paper_documents.received_at', 'users.display_name', 'users.username'])
    .where('paper_documents.student_id', '=', studentId)
    .execute();
}

/** The office's decision on a record, if any. */
export async function findRegistrationReview(db: Db, studentId: string) {
  return db.selectFrom('registration_reviews').selectAll().where('student_id', '=', studentId).executeTakeFirst();
}

/** Stores the office's decision on a record, replacing the one there. */
export async function saveRegistrationReview(
  db: Db,
  studentId: string,
  review: { state: 'returned' | 'verified'; note: string | null; steps: readonly ReviewStep[]; reviewed_by: number | null },
  at: string,
): Promise<void> {
  const values = { state: review.state, note: review.note, steps: JSON.stringify(review.steps), reviewed_by: review.reviewed_by, reviewed_at: at, updated_at: at };
  await db
    .insertInto('registration_reviews')
    .values({ student_id: studentId, ...values, created_at: at })
    .onConflict((oc) => oc.column('student_id').doUpdateSet(values))
    .execute();
}

/** Removes a verified decision (reopening the record). */
export async function deleteVerified(db: Db, studentId: string): Promise<void> {
  await db.deleteFrom('registration_reviews').where('student_id', '=', studentId).where('state', '=', 'verified').execute();
}
