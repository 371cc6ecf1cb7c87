import type { Db } from '../db/database.js';
import type { FamilyTokenPurpose, GuardianLinkVia } from '../db/schema.js';
import { onRoll } from '../db/student-scope.js';
import { RECORD_PARENT_EMAIL_FIELDS, type RecordParentEmailField } from '../../shared/family.schemas.js';

/** All SQL of family accounts: the guardians' links, printed codes and mailed tokens. */

export interface GuardianRow {
  id: number;
  email: string | null;
  display_name: string | null;
  email_verified_at: string | null;
  disabled: number;
}

/** The family account with this e-mail (lower-case), or undefined. */
export async function findGuardianByEmail(db: Db, email: string): Promise<GuardianRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'display_name', 'email_verified_at', 'disabled'])
    .where('role', '=', 'guardian')
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function findGuardianById(db: Db, id: number): Promise<GuardianRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'display_name', 'email_verified_at', 'disabled'])
    .where('role', '=', 'guardian')
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Adds a verified family account; answers its id. */
export async function insertGuardian(db: Db, account: { email: string; name: string; passwordHash: string; at: string }): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      role: 'guardian',
      email: account.email,
      display_name: account.name,
      password_hash: account.passwordHash,
      email_verified_at: account.at,
      password_changed_at: account.at,
      created_at: account.at,
      updated_at: account.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setGuardianPassword(db: Db, userId: number, passwordHash: string, at: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, password_changed_at: at, updated_at: at }).where('id', '=', userId).execute();
}

// ---------------------------------------------------------------------------------------------
// Links

export interface ChildRow {
  student_id: string;
  first_name: string | null;
  last_name: string | null;
  class_id: string | null;
  form_level: number | null;
}

/** The children linked to a family account, by name. */
export async function listChildren(db: Db, userId: number): Promise<ChildRow[]> {
  return db
    .selectFrom('guardian_students')
    .innerJoin('students', 'students.id', 'guardian_students.student_id')
    .leftJoin('form_classes', 'form_classes.id', 'students.class_id')
    .select(['students.id as student_id', 'students.first_name', 'students.last_name', 'students.class_id', 'form_classes.form_level'])
    .where('guardian_students.user_id', '=', userId)
    .orderBy('students.first_name')
    .orderBy('students.id')
    .execute();
}

export async function findChild(db: Db, studentId: string): Promise<(ChildRow & { date_of_birth: string | null }) | undefined> {
  return db
    .selectFrom('students')
    .leftJoin('form_classes', 'form_classes.id', 'students.class_id')
    .select(['students.id as student_id', 'students.first_name', 'students.last_name', 'students.class_id', 'form_classes.form_level', 'students.date_of_birth'])
    .where('students.id', '=', studentId)
    .executeTakeFirst();
}

export interface LinkedGuardianRow {
  user_id: number;
  student_id: string;
  name: string | null;
  email: string | null;
  linked_via: GuardianLinkVia;
  linked_at: string;
}

/** Everyone linked to these students, in the order they were linked. */
export async function listGuardiansOf(db: Db, studentIds: readonly string[]): Promise<LinkedGuardianRow[]> {
  if (studentIds.length === 0) return [];
  return db
    .selectFrom('guardian_students')
    .innerJoin('users', 'users.id', 'guardian_students.user_id')
    .select([
      'guardian_students.user_id',
      'guardian_students.student_id',
      'users.display_name as name',
      'users.email',
      'guardian_students.linked_via',
      'guardian_students.created_at as linked_at',
    ])
    .where('guardian_students.student_id', 'in', studentIds)
    .orderBy('guardian_students.created_at')
    .orderBy('guardian_students.user_id')
    .execute();
}

/** Links a child to a family account; false when the link already existed. */
export async function insertLink(db: Db, link: { userId: number; studentId: string; via: GuardianLinkVia; at: string }): Promise<boolean> {
  const result = await db
    .insertInto('guardian_students')
    .values({ user_id: link.userId, student_id: link.studentId, linked_via: link.via, created_at: link.at, updated_at: link.at })
    .onConflict((conflict) => conflict.columns(['user_id', 'student_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes a link; false when there was none. */
export async function deleteLink(db: Db, userId: number, studentId: string): Promise<boolean> {
  const result = await db.deleteFrom('guardian_students').where('user_id', '=', userId).where('student_id', '=', studentId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---------------------------------------------------------------------------------------------
// Family codes

/** Voids a student's unused codes (a new letter replaces the old one). */
export async function voidOpenCodes(db: Db, studentId: string, at: string): Promise<void> {
  await db.updateTable('family_codes').set({ expires_at: at, updated_at: at }).where('student_id', '=', studentId).where('used_at', 'is', null).where('expires_at', '>', at).execute();
}

export async function insertCode(db: Db, code: { studentId: string; codeHash: string; expiresAt: string; createdBy: number | null; at: string }): Promise<void> {
  await db
    .insertInto('family_codes')
    .values({ student_id: code.studentId, code_hash: code.codeHash, expires_at: code.expiresAt, created_by_user_id: code.createdBy, created_at: code.at, updated_at: code.at })
    .execute();
}

export async function findCode(db: Db, codeHash: string) {
  return db.selectFrom('family_codes').select(['id', 'student_id', 'expires_at', 'used_at']).where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Takes a code once: false when another request took it first. */
export async function useCode(db: Db, id: number, userId: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('family_codes')
    .set({ used_at: at, used_by_user_id: userId, updated_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** When the newest code still waiting for a student expires, or null. */
export async function openCodeExpiry(db: Db, studentId: string, at: string): Promise<string | null> {
  const row = await db
    .selectFrom('family_codes')
    .select('expires_at')
    .where('student_id', '=', studentId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .orderBy('expires_at', 'desc')
    .executeTakeFirst();
  return row?.expires_at ?? null;
}

// ---------------------------------------------------------------------------------------------
// Mailed tokens

export async function insertToken(
  db: Db,
  token: {
    purpose: FamilyTokenPurpose;
    tokenHash: string;
    expiresAt: string;
    at: string;
    userId?: number | null;
    studentId?: string | null;
    email?: string | null;
    name?: string | null;
    createdBy?: number | null;
  },
): Promise<void> {
  await db
    .insertInto('family_tokens')
    .values({
      purpose: token.purpose,
      token_hash: token.tokenHash,
      expires_at: token.expiresAt,
      user_id: token.userId ?? null,
      student_id: token.studentId ?? null,
      email: token.email ?? null,
      name: token.name ?? null,
      created_by_user_id: token.createdBy ?? null,
      created_at: token.at,
      updated_at: token.at,
    })
    .execute();
}

export async function findToken(db: Db, purpose: FamilyTokenPurpose, tokenHash: string) {
  return db
    .selectFrom('family_tokens')
    .select(['id', 'user_id', 'student_id', 'email', 'name', 'expires_at', 'used_at', 'created_by_user_id'])
    .where('purpose', '=', purpose)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Takes a token once: false when another request took it first. */
export async function useToken(db: Db, id: number, at: string): Promise<boolean> {
  const result = await db.updateTable('family_tokens').set({ used_at: at, updated_at: at }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends the open tokens of a purpose for an account (a new reset link replaces the old). */
export async function voidOpenTokensOfUser(db: Db, purpose: FamilyTokenPurpose, userId: number, at: string): Promise<void> {
  await db.updateTable('family_tokens').set({ used_at: at, updated_at: at }).where('purpose', '=', purpose).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** The invitations still open for a student, newest first. */
export async function listOpenInvitations(db: Db, studentId: string, at: string) {
  return db
    .selectFrom('family_tokens')
    .select(['email', 'created_at', 'expires_at'])
    .where('purpose', '=', 'invitation')
    .where('student_id', '=', studentId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The open invitations sent to an address (taken when that address's account is created). */
export async function listOpenInvitationsTo(db: Db, email: string, at: string) {
  return db
    .selectFrom('family_tokens')
    .select(['id', 'student_id'])
    .where('purpose', '=', 'invitation')
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .execute();
}

/** How many invitations were sent for a student since `since` (a cap against mail floods). */
export async function countInvitationsSince(db: Db, studentId: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('family_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('purpose', '=', 'invitation')
    .where('student_id', '=', studentId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A student's parent e-mails as the registration record holds them (what a student may invite). */
export async function findRecordParentEmails(db: Db, studentId: string): Promise<Record<RecordParentEmailField, string | null> | undefined> {
  return db.selectFrom('students').select([...RECORD_PARENT_EMAIL_FIELDS]).where('id', '=', studentId).executeTakeFirst();
}

/** The student's own changes to the record's parent e-mails (from the audit log), newest first. */
export async function listParentEmailChangesByStudent(db: Db, studentId: string, limit: number) {
  return db
    .selectFrom('audit_log')
    .select(['field', 'old_value', 'new_value', 'created_at'])
    .where('entity', '=', 'student')
    .where('entity_id', '=', studentId)
    .where('action', '=', 'update')
    .where('field', 'in', [...RECORD_PARENT_EMAIL_FIELDS])
    .where('actor_label', '=', `student:${studentId}`)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Students of a class in class order (surname, first name) for the family letters. */
export async function listClassStudents(db: Db, classId: string) {
  return db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name', 'class_id'])
    .where('class_id', '=', classId)
    .where(onRoll)
    .orderBy('last_name')
    .orderBy('first_name')
    .orderBy('id')
    .execute();
}

export async function findFormClass(db: Db, classId: string) {
  return db.selectFrom('form_classes').select(['id', 'form_level']).where('id', '=', classId).executeTakeFirst();
}
