import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Family accounts (docs/decisions.md D54). A parent or guardian is a `users` row with
 * `role = 'guardian'`, signed in by e-mail (unique among guardians, stored lower-case) once
 * `email_verified_at` is set. `guardian_students` links a guardian to each child and says how the
 * link was made; `family_codes` are the office's printed codes (hashed, once, expiring);
 * `family_tokens` are the links mailed to a family (verify the address, reset the password, accept
 * an invitation to a child), hashed, once, expiring. A registration waits in its verification
 * token (name and password hash) and becomes an account only when its link is opened, so whoever
 * registers an address they do not own never holds an account on it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

const OLD_ROLES = "role in ('student', 'admin')";
const NEW_ROLES = "role in ('student', 'admin', 'guardian')";

/**
 * Widens or narrows the users.role check. PostgreSQL alters the constraint; SQLite cannot, so the
 * table is rebuilt the way SQLite's ALTER TABLE page prescribes (foreign keys off, new table from
 * the stored definition with only the check changed, copy, drop, rename, check the keys, keys on).
 * Migrations on SQLite run outside a transaction (no transactional DDL), which the pragma needs.
 */
export async function replaceRoleCheck(db: Db, from: string, to: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table users drop constraint if exists users_role_check`.execute(db);
    await sql.raw(`alter table users add constraint users_role_check check (${to})`).execute(db);
    return;
  }
  const row = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'users'`.execute(db);
  const definition = row.rows[0]?.sql ?? '';
  if (!definition.includes(from)) throw new Error(`users table has no check "${from}" to replace`);
  const rebuilt = definition.replace(from, to).replace(/^CREATE TABLE "?users"?/i, 'CREATE TABLE "users_rebuilt"');
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'users' and sql is not null`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql.raw(rebuilt).execute(db);
    await sql`insert into users_rebuilt select * from users`.execute(db);
    await sql`drop table users`.execute(db);
    await sql`alter table users_rebuilt rename to users`.execute(db);
    for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
    const broken = await sql`pragma foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error(`users rebuild left ${broken.rows.length} broken foreign keys`);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

function withId(db: Db, table: string) {
  const builder = db.schema.createTable(table);
  return isPostgres(db) ? builder.addColumn('id', 'serial', (c) => c.primaryKey()) : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Db): Promise<void> {
  await replaceRoleCheck(db, OLD_ROLES, NEW_ROLES);
  await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
  await db.schema
    .createIndex('users_guardian_email_idx')
    .on('users')
    .column('email')
    .unique()
    .where(sql.ref('role'), '=', 'guardian')
    .execute();

  await db.schema
    .createTable('guardian_students')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
    .addColumn('linked_via', 'text', (c) => c.notNull().check(sql`linked_via in ('code', 'invitation', 'office', 'demo')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('guardian_students_pk', ['user_id', 'student_id'])
    .execute();
  await db.schema.createIndex('guardian_students_student_idx').on('guardian_students').column('student_id').execute();

  await withId(db, 'family_codes')
    .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('used_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('family_codes_student_idx').on('family_codes').column('student_id').execute();

  await withId(db, 'family_tokens')
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('verify-email', 'reset-password', 'invitation')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('student_id', 'text', (c) => c.references('students.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('name', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('family_tokens_user_idx').on('family_tokens').column('user_id').execute();
  await db.schema.createIndex('family_tokens_student_idx').on('family_tokens').column('student_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('family_tokens').execute();
  await db.schema.dropTable('family_codes').execute();
  await db.schema.dropTable('guardian_students').execute();
  // Family accounts cannot outlive the role that allows them (their sessions and audit rows go with them).
  await db.deleteFrom('users').where('role', '=', 'guardian').execute();
  await db.schema.dropIndex('users_guardian_email_idx').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
  await replaceRoleCheck(db, NEW_ROLES, OLD_ROLES);
}
