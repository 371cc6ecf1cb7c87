import { sql } from 'kysely';
import { reachesByClass } from '../access/roles.js';
import { isPostgres, nowIso, type Db } from '../db/database.js';
import type { StaffRole } from '../../shared/staff.js';
import type { StaffAccount } from '../../shared/staff.schemas.js';

/** All SQL of staff accounts: users with role 'staff' and their classes. */

function staffQuery(db: Db) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'display_name', 'staff_role', 'email', 'disabled', 'totp_enabled_at', 'password_reset', 'sign_in_email', 'oidc_subject'])
    .select((eb) => eb.case().when('password_hash', 'is not', null).then(1).else(0).end().as('has_password'))
    .where('role', '=', 'staff');
}

type Row = Awaited<ReturnType<ReturnType<typeof staffQuery>['executeTakeFirstOrThrow']>>;

/** The audit label a staff member's sign-in is written under (http/request-context.ts). */
const signInLabel = (username: string) => `admin:${username}`;

async function toAccounts(db: Db, rows: Row[]): Promise<StaffAccount[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const classes = await db.selectFrom('staff_classes').select(['user_id', 'class_id']).where('user_id', 'in', ids).orderBy('class_id').execute();
  // The last sign-in is the newest 'sign-in' row of the audit log, found by its indexed actor label.
  const labels = rows.flatMap((row) => (row.username ? [signInLabel(row.username)] : []));
  const signIns =
    labels.length === 0
      ? []
      : await db
          .selectFrom('audit_log')
          .select(['actor_label', (eb) => eb.fn.max('created_at').as('at')])
          .where('actor_label', 'in', labels)
          .where('action', '=', 'sign-in')
          .groupBy('actor_label')
          .execute();
  const lastSignIn = new Map(signIns.map((row) => [row.actor_label, row.at as string | null]));
  return rows.map((row) => {
    const username = row.username ?? '';
    const role = row.staff_role ?? 'administrator';
    return {
      id: row.id,
      username,
      name: row.display_name ?? username,
      role,
      class_ids: reachesByClass(role) ? classes.filter((c) => c.user_id === row.id).map((c) => c.class_id) : [],
      email: row.email,
      sign_in_email: row.sign_in_email,
      sign_in: {
        password: Number(row.has_password) === 1,
        school_account: row.oidc_subject !== null ? ('linked' as const) : row.sign_in_email !== null ? ('waiting' as const) : ('none' as const),
      },
      disabled: row.disabled === 1,
      has_2fa: row.totp_enabled_at !== null,
      must_change_password: row.password_reset === 1,
      last_sign_in_at: lastSignIn.get(signInLabel(username)) ?? null,
    };
  });
}

/** Every staff account, by name. */
export async function listStaff(db: Db): Promise<StaffAccount[]> {
  return toAccounts(db, await staffQuery(db).orderBy('display_name').orderBy('username').execute());
}

/** One staff account, or undefined (a student's user id is not a staff account). */
export async function findStaff(db: Db, id: number): Promise<StaffAccount | undefined> {
  const row = await staffQuery(db).where('id', '=', id).executeTakeFirst();
  return row ? (await toAccounts(db, [row]))[0] : undefined;
}

/** Whether any user already has this user name, in any letter case. */
export async function isUsernameTaken(db: Db, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where(sql<string>`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

/** The ids among these that are form classes. */
export async function existingClassIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('form_classes').select('id').where('id', 'in', [...ids]).execute();
  return new Set(rows.map((row) => row.id));
}

export interface NewStaff {
  username: string;
  name: string;
  role: StaffRole;
  email: string | null;
  signInEmail: string | null;
  passwordHash: string;
}

/** Inserts a staff account that must change its password at the next sign-in; answers its id. */
export async function insertStaff(db: Db, staff: NewStaff): Promise<number> {
  const iso = nowIso();
  const row = await db
    .insertInto('users')
    .values({
      role: 'staff',
      staff_role: staff.role,
      username: staff.username,
      display_name: staff.name,
      email: staff.email,
      sign_in_email: staff.signInEmail,
      password_hash: staff.passwordHash,
      first_login: 0,
      password_reset: 1,
      password_changed_at: iso,
      created_at: iso,
      updated_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface StaffChanges {
  name?: string;
  role?: StaffRole;
  email?: string | null;
  /** A new school e-mail (lower-case) or none: the provider's kept subject goes with the old one. */
  signInEmail?: string | null;
  disabled?: boolean;
  /** A new one-time password: stored with password_reset = 1. */
  passwordHash?: string;
}

/** Writes the given fields of a staff account. */
export async function updateStaff(db: Db, id: number, changes: StaffChanges): Promise<void> {
  const iso = nowIso();
  await db
    .updateTable('users')
    .set({
      ...(changes.name !== undefined ? { display_name: changes.name } : {}),
      ...(changes.role !== undefined ? { staff_role: changes.role } : {}),
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...(changes.signInEmail !== undefined ? { sign_in_email: changes.signInEmail, oidc_issuer: null, oidc_subject: null } : {}),
      ...(changes.disabled !== undefined ? { disabled: changes.disabled ? 1 : 0 } : {}),
      ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash, password_reset: 1, password_changed_at: iso } : {}),
      updated_at: iso,
    })
    .where('id', '=', id)
    .where('role', '=', 'staff')
    .execute();
}

/** Replaces a staff account's classes. */
export async function setStaffClasses(db: Db, userId: number, classIds: readonly string[]): Promise<void> {
  await db.deleteFrom('staff_classes').where('user_id', '=', userId).execute();
  if (classIds.length > 0) await db.insertInto('staff_classes').values(classIds.map((classId) => ({ user_id: userId, class_id: classId }))).execute();
}

/**
 * The enabled administrators' ids. On PostgreSQL their rows stay locked until the transaction
 * ends, so two administrators demoting each other at once cannot both pass the "last one" check;
 * SQLite runs one write transaction at a time.
 */
export async function lockEnabledAdministrators(db: Db): Promise<number[]> {
  const query = db.selectFrom('users').select('id').where('role', '=', 'staff').where('staff_role', '=', 'administrator').where('disabled', '=', 0);
  const rows = await (isPostgres(db) ? query.forUpdate() : query).execute();
  return rows.map((row) => row.id);
}

/** A staff member's own password hash and flags, for their own change. */
export async function findStaffCredentials(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'display_name', 'username', 'password_hash', 'password_reset'])
    .where('id', '=', id)
    .where('role', '=', 'staff')
    .executeTakeFirst();
}

/** Stores a staff member's own new password and clears the forced change. */
export async function storeOwnPassword(db: Db, id: number, passwordHash: string): Promise<void> {
  const iso = nowIso();
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_reset: 0, first_login: 0, password_changed_at: iso, updated_at: iso })
    .where('id', '=', id)
    .execute();
}

/** Whether another account already has this school e-mail (stored lower-case). */
export async function isSignInEmailTaken(db: Db, email: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('sign_in_email', '=', email.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}
