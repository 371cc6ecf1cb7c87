import type { Kysely } from 'kysely';
import { nowIso } from '../database.js';
import type { Database } from '../schema.js';

/**
 * Whether a database holds the demo school, as a row of `settings` the seeder writes in the same
 * transaction as the school (docs/decisions.md D35). Only such a database accepts the published
 * demo administrator's sign-in; a database without the row (a real school's, or a demo seeded
 * before the row existed) refuses it.
 */

const DEMO_SCHOOL_KEY = 'demo_school';

/** Marks the database as the demo school's; the value is when it was seeded. */
export async function markDemoSchool(db: Kysely<Database>): Promise<void> {
  const iso = nowIso();
  await db.insertInto('settings').values({ key: DEMO_SCHOOL_KEY, value: iso, created_at: iso, updated_at: iso }).execute();
}

/** Whether the database holds the demo school. */
export async function isDemoSchool(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('settings').select('key').where('key', '=', DEMO_SCHOOL_KEY).executeTakeFirst();
  return row !== undefined;
}

/** Makes the database a real school's from now on; answers whether it held the demo school. */
export async function endDemoSchool(db: Kysely<Database>): Promise<boolean> {
  const result = await db.deleteFrom('settings').where('key', '=', DEMO_SCHOOL_KEY).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
