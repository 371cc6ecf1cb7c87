import type { Db } from '../db/database.js';
import { onRoll } from '../db/student-scope.js';

/** The SQL of the student list's bulk actions and class printouts (docs/decisions.md D83). */

/** How many ids one `in (…)` names at most: well under either engine's limit on parameters. */
const IDS_PER_QUERY = 500;

async function inChunks<T>(ids: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) rows.push(...(await read(ids.slice(i, i + IDS_PER_QUERY))));
  return rows;
}

/** What a bulk action needs of each student. */
export interface BulkStudentRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  class_id: string | null;
  left_on: string | null;
  email_mother: string | null;
  email_father: string | null;
  email_guardian: string | null;
}

/** The given students that exist (former ones too), in no particular order. */
export function findBulkStudents(db: Db, ids: readonly string[]): Promise<BulkStudentRow[]> {
  return inChunks(ids, (chunk) =>
    db
      .selectFrom('students')
      .select(['id', 'first_name', 'last_name', 'class_id', 'left_on', 'email_mother', 'email_father', 'email_guardian'])
      .where('id', 'in', chunk)
      .execute(),
  );
}

/** Puts the students in the class (those already in it are left as they are). */
export async function moveToClass(trx: Db, ids: readonly string[], classId: string, at: string): Promise<void> {
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    await trx.updateTable('students').set({ class_id: classId, updated_at: at }).where('id', 'in', ids.slice(i, i + IDS_PER_QUERY)).execute();
  }
}

/** Invitations sent to these students' records since `since`: the student and the address (lower-case). */
export async function listInvitationsSince(db: Db, studentIds: readonly string[], since: string): Promise<{ student_id: string; email: string }[]> {
  const rows = await inChunks(studentIds, (chunk) =>
    db
      .selectFrom('family_tokens')
      .select(['student_id', 'email'])
      .where('purpose', '=', 'invitation')
      .where('student_id', 'in', chunk)
      .where('created_at', '>', since)
      .execute(),
  );
  return rows.flatMap((row) => (row.student_id && row.email ? [{ student_id: row.student_id, email: row.email.trim().toLowerCase() }] : []));
}

/** Which of the students the office already holds this document of on paper. */
export async function listPaperDocumentHolders(db: Db, studentIds: readonly string[], fileType: string): Promise<Set<string>> {
  const rows = await inChunks(studentIds, (chunk) =>
    db.selectFrom('paper_documents').select('student_id').where('file_type', '=', fileType).where('student_id', 'in', chunk).execute(),
  );
  return new Set(rows.map((row) => row.student_id));
}

export async function insertPaperDocuments(trx: Db, studentIds: readonly string[], fileType: string, userId: number | null, at: string): Promise<void> {
  for (let i = 0; i < studentIds.length; i += IDS_PER_QUERY) {
    const rows = studentIds.slice(i, i + IDS_PER_QUERY).map((studentId) => ({ student_id: studentId, file_type: fileType, received_by_user_id: userId, received_at: at, created_at: at, updated_at: at }));
    await trx.insertInto('paper_documents').values(rows).execute();
  }
}

/** One row of a printed class list or register. */
export interface ClassRollRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  sex: string | null;
}

/** The students on the roll of one class. */
export function listClassRoll(db: Db, classId: string): Promise<ClassRollRow[]> {
  return db.selectFrom('students').select(['id', 'first_name', 'last_name', 'sex']).where('class_id', '=', classId).where(onRoll).execute();
}

/** The school's holidays between two dates (yyyy-MM-dd), which a register leaves out. */
export async function listHolidayDates(db: Db, from: string, to: string): Promise<string[]> {
  const rows = await db.selectFrom('school_holidays').select('date').where('date', '>=', from).where('date', '<=', to).execute();
  return rows.map((row) => row.date);
}
