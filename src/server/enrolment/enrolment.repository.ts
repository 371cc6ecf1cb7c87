import type { Insertable } from 'kysely';
import type { EnrolmentEvent } from '../../shared/enrolment.schemas.js';
import type { Db } from '../db/database.js';
import type { EnrolmentEventTable } from '../db/schema.js';

/** All SQL of the enrolment history (docs/decisions.md D80). Functions take `db` or a transaction. */

export type NewEnrolmentEvent = Omit<Insertable<EnrolmentEventTable>, 'created_at' | 'updated_at'>;

export async function insertEvents(db: Db, events: readonly NewEnrolmentEvent[], at: string): Promise<void> {
  // 50 rows of 10 values a statement: under the oldest SQLite builds' 999 parameters.
  for (let i = 0; i < events.length; i += 50) {
    await db
      .insertInto('enrolment_events')
      .values(events.slice(i, i + 50).map((event) => ({ ...event, created_at: at, updated_at: at })))
      .execute();
  }
}

/** One student's history, oldest first (the same day: in the order it was recorded). */
export async function listEventsOf(db: Db, studentId: string): Promise<EnrolmentEvent[]> {
  const rows = await db
    .selectFrom('enrolment_events')
    .select(['id', 'kind', 'happened_on', 'reason', 'class_id', 'other_school', 'note'])
    .where('student_id', '=', studentId)
    .orderBy('happened_on')
    .orderBy('id')
    .execute();
  return rows.map(({ happened_on, reason, ...row }) => ({ ...row, on: happened_on, reason: reason as EnrolmentEvent['reason'] }));
}

/** The newest entry and the newest exit of each student named, for the export. */
export async function listLatestEventsOf(db: Db, studentIds: readonly string[]): Promise<Map<string, { entry?: EnrolmentEvent; exit?: EnrolmentEvent }>> {
  const latest = new Map<string, { entry?: EnrolmentEvent; exit?: EnrolmentEvent }>();
  if (studentIds.length === 0) return latest;
  const rows = await db
    .selectFrom('enrolment_events')
    .select(['id', 'student_id', 'kind', 'happened_on', 'reason', 'class_id', 'other_school', 'note'])
    .where('student_id', 'in', [...studentIds])
    .orderBy('student_id')
    .orderBy('happened_on')
    .orderBy('id')
    .execute();
  // Oldest first: each later row replaces the one before it.
  for (const { student_id, happened_on, reason, ...row } of rows) {
    const mine = latest.get(student_id) ?? {};
    mine[row.kind] = { ...row, on: happened_on, reason: reason as EnrolmentEvent['reason'] };
    latest.set(student_id, mine);
  }
  return latest;
}

/**
 * Removes the newest "graduated" exit of each student named: a year rollover's undo puts its
 * leavers back on the roll (the undo is the same day and only for the newest run, so that exit is
 * the run's).
 */
export async function deleteNewestGraduations(db: Db, studentIds: readonly string[]): Promise<void> {
  for (let i = 0; i < studentIds.length; i += 500) {
    const part = studentIds.slice(i, i + 500);
    const rows = await db
      .selectFrom('enrolment_events')
      .select(['student_id', (eb) => eb.fn.max('id').as('id')])
      .where('student_id', 'in', part)
      .where('kind', '=', 'exit')
      .where('reason', '=', 'graduated')
      .groupBy('student_id')
      .execute();
    const ids = rows.map((row) => Number(row.id));
    if (ids.length > 0) await db.deleteFrom('enrolment_events').where('id', 'in', ids).execute();
  }
}

export interface EnrolmentStudentRow {
  id: string;
  class_id: string | null;
  left_on: string | null;
  left_class: string | null;
}

export function findStudent(db: Db, studentId: string): Promise<EnrolmentStudentRow | undefined> {
  return db.selectFrom('students').select(['id', 'class_id', 'left_on', 'left_class']).where('id', '=', studentId).executeTakeFirst();
}

/** Takes a student off the roll, as a rollover's leaver is (D60); answers false when they were no longer on it. */
export async function markWithdrawn(db: Db, studentId: string, leftOn: string): Promise<boolean> {
  const result = await db
    .updateTable('students')
    .set((eb) => ({ left_on: leftOn, left_class: eb.ref('class_id'), class_id: null }))
    .where('id', '=', studentId)
    .where('left_on', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Puts a former student back on the roll in a class; answers false when they were already on it. */
export async function markReadmitted(db: Db, studentId: string, classId: string): Promise<boolean> {
  const result = await db
    .updateTable('students')
    .set({ left_on: null, left_class: null, class_id: classId })
    .where('id', '=', studentId)
    .where('left_on', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function findFormClass(db: Db, classId: string): Promise<{ id: string; form_level: number } | undefined> {
  // A class is named as the school writes it, in any case (3b is 3B), as the rollover's plan matches them.
  return db
    .selectFrom('form_classes')
    .select(['id', 'form_level'])
    .where((eb) => eb.fn<string>('upper', ['id']), '=', classId.toUpperCase())
    .executeTakeFirst();
}

/**
 * The first day of the school year `today` falls in: the start of term 1 of the newest year that
 * has begun by then; null when none has.
 */
export async function findSchoolYearStart(db: Db, today: string): Promise<string | null> {
  const row = await db
    .selectFrom('academic_terms')
    .select((eb) => eb.fn.max('start_date').as('start'))
    .where('term', '=', 1)
    .where('start_date', '<=', today)
    .executeTakeFirst();
  return row?.start ?? null;
}
