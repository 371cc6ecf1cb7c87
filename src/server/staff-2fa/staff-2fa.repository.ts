import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { inGroupedTransaction, nowIso } from '../db/database.js';
import type { StaffRole } from '../../shared/staff.js';

/** All SQL of the staff second factor: the secret and last step on `users`, the recovery codes. */

export interface TotpState {
  /** The sealed secret (totp-secret.ts), or null before enrolment. */
  sealedSecret: string | null;
  /** When a code confirmed the secret; null while enrolment is pending or never started. */
  enabledAt: string | null;
  /** The last time step a code was accepted for. */
  lastStep: number | null;
}

/** The second-factor state of a staff account (undefined for no such staff account). */
export async function findTotpState(db: Db, userId: number): Promise<TotpState | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['totp_secret', 'totp_enabled_at', 'totp_last_step'])
    .where('id', '=', userId)
    .where('role', '=', 'staff')
    .executeTakeFirst();
  if (!row) return undefined;
  // PostgreSQL answers bigint as text: one number type beyond this file.
  return { sealedSecret: row.totp_secret, enabledAt: row.totp_enabled_at, lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step) };
}

/** A staff account's role and whether its second factor is on (undefined for anyone else). */
export async function findSecondFactorAccount(db: Db, userId: number): Promise<{ staffRole: StaffRole | null; enabledAt: string | null; username: string | null } | undefined> {
  const row = await db.selectFrom('users').select(['staff_role', 'totp_enabled_at', 'username']).where('id', '=', userId).where('role', '=', 'staff').executeTakeFirst();
  return row && { staffRole: row.staff_role, enabledAt: row.totp_enabled_at, username: row.username };
}

/** A new secret waiting for its first code (only while the second factor is off). */
export async function savePendingSecret(db: Db, userId: number, sealedSecret: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_secret: sealedSecret, totp_last_step: null, updated_at: nowIso() })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Takes a time step for the account, once: true only when no code of this or a later step was
 * accepted before. One conditional UPDATE, so two requests with the same code at the same moment
 * (to one process or to several) cannot both pass.
 */
export async function claimTimeStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Turns the second factor on with a fresh set of recovery codes (hashes), in one transaction. */
export async function enableTotp(db: Db, userId: number, codeHashes: readonly string[]): Promise<boolean> {
  return inGroupedTransaction(db, async (trx) => {
    const iso = nowIso();
    const result = await trx
      .updateTable('users')
      .set({ totp_enabled_at: iso, updated_at: iso })
      .where('id', '=', userId)
      .where('totp_enabled_at', 'is', null)
      .where('totp_secret', 'is not', null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await trx.deleteFrom('staff_recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('staff_recovery_codes')
      .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: iso })))
      .execute();
    return true;
  });
}

/** Turns the second factor off: secret, last step and recovery codes are forgotten. */
export async function disableTotp(db: Db, userId: number): Promise<void> {
  await inGroupedTransaction(db, async (trx) => {
    await trx
      .updateTable('users')
      .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null, updated_at: nowIso() })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('staff_recovery_codes').where('user_id', '=', userId).execute();
  });
}

/**
 * Turns a confirmed second factor off inside the caller's transaction: secret, last step and
 * recovery codes are forgotten. False when it was not on (then nothing changes); under
 * PostgreSQL a second reset racing this one waits for its row and then finds it off.
 */
export async function clearEnabledTotp(db: Db, userId: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null, updated_at: nowIso() })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is not', null)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await db.deleteFrom('staff_recovery_codes').where('user_id', '=', userId).execute();
  return true;
}

/** Marks an unused recovery code with this hash as used; true when there was one (once only). */
export async function useRecoveryCode(db: Db, userId: number, codeHash: string): Promise<boolean> {
  const result = await db
    .updateTable('staff_recovery_codes')
    .set({ used_at: nowIso() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countUnusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('staff_recovery_codes')
    .select(sql<number>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
