import { PostgresAdapter, type Selectable } from 'kysely';
import type { ProgressFlags } from '../../shared/registration.progress.js';
import type { RegistrationPeriod } from '../../shared/registration.schemas.js';
import { nowIso, type Db } from '../db/database.js';
import type { StudentTable } from '../db/schema.js';

/** All SQL of the registration feature (STYLE "A server feature"). */

export type StudentRow = Selectable<StudentTable>;

/** The student's row, or undefined. Inside a PostgreSQL transaction the row is locked until commit. */
export async function findStudentRow(db: Db, id: string, options: { lock?: boolean } = {}): Promise<StudentRow | undefined> {
  let query = db.selectFrom('students').selectAll().where('id', '=', id);
  // SQLite serialises writers itself; PostgreSQL needs the lock so two saves of the same record
  // read each other's committed values and the audit's old values are true.
  if (options.lock && db.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The form level of the student's class, or null without a class. */
export async function findFormLevelOfStudent(db: Db, id: string): Promise<number | null> {
  const row = await db
    .selectFrom('students')
    .leftJoin('form_classes', 'form_classes.id', 'students.class_id')
    .select('form_classes.form_level')
    .where('students.id', '=', id)
    .executeTakeFirst();
  return row?.form_level ?? null;
}

/** Writes the given columns and the new `updated_at`. */
export async function updateStudentColumns(db: Db, id: string, values: Record<string, string | number | null>, updatedAt: string): Promise<void> {
  await db
    .updateTable('students')
    .set({ ...(values as Partial<StudentRow>), updated_at: updatedAt })
    .where('id', '=', id)
    .execute();
}

/** The document types (slots) the student has a file in. */
export async function listDocumentTypes(db: Db, studentId: string): Promise<string[]> {
  const rows = await db.selectFrom('documents').select('file_type').where('student_id', '=', studentId).execute();
  return rows.map((row) => row.file_type);
}

/** Stores the computed flags (one row per student). */
export async function upsertProgress(db: Db, studentId: string, flags: ProgressFlags, at: string): Promise<void> {
  const values = {
    student_data: flags.studentData,
    family_data: flags.familyData,
    health_data: flags.healthData,
    other_data: flags.otherData,
    documents: flags.documents,
    submit: flags.submit,
    terms_and_conditions: flags.termsAndConditions,
  };
  await db
    .insertInto('registration_progress')
    .values({ student_id: studentId, ...values, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('student_id').doUpdateSet({ ...values, updated_at: at }))
    .execute();
}

function toPeriod(row: { form_level: number | null; open: number; deadline: string | null; updated_at: string }): RegistrationPeriod {
  return { form_level: row.form_level, open: row.open === 1 ? 1 : 0, deadline: row.deadline, updated_at: row.updated_at };
}

/** Every period row: the default (form_level null) first, then by form level. */
export async function listPeriods(db: Db): Promise<RegistrationPeriod[]> {
  const rows = await db.selectFrom('registration_periods').select(['form_level', 'open', 'deadline', 'updated_at']).execute();
  return rows
    .map(toPeriod)
    .sort((a, b) => (a.form_level ?? 0) - (b.form_level ?? 0));
}

/** The row of a form level (null = the default row), or undefined. */
export async function findPeriod(db: Db, formLevel: number | null): Promise<RegistrationPeriod | undefined> {
  let query = db.selectFrom('registration_periods').select(['form_level', 'open', 'deadline', 'updated_at']);
  query = formLevel === null ? query.where('form_level', 'is', null) : query.where('form_level', '=', formLevel);
  const row = await query.executeTakeFirst();
  return row ? toPeriod(row) : undefined;
}

/** Creates or replaces the row of a form level (null = the default). */
export async function savePeriod(db: Db, period: { form_level: number | null; open: 0 | 1; deadline: string | null }): Promise<void> {
  const at = nowIso();
  let update = db.updateTable('registration_periods').set({ open: period.open, deadline: period.deadline, updated_at: at });
  update = period.form_level === null ? update.where('form_level', 'is', null) : update.where('form_level', '=', period.form_level);
  const result = await update.executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    await db
      .insertInto('registration_periods')
      .values({ form_level: period.form_level, open: period.open, deadline: period.deadline, created_at: at, updated_at: at })
      .execute();
  }
}

/** Removes a form level's own row, so the default applies to it again. */
export async function deletePeriod(db: Db, formLevel: number): Promise<boolean> {
  const result = await db.deleteFrom('registration_periods').where('form_level', '=', formLevel).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
