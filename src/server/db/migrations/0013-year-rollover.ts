import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * The new school year (docs/decisions.md D60).
 * - `students.left_on` and `left_class`: a student who left at a rollover (Form 5, Form 6) is kept
 *   as a former student: the day they left and the class they left from. Their `class_id` is
 *   cleared, so no class list reaches them; lists that are not by class leave them out through one
 *   query helper (server/db/student-scope.ts) unless asked to include them.
 * - `year_rollovers`: each run, with the before-state of everything it changed (per step, as
 *   JSON: each moved student's class, the leavers, the created terms, the registration windows,
 *   the cleared reviews), so an undo the same day restores it exactly. `undone_at` marks an undo.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('students').addColumn('left_on', 'text').execute();
  await db.schema.alterTable('students').addColumn('left_class', 'text').execute();

  let rollovers = db.schema.createTable('year_rollovers');
  rollovers = isPostgres(db)
    ? rollovers.addColumn('id', 'serial', (c) => c.primaryKey())
    : rollovers.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await rollovers
    .addColumn('from_year', 'integer', (c) => c.notNull())
    .addColumn('to_year', 'integer', (c) => c.notNull())
    /** The school's day of the run: an undo is taken on that day only. */
    .addColumn('run_on', 'text', (c) => c.notNull())
    .addColumn('run_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    /** JSON: step name → that step's before-state. */
    .addColumn('before_state', 'text', (c) => c.notNull())
    /** JSON: the counts shown after the run. */
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('undone_at', 'text')
    .addColumn('undone_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('year_rollovers').execute();
  // One column at a time: SQLite drops one column per statement.
  await db.schema.alterTable('students').dropColumn('left_class').execute();
  await db.schema.alterTable('students').dropColumn('left_on').execute();
}
