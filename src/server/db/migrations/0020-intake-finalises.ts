import { type Kysely } from 'kysely';
import { isPostgres } from '../engine.js';

/**
 * The new Form 1's finalise can be undone the day it ran (docs/decisions.md D79).
 * - `intake_finalises`: each finalise, the school day it ran (`finalised_on`), the list's file name
 *   and, as JSON, the students it created with the row of the list each came from
 *   (`[{ "id": "20260641", "row": 2 }]`). Nothing else of the children is copied: an undo reads
 *   them back from the students' own records, which it requires unchanged. `undone_at` marks an undo.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  let table = db.schema.createTable('intake_finalises');
  table = isPostgres(db) ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn('finalised_on', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('students', 'text', (c) => c.notNull())
    .addColumn('finalised_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('undone_at', 'text')
    .addColumn('undone_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('intake_finalises').execute();
}
