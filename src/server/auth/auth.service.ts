import type { Db } from '../db/database.js';
import { AppError, conflict, fieldError, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import { hitRateLimit, peekRateLimit, clearRateLimit, refundRateLimit, type RateLimitRule } from '../http/rate-limit.repository.js';
import type { Actor } from '../http/request-context.js';
import { writeAudit } from '../audit/audit.repository.js';
import { parseBirthDate, toCompactDate } from '../../shared/dates.js';
import type {
  AdminLoginInput,
  ChangePasswordInput,
  FindStudentIdInput,
  FirstLoginInput,
  LoginAnswer,
  StudentLoginInput,
  UserStatus,
} from '../../shared/auth.schemas.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import * as repo from './auth.repository.js';
import * as sessions from './session.repository.js';
import type { AuthUser } from './auth.repository.js';

/**
 * Sign-in rules (SPEC §2/§4, DESIGN §5–6, OWASP authentication cheat sheet): generic failure
 * messages, throttling per address and per account (in the database, so every process shares
 * them), no master password, hashes never leave this module.
 */

const FIFTEEN_MINUTES = 15 * 60_000;
/** Failed sign-ins one address may make in 15 minutes. A school lab shares one address, so generous. */
const ADDRESS_FAILURE_RULE: RateLimitRule = { limit: 30, windowMs: FIFTEEN_MINUTES };
/** Failed attempts before an account locks, and for how long. */
const ACCOUNT_MAX_FAILURES = 5;
const ACCOUNT_LOCK_MS = FIFTEEN_MINUTES;
/** The ID finder: calls per address, and per person asked about. */
const FINDER_ADDRESS_RULE: RateLimitRule = { limit: 10, windowMs: FIFTEEN_MINUTES };
const FINDER_PERSON_RULE: RateLimitRule = { limit: 5, windowMs: FIFTEEN_MINUTES };
const FIRST_LOGIN_IDENTIFIER_RULE: RateLimitRule = { limit: 5, windowMs: FIFTEEN_MINUTES };

const INVALID_STUDENT = 'Student ID or password is incorrect.';
const INVALID_ADMIN = 'Username or password is incorrect.';
const INVALID_FIRST_LOGIN = 'No new account matches that pin or SEA number and date of birth.';

function invalidCredentials(message: string) {
  return new AppError(401, 'invalid_credentials', message);
}

function studentName(user: AuthUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || (user.studentId ?? '');
}

async function requireAddressAllowed(db: Db, kind: string, ip: string): Promise<void> {
  const state = await peekRateLimit(db, `${kind}:ip:${ip}`, ADDRESS_FAILURE_RULE);
  if (state.limited) throw tooManyRequests('Too many attempts from this network. Please wait and try again.', state.retryAfterMs);
}

/** Attempts one account may have in flight or failed within the lock window (see reserveAttempt). */
const ACCOUNT_ATTEMPT_RULE: RateLimitRule = { limit: ACCOUNT_MAX_FAILURES, windowMs: FIFTEEN_MINUTES };

interface Reservation {
  /** Gives the attempt back (it succeeded: only failures count). */
  release(): Promise<void>;
}

/**
 * Counts an attempt against the address (and the account, when known) *before* the password is
 * checked, each in one atomic upsert, so guesses sent at the same moment, to one process or to
 * several, cannot all pass a check made before any of them was recorded (issue #8: 20
 * simultaneous guesses were all verified). Refused at once when a window is full; a success
 * releases its reservation.
 */
async function reserveAttempt(db: Db, kind: string, ip: string, userId: number | undefined): Promise<Reservation> {
  const addressKey = `${kind}:ip:${ip}`;
  const accountKey = userId === undefined ? null : `${kind}:account:${userId}`;
  const address = await hitRateLimit(db, addressKey, ADDRESS_FAILURE_RULE);
  const account = accountKey ? await hitRateLimit(db, accountKey, ACCOUNT_ATTEMPT_RULE) : null;
  const release = async () => {
    await refundRateLimit(db, addressKey);
    if (accountKey) await clearRateLimit(db, accountKey);
  };
  if (account?.limited) {
    await refundRateLimit(db, addressKey);
    if (accountKey) await refundRateLimit(db, accountKey);
    throw tooManyRequests('Too many failed attempts. This account is locked for a while; please wait and try again.', account.retryAfterMs, 'account_locked');
  }
  if (address.limited) {
    await refundRateLimit(db, addressKey);
    if (accountKey) await refundRateLimit(db, accountKey);
    throw tooManyRequests('Too many attempts from this network. Please wait and try again.', address.retryAfterMs);
  }
  return { release };
}

function requireNotLocked(user: AuthUser | undefined): void {
  if (!user?.lockedUntil) return;
  const remainingMs = Date.parse(user.lockedUntil) - Date.now();
  if (remainingMs > 0) {
    const minutes = Math.ceil(remainingMs / 60_000);
    throw tooManyRequests(
      `Too many failed attempts. This account is locked for ${minutes} more minute${minutes === 1 ? '' : 's'}.`,
      remainingMs,
      'account_locked',
    );
  }
}

/** After a failed check: the account's lock and the audit row (the attempt was counted by reserveAttempt). */
async function recordFailure(db: Db, user: AuthUser | undefined, actor: Actor) {
  if (user) {
    const locked = await repo.recordFailedAttempt(db, user, ACCOUNT_MAX_FAILURES, ACCOUNT_LOCK_MS);
    await writeAudit(db, { ...actor, action: locked ? 'account-locked' : 'sign-in-failed', entity: 'user', entity_id: String(user.id) });
  }
}

/** Checks a student's ID and password (or date of birth after a reset); answers the login answer. */
export async function signInStudent(db: Db, input: StudentLoginInput, actor: Actor & { ip: string }) {
  await requireAddressAllowed(db, 'sign-in', actor.ip);
  const user = await repo.findStudentUser(db, input.student_id);
  requireNotLocked(user);
  if (user && !user.passwordHash && user.firstLogin) {
    throw invalidCredentials('This account has not been set up yet. Choose “First time here?” to sign in.');
  }
  const reservation = await reserveAttempt(db, 'sign-in', actor.ip, user?.id);
  const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await verifyAgainstDummy(input.password), false);
  if (!user || !valid) {
    await recordFailure(db, user, actor);
    throw invalidCredentials(INVALID_STUDENT);
  }
  await reservation.release();
  await repo.clearFailedAttempts(db, user.id);
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

/** First login (DESIGN §6): birth certificate pin or SEA number + date of birth → the student ID. */
export async function signInFirstTime(db: Db, input: FirstLoginInput, actor: Actor & { ip: string }) {
  await requireAddressAllowed(db, 'first-login', actor.ip);
  // The pin or SEA number is the account here: its attempts are reserved before the check too.
  const identifierKey = `first-login:id:${input.identifier.toUpperCase()}`;
  const addressKey = `first-login:ip:${actor.ip}`;
  const identifierState = await hitRateLimit(db, identifierKey, FIRST_LOGIN_IDENTIFIER_RULE);
  if (identifierState.limited) {
    await refundRateLimit(db, identifierKey);
    throw tooManyRequests('Too many attempts for this pin or SEA number. Please wait and try again.', identifierState.retryAfterMs, 'account_locked');
  }
  const addressState = await hitRateLimit(db, addressKey, ADDRESS_FAILURE_RULE);
  if (addressState.limited) {
    await refundRateLimit(db, addressKey);
    await refundRateLimit(db, identifierKey);
    throw tooManyRequests('Too many attempts from this network. Please wait and try again.', addressState.retryAfterMs);
  }
  const dateOfBirth = parseBirthDate(input.date_of_birth);
  const candidates = await repo.findStudentUsersByIdentifier(db, input.identifier);
  const match = candidates.find((user) => user.dateOfBirth === dateOfBirth);
  if (!match) throw invalidCredentials(INVALID_FIRST_LOGIN);
  await refundRateLimit(db, addressKey);
  await clearRateLimit(db, identifierKey);
  if (!match.firstLogin) {
    throw conflict('This student has already signed in before. Use the Student ID and password.');
  }
  await writeAudit(db, { ...actor, actor_user_id: match.id, actor_label: `student:${match.studentId}`, action: 'first-login', entity: 'user', entity_id: String(match.id) });
  return { user: match, answer: loginAnswer(match) };
}

/** The spec's pre-sign-in status call: the same shape for an unknown ID, so it reveals no account. */
export async function getUserStatus(db: Db, studentId: string): Promise<UserStatus> {
  const user = await repo.findStudentUser(db, studentId);
  return [
    {
      student_id: studentId,
      first_login: user?.firstLogin ? 1 : 0,
      password_reset: user?.passwordReset ? 1 : 0,
    },
  ];
}

/** Date-of-birth spellings a new password must not be (DESIGN §6: the reset password is the DOB). */
function birthDateForms(isoDate: string | null): string[] {
  if (!isoDate) return [];
  const [y, m, d] = isoDate.split('-');
  return [isoDate, toCompactDate(isoDate), `${d}${m}${y}`, `${m}${d}${y}`, `${d}/${m}/${y}`, `${d}-${m}-${y}`];
}

/**
 * The current password of an own change, checked under the same per-account and per-address
 * attempt counts as a sign-in (a separate window, so it never locks the account's sign-in): a
 * session left open on a shared computer must not become an unthrottled password oracle.
 */
async function requireCurrentPassword(db: Db, user: AuthUser, currentPassword: string | undefined, actor: Actor): Promise<void> {
  if (!currentPassword) throw fieldError('current_password', 'Enter your current password.');
  const reservation = await reserveAttempt(db, 'change-password', actor.ip ?? 'unknown', user.id);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, currentPassword))) {
    await writeAudit(db, { ...actor, action: 'password-change-failed', entity: 'user', entity_id: String(user.id) });
    throw fieldError('current_password', 'Current password is incorrect.');
  }
  await reservation.release();
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
  if (birthDateForms(user.dateOfBirth).includes(newPassword)) {
    throw fieldError(field, 'Choose a password that is not your date of birth.');
  }
  await repo.updatePassword(db, user.id, await hashPassword(newPassword), { firstLogin: false, passwordReset: false });
  await writeAudit(db, { ...actor, action: 'password-changed', entity: 'user', entity_id: String(user.id) });
  return { user, name: studentName(user) };
}

/** Administrator sign-in by user name and password. */
export async function signInAdmin(db: Db, input: AdminLoginInput, actor: Actor & { ip: string }) {
  await requireAddressAllowed(db, 'admin-sign-in', actor.ip);
  const user = await repo.findAdminUser(db, input.username);
  requireNotLocked(user);
  const reservation = await reserveAttempt(db, 'admin-sign-in', actor.ip, user?.id);
  const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await verifyAgainstDummy(input.password), false);
  if (!user || !valid) {
    await recordFailure(db, user, actor);
    throw invalidCredentials(INVALID_ADMIN);
  }
  await reservation.release();
  await repo.clearFailedAttempts(db, user.id);
  await writeAudit(db, { ...actor, actor_user_id: user.id, actor_label: `admin:${user.username}`, action: 'sign-in', entity: 'user', entity_id: String(user.id) });
  return { user, answer: { name: user.displayName ?? 'Admin', role: 'admin' as const } };
}

/** Admin reset (DESIGN §6): the password becomes the date of birth as yyyymmdd; sessions end. */
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

/** The ID finder (DESIGN §6): exact first name, last name and date of birth → only that ID. */
export async function findStudentId(db: Db, input: FindStudentIdInput, ip: string): Promise<string> {
  const address = await hitRateLimit(db, `find-id:ip:${ip}`, FINDER_ADDRESS_RULE);
  if (address.limited) throw tooManyRequests('Too many look-ups from this network. Please wait and try again.', address.retryAfterMs);
  const person = await hitRateLimit(db, `find-id:person:${input.last_name.toLowerCase()}:${input.date_of_birth}`, FINDER_PERSON_RULE);
  if (person.limited) throw tooManyRequests('Too many look-ups for this student. Please wait and try again.', person.retryAfterMs);
  const ids = await repo.findStudentIdsByNameAndBirth(db, input.first_name, input.last_name, input.date_of_birth);
  if (ids.length !== 1) throw notFound('No student matches those details. Check the spelling, or ask the school office.');
  return ids[0] as string;
}

/** Whether an administrator with this user name exists (case-insensitive). */
export async function adminExists(db: Db, username: string): Promise<boolean> {
  return (await repo.findAdminUser(db, username)) !== undefined;
}

/** Makes sure the configured administrator exists with the configured password (first admin). */
export async function ensureConfiguredAdmin(db: Db, username: string, password: string): Promise<void> {
  await repo.upsertAdmin(db, username, await hashPassword(password));
}
