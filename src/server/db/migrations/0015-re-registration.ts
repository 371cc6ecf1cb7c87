import { sql, type Kysely } from 'kysely';

/**
 * Re-registration at the start of a school year (docs/decisions.md D62).
 * - `re_registrations`: one row per academic year (named by the year it starts) whose
 *   re-registration was opened, by whom and when. The office's "what changed" reads the audit log
 *   from `opened_at` on.
 * - `re_registration_steps`: for each returning student (a student in a class when it was opened)
 *   and each step to confirm, when it was confirmed, by whom, and how (`unchanged`: the family's
 *   "Nothing changed"; `changed`: a saved change on that step). Null `confirmed_at` is pending.
 *   Removing the year's row (closing, or undoing a rollover) removes its steps.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('re_registrations')
    .addColumn('year', 'integer', (c) => c.primaryKey())
    // No foreign key to users: staff accounts are never deleted (D50), as registration_reviews.
    .addColumn('opened_by', 'integer')
    .addColumn('opened_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('re_registration_steps')
    .addColumn('year', 'integer', (c) => c.notNull().references('re_registrations.year').onDelete('cascade'))
    .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
    .addColumn('step', 'text', (c) => c.notNull().check(sql`step in ('student', 'family', 'health', 'other', 'documents')`))
    .addColumn('confirmed_at', 'text')
    .addColumn('confirmed_by', 'integer')
    .addColumn('confirmed_by_label', 'text')
    .addColumn('how', 'text', (c) => c.check(sql`how in ('unchanged', 'changed')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('re_registration_steps_pk', ['year', 'student_id', 'step'])
    .execute();
  // A record's own steps are read on every registration screen: by student, newest year first.
  await db.schema.createIndex('re_registration_steps_student_idx').on('re_registration_steps').columns(['student_id', 'year']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('re_registration_steps').execute();
  await db.schema.dropTable('re_registrations').execute();
}
