import type { Insertable } from 'kysely';
import { compiledOnce, type SlotOf } from '../db/compiled-query.js';
import type { Db } from '../db/database.js';
import type { SessionTable } from '../db/schema.js';
import type { StaffRole } from '../../shared/staff.js';
import type { UserRole } from '../db/schema.js';

/** All SQL of the sessions table (the session plugin, sign-in and password resets use it). */

/** A session row joined to its user and, for a student, the student's names. */
export interface SessionUserRow {
  expires_at: string;
  last_seen_at: string;
  remember: number;
  second_factor_setup: number;
  user_id: number;
  role: UserRole;
  staff_role: StaffRole | null;
  disabled: number;
  student_id: string | null;
  username: string | null;
  email: string | null;
  display_name: string | null;
  first_login: number;
  password_reset: number;
  first_name: string | null;
  last_name: string | null;
}

/**
 * The session with this hashed id and its user, in one indexed read; undefined when there is none.
 * Every signed-in request asks, so the query is compiled once (db/compiled-query.ts).
 */
const selectSessionUser = compiledOnce((db, slot: SlotOf<{ idHash: string }>) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('students', 'students.id', 'users.student_id')
    .select([
      'sessions.expires_at',
      'sessions.last_seen_at',
      'sessions.remember',
      'sessions.second_factor_setup',
      'users.id as user_id',
      'users.role',
      'users.staff_role',
      'users.disabled',
      'users.student_id',
      'users.username',
      'users.email',
      'users.display_name',
      'users.first_login',
      'users.password_reset',
      'students.first_name',
      'students.last_name',
    ])
    .where('sessions.id_hash', '=', slot('idHash')),
);

export async function findSessionUser(db: Db, idHash: string): Promise<SessionUserRow | undefined> {
  const [row] = await selectSessionUser(db, { idHash });
  return row;
}

export async function insertSession(db: Db, session: Insertable<SessionTable>): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a user, except the one with `exceptIdHash` when given. */
export async function deleteSessionsOfUser(db: Db, userId: number, exceptIdHash?: string | null): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptIdHash) query = query.where('id_hash', '!=', exceptIdHash);
  await query.execute();
}

/** Records that the session was used at `at` (ISO text); a sliding session also gets its new end. */
export async function touchSession(db: Db, idHash: string, at: string, expiresAt?: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: at, updated_at: at, ...(expiresAt ? { expires_at: expiresAt } : {}) })
    .where('id_hash', '=', idHash)
    .execute();
}

/** The kind of account a user is (student, family or staff), to choose its session's lifetime. */
export async function roleOfUser(db: Db, userId: number): Promise<UserRole | undefined> {
  const row = await db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst();
  return row?.role;
}

/** The classes assigned to a staff account (a form teacher's), in class order. */
export async function staffClassIds(db: Db, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('staff_classes').select('class_id').where('user_id', '=', userId).orderBy('class_id').execute();
  return rows.map((row) => row.class_id);
}

/** The children a family account is linked to, in student ID order. */
export async function guardianChildIds(db: Db, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('guardian_students').select('student_id').where('user_id', '=', userId).orderBy('student_id').execute();
  return rows.map((row) => row.student_id);
}
