import type { Kysely } from 'kysely';
import { schoolToday } from '../../../shared/dates.js';
import { isPostgres } from '../engine.js';

/**
 * Each student's enrolment history (docs/decisions.md D80): `enrolment_events`, one row per
 * dated entry (`kind` 'entry': Form 1 intake, transfer in, readmitted, enrolled) or exit ('exit':
 * graduated, transferred — with the other school —, emigrated, withdrawn, other — with a note),
 * with the class joined or left.
 *
 * Backfilled from what the school has, as the reasons were at 0021:
 * - every student gets an entry dated the school day their record was created (or the day they
 *   left, when that is earlier), in the class their record was created with (the create's audit
 *   row) or else the class they are or were in; "form1_intake" when a New Form 1 finalise created
 *   them (its audit row names the range of IDs it gave), else "enrolled" (how they came is not recorded);
 * - every former student (`left_on`, set only by the year rollover so far) an exit on that day,
 *   "graduated", from `left_class`.
 * Down: the table goes.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the schema type applies
type Db = Kysely<any>;

interface StudentRow {
  id: string;
  class_id: string | null;
  left_on: string | null;
  left_class: string | null;
  created_at: string;
}

/** Student IDs a New Form 1 finalise gave, as its audit rows say: "12 students, 20260001 to 20260012". */
async function intakeIdRanges(db: Db): Promise<[string, string][]> {
  const rows = (await db.selectFrom('audit_log').select('new_value').where('entity', '=', 'intake').where('action', '=', 'finalise').execute()) as { new_value: string | null }[];
  return rows.flatMap((row) => {
    const match = /^\d+ students?, (\S+) to (\S+)$/.exec(row.new_value ?? '');
    return match ? [[match[1]!, match[2]!] as [string, string]] : [];
  });
}

/** The class each student's record was created with, from the create's audit row (its values as JSON). */
async function classesAtCreation(db: Db): Promise<Map<string, string>> {
  const rows = (await db
    .selectFrom('audit_log')
    .select(['entity_id', 'new_value'])
    .where('entity', '=', 'student')
    .where('action', '=', 'create')
    .where('field', 'is', null)
    .execute()) as { entity_id: string | null; new_value: string | null }[];
  const classes = new Map<string, string>();
  for (const row of rows) {
    try {
      const values = JSON.parse(row.new_value ?? 'null') as { class_id?: unknown } | null;
      if (row.entity_id && typeof values?.class_id === 'string') classes.set(row.entity_id, values.class_id);
    } catch {
      // A value that is not JSON names no class: the student's own class is used.
    }
  }
  return classes;
}

function createdDay(createdAt: string): string {
  const instant = new Date(createdAt);
  return Number.isNaN(instant.getTime()) ? createdAt.slice(0, 10) : schoolToday(instant);
}

async function backfill(db: Db): Promise<void> {
  const students = (await db.selectFrom('students').select(['id', 'class_id', 'left_on', 'left_class', 'created_at']).orderBy('id').execute()) as StudentRow[];
  if (students.length === 0) return;
  const [ranges, createdIn] = await Promise.all([intakeIdRanges(db), classesAtCreation(db)]);
  const byIntake = (id: string) => ranges.some(([first, last]) => id.length === first.length && id >= first && id <= last);
  const at = new Date().toISOString();
  const rows: Record<string, string | null>[] = [];
  for (const s of students) {
    const created = createdDay(s.created_at);
    rows.push({
      student_id: s.id,
      kind: 'entry',
      happened_on: s.left_on !== null && s.left_on < created ? s.left_on : created,
      reason: byIntake(s.id) ? 'form1_intake' : 'enrolled',
      class_id: createdIn.get(s.id) ?? s.class_id ?? s.left_class,
      created_at: at,
      updated_at: at,
    });
    if (s.left_on !== null) {
      rows.push({ student_id: s.id, kind: 'exit', happened_on: s.left_on, reason: 'graduated', class_id: s.left_class, created_at: at, updated_at: at });
    }
  }
  // 50 rows of 7 values a statement: under the oldest SQLite builds' 999 parameters.
  for (let i = 0; i < rows.length; i += 50) await db.insertInto('enrolment_events').values(rows.slice(i, i + 50)).execute();
}

export async function up(db: Db): Promise<void> {
  let table = db.schema.createTable('enrolment_events');
  table = isPostgres(db) ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn('student_id', 'text', (c) => c.notNull().references('students.id').onDelete('cascade'))
    /** 'entry' or 'exit'. */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** The school day (yyyy-MM-dd). */
    .addColumn('happened_on', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('class_id', 'text')
    .addColumn('other_school', 'text')
    .addColumn('note', 'text')
    .addColumn('recorded_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A student's history in order, and the export's newest entry and exit per student.
  await db.schema.createIndex('enrolment_events_student_idx').on('enrolment_events').columns(['student_id', 'happened_on', 'id']).execute();
  await backfill(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('enrolment_events').execute();
}
