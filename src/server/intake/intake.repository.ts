import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { IntakeStudentTable } from '../db/schema.js';

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
