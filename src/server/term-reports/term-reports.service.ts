import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { seesUnpostedReportCards, type Caller } from '../access/roles.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { schoolDateTime, schoolToday } from '../../shared/dates.js';
import { attendanceFigures, countAttendance, excusedDaysOf, summarizeAttendance } from '../../shared/attendance.stats.js';
import { SESSIONS_PER_SCHOOL_DAY, listSchoolDays } from '../../shared/school-days.js';
import type { TermNumber } from '../../shared/school.constants.js';
import { checkGradeKey, rankByAverage, roundToTenth } from '../../shared/term-reports.grading.js';
import {
  TERM_RESULTS_MAX_ROWS,
  type ImportReport,
  type PostTermReportsData,
  type PostedTermReport,
  type ReportCardTerm,
  type TermText,
} from '../../shared/term-reports.schemas.js';
import type { ReportCardData } from './report-card.pdf.js';
import { readSpreadsheet } from '../spreadsheets/spreadsheet-upload.js';
import { notifyTermReportsPosted } from '../notices/notices.service.js';
import * as repo from './term-reports.repository.js';
import { averagesByStudent, checkRecords, mapColumns, readRecords, TERM_RESULTS_SHEET } from './term-results.import.js';

/**
 * Term report rules (docs/requirements.md R9; R15: unposted report cards are for staff only):
 * the student's list, the card's content, posting and removing,
 * scheduled posting, and the all-or-nothing import of the marks.
 */

const termText = (term: number) => String(term) as TermText;
const entityId = (year: number, term: number) => `${year}-${term}`;

// ---- the student's list ------------------------------------------------------------------------

/** A form class by its id (its level and teacher), or undefined: for other features, which never read this feature's tables themselves. */
export function findFormClass(db: Db, classId: string): Promise<{ id: string; form_level: number; form_teacher: string | null } | undefined> {
  return repo.findFormClass(db, classId);
}

/** The students now in a class, as a report card names them. */
export function listClassStudents(db: Db, classId: string): Promise<repo.StudentBasics[]> {
  return repo.listClassStudents(db, classId);
}

/** `GET /api/report-card-terms/{userID}` (R9): every term with results, posted or not. */
export async function listReportCardTerms(db: Db, studentId: string): Promise<ReportCardTerm[]> {
  if (!(await repo.findStudent(db, studentId))) throw notFound('No student has that ID.');
  const terms = await repo.listStudentTerms(db, studentId);
  return terms.map((t) => ({
    year: t.year,
    term: termText(t.term),
    posted: t.posted === 1 ? 1 : 0,
    date_posted: t.posted === 1 ? t.date_posted : null,
    form_level: t.form_level,
    class_id: t.class_id,
  }));
}

/**
 * The form class a student was in during a term, as that term's report records it (the
 * `term_summaries` row); null when the school kept no report for the student that term.
 */
export async function findClassInTerm(db: Db, studentId: string, year: number, term: number): Promise<string | null> {
  return (await repo.findSummary(db, studentId, year, term))?.class_id ?? null;
}

// ---- the card ----------------------------------------------------------------------------------

/**
 * Everything printed on a report card. Students reach only posted terms (403 otherwise); the
 * route has already refused another student's ID. Staff reach any term with results.
 */
export async function loadReportCard(
  db: Db,
  caller: Caller,
  studentId: string,
  year: number,
  term: TermNumber,
  schoolName: string,
  now: Date = new Date(),
): Promise<ReportCardData> {
  const [card] = await loadReportCards(db, caller, [studentId], year, term, schoolName, now);
  return card!;
}

/**
 * The report cards of several students for a term, in the order asked, read with a handful of
 * queries whatever their number (a class's report day, D59). The same rules as one card: 404 for a
 * student who does not exist, 403 for an unposted term unless staff, 404 for a student without
 * results that term.
 */
export async function loadReportCards(
  db: Db,
  caller: Caller,
  studentIds: readonly string[],
  year: number,
  term: TermNumber,
  schoolName: string,
  now: Date = new Date(),
): Promise<ReportCardData[]> {
  const students = new Map((await repo.findStudents(db, studentIds)).map((s) => [s.id, s]));
  if (studentIds.some((id) => !students.has(id))) throw notFound('No student has that ID.');
  const report = await repo.findTermReport(db, year, term);
  if (!seesUnpostedReportCards(caller) && report?.posted !== 1) {
    throw forbidden('This term’s report has not been posted yet.');
  }
  const results = groupBy(await repo.listResultsOfStudents(db, studentIds, year, term), (r) => r.student_id);
  if (studentIds.some((id) => !results.has(id))) throw notFound('There is no report for this student and term.');
  const summaries = new Map((await repo.listSummariesOf(db, studentIds, year, term)).map((s) => [s.student_id, s]));
  const classIds = [...new Set([...summaries.values()].flatMap((s) => (s.class_id ? [s.class_id] : [])))];
  const [formClasses, weights, gradeKey, attendance] = await Promise.all([
    repo.listFormClasses(db),
    repo.listAssessmentWeights(db),
    repo.listGradeKey(db),
    termAttendance(db, studentIds, year, term, now),
  ]);
  const classAverages = new Map<string, number | null>();
  for (const classId of classIds) classAverages.set(classId, await repo.findClassAverage(db, classId, year, term));
  const printedAt = schoolDateTime(now);
  return studentIds.map((studentId) => {
    const summary = summaries.get(studentId);
    const classId = summary?.class_id ?? null;
    const formClass = classId ? formClasses.find((c) => c.id === classId) : undefined;
    const classAverage = classId ? (classAverages.get(classId) ?? null) : null;
    return {
      schoolName,
      student: students.get(studentId)!,
      year,
      term,
      classId,
      formLevel: formClass?.form_level ?? null,
      formTeacher: formClass?.form_teacher ?? null,
      classSize: summary?.class_size ?? null,
      position: summary?.position ?? null,
      average: summary?.average ?? null,
      classAverage: classAverage === null ? null : roundToTenth(classAverage),
      weights: (formClass ? weights.find((w) => w.form_level === formClass.form_level) : undefined) ?? null,
      results: (results.get(studentId) ?? []).map(({ student_id: _, ...result }) => result),
      attendance: attendance === null ? null : (attendance.get(studentId) ?? null),
      formTeacherRemarks: summary?.form_teacher_remarks ?? null,
      principalRemarks: summary?.principal_remarks ?? null,
      gradeKey,
      printedAt,
    };
  });
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * Sessions absent and late out of the possible sessions of the term, per student (two per school
 * day: the term's dates minus weekends and school holidays, up to today for a term still
 * running). A session counts as the attendance screen counts it (src/shared/attendance.stats.ts);
 * each late arrival is one late session. How many of them accepted absence notes excuse is
 * counted by the screen's own `attendanceFigures` (D93). Null when the term has no dates or the
 * school recorded no attendance at all in it: the card says "Not recorded" rather than counting
 * every session as absent.
 */
async function termAttendance(db: Db, studentIds: readonly string[], year: number, term: number, now: Date = new Date()) {
  const dates = await repo.findAcademicTerm(db, year, term);
  if (!dates) return null;
  const today = schoolToday(now);
  const end = dates.end_date < today ? dates.end_date : today;
  const holidays = await repo.listHolidayDates(db, dates.start_date, dates.end_date);
  const { records, schoolRecorded } = await repo.summariseAttendanceOf(db, studentIds, dates.start_date, end);
  if (!schoolRecorded) return null;
  const schoolDays = listSchoolDays(dates.start_date, end, holidays);
  const open = new Set(schoolDays);
  const byStudent = groupBy(records, (record) => record.student_id);
  const notesOf = groupBy(await repo.listExcusingNotesOf(db, studentIds, dates.start_date, end), (note) => note.student_id);
  return new Map(
    studentIds.map((studentId) => {
      const own = byStudent.get(studentId) ?? [];
      // The attendance screen's own counting (R10: a time in without a time out is both sessions).
      const counted = countAttendance(own.filter((record) => open.has(record.date_scanned)));
      const summary = summarizeAttendance(schoolDays.length * SESSIONS_PER_SCHOOL_DAY, counted.present, counted.lates);
      const excused = attendanceFigures(schoolDays, own, true, excusedDaysOf(notesOf.get(studentId) ?? []));
      return [
        studentId,
        {
          possibleSessions: summary.possible,
          absentSessions: summary.absent,
          absentSessionsExcused: excused.sessionsAbsentExcused,
          lateSessions: summary.lates,
          lateSessionsExcused: Math.min(excused.daysLateExcused, summary.lates),
        },
      ] as const;
    }),
  );
}

/** The audit row of a card being opened (each view is logged). */
export async function recordReportCardView(db: Db, actor: Actor, studentId: string, year: number, term: number): Promise<void> {
  await writeAudit(db, {
    ...actor,
    action: 'report-card-viewed',
    entity: 'student',
    entity_id: studentId,
    field: 'report_card',
    new_value: entityId(year, term),
  });
}

// ---- posting -----------------------------------------------------------------------------------

function toPostedRecord(row: repo.TermReportRow, students: number): PostedTermReport {
  return {
    year: row.year,
    term: termText(row.term),
    posted: row.posted === 1 ? 1 : 0,
    date_posted: row.date_posted,
    scheduled_at: row.scheduled_at,
    students,
  };
}

/** `GET /api/term-reports-posted` (R9): every term with a report row, newest first. */
export async function listPostedTerms(db: Db): Promise<PostedTermReport[]> {
  const [rows, counts] = await Promise.all([repo.listTermReports(db), repo.countStudentsByTerm(db)]);
  return rows.map((row) => toPostedRecord(row, counts.get(entityId(row.year, row.term)) ?? 0));
}

/**
 * Posting and removing through one call (R9). Idempotent: posting a posted term keeps its
 * first date (a retried call changes nothing), removing an unposted term changes nothing. A term
 * can be posted only when it has results.
 */
/**
 * Posts or removes a term's reports. The posting time is the server's clock in the school's time
 * zone (D84), never the caller's: a browser's clock may be wrong or in another zone.
 */
export async function postTermReports(db: Db, input: PostTermReportsData, actor: Actor, now: Date = new Date()): Promise<PostedTermReport> {
  const { year, term } = input;
  return db.transaction().execute(async (trx) => {
    const students = await repo.countStudentsWithResults(trx, year, term);
    let row = await repo.findTermReport(trx, year, term);
    if (input.posted === 1) {
      if (students === 0) throw conflict(`${year} Term ${term} has no results to post. Import the term's results first.`);
      if (!row) {
        await repo.ensureTermReport(trx, year, term);
      }
      row = await repo.findTermReport(trx, year, term);
      if (row && row.posted !== 1) {
        await repo.setPosted(trx, year, term, 1, schoolDateTime(now, { seconds: true }));
        // Each family of a student with a report is told once, in the posting's transaction.
        await notifyTermReportsPosted(trx, year, term);
        await writeAudit(trx, {
          ...actor,
          action: 'term-reports-posted',
          entity: 'term_reports',
          entity_id: entityId(year, term),
          field: 'posted',
          old_value: '0',
          new_value: '1',
        });
      } else if (row?.scheduled_at) {
        await repo.setSchedule(trx, year, term, null);
      }
    } else {
      if (!row) {
        if (students === 0) throw notFound(`There are no ${year} Term ${term} reports.`);
        await repo.ensureTermReport(trx, year, term);
      }
      if (await repo.setPosted(trx, year, term, 0, null)) {
        await writeAudit(trx, {
          ...actor,
          action: 'term-reports-removed',
          entity: 'term_reports',
          entity_id: entityId(year, term),
          field: 'posted',
          old_value: String(row?.posted ?? 0),
          new_value: '0',
        });
      }
    }
    return toPostedRecord((await repo.findTermReport(trx, year, term))!, students);
  });
}

/** Schedules (or, with null, cancels) the automatic posting of an unposted term. */
export async function scheduleTermReports(
  db: Db,
  input: { year: number; term: number; scheduled_at: string | null },
  actor: Actor,
  now: Date = new Date(),
): Promise<PostedTermReport> {
  const { year, term } = input;
  const at = input.scheduled_at === null ? null : new Date(input.scheduled_at);
  if (at && at.getTime() <= now.getTime()) {
    throw badRequest('The scheduled time has passed; choose a time in the future, or post now.', {
      scheduled_at: ['The scheduled time has passed; choose a time in the future, or post now.'],
    });
  }
  return db.transaction().execute(async (trx) => {
    const students = await repo.countStudentsWithResults(trx, year, term);
    if (students === 0) throw conflict(`${year} Term ${term} has no results to post. Import the term's results first.`);
    await repo.ensureTermReport(trx, year, term);
    const row = (await repo.findTermReport(trx, year, term))!;
    if (row.posted === 1 && at) throw conflict(`${year} Term ${term} reports are already posted.`);
    const iso = at ? at.toISOString() : null;
    await repo.setSchedule(trx, year, term, iso);
    await writeAudit(trx, {
      ...actor,
      action: iso ? 'term-reports-scheduled' : 'term-reports-schedule-cancelled',
      entity: 'term_reports',
      entity_id: entityId(year, term),
      field: 'scheduled_at',
      old_value: row.scheduled_at,
      new_value: iso,
    });
    return toPostedRecord((await repo.findTermReport(trx, year, term))!, students);
  });
}

/**
 * Posts every term whose scheduled time has come. Safe with N processes running it at once: each
 * post is a conditional UPDATE (still unposted, same schedule), so exactly one process posts a
 * term and writes its audit row. Answers the terms this call posted.
 */
export async function postDueTermReports(db: Db, now: Date = new Date()): Promise<{ year: number; term: number }[]> {
  const due = await repo.listDueSchedules(db, now.toISOString());
  const posted: { year: number; term: number }[] = [];
  for (const row of due) {
    const scheduledAt = row.scheduled_at!;
    // One statement, no surrounding transaction: the UPDATE is atomic on both engines, and on
    // SQLite a transaction held across an await would block the other connections' writers.
    const done = await repo.postIfStillDue(db, row.id, scheduledAt, schoolDateTime(new Date(scheduledAt), { seconds: true }));
    if (done) {
      await writeAudit(db, {
        actor_user_id: null,
        actor_label: 'scheduler',
        ip: null,
        request_id: null,
        action: 'term-reports-posted',
        entity: 'term_reports',
        entity_id: entityId(row.year, row.term),
        field: 'posted',
        old_value: '0',
        new_value: '1',
      });
    }
    if (done) {
      // After the posting's own statement: a failure here leaves the term posted and is logged
      // by the scheduler; the families' notices are written together, or not at all.
      await db.transaction().execute((trx) => notifyTermReportsPosted(trx, row.year, row.term));
      posted.push({ year: row.year, term: row.term });
    }
  }
  return posted;
}

// ---- import ------------------------------------------------------------------------------------

/**
 * Checks an uploaded file and, unless it is a dry run, commits it: every row or none, in one
 * transaction. A commit with any row error answers 400 with each row's errors and writes nothing.
 */
export async function importTermResults(
  db: Db,
  input: { year: number; term: TermNumber; dryRun: boolean; bytes: Buffer },
  actor: Actor,
): Promise<ImportReport> {
  const { year, term } = input;
  const sheet = await readSpreadsheet(input.bytes, { ...TERM_RESULTS_SHEET, maxRows: TERM_RESULTS_MAX_ROWS });
  const { columns, errors: fileErrors } = mapColumns(sheet.header);
  const dataRows = sheet.rows;
  if (fileErrors.length === 0 && dataRows.length === 0) fileErrors.push('The file has a header row but no results under it.');

  const gradeKey = await repo.listGradeKey(db);
  const keyProblems = checkGradeKey(gradeKey);
  if (keyProblems.length > 0) fileErrors.push(`The school's grade key needs fixing first: ${keyProblems.join(' ')}`);

  const emptyReport = (committed: boolean): ImportReport => ({
    year,
    term: termText(term),
    dry_run: input.dryRun,
    committed,
    rows: [],
    error_count: 0,
    file_errors: fileErrors,
    summary: { rows: dataRows.length, students: 0, subjects: 0, classes: 0 },
  });
  if (fileErrors.length > 0) {
    if (input.dryRun) return emptyReport(false);
    throw badRequest(fileErrors[0]!, { file: fileErrors });
  }

  const records = readRecords(dataRows, columns);
  const ids = records.map((r) => r.student_id).filter((id) => id !== '');
  const [students, subjects, classes, weights, existing] = await Promise.all([
    repo.findStudents(db, ids),
    repo.listSubjects(db),
    repo.listFormClasses(db),
    repo.listAssessmentWeights(db),
    repo.findSummaries(db, year, term, ids),
  ]);
  const checked = checkRecords(records, {
    students: new Map(students.map((s) => [s.id, s])),
    subjects,
    classes: new Map(classes.map((c) => [c.id, c])),
    weights: new Map(weights.map((w) => [w.form_level, w])),
    gradeKey,
    existingClass: new Map(existing.map((s) => [s.student_id, s.class_id])),
  });
  const report: ImportReport = {
    year,
    term: termText(term),
    dry_run: input.dryRun,
    committed: false,
    rows: checked.rows,
    error_count: checked.errorCount,
    file_errors: [],
    summary: checked.summary,
  };
  if (input.dryRun) return report;
  if (checked.errorCount > 0) {
    const errors: Record<string, string[]> = {};
    for (const row of checked.rows) if (row.errors.length > 0) errors[`row ${row.row}`] = row.errors;
    throw new AppError(
      400,
      'validation_failed',
      `${checked.errorCount} row${checked.errorCount === 1 ? ' has' : 's have'} errors; nothing was imported. Fix them and upload the file again.`,
      errors,
    );
  }

  const existingByStudent = new Map(existing.map((s) => [s.student_id, s]));
  await db.transaction().execute(async (trx) => {
    await repo.ensureTermReport(trx, year, term);
    await repo.upsertResults(trx, year, term, checked.results);
    await repo.upsertSummaries(
      trx,
      year,
      term,
      [...checked.students].map(([studentId, s]) => {
        const before = existingByStudent.get(studentId);
        return {
          student_id: studentId,
          class_id: s.class_id,
          // Remarks left blank in the file keep what was there (a subject teacher's file has none).
          form_teacher_remarks: s.form_teacher_remarks ?? before?.form_teacher_remarks ?? null,
          principal_remarks: s.principal_remarks ?? before?.principal_remarks ?? null,
        };
      }),
    );
    // Averages from every total the students now have (the file's and any kept from before).
    const averages = averagesByStudent(await repo.listTotals(trx, year, term, [...checked.students.keys()]));
    const affectedClasses = new Set<string>();
    for (const s of checked.students.values()) affectedClasses.add(s.class_id);
    for (const s of existing) if (s.class_id) affectedClasses.add(s.class_id);
    await recomputeStandings(trx, year, term, [...affectedClasses], averages);
    await writeAudit(trx, {
      ...actor,
      action: 'term-results-imported',
      entity: 'term_reports',
      entity_id: entityId(year, term),
      new_value: `${checked.results.length} results for ${checked.students.size} students`,
    });
  });
  return { ...report, committed: true };
}

/**
 * Positions and class sizes (and so the class averages) of whole classes for a term, with the
 * given students' new averages; everyone else keeps the average stored.
 */
async function recomputeStandings(
  db: Db,
  year: number,
  term: number,
  classIds: readonly string[],
  newAverages: ReadonlyMap<string, number | null> = new Map(),
): Promise<void> {
  const members = await repo.listClassSummaries(db, year, term, classIds);
  const updates: repo.Standing[] = [];
  for (const classId of classIds) {
    const inClass = members.filter((m) => m.class_id === classId);
    const ranked = rankByAverage(
      inClass.map((m) => ({ key: m.student_id, average: newAverages.has(m.student_id) ? newAverages.get(m.student_id)! : m.average })),
    );
    for (const entry of ranked)
      updates.push({ student_id: entry.key, average: entry.average, position: entry.position, class_size: inClass.length });
  }
  await repo.updateStandings(db, year, term, updates);
}
