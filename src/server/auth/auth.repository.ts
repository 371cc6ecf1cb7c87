import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { StaffRole } from '../../shared/staff.js';
import type { UserRole } from '../db/schema.js';

/** The sign-in view of a user, with the student's names and date of birth when a student. */
export interface AuthUser {
  id: number;
  role: UserRole;
  /** The job of a staff account (D49); null for students. */
  staffRole: StaffRole | null;
  /** A disabled staff account cannot sign in. */
  disabled: boolean;
  username: string | null;
  studentId: string | null;
  displayName: string | null;
  passwordHash: string | null;
  firstLogin: boolean;
  passwordReset: boolean;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  /** A family account's sign-in address (staff may have one for mail). */
  email: string | null;
  /** A family account confirmed its address; one that has not cannot sign in. */
  emailVerified: boolean;
}

function baseQuery(db: Db) {
  return db
    .selectFrom('users')
    .leftJoin('students', 'students.id', 'users.student_id')
    .select([
      'users.id',
      'users.role',
      'users.staff_role',
      'users.disabled',
      'users.username',
      'users.student_id',
      'users.display_name',
      'users.password_hash',
      'users.first_login',
      'users.password_reset',
      'students.first_name',
      'students.last_name',
      'students.date_of_birth',
      'users.email',
      'users.email_verified_at',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

function toAuthUser(row: Row): AuthUser {
  return {
    id: row.id,
    role: row.role,
    staffRole: row.staff_role,
    disabled: row.disabled === 1,
    username: row.username,
    studentId: row.student_id,
    displayName: row.display_name,
    passwordHash: row.password_hash,
    firstLogin: row.first_login === 1,
    passwordReset: row.password_reset === 1,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    email: row.email,
    emailVerified: row.email_verified_at !== null,
  };
}

/** The student account of a user id (a student's reset link names its account), or undefined. */
export async function findStudentUserById(db: Db, userId: number): Promise<AuthUser | undefined> {
  const row = await baseQuery(db).where('users.role', '=', 'student').where('users.id', '=', userId).executeTakeFirst();
  return row && toAuthUser(row);
}

/** The student account for a student ID, or undefined. */
export async function findStudentUser(db: Db, studentId: string): Promise<AuthUser | undefined> {
  const row = await baseQuery(db).where('users.role', '=', 'student').where('users.student_id', '=', studentId).executeTakeFirst();
  return row && toAuthUser(row);
}

/** The staff account with this id, or undefined (the second step of a staff sign-in). */
export async function findStaffUserById(db: Db, userId: number): Promise<AuthUser | undefined> {
  const row = await baseQuery(db).where('users.role', '=', 'staff').where('users.id', '=', userId).executeTakeFirst();
  return row && toAuthUser(row);
}

/** The staff account for a user name (case-insensitive), or undefined. */
export async function findStaffUser(db: Db, username: string): Promise<AuthUser | undefined> {
  const row = await baseQuery(db)
    .where('users.role', '=', 'staff')
    .where(sql<string>`lower(users.username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row && toAuthUser(row);
}

/** Student accounts whose birth certificate pin or SEA number equals the identifier (any case). */
export async function findStudentUsersByIdentifier(db: Db, identifier: string): Promise<AuthUser[]> {
  const upper = identifier.toUpperCase();
  const rows = await baseQuery(db)
    .where('users.role', '=', 'student')
    .where((eb) =>
      eb.or([eb(sql<string>`upper(students.birth_certificate_no)`, '=', upper), eb(sql<string>`upper(students.sea_no)`, '=', upper)]),
    )
    .execute();
  return rows.map(toAuthUser);
}

/** Student IDs whose names (any case) and date of birth match exactly. */
export async function findStudentIdsByNameAndBirth(
  db: Db,
  firstName: string,
  lastName: string,
  dateOfBirth: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('students')
    .select('id')
    .where(sql<string>`lower(first_name)`, '=', firstName.toLowerCase())
    .where(sql<string>`lower(last_name)`, '=', lastName.toLowerCase())
    .where('date_of_birth', '=', dateOfBirth)
    .limit(2)
    .execute();
  return rows.map((row) => row.id);
}

/** Stores a new password hash and the account's flags. */
export async function updatePassword(
  db: Db,
  userId: number,
  passwordHash: string,
  flags: { firstLogin: boolean; passwordReset: boolean },
): Promise<void> {
  const iso = nowIso();
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      first_login: flags.firstLogin ? 1 : 0,
      password_reset: flags.passwordReset ? 1 : 0,
      password_changed_at: iso,
      updated_at: iso,
    })
    .where('id', '=', userId)
    .execute();
}

/** A student's date of birth (null when none is on record), or undefined without the student. */
export async function findStudentBirthDate(db: Db, studentId: string): Promise<{ date_of_birth: string | null } | undefined> {
  return db.selectFrom('students').select('date_of_birth').where('id', '=', studentId).executeTakeFirst();
}

/** Creates the student's account when it is missing (imported students); answers its id. */
export async function ensureStudentUser(db: Db, studentId: string): Promise<number> {
  const existing = await db.selectFrom('users').select('id').where('student_id', '=', studentId).executeTakeFirst();
  if (existing) return existing.id;
  const iso = nowIso();
  const row = await db
    .insertInto('users')
    .values({ role: 'student', student_id: studentId, first_login: 1, created_at: iso, updated_at: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Creates or updates an administrator with this password (ADMIN_USERNAME/ADMIN_PASSWORD). */
export async function upsertAdmin(db: Db, username: string, passwordHash: string): Promise<void> {
  const iso = nowIso();
  const existing = await findStaffUser(db, username);
  if (existing) {
    await db
      .updateTable('users')
      // The configured account is the school's administrator, whatever it was before (a demo
      // account of the same name, a disabled or demoted one): the start-up configuration is how
      // the school regains control (D35, D49).
      .set({ password_hash: passwordHash, staff_role: 'administrator', disabled: 0, updated_at: iso })
      .where('id', '=', existing.id)
      .execute();
    // Enabled again: no session it had while disabled comes back (D84).
    if (existing.disabled) await db.deleteFrom('sessions').where('user_id', '=', existing.id).execute();
    return;
  }
  await db
    .insertInto('users')
    .values({ role: 'staff', staff_role: 'administrator', username, display_name: 'Admin', password_hash: passwordHash, created_at: iso, updated_at: iso })
    .execute();
}

/** Every enabled administrator (staff role) that has a password: user name and hash. */
export async function listAdminPasswords(db: Db): Promise<Array<{ username: string | null; passwordHash: string }>> {
  const rows = await db
    .selectFrom('users')
    .select(['username', 'password_hash'])
    .where('role', '=', 'staff')
    .where('staff_role', '=', 'administrator')
    .where('disabled', '=', 0)
    .where('password_hash', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.password_hash ? [{ username: row.username, passwordHash: row.password_hash }] : []));
}

/** The family account with this e-mail (stored lower-case), or undefined. */
export async function findGuardianUser(db: Db, email: string): Promise<AuthUser | undefined> {
  const row = await baseQuery(db).where('users.role', '=', 'guardian').where('users.email', '=', email).executeTakeFirst();
  return row && toAuthUser(row);
}

/** The staff account a provider's subject was kept for at an earlier sign-in (D96), or undefined. */
export async function findStaffUserByOidcSubject(db: Db, issuer: string, subject: string): Promise<AuthUser | undefined> {
  const row = await baseQuery(db).where('users.role', '=', 'staff').where('users.oidc_issuer', '=', issuer).where('users.oidc_subject', '=', subject).executeTakeFirst();
  return row && toAuthUser(row);
}

/** The staff account whose school e-mail (stored lower-case) is this address, with the provider subject it keeps, or undefined. */
export async function findStaffUserBySignInEmail(db: Db, email: string): Promise<(AuthUser & { oidcIssuer: string | null; oidcSubject: string | null }) | undefined> {
  const row = await baseQuery(db)
    .select(['users.oidc_issuer', 'users.oidc_subject'])
    .where('users.role', '=', 'staff')
    .where('users.sign_in_email', '=', email.toLowerCase())
    .executeTakeFirst();
  return row && { ...toAuthUser(row), oidcIssuer: row.oidc_issuer, oidcSubject: row.oidc_subject };
}

/** Keeps the provider's subject on the account at its first sign-in there; false when another sign-in kept one first. */
export async function keepOidcSubject(db: Db, userId: number, issuer: string, subject: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ oidc_issuer: issuer, oidc_subject: subject, updated_at: nowIso() })
    .where('id', '=', userId)
    .where('oidc_subject', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A one-time password nobody needs any more: the account signed in through its provider (D96). */
export async function voidOneTimePassword(db: Db, userId: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: null, password_reset: 0, first_login: 0, updated_at: nowIso() }).where('id', '=', userId).execute();
}
