import type { Insertable, Selectable } from 'kysely';
import type { ProgressFlags } from '../../shared/registration.progress.js';
import type { RegistrationPeriod } from '../../shared/registration.schemas.js';
import { definedKeysOf, isPostgres, nowIso, preparedQuery, type Db } from '../db/database.js';
import type { RegistrationProgressTable, StudentTable } from '../db/schema.js';

/** All SQL of the registration feature (STYLE "A server feature"). */

export type StudentRow = Selectable<StudentTable>;

const selectStudentRow = preparedQuery((db: Db, { id }: { id: string }) => db.selectFrom('students').selectAll().where('id', '=', id));
const selectStudentRowForUpdate = preparedQuery((db: Db, { id }: { id: string }) =>
  db.selectFrom('students').selectAll().where('id', '=', id).forUpdate(),
);

/** The student's row, or undefined. Inside a PostgreSQL transaction the row is locked until commit. */
export async function findStudentRow(db: Db, id: string, options: { lock?: boolean } = {}): Promise<StudentRow | undefined> {
  // SQLite serialises writers itself; PostgreSQL needs the lock so two saves of the same record
  // read each other's committed values and the audit's old values are true.
  const query = options.lock && isPostgres(db) ? selectStudentRowForUpdate : selectStudentRow;
  const { rows } = await query(db, { id });
  return rows[0];
}

const selectWindowOfStudent = preparedQuery((db: Db, { studentId }: { studentId: string }) =>
  db
    .selectFrom('students')
    .leftJoin('form_classes', 'form_classes.id', 'students.class_id')
    .leftJoin('registration_periods as own_period', 'own_period.form_level', 'form_classes.form_level')
    .leftJoin('registration_periods as default_period', (join) => join.on('default_period.form_level', 'is', null))
    .select([
      'form_classes.form_level',
      'own_period.open as own_open',
      'own_period.deadline as own_deadline',
      'default_period.open as default_open',
      'default_period.deadline as default_deadline',
    ])
    .where('students.id', '=', studentId),
);

/**
 * The form level of the student's class (null without a class) and the window that applies to
 * it — its own row, else the default row, else none — in one read; undefined without the student.
 */
export async function findWindowOfStudent(
  db: Db,
  studentId: string,
): Promise<{ formLevel: number | null; period: Pick<RegistrationPeriod, 'open' | 'deadline'> | undefined } | undefined> {
  const { rows } = await selectWindowOfStudent(db, { studentId });
  const row = rows[0];
  if (!row) return undefined;
  const period =
    row.own_open !== null
      ? toWindow(row.own_open, row.own_deadline)
      : row.default_open !== null
        ? toWindow(row.default_open, row.default_deadline)
        : undefined;
  return { formLevel: row.form_level, period };
}

function toWindow(open: number, deadline: string | null): Pick<RegistrationPeriod, 'open' | 'deadline'> {
  return { open: open === 1 ? 1 : 0, deadline };
}

/** Compiled once per set of columns (a save sends one field, or a few). */
const updateStudent = preparedQuery(
  (db: Db, { id, values, updatedAt }: { id: string; values: Record<string, string | number | null>; updatedAt: string }) =>
    db
      .updateTable('students')
      .set({ ...(values as Partial<StudentRow>), updated_at: updatedAt })
      .where('id', '=', id),
  ({ values }) => definedKeysOf(values),
);

/** Writes the given columns and the new `updated_at`. */
export async function updateStudentColumns(db: Db, id: string, values: Record<string, string | number | null>, updatedAt: string): Promise<void> {
  await updateStudent(db, { id, values, updatedAt });
}

const selectDocumentTypes = preparedQuery((db: Db, { studentId }: { studentId: string }) =>
  db.selectFrom('documents').select('file_type').where('student_id', '=', studentId),
);

/** The document types (slots) the student has a file in. */
export async function listDocumentTypes(db: Db, studentId: string): Promise<string[]> {
  const { rows } = await selectDocumentTypes(db, { studentId });
  return rows.map((row) => row.file_type);
}

type ProgressColumns = Omit<Insertable<RegistrationProgressTable>, 'student_id' | 'created_at' | 'updated_at'>;

const upsertProgressRow = preparedQuery((db: Db, { studentId, values, at }: { studentId: string; values: ProgressColumns; at: string }) =>
  db
    .insertInto('registration_progress')
    .values({ student_id: studentId, ...values, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('student_id').doUpdateSet({ ...values, updated_at: at })),
);

/** Stores the computed flags (one row per student). */
export async function upsertProgress(db: Db, studentId: string, flags: ProgressFlags, at: string): Promise<void> {
  const values: ProgressColumns = {
    student_data: flags.studentData,
    family_data: flags.familyData,
    health_data: flags.healthData,
    other_data: flags.otherData,
    documents: flags.documents,
    submit: flags.submit,
    terms_and_conditions: flags.termsAndConditions,
  };
  await upsertProgressRow(db, { studentId, values, at });
}

function toPeriod(row: { form_level: number | null; open: number; deadline: string | null; updated_at: string }): RegistrationPeriod {
  return { form_level: row.form_level, ...toWindow(row.open, row.deadline), updated_at: row.updated_at };
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
