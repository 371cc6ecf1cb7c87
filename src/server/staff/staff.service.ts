import { randomInt } from 'node:crypto';
import { isAdministrator, reachesByClass } from '../access/roles.js';
import { writeAudit, type AuditEntry } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { AppError, conflict, fieldError, forbidden, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import type { Config } from '../config.js';
import { queueMessage } from '../mail/outbox.service.js';
import * as staff2fa from '../staff-2fa/staff-2fa.service.js';
import { requireCurrentPassword } from '../auth/auth.service.js';
import { requireUncommonPassword } from '../auth/common-passwords.js';
import { hashPassword } from '../auth/password.js';
import {
  classesProblem,
  type ChangeStaffPasswordInput,
  type CreateStaffInput,
  type ResetSecondFactorAnswer,
  type StaffAccount,
  type StaffAccountWithPassword,
  type UpdateStaffInput,
} from '../../shared/staff.schemas.js';
import * as repo from './staff.repository.js';

/**
 * Staff accounts (docs/decisions.md D50): an administrator adds them, changes their role
 * and classes, disables them and resets their passwords; every change is in the audit log under
 * the account's username. A new or reset account gets a one-time password, answered once and
 * stored only as its argon2id hash, and must choose its own at the next sign-in.
 */

/** No 0/O, 1/l/I: the one-time password is read off a screen and typed by someone else. */
const ONE_TIME_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Four groups of four from 31 letters and digits: about 79 bits, 19 characters with the dashes. */
export function generateOneTimePassword(): string {
  const groups = Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => ONE_TIME_ALPHABET[randomInt(ONE_TIME_ALPHABET.length)]).join(''));
  return groups.join('-');
}

const USERNAME_TAKEN = 'A staff account with this username already exists (usernames ignore letter case).';
const SIGN_IN_EMAIL_TAKEN = 'Another account already signs in with this school e-mail.';

/** A school e-mail as stored: lower-case (providers and people write addresses in any case), or null. */
const signInEmailOf = (email: string | null | undefined) => (email ? email.toLowerCase() : null);

async function requireClassesExist(db: Db, classIds: readonly string[]): Promise<void> {
  const existing = await repo.existingClassIds(db, classIds);
  const unknown = classIds.filter((id) => !existing.has(id));
  if (unknown.length > 0) throw fieldError('class_ids', `No form class has the id ${unknown.join(', ')}.`);
}

/** The audit rows of a change, one per field, each naming the account by its username. */
function auditRows(actor: Actor, action: string, account: { username: string }, fields: [string, string | null, string | null][]): AuditEntry[] {
  return fields.map(([field, oldValue, newValue]) => ({ ...actor, action, entity: 'staff', entity_id: account.username, field, old_value: oldValue, new_value: newValue }));
}

const joined = (ids: readonly string[]) => (ids.length > 0 ? ids.join(', ') : null);

export function listStaff(db: Db): Promise<StaffAccount[]> {
  return repo.listStaff(db);
}

/** Adds a staff account; answers it with its one-time password. */
export async function createStaff(db: Db, input: CreateStaffInput, actor: Actor): Promise<StaffAccountWithPassword> {
  if (await repo.isUsernameTaken(db, input.username)) throw conflict(USERNAME_TAKEN, { username: [USERNAME_TAKEN] });
  const signInEmail = signInEmailOf(input.sign_in_email);
  if (signInEmail && (await repo.isSignInEmailTaken(db, signInEmail))) throw conflict(SIGN_IN_EMAIL_TAKEN, { sign_in_email: [SIGN_IN_EMAIL_TAKEN] });
  await requireClassesExist(db, input.class_ids);
  const oneTimePassword = generateOneTimePassword();
  const passwordHash = await hashPassword(oneTimePassword);
  let id: number;
  try {
    id = await db.transaction().execute(async (trx) => {
      const newId = await repo.insertStaff(trx, { username: input.username, name: input.name, role: input.role, email: input.email ?? null, signInEmail, passwordHash });
      await repo.setStaffClasses(trx, newId, input.class_ids);
      await writeAudit(
        trx,
        auditRows(actor, 'staff-create', input, [
          ['name', null, input.name],
          ['role', null, input.role],
          ...(input.class_ids.length > 0 ? [['class_ids', null, joined(input.class_ids)] as [string, null, string | null]] : []),
          ...(input.email ? [['email', null, input.email] as [string, null, string]] : []),
          ...(signInEmail ? [['sign_in_email', null, signInEmail] as [string, null, string]] : []),
        ]),
      );
      return newId;
    });
  } catch (error) {
    // Two adds of one name (or one school e-mail) at once: the second meets the unique index.
    if (await repo.isUsernameTaken(db, input.username)) throw conflict(USERNAME_TAKEN, { username: [USERNAME_TAKEN] });
    if (signInEmail && (await repo.isSignInEmailTaken(db, signInEmail))) throw conflict(SIGN_IN_EMAIL_TAKEN, { sign_in_email: [SIGN_IN_EMAIL_TAKEN] });
    throw error;
  }
  return { ...(await repo.findStaff(db, id))!, one_time_password: oneTimePassword };
}

export interface StaffUpdate {
  account: StaffAccountWithPassword;
  /**
   * The account's password was reset, or it was enabled again: every session of it ends now. A
   * disabled account's sessions are refused from that moment (http/session.ts) and each is told
   * why at its next request (D84); enabling it removes any left, so none comes back.
   */
  endSessions: boolean;
}

/**
 * Changes a staff account. An administrator may not disable, demote or reset themselves, and the
 * last enabled administrator stays one (409 with the reason), so the school is never locked out.
 */
export async function updateStaff(db: Db, id: number, input: UpdateStaffInput, actor: Actor): Promise<StaffUpdate> {
  try {
    return await changeStaff(db, id, input, actor);
  } catch (error) {
    // Two changes giving one school e-mail at once: the second meets the unique index.
    const signInEmail = signInEmailOf(input.sign_in_email);
    if (!(error instanceof AppError) && signInEmail && (await repo.isSignInEmailTaken(db, signInEmail, id))) {
      throw conflict(SIGN_IN_EMAIL_TAKEN, { sign_in_email: [SIGN_IN_EMAIL_TAKEN] });
    }
    throw error;
  }
}

async function changeStaff(db: Db, id: number, input: UpdateStaffInput, actor: Actor): Promise<StaffUpdate> {
  const oneTimePassword = input.reset_password ? generateOneTimePassword() : undefined;
  const passwordHash = oneTimePassword ? await hashPassword(oneTimePassword) : undefined;
  return db.transaction().execute(async (trx) => {
    // Taken first: a concurrent demotion of another administrator waits for this one.
    const enabledAdministrators = input.role !== undefined || input.disabled === true ? await repo.lockEnabledAdministrators(trx) : [];
    const account = await repo.findStaff(trx, id);
    if (!account) throw notFound('No staff account has this id.');
    const role = input.role ?? account.role;
    // Leaving the form teacher's role drops the classes; a form teacher keeps theirs unless new ones are sent.
    const classIds = input.class_ids ?? (reachesByClass(role) ? account.class_ids : []);
    const problem = classesProblem(role, classIds);
    if (problem) throw fieldError('class_ids', problem);
    await requireClassesExist(trx, classIds);

    const self = actor.actor_user_id === id;
    const disabling = input.disabled === true && !account.disabled;
    const demoting = isAdministrator(account.role) && !isAdministrator(role);
    if (self && disabling) throw conflict('You cannot disable your own account; ask another administrator.');
    if (self && demoting) throw conflict('You cannot change your own role; ask another administrator.');
    if (self && input.reset_password) throw conflict('You cannot reset your own password here; ask another administrator.');
    if (isAdministrator(account.role) && !account.disabled && (disabling || demoting)) {
      if (enabledAdministrators.every((adminId) => adminId === id)) {
        throw conflict('This is the last enabled administrator; make another account an administrator first.');
      }
    }

    const changes: repo.StaffChanges = {};
    const fields: [string, string | null, string | null][] = [];
    if (input.name !== undefined && input.name !== account.name) {
      changes.name = input.name;
      fields.push(['name', account.name, input.name]);
    }
    if (role !== account.role) {
      changes.role = role;
      fields.push(['role', account.role, role]);
    }
    if (input.email !== undefined && input.email !== account.email) {
      changes.email = input.email;
      fields.push(['email', account.email, input.email]);
    }
    const signInEmail = input.sign_in_email === undefined ? undefined : signInEmailOf(input.sign_in_email);
    if (signInEmail !== undefined && signInEmail !== account.sign_in_email) {
      if (signInEmail && (await repo.isSignInEmailTaken(trx, signInEmail, id))) throw conflict(SIGN_IN_EMAIL_TAKEN, { sign_in_email: [SIGN_IN_EMAIL_TAKEN] });
      changes.signInEmail = signInEmail;
      fields.push(['sign_in_email', account.sign_in_email, signInEmail]);
    }
    if (input.disabled !== undefined && input.disabled !== account.disabled) {
      changes.disabled = input.disabled;
      fields.push(['disabled', String(account.disabled), String(input.disabled)]);
    }
    if (passwordHash) changes.passwordHash = passwordHash;
    const classesChanged = joined(classIds) !== joined(account.class_ids);
    if (classesChanged) fields.push(['class_ids', joined(account.class_ids), joined(classIds)]);

    if (Object.keys(changes).length > 0) await repo.updateStaff(trx, id, changes);
    if (classesChanged) await repo.setStaffClasses(trx, id, classIds);
    await writeAudit(trx, [
      ...auditRows(actor, 'staff-update', account, fields),
      // The password itself is never written anywhere but as its hash.
      ...(passwordHash ? auditRows(actor, 'password-reset', account, [['password', null, null]]) : []),
    ]);
    const updated = (await repo.findStaff(trx, id))!;
    return { account: { ...updated, ...(oneTimePassword ? { one_time_password: oneTimePassword } : {}) }, endSessions: (input.disabled === false && account.disabled) || Boolean(passwordHash) };
  });
}

/**
 * An administrator's reset of another staff member's second factor, for a lost phone without its
 * recovery codes (docs/decisions.md D65): the factor off and its recovery codes gone, one audit row,
 * and the owner told by mail when the account has an address (`mailed_to` null when not), all in
 * one transaction. The caller ends the account's sessions. Not on one's own account (409): an
 * administrator changes their own factor on their Two-step sign-in page, with a code.
 */
export async function resetSecondFactor(db: Db, config: Config, id: number, actor: Actor, resetBy: string): Promise<ResetSecondFactorAnswer> {
  if (actor.actor_user_id === id) {
    throw conflict('You cannot reset your own second factor here; use your Two-step sign-in page, or ask another administrator.');
  }
  return db.transaction().execute(async (trx) => {
    const account = await repo.findStaff(trx, id);
    if (!account) throw notFound('No staff account has this id.');
    if (!(await staff2fa.clearSecondFactor(trx, id))) throw conflict(`${account.name} has no second factor set up: there is nothing to reset.`);
    await writeAudit(trx, auditRows(actor, 'second-factor-reset', account, [['second_factor', 'on', 'off']]));
    if (account.email) {
      const mustSetUpAgain = (await staff2fa.secondFactorRule(trx, config, account.role)) === 'required';
      await queueMessage(trx, { to: account.email, template: 'staff-second-factor-reset', data: { name: account.name, resetBy, mustSetUpAgain } });
    }
    return { account: (await repo.findStaff(trx, id))!, mailed_to: account.email };
  });
}

/**
 * The signed-in staff member's current password, typed again before a change to how they sign in
 * (setting up the second factor): checked by `requireCurrentPassword`, under the sign-in's
 * attempt counts, so an open session is no unthrottled password oracle.
 */
export async function requireOwnStaffPassword(db: Db, userId: number, currentPassword: string, actor: Actor): Promise<void> {
  const own = await repo.findStaffCredentials(db, userId);
  if (!own) throw forbidden('Only staff accounts have a second factor.');
  await requireCurrentPassword(db, { id: own.id, passwordHash: own.password_hash }, currentPassword, actor);
}

/**
 * A staff member's own password change, also the forced one after a new account or a reset: the
 * current (one-time) password is checked under the sign-in's attempt counts, the new one must be
 * 12+ characters (the schema) and not on the list of common passwords, nor the one-time one again.
 */
export async function changeOwnStaffPassword(db: Db, userId: number, input: ChangeStaffPasswordInput, actor: Actor): Promise<{ name: string }> {
  const own = await repo.findStaffCredentials(db, userId);
  if (!own) throw forbidden('Only staff change their password here; students use Change password on their own screens.');
  await requireUncommonPassword(input.password);
  await requireCurrentPassword(db, { id: own.id, passwordHash: own.password_hash }, input.current_password, actor);
  if (own.password_reset === 1 && input.password === input.current_password) {
    throw fieldError('password', 'Choose a password of your own, not the one-time password.');
  }
  await repo.storeOwnPassword(db, own.id, await hashPassword(input.password));
  await writeAudit(db, { ...actor, action: 'password-changed', entity: 'staff', entity_id: own.username ?? String(own.id) });
  return { name: own.display_name ?? own.username ?? 'Staff' };
}
