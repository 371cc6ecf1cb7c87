import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { ParentEmailField } from '../db/schema.js';
import type { OptionalNoticeKind } from '../../shared/notices.schemas.js';
import { onRoll } from '../db/student-scope.js';

/** All SQL of messages to families (docs/decisions.md D57). */

export interface NoticeStudent {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email_mother: string | null;
  email_father: string | null;
  email_guardian: string | null;
}

export async function findStudents(db: Db, ids: readonly string[]): Promise<NoticeStudent[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name', 'email_mother', 'email_father', 'email_guardian'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
}

/** The enabled, verified family accounts linked to these students. */
export async function listLinkedAccounts(db: Db, studentIds: readonly string[]) {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom('guardian_students')
    .innerJoin('users', 'users.id', 'guardian_students.user_id')
    .select(['guardian_students.student_id', 'users.id as user_id', 'users.email', 'users.display_name'])
    .where('guardian_students.student_id', 'in', [...studentIds])
    .where('users.role', '=', 'guardian')
    .where('users.disabled', '=', 0)
    .where('users.email_verified_at', 'is not', null)
    .orderBy('users.id')
    .execute();
}

export async function listEmailVerifications(db: Db, studentIds: readonly string[]) {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom('parent_email_verifications')
    .select(['student_id', 'parent', 'email', 'created_at'])
    .where('student_id', 'in', [...studentIds])
    .execute();
}

export async function upsertEmailVerification(db: Db, row: { studentId: string; parent: ParentEmailField; email: string; userId: number | null; at: string }): Promise<void> {
  await db
    .insertInto('parent_email_verifications')
    .values({ student_id: row.studentId, parent: row.parent, email: row.email, verified_by_user_id: row.userId, created_at: row.at, updated_at: row.at })
    .onConflict((oc) => oc.columns(['student_id', 'parent']).doUpdateSet({ email: row.email, verified_by_user_id: row.userId, created_at: row.at, updated_at: row.at }))
    .execute();
}

export async function deleteEmailVerification(db: Db, studentId: string, parent: ParentEmailField): Promise<boolean> {
  const result = await db.deleteFrom('parent_email_verifications').where('student_id', '=', studentId).where('parent', '=', parent).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The optional kinds a recipient turned off (or back on). */
export async function listPreferences(db: Db, recipientKeys: readonly string[]) {
  if (recipientKeys.length === 0) return [];
  return db.selectFrom('notice_preferences').select(['recipient_key', 'kind', 'enabled']).where('recipient_key', 'in', [...recipientKeys]).execute();
}

export async function putPreference(db: Db, recipientKey: string, kind: OptionalNoticeKind, enabled: boolean, at: string): Promise<void> {
  const value = enabled ? 1 : 0;
  await db
    .insertInto('notice_preferences')
    .values({ recipient_key: recipientKey, kind, enabled: value, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['recipient_key', 'kind']).doUpdateSet({ enabled: value, updated_at: at }))
    .execute();
}

/**
 * Adds a notice; answers its id, or null when its `notice_key` is taken (the digest of that day or
 * the reminder of that week exists already, written by this process or another).
 */
export async function insertNotice(
  db: Db,
  notice: { recipientKey: string; userId: number | null; email: string; kind: string; data: string; noticeKey: string | null; studentIds: readonly string[]; at: string },
): Promise<number | null> {
  const row = await db
    .insertInto('notices')
    .values({
      recipient_key: notice.recipientKey,
      user_id: notice.userId,
      email: notice.email,
      kind: notice.kind,
      data: notice.data,
      notice_key: notice.noticeKey,
      created_at: notice.at,
      updated_at: notice.at,
    })
    .onConflict((oc) => oc.column('notice_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return null;
  if (notice.studentIds.length > 0) {
    await db
      .insertInto('notice_students')
      .values(notice.studentIds.map((studentId) => ({ notice_id: row.id, student_id: studentId })))
      .execute();
  }
  return row.id;
}

export async function setOutboxId(db: Db, noticeId: number, outboxId: number): Promise<void> {
  await db.updateTable('notices').set({ outbox_id: outboxId }).where('id', '=', noticeId).execute();
}

export interface NoticeRow {
  id: number;
  kind: string;
  data: string;
  created_at: string;
  read_at: string | null;
}

const NOTICE_COLUMNS = ['notices.id', 'notices.kind', 'notices.data', 'notices.created_at', 'notices.read_at'] as const;

/** A family account's notices, newest first. */
export async function listNoticesOfUser(db: Db, userId: number, limit: number): Promise<NoticeRow[]> {
  return db.selectFrom('notices').select(NOTICE_COLUMNS).where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * A student's own notices: those about them alone (a family's digest or report notice that also
 * names a sibling stays with the family, D57). One copy per message: the family may have several
 * recipients, each with a copy of the same words.
 */
export async function listNoticesOfStudent(db: Db, studentId: string, limit: number): Promise<NoticeRow[]> {
  const alone = db
    .selectFrom('notice_students')
    .select('notice_id')
    .groupBy('notice_id')
    .having(sql<number>`count(*)`, '=', 1);
  return db
    .selectFrom('notices')
    .innerJoin('notice_students', 'notice_students.notice_id', 'notices.id')
    .select(NOTICE_COLUMNS)
    .where('notice_students.student_id', '=', studentId)
    .where('notices.id', 'in', alone)
    .orderBy('notices.created_at', 'desc')
    .orderBy('notices.id', 'desc')
    .limit(limit)
    .execute();
}

export async function listNoticeStudents(db: Db, noticeIds: readonly number[]) {
  if (noticeIds.length === 0) return [];
  return db.selectFrom('notice_students').select(['notice_id', 'student_id']).where('notice_id', 'in', [...noticeIds]).execute();
}

export async function findNoticeOfUser(db: Db, id: number, userId: number) {
  return db.selectFrom('notices').select(['id', 'read_at']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function markRead(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('notices').set({ read_at: at, updated_at: at }).where('id', '=', id).where('read_at', 'is', null).execute();
}

/** Recipients (of `keys`) that had a notice of this kind since `since`. */
export async function recipientsNotifiedSince(db: Db, kind: string, keys: readonly string[], since: string): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('notices')
    .select('recipient_key')
    .distinct()
    .where('kind', '=', kind)
    .where('recipient_key', 'in', [...keys])
    .where('created_at', '>=', since)
    .execute();
  return new Set(rows.map((row) => row.recipient_key));
}

export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  return (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
}

export async function putSetting(db: Db, key: string, value: string, at: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: at }))
    .execute();
}

/** Students in a class, with the registration window of their form level, their progress and the office's decision. */
export async function listStudentsForReminders(db: Db) {
  return db
    .selectFrom('students')
    .innerJoin('form_classes', 'form_classes.id', 'students.class_id')
    .leftJoin('registration_periods as own_period', 'own_period.form_level', 'form_classes.form_level')
    .leftJoin('registration_periods as default_period', (join) => join.on('default_period.form_level', 'is', null))
    .leftJoin('registration_progress', 'registration_progress.student_id', 'students.id')
    .leftJoin('registration_reviews', 'registration_reviews.student_id', 'students.id')
    .select([
      'students.id',
      'registration_reviews.state as review_state',
      'own_period.open as own_open',
      'own_period.deadline as own_deadline',
      'default_period.open as default_open',
      'default_period.deadline as default_deadline',
      'registration_progress.student_data',
      'registration_progress.family_data',
      'registration_progress.health_data',
      'registration_progress.other_data',
      'registration_progress.documents',
      'registration_progress.submit',
    ])
    .where(onRoll)
    .orderBy('students.id')
    .execute();
}

/** Students in a class (on the school's roll) and their record of one day, if any. */
export async function listRollWithDay(db: Db, date: string) {
  return db
    .selectFrom('students')
    .leftJoin('attendance_records', (join) => join.onRef('attendance_records.student_id', '=', 'students.id').on('attendance_records.date_scanned', '=', date))
    .select([
      'students.id',
      'attendance_records.id as record_id',
      'attendance_records.attendance_am',
      'attendance_records.attendance_pm',
      'attendance_records.late',
      'attendance_records.time_in',
    ])
    .where('students.class_id', 'is not', null)
    .where(onRoll)
    .orderBy('students.id')
    .execute();
}

/** The students with results in a term (each once): the families told that its reports are posted. */
export async function listStudentsWithResults(db: Db, year: number, term: number): Promise<string[]> {
  const rows = await db.selectFrom('term_results').select('student_id').distinct().where('year', '=', year).where('term', '=', term).execute();
  return rows.map((row) => row.student_id);
}

export async function isSchoolHoliday(db: Db, date: string): Promise<boolean> {
  return (await db.selectFrom('school_holidays').select('id').where('date', '=', date).executeTakeFirst()) !== undefined;
}

/** An account's e-mail address; '' when it has none (or the account is gone). */
export async function findUserEmail(db: Db, userId: number): Promise<string> {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email ?? '';
}
