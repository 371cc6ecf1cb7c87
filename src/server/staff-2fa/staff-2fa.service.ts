import crypto from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { isDemoSchool } from '../db/demo-data/demo-mark.js';
import { writeAudit } from '../audit/audit.repository.js';
import { AppError, conflict, fieldError, forbidden, tooManyRequests } from '../http/errors.js';
import { needsSecondFactorByDefault } from '../access/roles.js';
import { clearRateLimit, takeDelayedAttempt, type DelayRule } from '../http/rate-limit.repository.js';
import type { Actor } from '../http/request-context.js';
import type { StaffRole } from '../../shared/staff.js';
import {
  RECOVERY_CODE_COUNT,
  type EnrolmentAnswer,
  type SecondFactorLoginInput,
  type SecondFactorRule,
  type SecondFactorStatus,
} from '../../shared/staff-2fa.schemas.js';
import * as repo from './staff-2fa.repository.js';
import { openTotpSecret, sealTotpSecret, totpSealingKey } from './totp-secret.js';

/**
 * The staff second factor (docs/decisions.md "Staff second factor"): TOTP of RFC 6238
 * through otplib (SHA-1, 6 digits, 30 s: what every authenticator app reads from a QR code), a
 * code taken once (the last accepted time step is kept), one-time recovery codes kept as HMACs.
 * Sign-in throttling is the password's (auth.service.ts); enrolment and turning it off have their
 * own growing delay per account under the same rule (D37).
 */

/** A code of the step before or after the server's is still taken: clocks drift and people type slowly. */
const EPOCH_TOLERANCE_S = 30;
/** D37's per-account delay: five wrong codes are free, then 1 s, 2 s, 4 s … at most 15 minutes. */
const CODE_DELAY_RULE: DelayRule = { freeFailures: 5, firstDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetAfterMs: 24 * 60 * 60_000 };
/** Recovery codes: 10 characters of an alphabet without 0/o, 1/l/i (about 50 bits each), printed as abcde-23456. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A signed-in staff account, as the enrolment calls know it. */
export interface StaffAccount {
  id: number;
  username: string;
  staffRole: StaffRole;
}

/**
 * Whether the portal asks this staff role for a second factor: STAFF_2FA when set; otherwise
 * required for the roles the policy names (administrators and the office) except on the demo
 * school's database, whose sign-ins are published (D35), and optional for the rest.
 */
export async function secondFactorRule(db: Db, config: Config, role: StaffRole): Promise<SecondFactorRule> {
  if (config.staff2fa) return config.staff2fa;
  if (!needsSecondFactorByDefault(role)) return 'optional';
  return (await isDemoSchool(db)) ? 'optional' : 'required';
}

/** Whether the account's second factor is on (a confirmed secret). */
export async function hasSecondFactor(db: Db, userId: number): Promise<boolean> {
  return Boolean((await repo.findTotpState(db, userId))?.enabledAt);
}

/**
 * Whether a new session of this account may reach only the enrolment (http/access.ts): a staff
 * account of a role the portal requires a second factor of, with none confirmed. Asked by the
 * session manager each time a session starts (docs/decisions.md D65), never by its callers.
 */
export async function needsSecondFactorSetup(db: Db, config: Config, userId: number): Promise<boolean> {
  const account = await repo.findSecondFactorAccount(db, userId);
  if (!account || account.enabledAt) return false;
  if (isBreakGlassAdmin(config, account.username)) return true;
  return (await secondFactorRule(db, config, account.staffRole ?? 'administrator')) === 'required';
}

/**
 * The break-glass administrator (BREAK_GLASS_ADMIN) while staff passwords are off: the one
 * account that still signs in with a password, and so always with the code too, whatever
 * STAFF_2FA says (docs/decisions.md D96).
 */
export function isBreakGlassAdmin(config: Config, username: string | null): boolean {
  return !config.staffPasswordSignIn && username !== null && config.breakGlassAdmin !== undefined && username.toLowerCase() === config.breakGlassAdmin.toLowerCase();
}

export async function getStatus(db: Db, config: Config, account: StaffAccount): Promise<SecondFactorStatus> {
  const state = await repo.findTotpState(db, account.id);
  const enabled = Boolean(state?.enabledAt);
  return {
    rule: await secondFactorRule(db, config, account.staffRole),
    enabled,
    recovery_codes_left: enabled ? await repo.countUnusedRecoveryCodes(db, account.id) : 0,
  };
}

function recoveryHash(serverSecret: Buffer, userId: number, normalised: string): string {
  return crypto.createHmac('sha256', serverSecret).update(`recovery\0${userId}\0${normalised}`).digest('hex');
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** The time step the code belongs to when it is right for the secret (and newer than `afterStep`), else null. */
async function stepOfCode(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  try {
    const result = await verify({ secret, token: code, epochTolerance: EPOCH_TOLERANCE_S, ...(afterStep === null ? {} : { afterTimeStep: afterStep }) });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    // otplib refuses an afterTimeStep ahead of the clock (the server's clock went back): no code passes.
    return null;
  }
}

/** What a second-factor check found. */
export type CodeCheck = 'accepted' | 'wrong' | 'used';

/**
 * Checks a code from the app against the account's secret and takes its time step, so the same
 * code (or an older one) is never accepted again; or uses up one recovery code.
 */
export async function checkSecondFactor(db: Db, serverSecret: Buffer, userId: number, input: SecondFactorLoginInput): Promise<CodeCheck> {
  const state = await repo.findTotpState(db, userId);
  if (!state?.sealedSecret) return 'wrong';
  if (input.recovery_code !== undefined) {
    if (!state.enabledAt) return 'wrong';
    return (await repo.useRecoveryCode(db, userId, recoveryHash(serverSecret, userId, input.recovery_code))) ? 'accepted' : 'wrong';
  }
  const secret = openTotpSecret(totpSealingKey(serverSecret), userId, state.sealedSecret);
  if (secret === null || input.code === undefined) return 'wrong';
  const step = await stepOfCode(secret, input.code, state.lastStep);
  if (step === null) return (await stepOfCode(secret, input.code, null)) === null ? 'wrong' : 'used';
  return (await repo.claimTimeStep(db, userId, step)) ? 'accepted' : 'used';
}

/** The answer to a wrong or reused code: a field error on `code` (or `recovery_code`). */
export function codeRefusal(check: Exclude<CodeCheck, 'accepted'>, field: 'code' | 'recovery_code'): AppError {
  if (field === 'recovery_code') return fieldError('recovery_code', 'That recovery code is not right, or it was used before.');
  return check === 'used'
    ? fieldError('code', 'That code was used already. Wait for the next code in your authenticator app.')
    : fieldError('code', 'That code is not right. Check the time on your phone and enter the code the app shows now.');
}

/**
 * A code typed by a signed-in person (confirming enrolment, turning the second factor off),
 * counted like a password: a session left open must not become an unthrottled code oracle.
 */
async function requireOwnCode(db: Db, serverSecret: Buffer, userId: number, code: string): Promise<void> {
  const key = `staff-2fa:account:${userId}`;
  const taken = await takeDelayedAttempt(db, key, CODE_DELAY_RULE);
  if (!taken.allowed) {
    const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
    throw tooManyRequests(`Too many wrong codes. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`, taken.retryAfterMs, 'account_throttled');
  }
  const check = await checkSecondFactor(db, serverSecret, userId, { code });
  if (check !== 'accepted') throw codeRefusal(check, 'code');
  await clearRateLimit(db, key);
}

/**
 * Starts (or restarts) enrolment: a new secret, sealed, waiting for its first code. Answered only
 * now; once a code confirms it, no call ever shows it again.
 */
export async function startEnrolment(db: Db, config: Config, serverSecret: Buffer, account: StaffAccount): Promise<EnrolmentAnswer> {
  if ((await secondFactorRule(db, config, account.staffRole)) === 'off') {
    throw conflict('This portal does not use a second factor for staff sign-in (STAFF_2FA=off).');
  }
  const secret = generateSecret();
  if (!(await repo.savePendingSecret(db, account.id, sealTotpSecret(totpSealingKey(serverSecret), account.id, secret)))) {
    throw conflict('Your authenticator app is already set up. Turn it off first to set up another.');
  }
  const uri = generateURI({ issuer: config.schoolName, label: account.username, secret });
  // Loaded with the first enrolment, not with the server (docs/performance.md, at-rest).
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return { secret, otpauth_uri: uri, qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Confirms enrolment with a code from the app: the second factor is on; answers the recovery codes, once. */
export async function confirmEnrolment(db: Db, serverSecret: Buffer, account: StaffAccount, code: string, actor: Actor): Promise<string[]> {
  const state = await repo.findTotpState(db, account.id);
  if (state?.enabledAt) throw conflict('Your authenticator app is already set up.');
  if (!state?.sealedSecret) throw conflict('Start the set-up first: it shows the QR code to scan.');
  await requireOwnCode(db, serverSecret, account.id, code);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = codes.map((recovery) => recoveryHash(serverSecret, account.id, recovery.replace('-', '')));
  if (!(await repo.enableTotp(db, account.id, hashes))) throw conflict('Your authenticator app is already set up.');
  await writeAudit(db, { ...actor, action: 'second-factor-enabled', entity: 'user', entity_id: String(account.id) });
  return codes;
}

/** Turns the second factor off with a current code, where the portal allows it (not when required). */
export async function turnOff(db: Db, config: Config, serverSecret: Buffer, account: StaffAccount, code: string, actor: Actor): Promise<void> {
  if ((await secondFactorRule(db, config, account.staffRole)) === 'required') {
    throw forbidden('This portal requires a second factor for your role: it cannot be turned off.');
  }
  if (!(await hasSecondFactor(db, account.id))) throw conflict('Your second factor is not on.');
  await requireOwnCode(db, serverSecret, account.id, code);
  await repo.disableTotp(db, account.id);
  await writeAudit(db, { ...actor, action: 'second-factor-disabled', entity: 'user', entity_id: String(account.id) });
}

/**
 * An administrator's reset of another account's second factor (D65), inside the caller's
 * transaction: off, its recovery codes gone. False when it was not on. Who may, the audit row,
 * the mail and the sessions are the staff feature's (staff.service.ts `resetSecondFactor`).
 */
export function clearSecondFactor(db: Db, userId: number): Promise<boolean> {
  return repo.clearEnabledTotp(db, userId);
}
