import type { Kysely } from 'kysely';
import { replaceRoleCheck } from './0010-family-accounts.js';

/**
 * A staff account's kind becomes `role = 'staff'` (docs/decisions/D88-user-role-staff.md): it was
 * `'admin'`, which read as the administrator's job although every staff member (office, principal,
 * form teacher) had it; the job stays in `staff_role`. The check on users.role must admit both
 * values while the rows change, so it is widened, the rows renamed, and the check narrowed again
 * (on SQLite each change of the check rebuilds the table). Down: the same, back to `'admin'`.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

const ADMIN_ROLES = "role in ('student', 'admin', 'guardian')";
const BOTH_ROLES = "role in ('student', 'admin', 'staff', 'guardian')";
const STAFF_ROLES = "role in ('student', 'staff', 'guardian')";

async function renameRole(db: Db, from: { value: string; check: string }, to: { value: string; check: string }): Promise<void> {
  await replaceRoleCheck(db, from.check, BOTH_ROLES);
  await db.updateTable('users').set({ role: to.value }).where('role', '=', from.value).execute();
  await replaceRoleCheck(db, BOTH_ROLES, to.check);
}

export async function up(db: Db): Promise<void> {
  await renameRole(db, { value: 'admin', check: ADMIN_ROLES }, { value: 'staff', check: STAFF_ROLES });
}

export async function down(db: Db): Promise<void> {
  await renameRole(db, { value: 'staff', check: STAFF_ROLES }, { value: 'admin', check: ADMIN_ROLES });
}
