import { nowIso, type Db } from '../../src/server/db/database.js';
import { DEMO_FAMILY } from '../../src/server/db/demo-data/demo-accounts.js';

/** A verified family account linked to the children, with the demo family's password (for signing in); answers its id. */
export async function addFamilyAccount(db: Db, email: string, childIds: readonly string[]): Promise<number> {
  const iso = nowIso();
  const { password_hash } = await db.selectFrom('users').select('password_hash').where('email', '=', DEMO_FAMILY.email).where('role', '=', 'guardian').executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('users')
    .values({ role: 'guardian', email, display_name: email.split('@')[0]!, password_hash, email_verified_at: iso, password_changed_at: iso, created_at: iso, updated_at: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('guardian_students').values(childIds.map((studentId) => ({ user_id: id, student_id: studentId, linked_via: 'office' as const, created_at: iso, updated_at: iso }))).execute();
  return id;
}
