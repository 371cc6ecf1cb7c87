import type { Db } from '../db/database.js';
import { accountDisabled, AppError, conflict, fieldError, forbidden, notFound, tooManyRequests, unauthenticated } from '../http/errors.js';
import type { Config } from '../config.js';
import * as staff2fa from '../staff-2fa/staff-2fa.service.js';
import type { SecondFactorLoginInput } from '../../shared/staff-2fa.schemas.js';
import {
  clearRateLimit,
  hitRateLimit,
  refundRateLimit,
  takeDelayedAttempt,
  type DelayRule,
  type RateLimitRule,
} from '../http/rate-limit.repository.js';
import type { Actor } from '../http/request-context.js';
import { writeAudit } from '../audit/audit.repository.js';
import { DEMO_FAMILY, publishedDemoPassword } from '../db/demo-data/demo-accounts.js';
import type { FamilyLoginInput } from '../../shared/family.schemas.js';
import * as family from '../family/family.service.js';
import { queueMessage } from '../mail/outbox.service.js';
import { recipientsOf } from '../notices/notices.service.js';
import { requireUncommonPassword } from './common-passwords.js';
import { isDemoSchool } from '../db/demo-data/demo-mark.js';
import { parseBirthDate, toCompactDate } from '../../shared/dates.js';
import type {
  AdminLoginInput,
  AdminLoginAnswer,
  ChangePasswordInput,
  FindStudentIdInput,
  FirstLoginInput,
  LoginAnswer,
  StudentForgotPasswordInput,
  StudentLoginInput,
  StudentResetPasswordInput,
  UserStatus,
} from '../../shared/auth.schemas.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import * as repo from './auth.repository.js';
import * as sessions from '../http/session.repository.js';
import type { AuthUser } from './auth.repository.js';
import type { TrustedDevices } from './device-cookie.js';
import { isPendingSignInValid, type parsePendingSignIn } from './pending-sign-in.js';

/**
 * Sign-in rules (docs/requirements.md R3, OWASP authentication cheat sheet): generic failure
 * messages, failed attempts that slow an account down rather than lock it (docs/decisions.md
 * D37), counted in the database so every process shares them; no master password, hashes never
 * leave this module.
 */

const FIFTEEN_MINUTES = 15 * 60_000;
/**
 * Failed attempts one address may make in 15 minutes before the accounts it tries lose their
 * free failures. A school lab shares one address, so generous, and never a refusal by itself:
 * the right password from a busy address still signs in.
 */
const ADDRESS_FAILURE_RULE: RateLimitRule = { limit: 30, windowMs: FIFTEEN_MINUTES };
/**
 * The delay per account (and per trusted device): five failures are free, then each attempt
 * waits 1 s, 2 s, 4 s … at most 15 minutes; a day without attempts forgets them. Only failures
 * count: a success clears its key.
 */
const ACCOUNT_DELAY_RULE: DelayRule = { freeFailures: 5, firstDelayMs: 1000, maxDelayMs: FIFTEEN_MINUTES, forgetAfterMs: 24 * 60 * 60_000 };
/** From an address past its failure limit, an account has no free failures. */
const BUSY_ADDRESS_DELAY_RULE: DelayRule = { ...ACCOUNT_DELAY_RULE, freeFailures: 0 };
/** The ID finder: calls per address, and per person asked about. */
const FINDER_ADDRESS_RULE: RateLimitRule = { limit: 10, windowMs: FIFTEEN_MINUTES };
const FINDER_PERSON_RULE: RateLimitRule = { limit: 5, windowMs: FIFTEEN_MINUTES };
/** The pre-sign-in status call (R15: `/api/user/{student_id}`): a lab's worth of typed IDs per address. */
const USER_STATUS_ADDRESS_RULE: RateLimitRule = { limit: 60, windowMs: FIFTEEN_MINUTES };

const INVALID_STUDENT = 'Student ID or password is incorrect.';
const INVALID_ADMIN = 'Username or password is incorrect.';
/** One answer for a wrong date of birth and an account already set up: neither is told apart. */
const INVALID_FIRST_LOGIN =
  'No account waiting for its first sign-in matches that pin or SEA number and date of birth. If you have signed in before, use your Student ID and password.';

function invalidCredentials(message: string) {
  return new AppError(401, 'invalid_credentials', message);
}

function studentName(user: AuthUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || (user.studentId ?? '');
}

function waitFor(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

interface Attempt {
  /** The password was right: the address gets its attempt back and the account (or device) its failures. */
  succeeded(): Promise<void>;
  /**
   * The password was right and a second factor follows: the address gets its attempt back, the
   * account keeps its count until the code is right too, so knowing the password does not reset
   * the guessing of codes.
   */
  firstFactorPassed(): Promise<void>;
}

/**
 * Counts an attempt before the secret is checked (D21), in one atomic upsert per key, so guesses
 * sent at the same moment, to one process or to several, cannot all pass a check made before any
 * of them was recorded. The attempt counts against the address and against each subject (the
 * account as typed, so an unknown one is slowed down alike) — or, from a browser that signed in
 * to the account before, against that device instead, so other people's guesses never keep the
 * owner out (D37). Refused with 429 and Retry-After while the key waits out its delay.
 */
async function beginAttempt(db: Db, kind: string, ip: string, subjects: string[], device: string | null): Promise<Attempt> {
  const addressKey = `${kind}:ip:${ip}`;
  const address = await hitRateLimit(db, addressKey, ADDRESS_FAILURE_RULE);
  const rule = device === null && address.limited ? BUSY_ADDRESS_DELAY_RULE : ACCOUNT_DELAY_RULE;
  const keys = device === null ? subjects.map((subject) => `${kind}:account:${subject}`) : [`${kind}:device:${device}`];
  for (const key of keys) {
    const taken = await takeDelayedAttempt(db, key, rule);
    if (!taken.allowed) {
      // Nothing was checked, so the address is not charged with a failure.
      await refundRateLimit(db, addressKey);
      throw tooManyRequests(
        `Too many failed attempts for this account. Please wait ${waitFor(taken.retryAfterMs)} and try again.`,
        taken.retryAfterMs,
        'account_throttled',
      );
    }
  }
  return {
    async succeeded() {
      await refundRateLimit(db, addressKey);
      for (const key of keys) await clearRateLimit(db, key);
    },
    async firstFactorPassed() {
      await refundRateLimit(db, addressKey);
    },
  };
}

/** After a failed check: the audit row (the attempt was counted by beginAttempt). */
async function recordFailure(db: Db, user: AuthUser | undefined, actor: Actor) {
  if (user) await writeAudit(db, { ...actor, action: 'sign-in-failed', entity: 'user', entity_id: String(user.id) });
}

/** Checks a student's ID and password (or date of birth after a reset); answers the login answer. */
export async function signInStudent(db: Db, input: StudentLoginInput, actor: Actor & { ip: string }, devices: TrustedDevices) {
  const user = await repo.findStudentUser(db, input.student_id);
  if (user && !user.passwordHash && user.firstLogin) {
    throw invalidCredentials('This account has not been set up yet. Choose “First time here?” to sign in.');
  }
  const attempt = await beginAttempt(db, 'sign-in', actor.ip, [input.student_id], user ? devices.deviceFor(user.id) : null);
  const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await verifyAgainstDummy(input.password), false);
  if (!user || !valid) {
    await recordFailure(db, user, actor);
    throw invalidCredentials(INVALID_STUDENT);
  }
  await attempt.succeeded();
  await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `student:${user.studentId}`, action: 'sign-in', entity: 'user', entity_id: String(user.id) });
  return { user, answer: loginAnswer(user) };
}

function loginAnswer(user: AuthUser): LoginAnswer {
  return {
    name: studentName(user),
    student_id: user.studentId ?? '',
    first_login: user.firstLogin ? 1 : 0,
    password_reset: user.passwordReset ? 1 : 0,
  };
}

/**
 * First login (R3, D5): birth certificate pin or SEA number + date of birth → the student ID.
 * The student is the account here, so the pin and the SEA number share one attempt window; a
 * wrong date and an account already set up are the same failure (same answer, same work, same
 * count), so neither a child's date of birth nor an account's state can be learnt from it.
 */
export async function signInFirstTime(db: Db, input: FirstLoginInput, actor: Actor & { ip: string }) {
  const candidates = await repo.findStudentUsersByIdentifier(db, input.identifier);
  const subjects = candidates.length > 0 ? candidates.map((user) => user.studentId ?? `user:${user.id}`) : [`unknown:${input.identifier.toUpperCase()}`];
  const attempt = await beginAttempt(db, 'first-login', actor.ip, subjects, null);
  const dateOfBirth = parseBirthDate(input.date_of_birth);
  // Never one of two: students answering to the same number and date of birth (one's pin is the
  // other's SEA number) are refused like a wrong answer (D40).
  const matches = candidates.filter((user) => user.dateOfBirth === dateOfBirth);
  const match = matches.length === 1 && matches[0]!.firstLogin ? matches[0] : undefined;
  if (!match) throw invalidCredentials(INVALID_FIRST_LOGIN);
  await attempt.succeeded();
  await writeAudit(db, { ...actor, actor_user_id: match.id, actor_label: `student:${match.studentId}`, action: 'first-login', entity: 'user', entity_id: String(match.id) });
  return { user: match, answer: loginAnswer(match) };
}

/**
 * The pre-sign-in status call (`GET /api/user/{student_id}`): the same shape for an unknown ID, so it reveals no account,
 * and throttled per address like the other visitor calls (it tells which IDs are in reset).
 */
export async function getUserStatus(db: Db, studentId: string, ip: string): Promise<UserStatus> {
  const address = await hitRateLimit(db, `user-status:ip:${ip}`, USER_STATUS_ADDRESS_RULE);
  if (address.limited) throw tooManyRequests('Too many look-ups from this network. Please wait and try again.', address.retryAfterMs);
  const user = await repo.findStudentUser(db, studentId);
  return [
    {
      student_id: studentId,
      first_login: user?.firstLogin ? 1 : 0,
      password_reset: user?.passwordReset ? 1 : 0,
    },
  ];
}

/**
 * The current password of an own change, checked under the same per-account and per-address
 * attempt counts as a sign-in (a separate window, so it never locks the account's sign-in): a
 * session left open on a shared computer must not become an unthrottled password oracle.
 */
export async function requireCurrentPassword(
  db: Db,
  user: Pick<AuthUser, 'id' | 'passwordHash'>,
  currentPassword: string | undefined,
  actor: Actor,
): Promise<void> {
  if (!currentPassword) throw fieldError('current_password', 'Enter your current password.');
  const attempt = await beginAttempt(db, 'change-password', actor.ip ?? 'unknown', [String(user.id)], null);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, currentPassword))) {
    await writeAudit(db, { ...actor, action: 'password-change-failed', entity: 'user', entity_id: String(user.id) });
    throw fieldError('current_password', 'Current password is incorrect.');
  }
  await attempt.succeeded();
}

/**
 * Own password change, and the forced change after a reset or first login. Other sessions of the
 * account end; the caller's session continues under a new id.
 */
export async function changeStudentPassword(
  db: Db,
  sessionUserId: number,
  sessionStudentId: string | null,
  input: ChangePasswordInput,
  actor: Actor,
): Promise<{ user: AuthUser; name: string }> {
  if (!sessionStudentId || sessionStudentId !== input.student_id) throw forbidden('You can only change your own password.');
  const user = await repo.findStudentUser(db, input.student_id);
  if (!user || user.id !== sessionUserId) throw forbidden('You can only change your own password.');
  const forced = user.firstLogin || user.passwordReset;
  const newPassword = (input.reset_password ?? input.password) as string;
  const field = input.reset_password ? 'reset_password' : 'password';
  if (!forced) await requireCurrentPassword(db, user, input.current_password, actor);
  // Every account's rule (D77): the length is the schema's, a common password the list's.
  await requireUncommonPassword(newPassword, field);
  await repo.updatePassword(db, user.id, await hashPassword(newPassword), { firstLogin: false, passwordReset: false });
  await writeAudit(db, { ...actor, action: 'password-changed', entity: 'user', entity_id: String(user.id) });
  return { user, name: studentName(user) };
}

/**
 * The demo staff sign-ins are published (README "Demo sign-ins"): they open only the demo
 * school's database (D35, D49). Anywhere else they fail as a wrong password does, so they reveal nothing.
 */
async function isRefusedDemoSignIn(db: Db, user: AuthUser, password: string): Promise<boolean> {
  const published = publishedDemoPassword(user.username);
  return published !== null && password === published && !(await isDemoSchool(db));
}

/** The answer to a staff password sign-in while staff passwords are off (STAFF_PASSWORD_SIGNIN=off). */
export const STAFF_PASSWORDS_OFF = 'Staff sign in with their school account here: passwords are turned off for staff. Use the school sign-in button above.';

type AdminSignedIn = Exclude<AdminLoginAnswer, { second_factor: 'totp' }>;

/** What the password step of a staff sign-in leads to. */
export type AdminSignIn =
  | { kind: 'signed-in'; user: AuthUser; answer: AdminSignedIn }
  | { kind: 'second-factor'; user: AuthUser & { passwordHash: string } };

function adminAnswer(user: AuthUser): AdminSignedIn {
  return { name: user.displayName ?? 'Admin', role: 'staff', staff_role: user.staffRole ?? 'administrator' };
}

/**
 * Staff sign-in by user name and password. With a second factor on (and STAFF_2FA not off) no
 * session starts yet: the code is asked next (`completeAdminSignIn`). When the portal requires a
 * second factor the account has not set up, the session manager starts the session limited to
 * its enrolment (http/session.ts, D65).
 */
export async function signInAdmin(db: Db, config: Config, input: AdminLoginInput, actor: Actor & { ip: string }, devices: TrustedDevices): Promise<AdminSignIn> {
  const user = await repo.findStaffUser(db, input.username);
  const attempt = await beginAttempt(db, 'admin-sign-in', actor.ip, [input.username.toLowerCase()], user ? devices.deviceFor(user.id) : null);
  const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await verifyAgainstDummy(input.password), false);
  if (!user || !user.passwordHash || !valid || (await isRefusedDemoSignIn(db, user, input.password))) {
    await recordFailure(db, user, actor);
    throw invalidCredentials(INVALID_ADMIN);
  }
  // Only someone who knows the password learns that the account exists and is disabled, and whom
  // to ask (D84); to anyone else it fails as a wrong password does. The attempt stays counted.
  if (user.disabled) {
    await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `admin:${user.username}`, action: 'sign-in-disabled', entity: 'user', entity_id: String(user.id) });
    throw accountDisabled(403);
  }
  // STAFF_PASSWORD_SIGNIN=off: only the break-glass administrator signs in with a password, and
  // always with the code too (D96). Said only after the right password, as a disabled account is.
  const breakGlass = staff2fa.isBreakGlassAdmin(config, user.username);
  if (!config.staffPasswordSignIn && !(breakGlass && user.staffRole === 'administrator')) {
    await attempt.succeeded();
    await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `admin:${user.username}`, action: 'sign-in-password-off', entity: 'user', entity_id: String(user.id) });
    throw forbidden(STAFF_PASSWORDS_OFF);
  }
  const rule = breakGlass ? 'required' : await staff2fa.secondFactorRule(db, config, user.staffRole ?? 'administrator');
  if (rule !== 'off' && (await staff2fa.hasSecondFactor(db, user.id))) {
    await attempt.firstFactorPassed();
    await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `admin:${user.username}`, action: 'sign-in-password', entity: 'user', entity_id: String(user.id) });
    return { kind: 'second-factor', user: { ...user, passwordHash: user.passwordHash } };
  }
  await attempt.succeeded();
  await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `admin:${user.username}`, action: 'sign-in', entity: 'user', entity_id: String(user.id) });
  return { kind: 'signed-in', user, answer: adminAnswer(user) };
}

const SIGN_IN_EXPIRED = 'Your sign-in has expired. Please enter your username and password again.';

/**
 * The second step of a staff sign-in: the code from the app, or a recovery code, for the sign-in
 * the pending cookie names. A wrong code counts against the same per-account (or per-device) and
 * per-address throttles as a wrong password (D37); a right one clears them.
 */
export async function completeAdminSignIn(
  db: Db,
  serverSecret: Buffer,
  pending: ReturnType<typeof parsePendingSignIn>,
  input: SecondFactorLoginInput,
  actor: Actor & { ip: string },
  devices: TrustedDevices,
): Promise<{ user: AuthUser; answer: AdminSignedIn; remember: boolean }> {
  if (!pending) throw unauthenticated(SIGN_IN_EXPIRED);
  const user = await repo.findStaffUserById(db, pending.userId);
  // An account that signed in through the school's provider may have no password: its pending
  // sign-in is bound to an empty one, and only the server minted it (D96).
  if (!user?.username || user.disabled || !isPendingSignInValid(serverSecret, pending, user.passwordHash ?? '')) {
    throw unauthenticated(SIGN_IN_EXPIRED);
  }
  const attempt = await beginAttempt(db, 'admin-sign-in', actor.ip, [user.username.toLowerCase()], devices.deviceFor(user.id));
  const check = await staff2fa.checkSecondFactor(db, serverSecret, user.id, input);
  if (check !== 'accepted') {
    await recordFailure(db, user, actor);
    throw staff2fa.codeRefusal(check, input.recovery_code === undefined ? 'code' : 'recovery_code');
  }
  await attempt.succeeded();
  const how = input.recovery_code === undefined ? 'sign-in' : 'sign-in-recovery-code';
  await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `admin:${user.username}`, action: how, entity: 'user', entity_id: String(user.id) });
  return { user, answer: adminAnswer(user), remember: pending.remember };
}

const INVALID_FAMILY = 'E-mail or password is incorrect.';

/**
 * A parent's sign-in by e-mail and password: the students' throttles and session
 * rules. A disabled family account fails as a wrong password does.
 */
export async function signInGuardian(db: Db, input: FamilyLoginInput, actor: Actor & { ip: string }, devices: TrustedDevices) {
  const user = await repo.findGuardianUser(db, input.email);
  const attempt = await beginAttempt(db, 'family-sign-in', actor.ip, [input.email], user ? devices.deviceFor(user.id) : null);
  const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await verifyAgainstDummy(input.password), false);
  if (!user || !valid || user.disabled || !user.emailVerified || (await isRefusedDemoFamilySignIn(db, user, input.password))) {
    await recordFailure(db, user, actor);
    throw invalidCredentials(INVALID_FAMILY);
  }
  await attempt.succeeded();
  await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `guardian:${user.email}`, action: 'sign-in', entity: 'user', entity_id: String(user.id) });
  return { user, answer: { name: user.displayName ?? user.email ?? '', email: user.email ?? '', role: 'guardian' as const } };
}

/** The demo family's published password opens only the demo school (as the demo staff's do). */
async function isRefusedDemoFamilySignIn(db: Db, user: AuthUser, password: string): Promise<boolean> {
  return user.email === DEMO_FAMILY.email && password === DEMO_FAMILY.password && !(await isDemoSchool(db));
}

/** Admin reset (R11): the password becomes the date of birth as yyyymmdd; sessions end. */
export async function resetStudentPassword(db: Db, studentId: string, actor: Actor): Promise<number> {
  const student = await repo.findStudentBirthDate(db, studentId);
  if (!student) throw notFound('No student has that ID.');
  if (!student.date_of_birth) throw conflict('This student has no date of birth on record; add it before resetting the password.');
  const userId = await repo.ensureStudentUser(db, studentId);
  await repo.updatePassword(db, userId, await hashPassword(toCompactDate(student.date_of_birth)), { firstLogin: false, passwordReset: true });
  await sessions.deleteSessionsOfUser(db, userId);
  await writeAudit(db, { ...actor, action: 'password-reset', entity: 'student', entity_id: studentId });
  return userId;
}

/** The ID finder (R3): exact first name, last name and date of birth → only that ID. */
export async function findStudentId(db: Db, input: FindStudentIdInput, ip: string): Promise<string> {
  const address = await hitRateLimit(db, `find-id:ip:${ip}`, FINDER_ADDRESS_RULE);
  if (address.limited) throw tooManyRequests('Too many look-ups from this network. Please wait and try again.', address.retryAfterMs);
  const person = await hitRateLimit(db, `find-id:person:${input.last_name.toLowerCase()}:${input.date_of_birth}`, FINDER_PERSON_RULE);
  if (person.limited) throw tooManyRequests('Too many look-ups for this student. Please wait and try again.', person.retryAfterMs);
  const ids = await repo.findStudentIdsByNameAndBirth(db, input.first_name, input.last_name, input.date_of_birth);
  if (ids.length !== 1) throw notFound('No student matches those details. Check the spelling, or ask the school office.');
  return ids[0] as string;
}

/** Whether some administrator can sign in: one with a password, not counting a refused demo sign-in. */
export async function hasUsableAdministrator(db: Db, demoSchool: boolean): Promise<boolean> {
  for (const admin of await repo.listAdminPasswords(db)) {
    const published = publishedDemoPassword(admin.username);
    const isPublishedDemo = published !== null && (await verifyPassword(admin.passwordHash, published));
    if (demoSchool || !isPublishedDemo) return true;
  }
  return false;
}

/**
 * Makes sure the configured administrator exists with the configured password (first admin).
 * This is also how a forgotten password is replaced, so the account's sign-in delay ends too.
 */
export async function ensureConfiguredAdmin(db: Db, username: string, password: string): Promise<void> {
  await repo.upsertAdmin(db, username, await hashPassword(password));
  await clearRateLimit(db, `admin-sign-in:account:${username.toLowerCase()}`);
}

// ---------------------------------------------------------------------------------------------
// A student's forgotten password, by a link mailed to their family (docs/decisions.md D77)

/** The one answer, whatever was found: it says neither whether the student exists nor whether the school has an address. */
export const STUDENT_FORGOT_ANSWER =
  'If the Student ID and date of birth are right and the school has an e-mail address of your family, we sent a link to choose a new password there. It works for one hour. No message? Ask the school office to reset your password.';

/** The mail a reset request leads to, written once the answer has left (the route runs it). */
export type StudentResetDelivery = () => Promise<void>;

/**
 * "Forgot your password?" of a student: throttled like the family's reset requests (per network,
 * per student), then the same reads whatever the Student ID names (the account, and the family's
 * addresses through the notices' one recipient rule: linked family accounts and the parent e-mails
 * the office verified). A link is made only when the date of birth is the student's and there is
 * an address; that write is handed back as `deliver`, for the route to run after the answer, so
 * neither the words nor the answer's time tell whether the student exists or has an address.
 */
export async function requestStudentPasswordReset(
  db: Db,
  input: StudentForgotPasswordInput,
  actor: Actor & { ip: string },
): Promise<{ message: string; deliver: StudentResetDelivery | null }> {
  const studentId = input.student_id.toUpperCase();
  await family.requireMailRequestUnderLimits(db, actor.ip, `student:${studentId}`, 'Several links were sent for this Student ID already. Please wait an hour, or ask the school office.');
  const user = await repo.findStudentUser(db, input.student_id);
  const { recipients } = await recipientsOf(db, [input.student_id]);
  const matches = user !== undefined && !user.disabled && user.passwordHash !== null && !user.firstLogin && user.dateOfBirth === input.date_of_birth;
  if (!matches || recipients.length === 0) return { message: STUDENT_FORGOT_ANSWER, deliver: null };
  const deliver = async () => {
    await db.transaction().execute(async (trx) => {
      const token = await family.issuePasswordResetLink(trx, user.id, null);
      const data = { studentName: studentName(user), studentId: user.studentId ?? input.student_id, token };
      for (const recipient of recipients) await queueMessage(trx, { to: recipient.email, template: 'student-password-reset', data });
      await writeAudit(trx, { ...actor, action: 'password-reset-link', entity: 'student', entity_id: user.studentId ?? input.student_id, new_value: recipients.map((r) => r.email).join(', ') });
    });
  };
  return { message: STUDENT_FORGOT_ANSWER, deliver };
}

/**
 * Opens a student's reset link with the new password, under every account's password rule: the
 * link is taken once, the account's forced-change flags are cleared (the password is the chosen
 * one now), and its sign-in delays forgotten. The route ends every session of the student; nobody
 * is signed in, since the link's opener is often the parent on their own device.
 */
export async function resetStudentPasswordByLink(db: Db, input: StudentResetPasswordInput, actor: Actor): Promise<{ userId: number; studentId: string }> {
  const link = await family.findPasswordResetLink(db, input.token);
  const user = await repo.findStudentUserById(db, link.userId);
  if (!user?.studentId || user.disabled) throw new AppError(400, 'link_invalid', 'This link has expired or was already used. Ask for a new one with “Forgot your password?”.');
  await requireUncommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const studentId = user.studentId;
  await db.transaction().execute(async (trx) => {
    await family.takePasswordResetLink(trx, link);
    await repo.updatePassword(trx, user.id, passwordHash, { firstLogin: false, passwordReset: false });
    await writeAudit(trx, { ...actor, action: 'password-reset-by-link', entity: 'user', entity_id: String(user.id) });
  });
  await clearRateLimit(db, `sign-in:account:${studentId}`);
  return { userId: user.id, studentId };
}

/** What a sign-in through the school's provider leads to (D96). */
export type ProviderSignInOutcome =
  | { kind: 'refused'; reason: 'unverified_email' | 'unknown_account' | 'account_disabled' }
  | { kind: 'second-factor'; user: AuthUser }
  | { kind: 'signed-in'; user: AuthUser; secondFactorByProvider: boolean };

/**
 * A staff member the school's provider signed in (docs/decisions.md D96). The account must exist:
 * found by the provider's subject kept at an earlier sign-in, else by the school e-mail the
 * administrator wrote on it, which the provider must say it verified; the subject is then kept.
 * Unknown, unverified and disabled are refused and audited. A sign-in that used more than a
 * password at the provider (`multiFactor`) is not asked for the portal's code; otherwise the
 * portal's own rule applies, as after a password. A one-time password still waiting to be
 * changed is void from here on: the person signs in through the provider.
 */
export async function signInStaffThroughProvider(
  db: Db,
  config: Config,
  identity: { issuer: string; subject: string; email: string | null; verifiedEmail: string | null; multiFactor: boolean },
  actor: Actor & { ip: string },
): Promise<ProviderSignInOutcome> {
  const label = `oidc:${identity.email ?? identity.subject}`.slice(0, 200);
  const refuse = async (reason: 'unverified_email' | 'unknown_account' | 'account_disabled', user?: AuthUser): Promise<ProviderSignInOutcome> => {
    await writeAudit(db, {
      ...actor,
      actor_user_id: user?.id ?? null,
      actor_label: user ? `admin:${user.username}` : label,
      action: reason === 'account_disabled' ? 'sign-in-disabled' : 'sign-in-failed',
      entity: 'user',
      entity_id: user ? String(user.id) : null,
      field: 'provider',
      new_value: `${reason}: ${identity.email ?? '(no e-mail)'}`.slice(0, 300),
    });
    return { kind: 'refused', reason };
  };

  let user: AuthUser | undefined = await repo.findStaffUserByOidcSubject(db, identity.issuer, identity.subject);
  if (!user) {
    if (!identity.verifiedEmail) return refuse(identity.email ? 'unverified_email' : 'unknown_account');
    const byEmail = await repo.findStaffUserBySignInEmail(db, identity.verifiedEmail);
    // An account already tied to another person at this provider is not taken over by an address.
    if (!byEmail || (byEmail.oidcSubject !== null && (byEmail.oidcIssuer !== identity.issuer || byEmail.oidcSubject !== identity.subject))) return refuse('unknown_account');
    if (byEmail.disabled) return refuse('account_disabled', byEmail);
    if (!(await repo.keepOidcSubject(db, byEmail.id, identity.issuer, identity.subject))) return refuse('unknown_account');
    user = byEmail;
  }
  if (user.disabled) return refuse('account_disabled', user);
  if (user.passwordReset) {
    await repo.voidOneTimePassword(db, user.id);
    await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `admin:${user.username}`, action: 'one-time-password-void', entity: 'user', entity_id: String(user.id) });
    user = { ...user, passwordHash: null, passwordReset: false, firstLogin: false };
  }
  const rule = await staff2fa.secondFactorRule(db, config, user.staffRole ?? 'administrator');
  if (!identity.multiFactor && rule !== 'off' && (await staff2fa.hasSecondFactor(db, user.id))) {
    await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `admin:${user.username}`, action: 'sign-in-provider', entity: 'user', entity_id: String(user.id) });
    return { kind: 'second-factor', user };
  }
  await writeAudit(db, {
    ...actor,
    actor_user_id: user.id,
    actor_label: `admin:${user.username}`,
    action: 'sign-in',
    entity: 'user',
    entity_id: String(user.id),
    field: 'provider',
    new_value: identity.multiFactor ? 'multi-factor' : 'single-factor',
  });
  return { kind: 'signed-in', user, secondFactorByProvider: identity.multiFactor };
}
