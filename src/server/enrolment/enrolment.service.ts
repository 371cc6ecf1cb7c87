import { schoolToday, toDayFirstDate } from '../../shared/dates.js';
import {
  ENROLMENT_MESSAGES,
  dateInWindow,
  readmitFormLevels,
  type DateWindow,
  type Enrolment,
  type EnrolmentChangeAnswer,
  type EntryReason,
  type ReadmitInput,
  type WithdrawInput,
} from '../../shared/enrolment.schemas.js';
import { writeAudit, type AuditEntry } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import * as repo from './enrolment.repository.js';

/**
 * A student's enrolment history, withdrawing one student and readmitting a former one
 * (docs/decisions.md D80). A withdrawn student is a former student exactly as a rollover's leaver
 * is: `students.left_on` and `left_class` set, `class_id` cleared (D60), so every list, export,
 * access rule and read-only check that knows former students treats them alike. The other
 * features record their entries and exits through the small functions at the end of this file.
 */

const noSuchStudent = () => notFound('There is no student with that ID.');

/**
 * The dates a change may take: up to the school's today, and from the start of the current school
 * year, or from the student's last entry (a withdrawal) or exit (a readmission) when that is later.
 */
async function windowOf(db: Db, student: repo.EnrolmentStudentRow, events: readonly { kind: string; on: string }[], today: string): Promise<DateWindow> {
  const yearStart = (await repo.findSchoolYearStart(db, today)) ?? today;
  const since = student.left_on ?? events.filter((event) => event.kind === 'entry').at(-1)?.on ?? yearStart;
  const earliest = [yearStart, since].sort().at(-1)!;
  return { earliest: earliest > today ? today : earliest, latest: today };
}

async function enrolmentOf(db: Db, student: repo.EnrolmentStudentRow, today: string): Promise<Enrolment> {
  const events = await repo.listEventsOf(db, student.id);
  return {
    student_id: student.id,
    on_roll: student.left_on === null,
    class_id: student.class_id,
    left_on: student.left_on,
    left_class: student.left_class,
    events,
    window: await windowOf(db, student, events, today),
  };
}

/** One student's enrolment: where they stand, their history and the dates a change may take. */
export async function getEnrolment(db: Db, studentId: string, now = new Date()): Promise<Enrolment> {
  const student = await repo.findStudent(db, studentId);
  if (!student) throw noSuchStudent();
  return enrolmentOf(db, student, schoolToday(now));
}

function requireDateIn(date: string, window: DateWindow): void {
  if (!dateInWindow(date, window)) throw badRequest(ENROLMENT_MESSAGES.dateOutOfRange(window.earliest, window.latest), { date: [ENROLMENT_MESSAGES.dateOutOfRange(window.earliest, window.latest)] });
}

function notOnRoll(student: repo.EnrolmentStudentRow): never {
  const from = student.left_class ? ` from ${student.left_class}` : '';
  throw conflict(`Student ${student.id} is not on the roll: they left${from} on ${toDayFirstDate(student.left_on ?? '')}. Readmit them instead.`);
}

/**
 * Withdraws a student on the roll: they leave on the given day (in the window) for the given
 * reason, and become a former student. A student already off the roll is a 409, also when another
 * withdrawal took them off a moment ago (the update is conditional).
 */
export async function withdrawStudent(db: Db, actor: Actor, studentId: string, input: WithdrawInput, now = new Date()): Promise<EnrolmentChangeAnswer> {
  const today = schoolToday(now);
  const enrolment = await db.transaction().execute(async (trx) => {
    const student = await repo.findStudent(trx, studentId);
    if (!student) throw noSuchStudent();
    if (student.left_on !== null) notOnRoll(student);
    requireDateIn(input.date, await windowOf(trx, student, await repo.listEventsOf(trx, studentId), today));
    if (!(await repo.markWithdrawn(trx, studentId, input.date))) throw conflict(`Student ${studentId} was taken off the roll a moment ago. Reload to see their history.`);
    const at = nowIso();
    await repo.insertEvents(
      trx,
      [
        {
          student_id: studentId,
          kind: 'exit',
          happened_on: input.date,
          reason: input.reason,
          class_id: student.class_id,
          other_school: input.reason === 'transferred' ? (input.other_school ?? null) : null,
          note: input.note || null,
          recorded_by_user_id: actor.actor_user_id,
        },
      ],
      at,
    );
    const audit: AuditEntry[] = [
      { ...actor, action: 'withdraw', entity: 'student', entity_id: studentId, field: 'left_on', old_value: null, new_value: input.date },
      { ...actor, action: 'withdraw', entity: 'student', entity_id: studentId, field: 'class_id', old_value: student.class_id, new_value: null },
    ];
    await writeAudit(trx, audit);
    return enrolmentOf(trx, { ...student, class_id: null, left_on: input.date, left_class: student.class_id }, today);
  });
  return { message: `Student ${studentId} is withdrawn as of ${toDayFirstDate(input.date)}.`, enrolment };
}

/**
 * Readmits a former student (a rollover's leaver or a withdrawn student) into a class of the form
 * they left from or the next one, on a day in the window. A student on the roll is a 409; an
 * unknown class, a class of another form or a date out of the window a 400 naming the field.
 */
export async function readmitStudent(db: Db, actor: Actor, studentId: string, input: ReadmitInput, now = new Date()): Promise<EnrolmentChangeAnswer> {
  const today = schoolToday(now);
  const enrolment = await db.transaction().execute(async (trx) => {
    const student = await repo.findStudent(trx, studentId);
    if (!student) throw noSuchStudent();
    if (student.left_on === null) throw conflict(`Student ${studentId} is on the roll${student.class_id ? ` in ${student.class_id}` : ''}: there is nothing to readmit.`);
    const target = await repo.findFormClass(trx, input.class_id);
    if (!target) throw badRequest(`The school has no class ${input.class_id}.`, { class_id: [`The school has no class ${input.class_id}.`] });
    const left = student.left_class ? await repo.findFormClass(trx, student.left_class) : undefined;
    const levels = readmitFormLevels(left?.form_level ?? null);
    if (levels && !levels.includes(target.form_level)) {
      const message = `Student ${studentId} left from ${left!.id}: choose a class of Form ${levels[0]} or Form ${levels[1]}, not ${target.id}.`;
      throw badRequest(message, { class_id: [message] });
    }
    requireDateIn(input.date, await windowOf(trx, student, [], today));
    if (!(await repo.markReadmitted(trx, studentId, target.id))) throw conflict(`Student ${studentId} was readmitted a moment ago. Reload to see their history.`);
    const at = nowIso();
    await repo.insertEvents(
      trx,
      [{ student_id: studentId, kind: 'entry', happened_on: input.date, reason: 'readmitted', class_id: target.id, other_school: null, note: input.note || null, recorded_by_user_id: actor.actor_user_id }],
      at,
    );
    await writeAudit(trx, [
      { ...actor, action: 'readmit', entity: 'student', entity_id: studentId, field: 'left_on', old_value: student.left_on, new_value: null },
      { ...actor, action: 'readmit', entity: 'student', entity_id: studentId, field: 'class_id', old_value: null, new_value: target.id },
    ]);
    return enrolmentOf(trx, { ...student, class_id: target.id, left_on: null, left_class: null }, today);
  });
  return { message: `Student ${studentId} is back on the roll in ${enrolment.class_id} as of ${toDayFirstDate(input.date)}.`, enrolment };
}

/** The newest entry and exit of each student named (the Registration Data export's columns). */
export function latestEnrolmentEventsOf(db: Db, studentIds: readonly string[]) {
  return repo.listLatestEventsOf(db, studentIds);
}

// ---- what other features record (each a line where the student comes or goes) --------------------

/** A new student's entry: the intake's Form 1 children, Add Student's transfer in, Import Students' new records. */
export async function recordEntry(trx: Db, entry: { studentId: string; on: string; reason: EntryReason; classId: string | null }, actor: Actor): Promise<void> {
  await repo.insertEvents(
    trx,
    [{ student_id: entry.studentId, kind: 'entry', happened_on: entry.on, reason: entry.reason, class_id: entry.classId, other_school: null, note: null, recorded_by_user_id: actor.actor_user_id }],
    nowIso(),
  );
}

/** A year rollover's leavers of one class: each "graduated" that day from that class. */
export async function recordGraduations(trx: Db, studentIds: readonly string[], on: string, classId: string, actor: Actor): Promise<void> {
  await repo.insertEvents(
    trx,
    studentIds.map((id) => ({ student_id: id, kind: 'exit' as const, happened_on: on, reason: 'graduated', class_id: classId, other_school: null, note: null, recorded_by_user_id: actor.actor_user_id })),
    nowIso(),
  );
}

/** A rollover's undo: its leavers are back on the roll, so their "graduated" exit goes. */
export async function undoGraduations(trx: Db, studentIds: readonly string[]): Promise<void> {
  await repo.deleteNewestGraduations(trx, studentIds);
}
