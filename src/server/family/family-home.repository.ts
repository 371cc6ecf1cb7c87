import type { Db } from '../db/database.js';

/**
 * The reads of a family's home cards (D76): each one read for all the linked children at once, so
 * the number of statements does not grow with the number of children.
 */

/** The children's records (the progress flags are computed from them, as the registration screens compute them), their form level and the office's decision. */
export async function listChildRows(db: Db, studentIds: readonly string[]) {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom('students')
    .leftJoin('form_classes', 'form_classes.id', 'students.class_id')
    .leftJoin('registration_reviews', 'registration_reviews.student_id', 'students.id')
    .selectAll('students')
    .select(['form_classes.form_level', 'registration_reviews.state as review_state'])
    .where('students.id', 'in', [...studentIds])
    .execute();
}

/** Each file's slot and the office's review of it (never the bytes). */
export async function listDocumentStates(db: Db, studentIds: readonly string[]) {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom('documents')
    .select(['student_id', 'file_type', 'review_state', 'review_reason'])
    .where('student_id', 'in', [...studentIds])
    .orderBy('id')
    .execute();
}

/** The posted terms each child has results in (a report card the family may open). */
export async function listPostedReportTerms(db: Db, studentIds: readonly string[]) {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom('term_results')
    .innerJoin('term_reports', (join) => join.onRef('term_reports.year', '=', 'term_results.year').onRef('term_reports.term', '=', 'term_results.term'))
    .select(['term_results.student_id', 'term_results.year', 'term_results.term'])
    .where('term_results.student_id', 'in', [...studentIds])
    .where('term_reports.posted', '=', 1)
    .groupBy(['term_results.student_id', 'term_results.year', 'term_results.term'])
    .execute();
}
