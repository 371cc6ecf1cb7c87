import { sql, type ExpressionBuilder, type Insertable, type Selectable } from 'kysely';
import type { IdentityField } from '../../shared/registration.fields.js';
import type { ProgressFlags } from '../../shared/registration.progress.js';
import type { RegistrationPeriod } from '../../shared/registration.schemas.js';
import { compiledOnce, type SlotOf } from '../db/compiled-query.js';
import { isPostgres, nowIso, type Db } from '../db/database.js';
import type { Database, RegistrationProgressTable, StudentTable } from '../db/schema.js';
import { searchNameOfUpdate } from '../db/student-search.js';

/** All SQL of the registration feature (docs/architecture.md "Adding a server feature"). */

export type StudentRow = Selectable<StudentTable>;

/** The document slots a student has filled, as one text (`,` between types; types are slugs). */
function documentTypesText(db: Db) {
  return isPostgres(db) ? sql<string | null>`string_agg(documents.file_type, ',')` : sql<string | null>`group_concat(documents.file_type, ',')`;
}

/**
 * The `document_types` column of a student read: the text of `documentTypesText`. A document the
 * office returned does not fill its slot (D56): the family must upload a new one.
 */
function documentTypesColumn(db: Db, eb: ExpressionBuilder<Database, 'students'>) {
  return eb
    .selectFrom('documents')
    .select(documentTypesText(db).as('types'))
    .whereRef('documents.student_id', '=', 'students.id')
    .where('documents.review_state', '<>', 'returned')
    .as('document_types');
}

/** The `review_state` column of a student read: the office's decision on the record, if any (D56). */
function reviewStateColumn(eb: ExpressionBuilder<Database, 'students'>) {
  return eb.selectFrom('registration_reviews').select('registration_reviews.state').whereRef('registration_reviews.student_id', '=', 'students.id').as('review_state');
}

function splitDocumentTypes(text: string | null): string[] {
  return text ? text.split(',') : [];
}

/** The record's read, compiled once: every registration screen asks for it (db/compiled-query.ts). */
const selectStudentRow = compiledOnce((db, slot: SlotOf<{ id: string }>) =>
  db
    .selectFrom('students')
    .selectAll('students')
    .select((eb) => documentTypesColumn(db, eb))
    .where('students.id', '=', slot('id')),
);

/** The student's row and the document types they have a file in, in one read; undefined without the student. */
export async function findStudentRow(db: Db, id: string): Promise<{ row: StudentRow; documentTypes: string[] } | undefined> {
  const [found] = await selectStudentRow(db, { id });
  // The row keeps the extra column (copying a 98-column row costs more than the read).
  return found ? { row: found, documentTypes: splitDocumentTypes(found.document_types) } : undefined;
}

/** Students with the windows that may apply to each: its form level's own period and the default. */
function studentsWithWindows(db: Db) {
  return db
    .selectFrom('students')
    .leftJoin('form_classes', 'form_classes.id', 'students.class_id')
    .leftJoin('registration_periods as own_period', 'own_period.form_level', 'form_classes.form_level')
    .leftJoin('registration_periods as default_period', (join) => join.on('default_period.form_level', 'is', null));
}

/**
 * What a save reads, in one statement: the student's row (its old values for the audit rows, the
 * whole record for the progress flags), the document types they have a file in, and the
 * registration window of their form level; undefined without the student. With `lock`, on
 * PostgreSQL the row is locked until commit, so two saves of the same record read each other's
 * committed values and the audit's old values are true (SQLite serialises writers itself).
 */
export async function findStudentForSave(
  db: Db,
  id: string,
  options: { lock: boolean },
): Promise<{ row: StudentRow; documentTypes: string[]; window: StudentWindow } | undefined> {
  const query = studentsWithWindows(db)
    .selectAll('students')
    .select((eb) => [
      documentTypesColumn(db, eb),
      reviewStateColumn(eb),
      // The window's columns, named apart from the student's own.
      'form_classes.form_level as window_form_level',
      'own_period.open as window_own_open',
      'own_period.deadline as window_own_deadline',
      'default_period.open as window_default_open',
      'default_period.deadline as window_default_deadline',
    ])
    .where('students.id', '=', id);
  const found = await (options.lock && isPostgres(db) ? query.forUpdate('students') : query).executeTakeFirst();
  if (!found) return undefined;
  const window = windowOf({
    form_level: found.window_form_level,
    own_open: found.window_own_open,
    own_deadline: found.window_own_deadline,
    default_open: found.window_default_open,
    default_deadline: found.window_default_deadline,
    review_state: found.review_state,
  });
  // The row keeps the extra columns (copying a 98-column row costs more than the read).
  return { row: found, documentTypes: splitDocumentTypes(found.document_types), window };
}

/** The form level of a student's class (null without a class) and the window that applies to it, if any. */
export interface StudentWindow {
  formLevel: number | null;
  period: Pick<RegistrationPeriod, 'open' | 'deadline'> | undefined;
  /** The office's decision on the record: verified closes it to the family (D56). */
  review: 'returned' | 'verified' | null;
}

/** The window columns of a read: the class's form level, its own period and the default period. */
interface WindowRow {
  form_level: number | null;
  own_open: number | null;
  own_deadline: string | null;
  default_open: number | null;
  default_deadline: string | null;
  review_state: 'returned' | 'verified' | null;
}

/** Its own period, else the default, else none. */
function windowOf(row: WindowRow): StudentWindow {
  const period =
    row.own_open !== null
      ? toWindow(row.own_open, row.own_deadline)
      : row.default_open !== null
        ? toWindow(row.default_open, row.default_deadline)
        : undefined;
  return { formLevel: row.form_level, period, review: row.review_state };
}

/**
 * The form level of the student's class (null without a class) and the window that applies to
 * it — its own row, else the default row, else none — in one read; undefined without the student.
 */
export async function findWindowOfStudent(db: Db, studentId: string): Promise<StudentWindow | undefined> {
  const row = await studentsWithWindows(db)
    .select([
      'form_classes.form_level',
      'own_period.open as own_open',
      'own_period.deadline as own_deadline',
      'default_period.open as default_open',
      'default_period.deadline as default_deadline',
      reviewStateColumn,
    ])
    .where('students.id', '=', studentId)
    .executeTakeFirst();
  return row ? windowOf(row) : undefined;
}

/** The windows of several students in one read (a family's home cards); a student not found is left out. */
export async function findWindowsOfStudents(db: Db, studentIds: readonly string[]): Promise<Map<string, StudentWindow>> {
  if (studentIds.length === 0) return new Map();
  const rows = await studentsWithWindows(db)
    .select([
      'students.id',
      'form_classes.form_level',
      'own_period.open as own_open',
      'own_period.deadline as own_deadline',
      'default_period.open as default_open',
      'default_period.deadline as default_deadline',
      reviewStateColumn,
    ])
    .where('students.id', 'in', [...studentIds])
    .execute();
  return new Map(rows.map((row) => [row.id, windowOf(row)] as const));
}

function toWindow(open: number, deadline: string | null): Pick<RegistrationPeriod, 'open' | 'deadline'> {
  return { open: open === 1 ? 1 : 0, deadline };
}

/** Writes the given columns and the new `updated_at`. */
export async function updateStudentColumns(db: Db, id: string, values: Record<string, string | number | null>, updatedAt: string): Promise<void> {
  await db
    .updateTable('students')
    .set({ ...(values as Partial<StudentRow>), ...(await searchNameOfUpdate(db, id, values)), updated_at: updatedAt })
    .where('id', '=', id)
    .execute();
}

/**
 * Whether a student other than `exceptId` has this identity number, compared as the unique index
 * of migration 0004 compares it (`upper` on both sides).
 */
export async function isIdentityTaken(db: Db, field: IdentityField, value: string, exceptId: string): Promise<boolean> {
  const row = await db
    .selectFrom('students')
    .select('id')
    .where(sql<string>`upper(${sql.ref(field)})`, '=', sql<string>`upper(${value})`)
    .where('id', '<>', exceptId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

type ProgressColumns = Omit<Insertable<RegistrationProgressTable>, 'student_id' | 'created_at' | 'updated_at'>;

const PROGRESS_COLUMNS = [
  'student_data',
  'family_data',
  'health_data',
  'other_data',
  'documents',
  'submit',
  'terms_and_conditions',
] as const satisfies readonly (keyof ProgressColumns)[];

/**
 * Stores the computed flags (one row per student): inserts the row, or updates it only when a flag
 * differs, since most saves change no flag and an update that changes nothing still writes the
 * row's page at commit. `updated_at` is when they last changed.
 */
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
  await db
    .insertInto('registration_progress')
    .values({ student_id: studentId, ...values, created_at: at, updated_at: at })
    .onConflict((oc) =>
      oc
        .column('student_id')
        .doUpdateSet({ ...values, updated_at: at })
        .where((eb) => eb.or(PROGRESS_COLUMNS.map((column) => eb(`registration_progress.${column}`, '<>', eb.ref(`excluded.${column}`))))),
    )
    .execute();
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

/** Removes the office's decision on a record (only `state` when given); answers whether there was one. */
export async function deleteReview(db: Db, studentId: string, state?: 'returned' | 'verified'): Promise<boolean> {
  let query = db.deleteFrom('registration_reviews').where('student_id', '=', studentId);
  if (state) query = query.where('state', '=', state);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether a family account is linked to the student (it may agree to the declaration online, D75). */
export async function hasLinkedFamily(db: Db, studentId: string): Promise<boolean> {
  const row = await db.selectFrom('guardian_students').select('user_id').where('student_id', '=', studentId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The name an account goes by (a family account's own name; its e-mail when it gave none). */
export async function findAccountName(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select(['display_name', 'email']).where('id', '=', userId).executeTakeFirst();
  return row ? (row.display_name?.trim() || row.email) : null;
}
