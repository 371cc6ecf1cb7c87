import type { Kysely } from 'kysely';

/**
 * A family account's password is chosen on the confirmation page by whoever opened the mailed
 * link (docs/decisions.md D66), so a registration waits with no password hash in its token. The
 * column goes, and with it the hashes of registrations still waiting: their links keep
 * working and ask for the password. Down brings the column back empty (an old version then finds
 * no hash and refuses those links, which registering again replaces).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('family_tokens').dropColumn('password_hash').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('family_tokens').addColumn('password_hash', 'text').execute();
}
