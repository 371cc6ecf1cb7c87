import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Staff roles (docs/decisions.md D49). A staff account stays `role = 'admin'` (the
 * account kind the admin area and its sign-in know) and gains the job it does in `staff_role`;
 * every existing staff account was an administrator and stays one. A form teacher's classes live
 * in `staff_classes`; `disabled` ends an account without deleting its audit trail; the second
 * factor keeps its secret and its one-time recovery codes (hashed) beside the account.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('staff_role', 'text', (c) => c.check(sql`staff_role in ('administrator', 'office', 'principal', 'form_teacher')`))
    .execute();
  await db.schema.alterTable('users').addColumn('email', 'text').execute();
  await db.schema.alterTable('users').addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', 'text').execute();
  await db.updateTable('users').set({ staff_role: 'administrator' }).where('role', '=', 'admin').execute();

  await db.schema
    .createTable('staff_classes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('class_id', 'text', (c) => c.notNull().references('form_classes.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('staff_classes_pk', ['user_id', 'class_id'])
    .execute();
  await db.schema.createIndex('staff_classes_class_idx').on('staff_classes').column('class_id').execute();

  let codes = db.schema.createTable('staff_recovery_codes');
  codes = isPostgres(db)
    ? codes.addColumn('id', 'serial', (c) => c.primaryKey())
    : codes.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await codes
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_recovery_codes_user_idx').on('staff_recovery_codes').column('user_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('staff_recovery_codes').execute();
  await db.schema.dropTable('staff_classes').execute();
  for (const column of ['totp_enabled_at', 'totp_secret', 'disabled', 'email', 'staff_role']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
