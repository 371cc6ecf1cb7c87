import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { IntakeFinaliseTable, IntakeStudentTable } from '../db/schema.js';

/** All SQL of the new Form 1's intake (docs/decisions.md D61). */

export type IntakeRow = Selectable<IntakeStudentTable>;
export type NewIntakeRow = Insertable<IntakeStudentTable>;

/** The intake in a stable order: class (none last), last name, first name, SEA number. */
export async function listIntake(db: Db): Promise<IntakeRow[]> {
  const rows = await db.selectFrom('intake_students').selectAll().execute();
  return rows.sort(compareIntake);
}

/** Class (not allocated last), then last name, first name, SEA number: the screen's and the numbering's order. */
export function compareIntake(a: IntakeRow, b: IntakeRow): number {
  const byClass = (a.class_id === null ? 1 : 0) - (b.class_id === null ? 1 : 0) || (a.class_id ?? '').localeCompare(b.class_id ?? '');
  return byClass || a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name) || a.sea_no.localeCompare(b.sea_no);
}

export async function countIntake(db: Db): Promise<number> {
  const row = await db.selectFrom('intake_students').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Stores the checked rows of a placement list (in chunks: SQLite takes a bounded number of parameters). */
export async function insertIntake(db: Db, rows: readonly NewIntakeRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('intake_students').values(rows.slice(i, i + 200)).execute();
}

/**
 * Removes every child of the intake and answers them in the screen's order: the finalise's claim.
 * A second finalise at the same moment waits on the first's delete (PostgreSQL's row locks, SQLite's
 * one writer) and then finds nothing to take, instead of numbering the same children again.
 */
export async function takeIntake(db: Db): Promise<IntakeRow[]> {
  const rows = await db.deleteFrom('intake_students').returningAll().execute();
  return rows.sort(compareIntake);
}

export async function clearIntake(db: Db): Promise<number> {
  const result = await db.deleteFrom('intake_students').executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function findIntakeStudent(db: Db, id: number): Promise<IntakeRow | undefined> {
  return db.selectFrom('intake_students').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Puts children of the intake in a class (null: not allocated). */
export async function setIntakeClassOf(db: Db, ids: readonly number[], classId: string | null, at: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db.updateTable('intake_students').set({ class_id: classId, updated_at: at }).where('id', 'in', ids.slice(i, i + 500)).execute();
  }
}

/** The Form 1 classes in school order. */
export async function listFormOneClassIds(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('form_classes').select('id').where('form_level', '=', 1).orderBy('id').execute();
  return rows.map((row) => row.id);
}

/** Students already in each of the classes, by sex. */
export async function countStudentsByClassAndSex(db: Db, classIds: readonly string[]): Promise<{ class_id: string; sex: string | null; n: number }[]> {
  if (classIds.length === 0) return [];
  const rows = await db
    .selectFrom('students')
    .select(['class_id', 'sex', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('class_id', 'in', classIds)
    .groupBy(['class_id', 'sex'])
    .execute();
  return rows.map((row) => ({ class_id: row.class_id!, sex: row.sex, n: Number(row.n) }));
}

/** The IDs of an entry year's numbering ('2026…'), for the next number (D61). */
export async function listStudentIdsOfYear(db: Db, entryYear: number): Promise<string[]> {
  const rows = await db.selectFrom('students').select('id').where('id', 'like', `${entryYear}%`).execute();
  return rows.map((row) => row.id);
}

// ---- the finalises and their undo (D79) ------------------------------------------------------------

export type FinaliseRow = Selectable<IntakeFinaliseTable>;

export async function insertFinalise(db: Db, row: Omit<Insertable<IntakeFinaliseTable>, 'id' | 'undone_at' | 'undone_by_user_id'>): Promise<number> {
  const inserted = await db.insertInto('intake_finalises').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** The finalises, newest first. */
export function listFinalises(db: Db, limit = 20): Promise<FinaliseRow[]> {
  return db.selectFrom('intake_finalises').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

export function findFinalise(db: Db, id: number): Promise<FinaliseRow | undefined> {
  return db.selectFrom('intake_finalises').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether a finalise after this one stands (not undone). */
export async function hasLaterFinalise(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('intake_finalises').select('id').where('id', '>', id).where('undone_at', 'is', null).executeTakeFirst();
  return row !== undefined;
}

/** Marks the finalise undone, once: false when another undo got there first. */
export async function markFinaliseUndone(db: Db, id: number, userId: number | null, at: string): Promise<boolean> {
  const result = await db
    .updateTable('intake_finalises')
    .set({ undone_at: at, undone_by_user_id: userId, updated_at: at })
    .where('id', '=', id)
    .where('undone_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The records a finalise wrote, as they are now (the undo reads the children back from them). */
export async function findStudentRecords(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('students')
    .select(['id', 'first_name', 'middle_name', 'last_name', 'date_of_birth', 'sex', 'sea_no', 'previous_school', 'class_id', 'left_on', 'updated_at'])
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * The students among `ids` used since they were created: their account signed in (a password, no
 * longer waiting for the first sign-in, or a session), or a document, a family link, attendance,
 * results or an office decision names them. Their record's own changes the caller compares.
 */
export async function findUsedStudents(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const used = new Set<string>();
  if (ids.length === 0) return used;
  const list = [...ids];
  const accounts = await db
    .selectFrom('users')
    .select('student_id')
    .where('student_id', 'in', list)
    .where((eb) => eb.or([eb('first_login', '=', 0), eb('password_hash', 'is not', null), eb.exists(eb.selectFrom('sessions').select('sessions.user_id').whereRef('sessions.user_id', '=', 'users.id'))]))
    .execute();
  for (const row of accounts) if (row.student_id) used.add(row.student_id);
  for (const table of ['documents', 'guardian_students', 'attendance_records', 'attendance_scans', 'term_results', 'term_summaries', 'registration_reviews'] as const) {
    const rows = await db.selectFrom(table).select('student_id').where('student_id', 'in', list).execute();
    for (const row of rows) used.add(row.student_id);
  }
  return used;
}

/** Deletes the students; their account and every row naming them go with them (the foreign keys cascade). */
export async function deleteStudents(db: Db, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) await db.deleteFrom('students').where('id', 'in', ids.slice(i, i + 500)).execute();
}
