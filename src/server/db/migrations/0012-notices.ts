import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Messages to families (docs/decisions.md D57).
 * - `notices`: every message sent to a family, as the portal's notices list shows it. A recipient
 *   is a family account (`user_id`) or, for a child with none linked, a parent e-mail the office
 *   verified (`email` only); `recipient_key` names either (`user:12`, `email:a@b.c`) and is the
 *   "family" of the rules below. `notice_key`, when set, is unique: the attendance digest's
 *   `digest:<recipient>:<date>` and the deadline reminder's `reminder:<recipient>:<week>` make a
 *   second send of the same day or week fail in the database, whichever process tries it.
 * - `notice_students`: the children a notice is about (a digest or a report notice names several).
 * - `notice_preferences`: an optional kind turned off for a recipient.
 * - `parent_email_verifications`: the office's mark that a record's mother/father/guardian e-mail
 *   is the parent's. It holds the address it was given for; once the record's field differs the
 *   mark no longer counts, so a changed e-mail loses it without any code on the save path.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Db): Promise<void> {
  let notices = db.schema.createTable('notices');
  notices = isPostgres(db)
    ? notices.addColumn('id', 'serial', (c) => c.primaryKey())
    : notices.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await notices
    .addColumn('recipient_key', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('notice_key', 'text', (c) => c.unique())
    .addColumn('outbox_id', 'integer', (c) => c.references('outbox.id').onDelete('set null'))
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notices_user_idx').on('notices').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('notices_recipient_idx').on('notices').columns(['recipient_key', 'kind', 'created_at']).execute();

  await db.schema
    .createTable('notice_students')
    .addColumn('notice_id', 'integer', (c) => c.notNull().references('notices.id').onDelete('cascade'))
    .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('notice_students_pk', ['notice_id', 'student_id'])
    .execute();
  await db.schema.createIndex('notice_students_student_idx').on('notice_students').column('student_id').execute();

  await db.schema
    .createTable('notice_preferences')
    .addColumn('recipient_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('attendance-digest', 'deadline-reminder')`))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notice_preferences_pk', ['recipient_key', 'kind'])
    .execute();

  await db.schema
    .createTable('parent_email_verifications')
    .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
    .addColumn('parent', 'text', (c) => c.notNull().check(sql`parent in ('mother', 'father', 'guardian')`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('verified_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('parent_email_verifications_pk', ['student_id', 'parent'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('parent_email_verifications').execute();
  await db.schema.dropTable('notice_preferences').execute();
  await db.schema.dropTable('notice_students').execute();
  await db.schema.dropTable('notices').execute();
}
