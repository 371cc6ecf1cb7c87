import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Absence notes (docs/decisions.md D93).
 * - `absence_notes`: a family's (or a student's own) explanation of an absence or a late arrival:
 *   the student, who sent it (`sender` 'family' with the family account, or 'student'), the days
 *   (`date_from` to `date_to`), the part of the day, a reason from the fixed list and up to 500
 *   characters; its state (waiting, accepted, declined, withdrawn) and the school's decision (a
 *   reason from the short list, the school's own words, who and when).
 * - `absence_note_attachments`: a note's optional doctor's note, its bytes in the database as
 *   a document's are (D17), kept apart so the queue and the attendance figures never read a file.
 * Whether an absence is excused is not stored: it is derived from the accepted notes (D93).
 * Indexes: a student's notes by date (the overlap rule, a family's list, the excused figures), and
 * the queue by state and age. Down: the tables go.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Db): Promise<void> {
  let notes = db.schema.createTable('absence_notes');
  notes = isPostgres(db) ? notes.addColumn('id', 'serial', (c) => c.primaryKey()) : notes.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await notes
    .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
    .addColumn('sender', 'text', (c) => c.notNull().check(sql`sender in ('family', 'student')`))
    .addColumn('sent_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('date_from', 'text', (c) => c.notNull())
    .addColumn('date_to', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull().check(sql`part in ('whole_day', 'am', 'pm', 'late')`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('waiting').check(sql`state in ('waiting', 'accepted', 'declined', 'withdrawn')`))
    .addColumn('decision_reason', 'text')
    .addColumn('decision_text', 'text')
    .addColumn('decided_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'text')
    .addColumn('withdrawn_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('absence_notes_dates_ck', sql`date_from <= date_to`)
    .execute();
  await db.schema.createIndex('absence_notes_student_idx').on('absence_notes').columns(['student_id', 'date_from']).execute();
  await db.schema.createIndex('absence_notes_queue_idx').on('absence_notes').columns(['state', 'created_at']).execute();

  await db.schema
    .createTable('absence_note_attachments')
    .addColumn('note_id', 'integer', (c) => c.primaryKey().references('absence_notes.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('bytes', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('absence_note_attachments').execute();
  await db.schema.dropTable('absence_notes').execute();
}
