import type { Kysely } from 'kysely';

/**
 * "Keep me signed in on this device" (docs/decisions.md D47): each session
 * remembers whether its cookie outlives the browser, so a password change that issues a new id
 * keeps the person's choice. Existing sessions had a lasting cookie: they keep it (1).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.updateTable('sessions').set({ remember: 1 }).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('remember').execute();
}
