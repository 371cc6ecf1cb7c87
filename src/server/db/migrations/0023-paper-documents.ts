import type { Kysely } from 'kysely';

/**
 * Documents the office received on paper (docs/decisions.md D83): one row per student and
 * document slot, saying who took the paper and when. A document of the `documents` table is an
 * uploaded file with its bytes; a paper original held in the office is not one, so it is kept
 * apart rather than as a file-less document row that every reader of files would have to skip.
 * Down: the table goes.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('paper_documents')
    .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('received_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('paper_documents_pk', ['student_id', 'file_type'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('paper_documents').execute();
}
