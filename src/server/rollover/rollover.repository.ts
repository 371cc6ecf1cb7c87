import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { RegistrationPeriodTable, RegistrationReviewTable, YearRolloverTable } from '../db/schema.js';
import { onRoll } from '../db/student-scope.js';

/** All SQL of the year rollover (docs/decisions.md D60). Functions take `db` or a transaction. */

/** Rows per `in (...)` list: well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

function chunks<T>(list: readonly T[]): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) parts.push(list.slice(i, i + CHUNK));
  return parts;
}

/** The newest academic year the school has terms for (the year being left), or null. */
export async function findCurrentYear(db: Db): Promise<number | null> {
  const row = await db.selectFrom('academic_terms').select((eb) => eb.fn.max('year').as('year')).executeTakeFirst();
  return row?.year === null || row?.year === undefined ? null : Number(row.year);
}

export function listTermsOf(db: Db, year: number) {
  return db.selectFrom('academic_terms').select(['id', 'year', 'term', 'start_date', 'end_date']).where('year', '=', year).orderBy('term').execute();
}

/** The form classes in school order (form level, then name). */
export function listFormClasses(db: Db) {
  return db.selectFrom('form_classes').select(['id', 'form_level']).orderBy('form_level').orderBy('id').execute();
}

/** Every student on the roll who is in a class, with that class (the rollover's subjects). */
export function listRollStudents(db: Db): Promise<{ id: string; class_id: string }[]> {
  return db
    .selectFrom('students')
    .select(['id', 'class_id'])
    .where('class_id', 'is not', null)
    .where(onRoll)
    .orderBy('id')
    .execute() as Promise<{ id: string; class_id: string }[]>;
}

/** The students on the roll in a class with their names: the preview's per-student ticks (D79). */
export function listRollStudentNames(db: Db): Promise<{ id: string; class_id: string; first_name: string | null; last_name: string | null }[]> {
  return db
    .selectFrom('students')
    .select(['id', 'class_id', 'first_name', 'last_name'])
    .where('class_id', 'is not', null)
    .where(onRoll)
    .orderBy('id')
    .execute() as Promise<{ id: string; class_id: string; first_name: string | null; last_name: string | null }[]>;
}

/** Students by ID, on the roll or not: what a retained ID that is not on the roll names (D79). */
export async function findStudentsByIds(db: Db, ids: readonly string[]): Promise<{ id: string; class_id: string | null; left_on: string | null }[]> {
  const found: { id: string; class_id: string | null; left_on: string | null }[] = [];
  for (const part of chunks(ids)) found.push(...(await db.selectFrom('students').select(['id', 'class_id', 'left_on']).where('id', 'in', part).execute()));
  return found;
}

/** Puts the students into a class (a class moving up). `updated_at` is left alone: the change is the rollover's, audited with it. */
export async function moveStudents(db: Db, ids: readonly string[], classId: string): Promise<void> {
  for (const part of chunks(ids)) await db.updateTable('students').set({ class_id: classId }).where('id', 'in', part).execute();
}

/** Makes the students former students: out of every class, with the day and the class they left. */
export async function markLeft(db: Db, ids: readonly string[], leftOn: string, leftClass: string): Promise<void> {
  for (const part of chunks(ids)) {
    await db.updateTable('students').set({ class_id: null, left_on: leftOn, left_class: leftClass }).where('id', 'in', part).execute();
  }
}

/** Back on the roll in the class they were in (the undo). */
export async function restoreClass(db: Db, ids: readonly string[], classId: string): Promise<void> {
  for (const part of chunks(ids)) {
    await db.updateTable('students').set({ class_id: classId, left_on: null, left_class: null }).where('id', 'in', part).execute();
  }
}

export async function insertTerms(db: Db, year: number, terms: readonly { term: number; start_date: string; end_date: string }[], at: string): Promise<number[]> {
  const rows = await db
    .insertInto('academic_terms')
    .values(terms.map((t) => ({ year, term: t.term, start_date: t.start_date, end_date: t.end_date, created_at: at, updated_at: at })))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function deleteTerms(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('academic_terms').where('id', 'in', [...ids]).execute();
}

export type PeriodRow = Pick<Selectable<RegistrationPeriodTable>, 'id' | 'form_level' | 'open' | 'deadline' | 'updated_at'>;

export function listPeriods(db: Db): Promise<PeriodRow[]> {
  return db.selectFrom('registration_periods').select(['id', 'form_level', 'open', 'deadline', 'updated_at']).orderBy('id').execute();
}

/** Opens every registration window with the given deadline. */
export async function openAllPeriods(db: Db, deadline: string | null, at: string): Promise<void> {
  await db.updateTable('registration_periods').set({ open: 1, deadline, updated_at: at }).execute();
}

export async function insertDefaultPeriod(db: Db, deadline: string | null, at: string): Promise<number> {
  const row = await db.insertInto('registration_periods').values({ form_level: null, open: 1, deadline, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function restorePeriod(db: Db, row: PeriodRow): Promise<void> {
  await db.updateTable('registration_periods').set({ open: row.open, deadline: row.deadline, updated_at: row.updated_at }).where('id', '=', row.id).execute();
}

export async function deletePeriods(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('registration_periods').where('id', 'in', [...ids]).execute();
}

export type ReviewRow = Selectable<RegistrationReviewTable>;

export function listReviews(db: Db): Promise<ReviewRow[]> {
  return db.selectFrom('registration_reviews').selectAll().orderBy('student_id').execute();
}

export async function countReviews(db: Db): Promise<number> {
  const row = await db.selectFrom('registration_reviews').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteAllReviews(db: Db): Promise<void> {
  await db.deleteFrom('registration_reviews').execute();
}

/**
 * Puts the run's cleared decisions back. A decision the office made on one of those students since
 * the run gives way to the one from before (the audit log keeps it), as the undo restores the state
 * before the run; decisions on other students stay.
 */
export async function restoreReviews(db: Db, rows: readonly ReviewRow[]): Promise<void> {
  // 50 rows of 8 columns per statement: under SQLite's 999 parameters of older builds.
  for (let i = 0; i < rows.length; i += 50) {
    const chunk = rows.slice(i, i + 50);
    await db.deleteFrom('registration_reviews').where('student_id', 'in', chunk.map((row) => row.student_id)).execute();
    await db.insertInto('registration_reviews').values(chunk).execute();
  }
}

// ---- the runs ------------------------------------------------------------------------------------

export type RolloverRow = Selectable<YearRolloverTable>;

export async function insertRollover(db: Db, row: Omit<RolloverRow, 'id' | 'undone_at' | 'undone_by_user_id'>): Promise<number> {
  const inserted = await db.insertInto('year_rollovers').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export function findRollover(db: Db, id: number): Promise<RolloverRow | undefined> {
  return db.selectFrom('year_rollovers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The runs, newest first. */
export function listRollovers(db: Db, limit = 20): Promise<RolloverRow[]> {
  return db.selectFrom('year_rollovers').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** Whether a run after this one stands (not undone). */
export async function hasLaterRollover(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('year_rollovers').select('id').where('id', '>', id).where('undone_at', 'is', null).executeTakeFirst();
  return row !== undefined;
}

/** Marks the run undone, once: false when another undo got there first. */
export async function markUndone(db: Db, id: number, userId: number | null, at: string): Promise<boolean> {
  const result = await db
    .updateTable('year_rollovers')
    .set({ undone_at: at, undone_by_user_id: userId, updated_at: at })
    .where('id', '=', id)
    .where('undone_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
