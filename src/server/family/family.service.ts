import { createHash, randomBytes, randomInt } from 'node:crypto';
import { writeAudit, type AuditEntry } from '../audit/audit.repository.js';
import { requireUncommonPassword } from '../auth/common-passwords.js';
import { hashPassword } from '../auth/password.js';
import { nowIso, type Db } from '../db/database.js';
import type { GuardianLinkVia } from '../db/schema.js';
import { AppError, badRequest, conflict, fieldError, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import { hitRateLimit, type RateLimitRule } from '../http/rate-limit.repository.js';
import type { Actor } from '../http/request-context.js';
import { queueMessage } from '../mail/outbox.service.js';
import { markRecordEmailVerified } from '../notices/notices.service.js';
import { formClassName } from '../../shared/form-class.js';
import {
  FAMILY_CODE_ALPHABET,
  FAMILY_CODE_LENGTH,
  formatFamilyCode,
  INVITATION_OTHER_ADDRESS,
  RECORD_PARENT_EMAIL_FIELDS,
  STUDENT_INVITE_RECORD_ONLY,
  type FamilyChild,
  type FamilyCodeAnswer,
  type FamilyLinkInput,
  type FamilyRegisterInput,
  type FamilyResetPasswordInput,
  type FamilyVerifyInput,
  type RecordParentEmailField,
  type StudentFamily,
} from '../../shared/family.schemas.js';
import * as repo from './family.repository.js';

/**
 * Family accounts (docs/decisions.md D54, D66). A parent registers with a name and an e-mail
 * address; the account exists once the link mailed to that address is opened and a password chosen
 * on its page, so an address nobody controls never becomes an account and only the mailbox's owner
 * chooses its password. A child is linked by the office's printed code with the child's date of
 * birth, by an invitation mailed to the parent's address, or by the office; every link
 * and unlink is in the audit log under the student. Every secret (codes, links) is random, stored
 * only as its sha256, taken once and expires; the answers to visitors never say whether an
 * address has an account.
 */

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
export const VERIFY_TTL_MS = 48 * HOUR_MS;
export const RESET_TTL_MS = HOUR_MS;
export const INVITATION_TTL_MS = 14 * DAY_MS;
/** A letter goes home in a school bag and may wait a few weeks on a kitchen table. */
export const FAMILY_CODE_TTL_MS = 30 * DAY_MS;

/** Registrations and reset requests: a family's worth per address, a few per mailbox. */
const MAIL_ADDRESS_RULE: RateLimitRule = { limit: 20, windowMs: HOUR_MS };
const MAIL_MAILBOX_RULE: RateLimitRule = { limit: 3, windowMs: HOUR_MS };
/** Code guesses: per account and per address; with the date of birth, far too few to find a code. */
const LINK_ACCOUNT_RULE: RateLimitRule = { limit: 10, windowMs: HOUR_MS };
const LINK_ADDRESS_RULE: RateLimitRule = { limit: 30, windowMs: HOUR_MS };
/** Invitations per student a day: enough for every parent and a few mistyped addresses. */
const INVITATIONS_PER_DAY = 10;

const LINK_INVALID = 'This link has expired or was already used.';
const CODE_REFUSED = "That code and date of birth do not match a child. Check the school's letter and the date of birth, then try again.";

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

function newFamilyCode(): string {
  return Array.from({ length: FAMILY_CODE_LENGTH }, () => FAMILY_CODE_ALPHABET[randomInt(FAMILY_CODE_ALPHABET.length)]).join('');
}

async function requireUnderLimit(db: Db, key: string, rule: RateLimitRule, message: string): Promise<void> {
  const state = await hitRateLimit(db, key, rule);
  if (state.limited) throw tooManyRequests(message, state.retryAfterMs);
}

const studentName = (child: { first_name: string | null; last_name: string | null; student_id: string }) =>
  [child.first_name, child.last_name].filter(Boolean).join(' ') || child.student_id;

function linkAudit(actor: Actor, action: string, studentId: string, guardian: { email: string | null }, via?: GuardianLinkVia): AuditEntry {
  return { ...actor, action, entity: 'student', entity_id: studentId, field: 'family', old_value: null, new_value: `${guardian.email ?? ''}${via ? ` (${via})` : ''}` };
}

// ---------------------------------------------------------------------------------------------
// The account

const REGISTER_ANSWER = (email: string) =>
  `We sent a message to ${email}. Open the link in it within 48 hours to choose your password and finish creating your account. Nothing there? Check your spam folder, or register again.`;

/**
 * A registration: name and e-mail only (D66). An address without an account gets a confirmation
 * link, whose page asks for the password; an address with one gets a note saying so with a link
 * to choose a new password. Both ways do the same work (two rate-limit hits, one look-up, one
 * transaction writing one mailed link and one message), so neither the answer's text nor its time
 * tells a visitor whether the address has an account: only its mailbox learns that.
 */
export async function registerFamily(db: Db, input: FamilyRegisterInput, actor: Actor & { ip: string }): Promise<string> {
  await requireMailRequestUnderLimits(db, actor.ip, input.email, 'We already sent several messages to this address. Please wait an hour, and check your spam folder.');
  const existing = await repo.findGuardianByEmail(db, input.email);
  const token = newToken();
  await db.transaction().execute(async (trx) => {
    const at = nowIso();
    if (existing) {
      await repo.insertToken(trx, { purpose: 'reset-password', tokenHash: sha256(token), expiresAt: later(RESET_TTL_MS), at, userId: existing.id, email: input.email });
      await queueMessage(trx, { to: input.email, template: 'family-already-registered', data: { name: existing.display_name ?? input.name, token } });
      return;
    }
    await repo.insertToken(trx, { purpose: 'verify-email', tokenHash: sha256(token), expiresAt: later(VERIFY_TTL_MS), at, email: input.email, name: input.name });
    await queueMessage(trx, { to: input.email, template: 'family-verify', data: { name: input.name, token } });
  });
  return REGISTER_ANSWER(input.email);
}

const ALREADY_CREATED = 'The family account for this address was already created. Sign in with your e-mail and password, or choose “Forgot your password?” on the sign-in page.';

export interface FamilySession {
  userId: number;
  name: string;
  email: string;
}

/**
 * Opens a confirmation link with the password its opener chose (D66): the account is created with
 * the registration's name and that password, signed in, and given every child an open invitation
 * to this address offers. Whoever opens the link proves the mailbox the invitations went to, and
 * the password is theirs, so nothing a registrant typed before the mailbox was proven opens a
 * child's record. An address that got its account meanwhile (another link, opened first) is refused:
 * its owner signs in or resets the password.
 */
export async function verifyFamily(db: Db, input: FamilyVerifyInput, actor: Actor): Promise<FamilySession> {
  await requireUncommonPassword(input.password);
  const found = await repo.findToken(db, 'verify-email', sha256(input.token));
  if (!found || found.used_at !== null || found.expires_at <= nowIso() || !found.email) {
    throw new AppError(400, 'link_invalid', `${LINK_INVALID} Register again to get a new one, or sign in if you already did.`);
  }
  const email = found.email;
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const at = nowIso();
    if (await repo.findGuardianByEmail(trx, email)) throw new AppError(400, 'link_invalid', ALREADY_CREATED);
    if (!(await repo.useToken(trx, found.id, at))) throw new AppError(400, 'link_invalid', `${LINK_INVALID} Sign in with your e-mail and password.`);
    const name = found.name ?? email;
    const userId = await repo.insertGuardian(trx, { email, name, passwordHash, at });
    const self = { ...actor, actor_user_id: userId, actor_label: `guardian:${email}` };
    await writeAudit(trx, { ...self, action: 'family-account-created', entity: 'user', entity_id: String(userId) });
    for (const invitation of await repo.listOpenInvitationsTo(trx, email, at)) {
      if (!invitation.student_id || !(await repo.useToken(trx, invitation.id, at))) continue;
      await repo.insertLink(trx, { userId, studentId: invitation.student_id, via: 'invitation', at });
      await writeAudit(trx, linkAudit(self, 'family-link', invitation.student_id, { email }, 'invitation'));
      // The invitation's address is this mailbox, now proven: so is the record's e-mail it came from (D83).
      await markRecordEmailVerified(trx, invitation.student_id, email, userId, self);
    }
    return { userId, name, email };
  });
}


const FORGOT_ANSWER = 'If a family account uses this address, we sent it a link to choose a new password. It works for one hour.';

const TOO_MANY_FROM_NETWORK = 'Too many requests from this network. Please wait an hour and try again.';

/**
 * The throttles of every mail a visitor asks for (registrations, family and student password
 * resets): a family's worth per network address an hour, a few per recipient (`recipientKey`: a
 * mailbox, or a student whose family is mailed). Answers 429 past either.
 */
export async function requireMailRequestUnderLimits(db: Db, ip: string, recipientKey: string, tooManyForRecipient: string): Promise<void> {
  await requireUnderLimit(db, `family-mail:ip:${ip}`, MAIL_ADDRESS_RULE, TOO_MANY_FROM_NETWORK);
  await requireUnderLimit(db, `family-mail:to:${recipientKey}`, MAIL_MAILBOX_RULE, tooManyForRecipient);
}

/**
 * A new password reset link of an account, in `trx`: the account's open reset links end, the new
 * one is stored as its sha256 and expires in an hour (RESET_TTL_MS). A family account's, and a
 * student's mailed to their family (D77). Answers the token for the message.
 */
export async function issuePasswordResetLink(trx: Db, userId: number, email: string | null): Promise<string> {
  const token = newToken();
  const at = nowIso();
  await repo.voidOpenTokensOfUser(trx, 'reset-password', userId, at);
  await repo.insertToken(trx, { purpose: 'reset-password', tokenHash: sha256(token), expiresAt: later(RESET_TTL_MS), at, userId, email });
  return token;
}

/** A reset link that is unused and unexpired: its id and account, or a 400 `link_invalid` saying to ask again. */
export async function findPasswordResetLink(db: Db, token: string): Promise<{ id: number; userId: number }> {
  const found = await repo.findToken(db, 'reset-password', sha256(token));
  if (!found || found.used_at !== null || found.expires_at <= nowIso() || found.user_id === null) {
    throw new AppError(400, 'link_invalid', `${LINK_INVALID} Ask for a new one with “Forgot your password?”.`);
  }
  return { id: found.id, userId: found.user_id };
}

/**
 * Takes a reset link once, in `trx`, and ends the account's other reset links (a registration of
 * a family's address mails one too). Throws `link_invalid` when another request took it first.
 */
export async function takePasswordResetLink(trx: Db, link: { id: number; userId: number }): Promise<void> {
  const at = nowIso();
  if (!(await repo.useToken(trx, link.id, at))) throw new AppError(400, 'link_invalid', LINK_INVALID);
  await repo.voidOpenTokensOfUser(trx, 'reset-password', link.userId, at);
}

/** A password reset link, mailed only to an address with an account; the same answer either way. */
export async function requestPasswordReset(db: Db, email: string, actor: Actor & { ip: string }): Promise<string> {
  await requireMailRequestUnderLimits(db, actor.ip, email, 'We already sent several messages to this address. Please wait an hour, and check your spam folder.');
  const account = await repo.findGuardianByEmail(db, email);
  if (!account || account.disabled === 1) return FORGOT_ANSWER;
  await db.transaction().execute(async (trx) => {
    const token = await issuePasswordResetLink(trx, account.id, email);
    await queueMessage(trx, { to: email, template: 'family-password-reset', data: { name: account.display_name ?? email, token } });
  });
  return FORGOT_ANSWER;
}

/** Opens a reset link with a new password; the route ends every other session of the account. */
export async function resetPassword(db: Db, input: FamilyResetPasswordInput, actor: Actor): Promise<FamilySession> {
  await requireUncommonPassword(input.password);
  const link = await findPasswordResetLink(db, input.token);
  const account = await repo.findGuardianById(db, link.userId);
  if (!account || account.disabled === 1) throw new AppError(400, 'link_invalid', LINK_INVALID);
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    await takePasswordResetLink(trx, link);
    await repo.setGuardianPassword(trx, account.id, passwordHash, nowIso());
    await writeAudit(trx, { ...actor, actor_user_id: account.id, actor_label: `guardian:${account.email}`, action: 'password-change', entity: 'user', entity_id: String(account.id) });
  });
  return { userId: account.id, name: account.display_name ?? account.email ?? '', email: account.email ?? '' };
}

// ---------------------------------------------------------------------------------------------
// A family's children

function toChild(row: repo.ChildRow, guardians: repo.LinkedGuardianRow[], userId: number): FamilyChild {
  const mine = guardians.filter((g) => g.student_id === row.student_id);
  mine.sort((a, b) => Number(b.user_id === userId) - Number(a.user_id === userId));
  return {
    student_id: row.student_id,
    first_name: row.first_name,
    last_name: row.last_name,
    class_id: row.class_id,
    class_name: formClassName(row.class_id, row.form_level),
    guardians: mine.map((g) => ({ name: g.name ?? g.email ?? '', is_you: g.user_id === userId })),
  };
}

/** The children linked to a family account, each with everyone else linked to it. */
export async function listChildren(db: Db, userId: number): Promise<FamilyChild[]> {
  const children = await repo.listChildren(db, userId);
  const guardians = await repo.listGuardiansOf(db, children.map((c) => c.student_id));
  return children.map((child) => toChild(child, guardians, userId));
}

async function childOf(db: Db, userId: number, studentId: string): Promise<FamilyChild> {
  const child = (await listChildren(db, userId)).find((c) => c.student_id === studentId);
  if (!child) throw notFound('That child is not linked to your account.');
  return child;
}

/**
 * Links the child a printed code names, when the date of birth is the child's. A wrong code, a
 * used or expired one and a wrong date answer alike, and each try counts against the account and
 * the network, so a code cannot be guessed or a date of birth learnt.
 */
export async function linkByCode(db: Db, guardian: { userId: number; email: string | null }, input: FamilyLinkInput, actor: Actor & { ip: string }): Promise<FamilyChild> {
  await requireUnderLimit(db, `family-link:account:${guardian.userId}`, LINK_ACCOUNT_RULE, 'Too many codes tried. Please wait an hour and try again, or ask the school office.');
  await requireUnderLimit(db, `family-link:ip:${actor.ip}`, LINK_ADDRESS_RULE, 'Too many codes tried from this network. Please wait an hour and try again.');
  const code = await repo.findCode(db, sha256(input.code));
  const child = code ? await repo.findChild(db, code.student_id) : undefined;
  if (!code || !child || code.used_at !== null || code.expires_at <= nowIso() || child.date_of_birth !== input.date_of_birth) {
    throw badRequest(CODE_REFUSED, { code: [CODE_REFUSED] });
  }
  await db.transaction().execute(async (trx) => {
    const at = nowIso();
    if (!(await repo.useCode(trx, code.id, guardian.userId, at))) throw badRequest(CODE_REFUSED, { code: [CODE_REFUSED] });
    if (await repo.insertLink(trx, { userId: guardian.userId, studentId: child.student_id, via: 'code', at })) {
      await writeAudit(trx, linkAudit(actor, 'family-link', child.student_id, guardian, 'code'));
    }
  });
  return childOf(db, guardian.userId, child.student_id);
}

/**
 * Accepts an invitation: the child it names is linked to the signed-in family account, when that
 * account's (verified) address is the one the invitation was mailed to (D66). A link forwarded,
 * or opened in a browser signed in to another family account, is refused and left unused, so the
 * school's invitation reaches only the mailbox it chose.
 */
export async function acceptInvitation(db: Db, guardian: { userId: number; email: string | null }, token: string, actor: Actor): Promise<FamilyChild> {
  const found = await repo.findToken(db, 'invitation', sha256(token));
  if (!found || found.used_at !== null || found.expires_at <= nowIso() || !found.student_id) {
    throw new AppError(400, 'link_invalid', `${LINK_INVALID} Ask the school or your child to send a new invitation.`);
  }
  const account = await repo.findGuardianById(db, guardian.userId);
  if (!account?.email || account.email_verified_at === null || account.email !== found.email?.toLowerCase()) {
    throw forbidden(INVITATION_OTHER_ADDRESS(account?.email ?? guardian.email ?? 'another account'));
  }
  const studentId = found.student_id;
  const address = account.email;
  await db.transaction().execute(async (trx) => {
    const at = nowIso();
    if (!(await repo.useToken(trx, found.id, at))) throw new AppError(400, 'link_invalid', LINK_INVALID);
    if (await repo.insertLink(trx, { userId: guardian.userId, studentId, via: 'invitation', at })) {
      await writeAudit(trx, linkAudit(actor, 'family-link', studentId, guardian, 'invitation'));
    }
    // The link reached the mailbox it was sent to and was opened by that address's own account:
    // a parent e-mail of the record that is this address is verified by it (D83).
    await markRecordEmailVerified(trx, studentId, address, guardian.userId, actor);
  });
  return childOf(db, guardian.userId, studentId);
}

/** A parent removes a child from their own account (the child's own sign-in is untouched). */
export async function unlinkOwnChild(db: Db, guardian: { userId: number; email: string | null }, studentId: string, actor: Actor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await repo.deleteLink(trx, guardian.userId, studentId))) throw notFound('That child is not linked to your account.');
    await writeAudit(trx, { ...linkAudit(actor, 'family-unlink', studentId, guardian), old_value: guardian.email, new_value: null });
  });
}

// ---------------------------------------------------------------------------------------------
// The office's side

async function requireStudent(db: Db, studentId: string) {
  const student = await repo.findChild(db, studentId);
  if (!student) throw notFound('No student has this ID.');
  return student;
}

/** Everyone linked to a student, the invitations still open, and whether a code is waiting. */
export async function getStudentFamily(db: Db, studentId: string): Promise<StudentFamily> {
  await requireStudent(db, studentId);
  const at = nowIso();
  const guardians = await repo.listGuardiansOf(db, [studentId]);
  return {
    guardians: guardians.map((g) => ({ user_id: g.user_id, name: g.name ?? '', email: g.email ?? '', linked_via: g.linked_via, linked_at: g.linked_at })),
    invitations: (await repo.listOpenInvitations(db, studentId, at)).map((i) => ({ ...i, email: i.email ?? '' })),
    code_expires_at: await repo.openCodeExpiry(db, studentId, at),
    parent_email_changes: (await repo.listParentEmailChangesByStudent(db, studentId, PARENT_EMAIL_CHANGES_SHOWN)).flatMap((row) =>
      isRecordParentEmailField(row.field) ? [{ field: row.field, old_value: row.old_value, new_value: row.new_value, changed_at: row.created_at }] : [],
    ),
  };
}

/** How many of a student's own parent e-mail changes the office's Family dialog lists. */
const PARENT_EMAIL_CHANGES_SHOWN = 10;

const isRecordParentEmailField = (field: string | null): field is RecordParentEmailField =>
  (RECORD_PARENT_EMAIL_FIELDS as readonly (string | null)[]).includes(field);

/**
 * A student's own save replaced a parent e-mail of the record (D66): the old address is told, in
 * the save's transaction, that the record changed and to contact the school if that was not them,
 * since the record's addresses are where a student's invitations may go. The registration service
 * calls it for a student's saves only (staff corrections and a linked parent's own saves are not
 * told); an empty old value has nobody to tell.
 */
export async function tellOldParentAddresses(
  trx: Db,
  student: { id: string; first_name: string | null; last_name: string | null },
  changed: ReadonlyArray<{ field: string; oldValue: string | null; newValue: string | null }>,
): Promise<void> {
  for (const change of changed) {
    const old = change.oldValue?.trim().toLowerCase() ?? '';
    if (!isRecordParentEmailField(change.field) || old === '' || old === (change.newValue?.trim().toLowerCase() ?? '')) continue;
    await queueMessage(trx, { to: old, template: 'family-parent-email-changed', data: { studentName: studentName({ ...student, student_id: student.id }), field: change.field } });
  }
}

/** A new family code for a student (the one before it stops working), shown once. */
async function issueCode(db: Db, studentId: string, actor: Actor): Promise<FamilyCodeAnswer> {
  const code = newFamilyCode();
  const at = nowIso();
  const expiresAt = later(FAMILY_CODE_TTL_MS);
  await repo.voidOpenCodes(db, studentId, at);
  await repo.insertCode(db, { studentId, codeHash: sha256(code), expiresAt, createdBy: actor.actor_user_id, at });
  await writeAudit(db, { ...actor, action: 'family-code-issued', entity: 'student', entity_id: studentId, field: 'family_code', new_value: `expires ${expiresAt}` });
  return { code: formatFamilyCode(code), expires_at: expiresAt };
}

export async function issueFamilyCode(db: Db, studentId: string, actor: Actor): Promise<FamilyCodeAnswer> {
  await requireStudent(db, studentId);
  return db.transaction().execute((trx) => issueCode(trx, studentId, actor));
}

export interface FamilyLetter {
  studentId: string;
  name: string;
  className: string | null;
  code: string;
  expiresAt: string;
}

/** A new code for every student of a class, in class order, in one transaction: the letters to print. */
export async function issueClassCodes(db: Db, classId: string, actor: Actor): Promise<FamilyLetter[]> {
  const formClass = await repo.findFormClass(db, classId);
  if (!formClass) throw notFound('No form class has this id.');
  const students = await repo.listClassStudents(db, classId);
  if (students.length === 0) throw conflict(`Class ${classId} has no students yet.`);
  const className = formClassName(classId, formClass.form_level);
  return db.transaction().execute(async (trx) => {
    const letters: FamilyLetter[] = [];
    for (const student of students) {
      const issued = await issueCode(trx, student.id, actor);
      letters.push({ studentId: student.id, name: studentName({ ...student, student_id: student.id }), className, code: issued.code, expiresAt: issued.expires_at });
    }
    return letters;
  });
}

/**
 * Mails an invitation to a parent's address; opening it while signed in to the family account of
 * that address (or creating the account from that address) links the child. Capped per student a
 * day, so the form cannot flood a mailbox. A student invites only an address the record holds as
 * a parent's (`recordAddressesOnly`, D66): otherwise a student could send the school's invitation,
 * and so their record, to any mailbox; the office may invite any address.
 */
export async function inviteFamily(db: Db, studentId: string, email: string, actor: Actor, options: { recordAddressesOnly: boolean }): Promise<{ message: string }> {
  const student = await requireStudent(db, studentId);
  if (options.recordAddressesOnly) {
    const record = await repo.findRecordParentEmails(db, studentId);
    const onRecord = RECORD_PARENT_EMAIL_FIELDS.map((field) => record?.[field]?.trim().toLowerCase() ?? '').filter((address) => address !== '');
    if (!onRecord.includes(email.toLowerCase())) throw fieldError('email', STUDENT_INVITE_RECORD_ONLY);
  }
  if ((await repo.countInvitationsSince(db, studentId, new Date(Date.now() - DAY_MS).toISOString())) >= INVITATIONS_PER_DAY) {
    throw tooManyRequests(`At most ${INVITATIONS_PER_DAY} invitations a day for one student. Please try again tomorrow.`, DAY_MS);
  }
  const token = newToken();
  await db.transaction().execute(async (trx) => {
    const at = nowIso();
    await repo.insertToken(trx, { purpose: 'invitation', tokenHash: sha256(token), expiresAt: later(INVITATION_TTL_MS), at, studentId, email, createdBy: actor.actor_user_id });
    await queueMessage(trx, { to: email, template: 'family-invitation', data: { studentName: studentName(student), token } });
    await writeAudit(trx, { ...actor, action: 'family-invite', entity: 'student', entity_id: studentId, field: 'family', new_value: email });
  });
  return { message: `Invitation sent to ${email}. The link works for 14 days.` };
}

/** One invitation of a bulk send: the student's record and one parent e-mail it holds. */
export interface RecordInvitation {
  studentId: string;
  studentName: string;
  email: string;
}

/**
 * The office's bulk send (D83): the family invitation of `inviteFamily`, to parent e-mails the
 * records hold, all written in the caller's transaction (a link, its message in the outbox and an
 * audit row each). The caller has chosen the addresses and left out those invited recently.
 */
export async function inviteRecordParents(trx: Db, invitations: readonly RecordInvitation[], actor: Actor): Promise<void> {
  const at = nowIso();
  for (const invitation of invitations) {
    const token = newToken();
    await repo.insertToken(trx, { purpose: 'invitation', tokenHash: sha256(token), expiresAt: later(INVITATION_TTL_MS), at, studentId: invitation.studentId, email: invitation.email, createdBy: actor.actor_user_id });
    await queueMessage(trx, { to: invitation.email, template: 'family-invitation', data: { studentName: invitation.studentName, token } });
    await writeAudit(trx, { ...actor, action: 'family-invite', entity: 'student', entity_id: invitation.studentId, field: 'family', new_value: invitation.email });
  }
}

/** The office links an existing family account, found by its e-mail. */
export async function officeLink(db: Db, studentId: string, email: string, actor: Actor): Promise<StudentFamily> {
  await requireStudent(db, studentId);
  const guardian = await repo.findGuardianByEmail(db, email);
  if (!guardian) throw fieldError('email', 'No family account uses this e-mail. Send an invitation instead.');
  await db.transaction().execute(async (trx) => {
    if (!(await repo.insertLink(trx, { userId: guardian.id, studentId, via: 'office', at: nowIso() }))) throw conflict('This family account is already linked to the student.');
    await writeAudit(trx, linkAudit(actor, 'family-link', studentId, guardian, 'office'));
  });
  return getStudentFamily(db, studentId);
}

/** The office removes a family account's link to a student. */
export async function officeUnlink(db: Db, studentId: string, userId: number, actor: Actor): Promise<StudentFamily> {
  await requireStudent(db, studentId);
  const guardian = await repo.findGuardianById(db, userId);
  await db.transaction().execute(async (trx) => {
    if (!guardian || !(await repo.deleteLink(trx, userId, studentId))) throw notFound('That family account is not linked to the student.');
    await writeAudit(trx, { ...linkAudit(actor, 'family-unlink', studentId, guardian), old_value: guardian.email, new_value: null });
  });
  return getStudentFamily(db, studentId);
}
