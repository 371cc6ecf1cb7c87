import {
  checkReportRange,
  type AcademicTerm,
  type AttendanceRecord,
  type AttendanceSettings,
  type ClassAttendance,
  type ClassAttendanceQuery,
  type SchoolHoliday,
  type StudentAttendance,
  type StudentAttendanceQuery,
} from '../../shared/attendance.schemas.js';
import {
  attendanceFigures,
  attendancePercent,
  dayAttendanceOf,
  excusedDaysOf,
  type AttendanceFigures,
  type DayAttendance,
  type ExcusedParts,
} from '../../shared/attendance.stats.js';
import { schoolToday } from '../../shared/dates.js';
import { formClassName } from '../../shared/form-class.js';
import { SESSIONS_PER_SCHOOL_DAY, earlierDate, listSchoolDays } from '../../shared/school-days.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { findFormClass, listClassStudents } from '../term-reports/term-reports.service.js';
import { findClassInTerm } from '../term-reports/term-reports.service.js';
import * as repo from './attendance.repository.js';
import { BELL_TIME_KEY, getBellTime } from './scans.service.js';

/**
 * A student's attendance (docs/requirements.md R10, R5): the term's school days so far,
 * the records of those days, and the figures. School days are the term's dates minus weekends
 * and the school holidays administrators list (src/shared/school-days.ts); possible attendance
 * is two sessions for each (docs/decisions.md "Attendance counts").
 */

export interface RangeAttendance {
  student: repo.AttendanceStudent;
  from: string;
  to: string;
  /** Every school day of the range, oldest first. */
  schoolDays: string[];
  /** Records of the range, oldest first (also any on days the school was closed). */
  records: AttendanceRecord[];
  /**
   * Whether the school recorded anyone's attendance in the range. When it did not (a term
   * before the scanners, a range in the holidays), nothing counts as absent: the figures are
   * all 0 and the screen and the report say that nothing was recorded (docs/decisions.md D41).
   */
  recorded: boolean;
  /** What accepted absence notes excuse, by day (D93). */
  excused: Map<string, ExcusedParts>;
  summary: AttendanceFigures;
}

async function requireStudent(db: Db, studentId: string): Promise<repo.AttendanceStudent> {
  const student = await repo.findStudent(db, studentId);
  if (!student) throw notFound('No student has this ID.');
  return student;
}

/** Records, school days and figures from `from` to `to` inclusive. Figures count school days only. */
async function attendanceBetween(db: Db, student: repo.AttendanceStudent, from: string, to: string): Promise<RangeAttendance> {
  const [holidays, records, notes] = await Promise.all([
    repo.listHolidayDates(db, from, to),
    repo.listRecords(db, student.id, from, to),
    repo.listExcusingNotes(db, student.id, from, to),
  ]);
  const schoolDays = listSchoolDays(from, to, holidays);
  const recorded = records.length > 0 || (await repo.hasSchoolRecords(db, from, to));
  const excused = excusedDaysOf(notes);
  return { student, from, to, schoolDays, records, recorded, excused, summary: attendanceFigures(schoolDays, records, recorded, excused) };
}

/**
 * The term shown when none is asked for: the one running today, else the latest that has
 * started (in the holidays a parent still sees the term just ended).
 */
function currentTerm(started: readonly AcademicTerm[], today: string): AcademicTerm | undefined {
  return started.find((term) => term.start_date <= today && today <= term.end_date) ?? started[0];
}

/**
 * The class a student was in during a term: the class its report records; else, for the current
 * term or a later one, today's class; else (an earlier term with no report) null, shown as "Not
 * recorded" rather than today's class, which would be wrong after a promotion (D41).
 */
async function classDuring(db: Db, student: repo.AttendanceStudent, term: AcademicTerm, current: AcademicTerm | undefined): Promise<string | null> {
  const reported = await findClassInTerm(db, student.id, term.year, term.term);
  if (reported) return reported;
  return current && term.start_date < current.start_date ? null : student.class_id;
}

/** GET /api/student-attendance/{userID}: the attendance answer for a term (R10). */
export async function getStudentAttendance(
  db: Db,
  studentId: string,
  query: StudentAttendanceQuery,
  today = schoolToday(),
): Promise<StudentAttendance> {
  const student = await requireStudent(db, studentId);
  const started = await repo.listStartedTerms(db, today);
  let term: AcademicTerm | undefined;
  if (query.year !== undefined && query.term !== undefined) {
    term = await repo.findTerm(db, query.year, query.term);
    if (!term) throw notFound(`The school has no term ${query.term} in ${query.year}.`);
  } else {
    term = currentTerm(started, today);
  }
  const classId = term ? await classDuring(db, student, term, currentTerm(started, today)) : student.class_id;
  const base = {
    class_id: classId,
    form_level: classId === null ? null : await repo.findFormLevel(db, classId),
    student: { id: student.id, first_name: student.first_name, last_name: student.last_name },
    terms: started,
  };
  // No term yet, or one that has not started: nothing is possible yet (R5: 0 %).
  if (!term || term.start_date > today) {
    return {
      ...base,
      term: term ? String(term.term) : null,
      year: term?.year ?? null,
      start_date: term?.start_date ?? null,
      end_date: term?.end_date ?? null,
      counted_until: null,
      recorded: false,
      school_days: [],
      possible_attendance: 0,
      attendance: 0,
      lates: 0,
      absent_excused: 0,
      absent_unexcused: 0,
      lates_excused: 0,
      excused_days: [],
      attendance_records: [],
    };
  }
  const until = earlierDate(today, term.end_date);
  const range = await attendanceBetween(db, student, term.start_date, until);
  return {
    ...base,
    term: String(term.term),
    year: term.year,
    start_date: term.start_date,
    end_date: term.end_date,
    counted_until: until,
    recorded: range.recorded,
    school_days: range.schoolDays,
    possible_attendance: range.summary.possibleSessions,
    attendance: range.summary.sessionsPresent,
    lates: range.summary.daysLate,
    absent_excused: range.summary.sessionsAbsentExcused,
    absent_unexcused: range.summary.sessionsAbsentUnexcused,
    lates_excused: range.summary.daysLateExcused,
    excused_days: excusedDayList(range.schoolDays, range.excused),
    attendance_records: range.records,
  };
}

/** The school days an accepted note excuses something on, oldest first, as the answers list them. */
function excusedDayList(schoolDays: readonly string[], excused: ReadonlyMap<string, ExcusedParts>): ({ date: string } & ExcusedParts)[] {
  return schoolDays.flatMap((date) => {
    const parts = excused.get(date);
    return parts ? [{ date, ...parts }] : [];
  });
}

/** The attendance report's content: 400 for a bad, reversed or future range; 404 for no student. */
export async function getAttendanceForReport(
  db: Db,
  studentId: string,
  startDate: string,
  endDate: string,
  today = schoolToday(),
): Promise<RangeAttendance & { terms: AcademicTerm[]; classes: string[] }> {
  const problems = checkReportRange(startDate, endDate, today);
  const fields = Object.entries(problems);
  if (fields.length > 0) {
    throw badRequest(fields[0]![1], Object.fromEntries(fields.map(([field, message]) => [field, [message]])));
  }
  const student = await requireStudent(db, studentId);
  const [range, terms, started] = await Promise.all([
    attendanceBetween(db, student, startDate, endDate),
    repo.listTermsOverlapping(db, startDate, endDate),
    repo.listStartedTerms(db, today),
  ]);
  const current = currentTerm(started, today);
  const during = terms.length > 0 ? await Promise.all(terms.map((term) => classDuring(db, student, term, current))) : [student.class_id];
  const classes = [...new Set(during.filter((classId): classId is string => classId !== null))];
  return { ...range, terms, classes };
}

// ---- one day of several students (the family's home cards) ------------------------------------------

/** One child's day: how it went so far, and the time of arrival when there was one. */
export interface ChildDay {
  status: DayAttendance;
  timeIn: string | null;
}

/**
 * The day's attendance of the students named: `not-school-day` on a weekend, a school holiday or
 * outside every term; `not-recorded` while the school has recorded no one that day (before the
 * gates open, or a day without the scanners: nothing counts as absent, D41); else each student's
 * day in the shared words (dayAttendanceOf). A bounded number of reads, whatever the number of
 * students.
 */
export async function getDayAttendanceOf(
  db: Db,
  studentIds: readonly string[],
  date: string,
): Promise<{ kind: 'not-school-day' } | { kind: 'not-recorded' } | { kind: 'recorded'; days: Map<string, ChildDay> }> {
  const [holidays, started] = await Promise.all([repo.listHolidayDates(db, date, date), repo.listStartedTerms(db, date)]);
  const inTerm = started.some((term) => term.start_date <= date && date <= term.end_date);
  if (!inTerm || listSchoolDays(date, date, holidays).length === 0) return { kind: 'not-school-day' };
  const records = await repo.listRecordsOfStudentsOn(db, studentIds, date);
  if (records.length === 0 && !(await repo.hasSchoolRecords(db, date, date))) return { kind: 'not-recorded' };
  const byStudent = new Map(records.map((record) => [record.student_id, record] as const));
  return {
    kind: 'recorded',
    days: new Map(
      studentIds.map((id) => {
        const record = byStudent.get(id);
        return [id, { status: dayAttendanceOf(record), timeIn: record?.time_in ?? null }] as const;
      }),
    ),
  };
}

// ---- a class over a range (admin) ---------------------------------------------------------------

/** The current term from its first day to today (or its last day, in the holidays after it); 400 when the school has none. */
async function termSoFar(db: Db, today: string): Promise<{ from: string; to: string }> {
  const term = currentTerm(await repo.listStartedTerms(db, today), today);
  if (!term) throw badRequest('The school has no term yet: choose the dates.', { from: ['Choose a start date.'] });
  return { from: term.start_date, to: earlierDate(today, term.end_date) };
}

/**
 * GET /api/class-attendance: each student now in the class, with the sessions present and absent
 * and the days late from `from` to `to` (without them, the current term so far) and the percentages, as each student's own screen counts them; the
 * class's totals. 404 for a class the school does not have. The range is checked by the query's
 * schema (classAttendanceQuerySchema).
 */
export async function getClassAttendance(db: Db, query: ClassAttendanceQuery, today = schoolToday()): Promise<ClassAttendance> {
  const formClass = await findFormClass(db, query.class_id);
  if (!formClass) throw notFound(`The school has no form class ${query.class_id}.`);
  const { from, to } = query.from && query.to ? { from: query.from, to: query.to } : await termSoFar(db, today);
  const [students, holidays, records, notes] = await Promise.all([
    listClassStudents(db, formClass.id),
    repo.listHolidayDates(db, from, to),
    repo.listClassRecords(db, formClass.id, from, to),
    repo.listClassExcusingNotes(db, formClass.id, from, to),
  ]);
  const schoolDays = listSchoolDays(from, to, holidays);
  const recorded = records.length > 0 || (await repo.hasSchoolRecords(db, from, to));
  const byStudent = new Map<string, AttendanceRecord[]>();
  for (const record of records) {
    const list = byStudent.get(record.student_id);
    if (list) list.push(record);
    else byStudent.set(record.student_id, [record]);
  }
  const rows = students.map((student) => {
    const excused = excusedDaysOf(notes.filter((note) => note.student_id === student.id));
    const summary = attendanceFigures(schoolDays, byStudent.get(student.id) ?? [], recorded, excused);
    return {
      id: student.id,
      first_name: student.first_name,
      last_name: student.last_name,
      present: summary.sessionsPresent,
      absent: summary.sessionsAbsent,
      lates: summary.daysLate,
      absent_excused: summary.sessionsAbsentExcused,
      absent_unexcused: summary.sessionsAbsentUnexcused,
      lates_excused: summary.daysLateExcused,
      attendance_percent: summary.attendancePercent,
      punctuality_percent: summary.punctualityPercent,
    };
  });
  const possible = recorded ? schoolDays.length * SESSIONS_PER_SCHOOL_DAY : 0;
  const sum = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const present = sum((row) => row.present);
  return {
    class_id: formClass.id,
    class_name: formClassName(formClass.id, formClass.form_level) ?? formClass.id,
    form_teacher: formClass.form_teacher,
    from,
    to,
    school_days: schoolDays.length,
    possible,
    recorded,
    students: rows,
    totals: {
      present,
      absent: sum((row) => row.absent),
      lates: sum((row) => row.lates),
      absent_excused: sum((row) => row.absent_excused),
      absent_unexcused: sum((row) => row.absent_unexcused),
      lates_excused: sum((row) => row.lates_excused),
      attendance_percent: attendancePercent(present, possible * rows.length),
    },
  };
}

// ---- what absence notes need of attendance (docs/decisions.md D93) ---------------------------------

/** The school days from `from` to `to` inclusive: weekdays that are not school holidays. */
export async function listSchoolDaysBetween(db: Db, from: string, to: string): Promise<string[]> {
  return listSchoolDays(from, to, await repo.listHolidayDates(db, from, to));
}

/** The terms that overlap the range, oldest first. */
export async function listTermsCovering(db: Db, from: string, to: string): Promise<AcademicTerm[]> {
  return repo.listTermsOverlapping(db, from, to);
}

/** The term the attendance screen shows on `today` (the one running, else the latest started), or undefined before the first. */
export async function findScreenTerm(db: Db, today: string): Promise<AcademicTerm | undefined> {
  return currentTerm(await repo.listStartedTerms(db, today), today);
}

/** One school day of a student, as an absence note shows it beside the note. */
export interface NoteDay {
  date: string;
  /** The record in the shared words; `not-recorded` while the school recorded no one that day (a day ahead, D41). */
  status: DayAttendance | 'not-recorded';
  timeIn: string | null;
  excused: ExcusedParts;
}

/** The student's school days from `from` to `to`: each day's record and what accepted notes excuse on it. */
export async function listNoteDays(db: Db, studentId: string, from: string, to: string): Promise<NoteDay[]> {
  const [holidays, records, notes, recordedDates] = await Promise.all([
    repo.listHolidayDates(db, from, to),
    repo.listRecords(db, studentId, from, to),
    repo.listExcusingNotes(db, studentId, from, to),
    repo.listRecordedDates(db, from, to),
  ]);
  const byDay = new Map(records.map((record) => [record.date_scanned, record] as const));
  const excused = excusedDaysOf(notes);
  return listSchoolDays(from, to, holidays).map((date) => {
    const record = byDay.get(date);
    return {
      date,
      status: record || recordedDates.has(date) ? dayAttendanceOf(record) : 'not-recorded',
      timeIn: record?.time_in ?? null,
      excused: excused.get(date) ?? { am: false, pm: false, late: false },
    };
  });
}

// ---- settings (admin) -------------------------------------------------------------------------------

export async function getAttendanceSettings(db: Db): Promise<AttendanceSettings> {
  return { bell_time: await getBellTime(db) };
}

/**
 * Changes the bell time. It applies to scans from then on: a day already recorded is recomputed
 * with the new bell only when another scan of that day arrives (docs/decisions.md).
 */
export async function updateAttendanceSettings(db: Db, settings: AttendanceSettings, actor: Actor): Promise<AttendanceSettings> {
  return db.transaction().execute(async (trx) => {
    const old = await getBellTime(trx);
    if (old !== settings.bell_time) {
      await repo.putSetting(trx, BELL_TIME_KEY, settings.bell_time);
      await writeAudit(trx, { ...actor, action: 'update', entity: 'settings', entity_id: BELL_TIME_KEY, field: 'value', old_value: old, new_value: settings.bell_time });
    }
    return { bell_time: settings.bell_time };
  });
}

export async function listSchoolHolidays(db: Db): Promise<SchoolHoliday[]> {
  return repo.listHolidays(db);
}

/** Adds a holiday; 409 when the date already is one. Possible attendance follows at once. */
export async function addSchoolHoliday(db: Db, date: string, name: string, actor: Actor): Promise<SchoolHoliday> {
  return db.transaction().execute(async (trx) => {
    if (await repo.findHolidayByDate(trx, date)) throw conflict(`${date} is already a school holiday.`);
    const holiday = await repo.insertHoliday(trx, date, name);
    await writeAudit(trx, { ...actor, action: 'create', entity: 'school_holiday', entity_id: String(holiday.id), field: 'date', new_value: `${date} ${name}` });
    return holiday;
  });
}

/** Removes a holiday; 404 for an unknown id. */
export async function removeSchoolHoliday(db: Db, id: number, actor: Actor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const holiday = await repo.findHoliday(trx, id);
    if (!holiday) throw notFound('No school holiday has this id.');
    await repo.deleteHoliday(trx, id);
    await writeAudit(trx, { ...actor, action: 'delete', entity: 'school_holiday', entity_id: String(id), field: 'date', old_value: `${holiday.date} ${holiday.name}` });
  });
}
