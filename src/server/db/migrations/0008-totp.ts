import type { Kysely } from 'kysely';

/**
 * The staff second factor (docs/decisions.md "Staff second factor"): the last TOTP time
 * step a code was accepted for, so a code is taken once (RFC 6238 §5.2), and on each session
 * whether it may only reach the enrolment calls (2FA required for the role, not yet set up).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
  await db.schema.alterTable('sessions').addColumn('second_factor_setup', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('second_factor_setup').execute();
  await db.schema.alterTable('users').dropColumn('totp_last_step').execute();
}
