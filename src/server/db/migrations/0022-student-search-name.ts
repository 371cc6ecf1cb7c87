import type { Kysely } from 'kysely';
import { studentNameSearchText } from '../../../shared/students.schemas.js';

/**
 * `students.search_name` (docs/decisions.md D82): the student's first, middle and last names with
 * their accents taken off and lower-cased (`studentNameSearchText`), so the student list's search
 * finds "Chloé" for "Chloe" with a plain LIKE on SQLite and PostgreSQL alike. The server writes it
 * with every name it writes (`db/student-search.ts`); here it is filled for the records already
 * held, a page at a time. Down: the column goes.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

const ROWS_PER_PAGE = 500;

interface NameRow {
  id: string;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
}

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('students').addColumn('search_name', 'text').execute();
  for (let afterId: string | null = null; ; ) {
    let query = db.selectFrom('students').select(['id', 'first_name', 'middle_name', 'last_name']).orderBy('id').limit(ROWS_PER_PAGE);
    if (afterId !== null) query = query.where('id', '>', afterId);
    const rows = (await query.execute()) as NameRow[];
    for (const row of rows) await db.updateTable('students').set({ search_name: studentNameSearchText(row) }).where('id', '=', row.id).execute();
    if (rows.length < ROWS_PER_PAGE) return;
    afterId = rows.at(-1)!.id;
  }
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('students').dropColumn('search_name').execute();
}
