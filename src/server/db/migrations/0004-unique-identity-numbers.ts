import { sql, type Kysely } from 'kysely';

/**
 * A birth certificate pin and an SEA number each belong to one student at most, compared without
 * regard to case (the first login names a student by either, with the date of birth): one unique
 * index on `upper(column)` per number, on both engines. Empty values are stored as NULL, which
 * either engine lets any number of rows share (docs/decisions.md D40).
 *
 * A database that already holds a number twice is not changed: the migration stops, naming the
 * students, so the office corrects them (Edit Student or an import in the version that runs
 * today) instead of the portal choosing whose number to drop.
 */

// Migrations are frozen in time: they must not depend on today's table types or field catalogue.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const INDEXES = [
  { column: 'birth_certificate_no', index: 'students_birth_certificate_no_unique', label: 'birth certificate pin' },
  { column: 'sea_no', index: 'students_sea_no_unique', label: 'SEA number' },
] as const;

/** How many shared numbers the refusal lists before "and N more". */
const LISTED = 10;

async function sharedNumbers(db: Db, column: string): Promise<string[]> {
  const key = sql<string>`upper(${sql.ref(column)})`;
  const shared = await db
    .selectFrom('students')
    .select(key.as('value'))
    .where(sql.ref(column), 'is not', null)
    .groupBy(key)
    .having(sql`count(*)`, '>', 1)
    .orderBy('value')
    .execute();
  const lines: string[] = [];
  for (const { value } of shared.slice(0, LISTED) as { value: string }[]) {
    const students = await db.selectFrom('students').select('id').where(key, '=', value).orderBy('id').execute();
    lines.push(`${value} (students ${students.map((row) => String(row.id)).join(', ')})`);
  }
  if (shared.length > LISTED) lines.push(`and ${shared.length - LISTED} more`);
  return lines;
}

export async function up(db: Db): Promise<void> {
  const problems: string[] = [];
  for (const { column, label } of INDEXES) {
    const shared = await sharedNumbers(db, column);
    if (shared.length > 0) problems.push(`the same ${label} is on more than one student: ${shared.join('; ')}`);
  }
  if (problems.length > 0) {
    throw new Error(
      `Each birth certificate pin and SEA number must belong to one student, but ${problems.join('; and ')}. ` +
        'Correct these students (Edit Student, or a students import) with the version that runs today, then start this one again.',
    );
  }
  for (const { column, index } of INDEXES) {
    await db.schema.createIndex(index).unique().on('students').expression(sql`upper(${sql.ref(column)})`).execute();
  }
}

export async function down(db: Db): Promise<void> {
  for (const { index } of INDEXES) await db.schema.dropIndex(index).ifExists().execute();
}
