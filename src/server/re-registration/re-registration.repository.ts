import { sql } from 'kysely';
import type { ReRegistrationStep } from '../../shared/re-registration.schemas.js';
import type { Db } from '../db/database.js';
import type { ReRegistrationStepTable } from '../db/schema.js';

/** All SQL of re-registration (D62). Functions take `db` or the caller's transaction. */

export interface YearRow {
  year: number;
  opened_at: string;
}

export async function findYear(db: Db, year: number): Promise<YearRow | undefined> {
  return db.selectFrom('re_registrations').select(['year', 'opened_at']).where('year', '=', year).executeTakeFirst();
}

export async function insertYear(db: Db, row: { year: number; opened_by: number | null; at: string }): Promise<void> {
  await db
    .insertInto('re_registrations')
    .values({ year: row.year, opened_by: row.opened_by, opened_at: row.at, created_at: row.at, updated_at: row.at })
    .execute();
}

/**
 * One pending row per step for every student in a class (the returning students), written by the
 * database in one statement per step. The values are cast so PostgreSQL knows their types in a
 * select list (a bare parameter there would be text).
 */
export async function insertPendingSteps(db: Db, year: number, steps: readonly ReRegistrationStep[], at: string): Promise<number> {
  for (const step of steps) {
    await db
      .insertInto('re_registration_steps')
      .columns(['year', 'student_id', 'step', 'created_at', 'updated_at'])
      .expression(
        db
          .selectFrom('students')
          .select([
            sql<number>`cast(${year} as integer)`.as('year'),
            'students.id as student_id',
            sql<ReRegistrationStep>`cast(${step} as text)`.as('step'),
            sql<string>`cast(${at} as text)`.as('created_at'),
            sql<string>`cast(${at} as text)`.as('updated_at'),
          ])
          .where('students.class_id', 'is not', null),
      )
      .execute();
  }
  return countStudents(db, year);
}

async function countStudents(db: Db, year: number): Promise<number> {
  const row = await db
    .selectFrom('re_registration_steps')
    .select((eb) => eb.fn.count<string | number>('student_id').distinct().as('n'))
    .where('year', '=', year)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes the year and (by its foreign key's cascade, and here explicitly for clarity) its steps; answers how many students it held. */
export async function deleteYear(db: Db, year: number): Promise<number> {
  const students = await countStudents(db, year);
  await db.deleteFrom('re_registration_steps').where('year', '=', year).execute();
  await db.deleteFrom('re_registrations').where('year', '=', year).execute();
  return students;
}

/** Every opened year, newest first, with its students and those with every step confirmed. */
export async function listYears(db: Db): Promise<{ year: number; opened_at: string; students: number; confirmed: number }[]> {
  const years = await db.selectFrom('re_registrations').select(['year', 'opened_at']).orderBy('year', 'desc').execute();
  const counts = await db
    .selectFrom('re_registration_steps')
    .select((eb) => [
      'year',
      eb.fn.count<string | number>('student_id').distinct().as('students'),
      sql<string | number>`count(distinct case when confirmed_at is null then student_id end)`.as('pending'),
    ])
    .groupBy('year')
    .execute();
  const byYear = new Map(counts.map((row) => [Number(row.year), row]));
  return years.map((row) => {
    const count = byYear.get(Number(row.year));
    const students = Number(count?.students ?? 0);
    return { year: Number(row.year), opened_at: row.opened_at, students, confirmed: students - Number(count?.pending ?? 0) };
  });
}

/** The newest academic year the school has terms for, if any. */
export async function newestTermYear(db: Db): Promise<number | null> {
  const row = await db.selectFrom('academic_terms').select((eb) => eb.fn.max('year').as('year')).executeTakeFirst();
  return row?.year === null || row?.year === undefined ? null : Number(row.year);
}

export type StepRow = Pick<ReRegistrationStepTable, 'step' | 'confirmed_at' | 'confirmed_by_label' | 'how'>;

/** A student's steps in the newest year that asks anything of them, with that year's opening. */
export async function findStudentSteps(db: Db, studentId: string): Promise<{ year: YearRow; steps: StepRow[] } | undefined> {
  const newest = await db
    .selectFrom('re_registration_steps')
    .innerJoin('re_registrations', 're_registrations.year', 're_registration_steps.year')
    .select(['re_registrations.year', 're_registrations.opened_at'])
    .where('re_registration_steps.student_id', '=', studentId)
    .orderBy('re_registrations.year', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!newest) return undefined;
  const steps = await db
    .selectFrom('re_registration_steps')
    .select(['step', 'confirmed_at', 'confirmed_by_label', 'how'])
    .where('student_id', '=', studentId)
    .where('year', '=', newest.year)
    .execute();
  return { year: { year: Number(newest.year), opened_at: newest.opened_at }, steps };
}

/**
 * Marks the named steps of the student's newest re-registration confirmed where still pending;
 * answers the steps it marked. One read when nothing is pending (the common save).
 */
export async function confirmPendingSteps(
  db: Db,
  where: { studentId: string; steps: readonly ReRegistrationStep[] },
  by: { userId: number | null; label: string; how: 'unchanged' | 'changed'; at: string },
): Promise<ReRegistrationStep[]> {
  if (where.steps.length === 0) return [];
  const pending = await db
    .selectFrom('re_registration_steps')
    .select(['year', 'step'])
    .where('student_id', '=', where.studentId)
    .where('step', 'in', where.steps)
    .where('confirmed_at', 'is', null)
    .where('year', '=', (eb) => eb.selectFrom('re_registration_steps as newest').select((e) => e.fn.max('newest.year').as('year')).where('newest.student_id', '=', where.studentId))
    .execute();
  if (pending.length === 0) return [];
  const steps = pending.map((row) => row.step);
  await db
    .updateTable('re_registration_steps')
    .set({ confirmed_at: by.at, confirmed_by: by.userId, confirmed_by_label: by.label, how: by.how, updated_at: by.at })
    .where('year', '=', pending[0]!.year)
    .where('student_id', '=', where.studentId)
    .where('step', 'in', steps)
    .where('confirmed_at', 'is', null)
    .execute();
  return steps;
}

export interface ChangeRow {
  entity: string;
  action: string;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  actor_label: string;
  created_at: string;
}

/**
 * The record's field edits and document uploads since a moment, oldest first, from the audit log
 * (read by its entity index). Each row already holds one field's old and new value.
 */
export async function listChangesSince(db: Db, studentId: string, since: string): Promise<ChangeRow[]> {
  return db
    .selectFrom('audit_log')
    .select(['entity', 'action', 'field', 'old_value', 'new_value', 'actor_label', 'created_at'])
    .where((eb) =>
      eb.or([
        eb.and([eb('entity', '=', 'student'), eb('action', '=', 'update')]),
        eb.and([eb('entity', '=', 'document'), eb('action', 'in', ['upload', 'replace', 'delete'])]),
      ]),
    )
    .where('entity_id', '=', studentId)
    .where('field', 'is not', null)
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function studentExists(db: Db, studentId: string): Promise<boolean> {
  return (await db.selectFrom('students').select('id').where('id', '=', studentId).executeTakeFirst()) !== undefined;
}
