import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The new Form 1 from the SEA placement list (docs/decisions.md D61).
 * - `intake_students`: the children of an imported placement list, checked by the import's rules,
 *   with the Form 1 class chosen for each (null until the allocation gives one). They become
 *   students only when the intake is finalised, which empties the table. An SEA number appears
 *   once (compared without regard to case, as the students' unique index does).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Db): Promise<void> {
  let table = db.schema.createTable('intake_students');
  table = isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn('row_number', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('sea_no', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('middle_name', 'text')
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('date_of_birth', 'text', (c) => c.notNull())
    .addColumn('sex', 'text', (c) => c.notNull().check(sql`sex in ('Female', 'Male')`))
    .addColumn('primary_school', 'text', (c) => c.notNull())
    .addColumn('class_id', 'text', (c) => c.references('form_classes.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('intake_students_sea_no_idx').on('intake_students').expression(sql`upper(sea_no)`).unique().execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('intake_students').execute();
}
