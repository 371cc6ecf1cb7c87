import { sql, type Kysely } from 'kysely';

/**
 * The office's review (docs/decisions.md D56).
 * - `documents` gain a review state: `submitted` (every upload, and every new upload into a slot),
 *   `accepted` or `returned` with the reason the family reads; who decided and when. The queue
 *   reads the submitted ones oldest first: one index on (review_state, updated_at).
 * - `registration_reviews` holds the office's decision on a record when there is one: `returned`
 *   (with the note and the steps to fix) or `verified`. No row: the state follows the progress
 *   flags (not started, in progress, submitted). Reopening or the family's next change removes it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('documents')
    .addColumn('review_state', 'text', (c) => c.notNull().defaultTo('submitted').check(sql`review_state in ('submitted', 'accepted', 'returned')`))
    .execute();
  await db.schema.alterTable('documents').addColumn('review_reason', 'text').execute();
  // No foreign key: SQLite cannot drop a referencing column (the down), and staff accounts are never deleted (D50).
  await db.schema.alterTable('documents').addColumn('reviewed_by', 'integer').execute();
  await db.schema.alterTable('documents').addColumn('reviewed_at', 'text').execute();
  await db.schema.createIndex('documents_review_idx').on('documents').columns(['review_state', 'updated_at']).execute();

  await db.schema
    .createTable('registration_reviews')
    .addColumn('student_id', 'text', (c) => c.primaryKey().references('students.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('returned', 'verified')`))
    .addColumn('note', 'text')
    /** JSON array of step keys ("student", "family", "health", "other", "documents", "complete"). */
    .addColumn('steps', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('reviewed_by', 'integer')
    .addColumn('reviewed_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('registration_reviews_state_idx').on('registration_reviews').column('state').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('registration_reviews').execute();
  await db.schema.dropIndex('documents_review_idx').execute();
  // One column at a time: SQLite drops a column with its own check, never several in one statement.
  for (const column of ['reviewed_at', 'reviewed_by', 'review_reason', 'review_state']) {
    await db.schema.alterTable('documents').dropColumn(column).execute();
  }
}
