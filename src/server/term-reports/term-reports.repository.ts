import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import { onRoll } from '../db/student-scope.js';

/**
 * All SQL of term reports (docs/architecture.md "Adding a server feature"): the report list,
 * posting, scheduling, the report card's content and the import's reads and writes. Functions take
 * `db` or a transaction.
 */

/** Statements stay under SQLite's (32,766) and PostgreSQL's (65,535) bound-parameter limits. */
const MAX_PARAMETERS = 10_000;

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

// ---- students, classes, subjects, grading ------------------------------------------------------

export interface StudentBasics {
  id: string;
  first_name: string | null;
  last_name: string | null;
  date_of_birth: string | null;
  class_id: string | null;
}

export async function findStudent(db: Db, studentId: string): Promise<StudentBasics | undefined> {
  return db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name', 'date_of_birth', 'class_id'])
    .where('id', '=', studentId)
    .executeTakeFirst();
}

/** The students with these IDs (any number of them). */
export async function findStudents(db: Db, ids: readonly string[]): Promise<StudentBasics[]> {
  const found: StudentBasics[] = [];
  for (const part of chunk([...new Set(ids)], MAX_PARAMETERS)) {
    found.push(
      ...(await db
        .selectFrom('students')
        .select(['id', 'first_name', 'last_name', 'date_of_birth', 'class_id'])
        .where('id', 'in', part)
        .execute()),
    );
  }
  return found;
}

export async function listFormClasses(db: Db) {
  return db.selectFrom('form_classes').select(['id', 'form_level', 'form_teacher']).execute();
}

export async function findFormClass(db: Db, classId: string) {
  return db.selectFrom('form_classes').select(['id', 'form_level', 'form_teacher']).where('id', '=', classId).executeTakeFirst();
}

/** The students of a form class in list order (last name, first name, ID). */
export async function listClassStudents(db: Db, classId: string): Promise<StudentBasics[]> {
  return db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name', 'date_of_birth', 'class_id'])
    .where('class_id', '=', classId)
    .where(onRoll)
    .orderBy('last_name')
    .orderBy('first_name')
    .orderBy('id')
    .execute();
}

/**
 * The students of a form class today who have results for a term, in list order: whose cards a
 * class's report day prints (D59). Today's class, as the policy reaches students by it.
 */
export async function listClassStudentsWithResults(db: Db, classId: string, year: number, term: number): Promise<StudentBasics[]> {
  return db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name', 'date_of_birth', 'class_id'])
    .where('class_id', '=', classId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('term_results')
          .select('term_results.student_id')
          .whereRef('term_results.student_id', '=', 'students.id')
          .where('term_results.year', '=', year)
          .where('term_results.term', '=', term),
      ),
    )
    .orderBy('last_name')
    .orderBy('first_name')
    .orderBy('id')
    .execute();
}

/** The form classes of a form level, in class order (4A, 4B, …). */
export async function listFormClassesOfLevel(db: Db, formLevel: number) {
  return db.selectFrom('form_classes').select(['id', 'form_level']).where('form_level', '=', formLevel).orderBy('id').execute();
}

export async function listSubjects(db: Db) {
  return db.selectFrom('subjects').select(['id', 'code', 'name']).orderBy('id').execute();
}

export async function listGradeKey(db: Db) {
  return db.selectFrom('grade_keys').select(['grade', 'min_total', 'description']).orderBy('min_total', 'desc').execute();
}

export async function listAssessmentWeights(db: Db) {
  return db.selectFrom('assessment_weights').select(['form_level', 'coursework_weight', 'exam_weight']).orderBy('form_level').execute();
}

// ---- term_reports rows ---------------------------------------------------------------------

export interface TermReportRow {
  id: number;
  year: number;
  term: number;
  posted: number;
  date_posted: string | null;
  scheduled_at: string | null;
}

const TERM_REPORT_COLUMNS = ['id', 'year', 'term', 'posted', 'date_posted', 'scheduled_at'] as const;

export async function findTermReport(db: Db, year: number, term: number): Promise<TermReportRow | undefined> {
  return db.selectFrom('term_reports').select(TERM_REPORT_COLUMNS).where('year', '=', year).where('term', '=', term).executeTakeFirst();
}

export async function listTermReports(db: Db): Promise<TermReportRow[]> {
  return db.selectFrom('term_reports').select(TERM_REPORT_COLUMNS).orderBy('year', 'desc').orderBy('term', 'desc').execute();
}

/** Makes sure the term has its (unposted) row; a concurrent insert of the same term is harmless. */
export async function ensureTermReport(db: Db, year: number, term: number): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('term_reports')
    .values({
      year,
      term,
      posted: 0,
      date_posted: null,
      scheduled_at: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['year', 'term']).doNothing())
    .execute();
}

/** Sets posted/date_posted and clears any schedule; answers whether the row changed. */
export async function setPosted(db: Db, year: number, term: number, posted: 0 | 1, datePosted: string | null): Promise<boolean> {
  const result = await db
    .updateTable('term_reports')
    .set({
      posted,
      date_posted: datePosted,
      scheduled_at: null,
      updated_at: nowIso(),
    })
    .where('year', '=', year)
    .where('term', '=', term)
    .where((eb) => eb.or([eb('posted', '!=', posted), eb('scheduled_at', 'is not', null)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setSchedule(db: Db, year: number, term: number, scheduledAt: string | null): Promise<void> {
  await db
    .updateTable('term_reports')
    .set({ scheduled_at: scheduledAt, updated_at: nowIso() })
    .where('year', '=', year)
    .where('term', '=', term)
    .execute();
}

/** Unposted terms whose scheduled time has come. */
export async function listDueSchedules(db: Db, nowIsoText: string): Promise<TermReportRow[]> {
  return db
    .selectFrom('term_reports')
    .select(TERM_REPORT_COLUMNS)
    .where('posted', '=', 0)
    .where('scheduled_at', 'is not', null)
    .where('scheduled_at', '<=', nowIsoText)
    .execute();
}

/**
 * Posts a scheduled term if it is still due and unposted. Conditional on the schedule read, so of
 * N processes checking at once exactly one changes the row (the others update nothing).
 */
export async function postIfStillDue(db: Db, id: number, scheduledAt: string, datePosted: string): Promise<boolean> {
  const result = await db
    .updateTable('term_reports')
    .set({
      posted: 1,
      date_posted: datePosted,
      scheduled_at: null,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .where('posted', '=', 0)
    .where('scheduled_at', '=', scheduledAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Students with results, per term. */
export async function countStudentsByTerm(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('term_results')
    .select(['year', 'term', (eb) => eb.fn.count<number>('student_id').distinct().as('students')])
    .groupBy(['year', 'term'])
    .execute();
  return new Map(rows.map((row) => [`${row.year}-${row.term}`, Number(row.students)]));
}

export async function countStudentsWithResults(db: Db, year: number, term: number): Promise<number> {
  const row = await db
    .selectFrom('term_results')
    .select((eb) => eb.fn.count<number>('student_id').distinct().as('students'))
    .where('year', '=', year)
    .where('term', '=', term)
    .executeTakeFirstOrThrow();
  return Number(row.students);
}

// ---- the student's list and card ---------------------------------------------------------------

export interface StudentTermRow {
  year: number;
  term: number;
  class_id: string | null;
  form_level: number | null;
  posted: number | null;
  date_posted: string | null;
}

/** The terms a student has results for, newest first, with the class then and the posting state. */
export async function listStudentTerms(db: Db, studentId: string): Promise<StudentTermRow[]> {
  const terms = await db
    .selectFrom('term_results')
    .select(['year', 'term'])
    .where('student_id', '=', studentId)
    .groupBy(['year', 'term'])
    .execute();
  if (terms.length === 0) return [];
  const summaries = await db
    .selectFrom('term_summaries')
    .leftJoin('form_classes', 'form_classes.id', 'term_summaries.class_id')
    .select(['term_summaries.year', 'term_summaries.term', 'term_summaries.class_id', 'form_classes.form_level'])
    .where('term_summaries.student_id', '=', studentId)
    .execute();
  const reports = await listTermReports(db);
  return terms
    .map(({ year, term }) => {
      const summary = summaries.find((s) => s.year === year && s.term === term);
      const report = reports.find((r) => r.year === year && r.term === term);
      return {
        year,
        term,
        class_id: summary?.class_id ?? null,
        form_level: summary?.form_level ?? null,
        posted: report?.posted ?? null,
        date_posted: report?.date_posted ?? null,
      };
    })
    .sort((a, b) => b.year - a.year || b.term - a.term);
}

export interface SubjectResult {
  subject: string;
  coursework: number | null;
  exam: number | null;
  total: number | null;
  grade: string | null;
  comment: string | null;
}

/** The students' results for a term, each with the student's ID, in subject order (any number of students). */
export async function listResultsOfStudents(db: Db, studentIds: readonly string[], year: number, term: number): Promise<(SubjectResult & { student_id: string })[]> {
  const found: (SubjectResult & { student_id: string })[] = [];
  for (const part of chunk([...new Set(studentIds)], MAX_PARAMETERS)) {
    found.push(
      ...(await db
        .selectFrom('term_results')
        .innerJoin('subjects', 'subjects.id', 'term_results.subject_id')
        .select([
          'term_results.student_id',
          'subjects.name as subject',
          'term_results.coursework',
          'term_results.exam',
          'term_results.total',
          'term_results.grade',
          'term_results.comment',
        ])
        .where('term_results.student_id', 'in', part)
        .where('term_results.year', '=', year)
        .where('term_results.term', '=', term)
        .orderBy('subjects.id')
        .execute()),
    );
  }
  return found;
}

/** The students' term summaries (class, standing, remarks) for a term. */
export async function listSummariesOf(db: Db, studentIds: readonly string[], year: number, term: number) {
  const found = [];
  for (const part of chunk([...new Set(studentIds)], MAX_PARAMETERS)) {
    found.push(
      ...(await db
        .selectFrom('term_summaries')
        .select(['student_id', 'class_id', 'form_teacher_remarks', 'principal_remarks', 'average', 'position', 'class_size'])
        .where('student_id', 'in', part)
        .where('year', '=', year)
        .where('term', '=', term)
        .execute()),
    );
  }
  return found;
}

export async function findSummary(db: Db, studentId: string, year: number, term: number) {
  return db
    .selectFrom('term_summaries')
    .select(['class_id', 'form_teacher_remarks', 'principal_remarks', 'average', 'position', 'class_size'])
    .where('student_id', '=', studentId)
    .where('year', '=', year)
    .where('term', '=', term)
    .executeTakeFirst();
}

/** The class average for a term: the mean of its students' averages (rounded by the caller). */
export async function findClassAverage(db: Db, classId: string, year: number, term: number): Promise<number | null> {
  const row = await db
    .selectFrom('term_summaries')
    .select((eb) => eb.fn.avg<number>('average').as('average'))
    .where('class_id', '=', classId)
    .where('year', '=', year)
    .where('term', '=', term)
    .where('average', 'is not', null)
    .executeTakeFirst();
  return row?.average === null || row?.average === undefined ? null : Number(row.average);
}

export async function findAcademicTerm(db: Db, year: number, term: number) {
  return db
    .selectFrom('academic_terms')
    .select(['start_date', 'end_date'])
    .where('year', '=', year)
    .where('term', '=', term)
    .executeTakeFirst();
}

export async function listHolidayDates(db: Db, from: string, to: string): Promise<string[]> {
  const rows = await db.selectFrom('school_holidays').select('date').where('date', '>=', from).where('date', '<=', to).execute();
  return rows.map((row) => row.date);
}

/** The students' attendance records on the given days (with each student's ID); and whether the school recorded any. */
export async function summariseAttendanceOf(db: Db, studentIds: readonly string[], from: string, to: string) {
  const records = [];
  for (const part of chunk([...new Set(studentIds)], MAX_PARAMETERS)) {
    records.push(
      ...(await db
        .selectFrom('attendance_records')
        .select(['student_id', 'date_scanned', 'attendance_am', 'attendance_pm', 'time_in', 'time_out', 'late'])
        .where('student_id', 'in', part)
        .where('date_scanned', '>=', from)
        .where('date_scanned', '<=', to)
        .execute()),
    );
  }
  const anyone =
    records.length > 0
      ? true
      : Boolean(
          await db
            .selectFrom('attendance_records')
            .select('id')
            .where('date_scanned', '>=', from)
            .where('date_scanned', '<=', to)
            .limit(1)
            .executeTakeFirst(),
        );
  return { records, schoolRecorded: anyone };
}

/**
 * The accepted absence notes of these students that cover any day from `from` to `to`: the card
 * says how many absent and late sessions they excuse, derived as the attendance figures derive it
 * (docs/decisions.md D93). The `(student_id, date_from)` index finds them.
 */
export async function listExcusingNotesOf(db: Db, studentIds: readonly string[], from: string, to: string) {
  const notes = [];
  for (const part of chunk([...new Set(studentIds)], MAX_PARAMETERS)) {
    notes.push(
      ...(await db
        .selectFrom('absence_notes')
        .select(['student_id', 'date_from', 'date_to', 'part'])
        .where('student_id', 'in', part)
        .where('state', '=', 'accepted')
        .where('date_from', '<=', to)
        .where('date_to', '>=', from)
        .execute()),
    );
  }
  return notes;
}

// ---- import writes -----------------------------------------------------------------------------

export interface ExistingSummary {
  student_id: string;
  class_id: string | null;
  form_teacher_remarks: string | null;
  principal_remarks: string | null;
}

export async function findSummaries(db: Db, year: number, term: number, studentIds: readonly string[]): Promise<ExistingSummary[]> {
  const found: ExistingSummary[] = [];
  for (const part of chunk([...new Set(studentIds)], MAX_PARAMETERS)) {
    found.push(
      ...(await db
        .selectFrom('term_summaries')
        .select(['student_id', 'class_id', 'form_teacher_remarks', 'principal_remarks'])
        .where('year', '=', year)
        .where('term', '=', term)
        .where('student_id', 'in', part)
        .execute()),
    );
  }
  return found;
}

export interface ResultWrite {
  student_id: string;
  subject_id: number;
  coursework: number;
  exam: number;
  total: number | null;
  grade: string | null;
  comment: string | null;
}

/** Inserts or replaces each (student, term, subject) result. */
export async function upsertResults(db: Db, year: number, term: number, rows: readonly ResultWrite[]): Promise<void> {
  const now = nowIso();
  for (const part of chunk(rows, Math.floor(MAX_PARAMETERS / 11))) {
    await db
      .insertInto('term_results')
      .values(
        part.map((row) => ({
          ...row,
          year,
          term,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['student_id', 'year', 'term', 'subject_id']).doUpdateSet((eb) => ({
          coursework: eb.ref('excluded.coursework'),
          exam: eb.ref('excluded.exam'),
          total: eb.ref('excluded.total'),
          grade: eb.ref('excluded.grade'),
          comment: eb.ref('excluded.comment'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

export interface SummaryWrite {
  student_id: string;
  class_id: string | null;
  form_teacher_remarks: string | null;
  principal_remarks: string | null;
}

/** Inserts or updates each student's summary (class and remarks; averages come after). */
export async function upsertSummaries(db: Db, year: number, term: number, rows: readonly SummaryWrite[]): Promise<void> {
  const now = nowIso();
  for (const part of chunk(rows, Math.floor(MAX_PARAMETERS / 11))) {
    await db
      .insertInto('term_summaries')
      .values(
        part.map((row) => ({
          ...row,
          year,
          term,
          average: null,
          position: null,
          class_size: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['student_id', 'year', 'term']).doUpdateSet((eb) => ({
          class_id: eb.ref('excluded.class_id'),
          form_teacher_remarks: eb.ref('excluded.form_teacher_remarks'),
          principal_remarks: eb.ref('excluded.principal_remarks'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** Every subject total of the given students for a term. */
export async function listTotals(db: Db, year: number, term: number, studentIds: readonly string[]) {
  const found: { student_id: string; total: number | null }[] = [];
  for (const part of chunk([...new Set(studentIds)], MAX_PARAMETERS)) {
    found.push(
      ...(await db
        .selectFrom('term_results')
        .select(['student_id', 'total'])
        .where('year', '=', year)
        .where('term', '=', term)
        .where('student_id', 'in', part)
        .execute()),
    );
  }
  return found;
}

export async function listClassSummaries(db: Db, year: number, term: number, classIds: readonly string[]) {
  if (classIds.length === 0) return [];
  return db
    .selectFrom('term_summaries')
    .select(['student_id', 'class_id', 'average'])
    .where('year', '=', year)
    .where('term', '=', term)
    .where('class_id', 'in', [...classIds])
    .execute();
}

export interface Standing {
  student_id: string;
  average: number | null;
  position: number | null;
  class_size: number | null;
}

/**
 * Writes averages, positions and class sizes: one UPDATE per 200 students with CASE columns (a
 * whole school is ten statements, not two thousand), portable to SQLite and PostgreSQL.
 */
export async function updateStandings(db: Db, year: number, term: number, rows: readonly Standing[]): Promise<void> {
  const now = nowIso();
  for (const part of chunk(rows, 200)) {
    const caseOf = (pick: (row: Standing) => number | null, type: 'real' | 'integer') =>
      sql<number | null>`case ${sql.join(
        part.map((row) => sql`when student_id = ${row.student_id} then cast(${pick(row)} as ${sql.raw(type)})`),
        sql` `,
      )} end`;
    await db
      .updateTable('term_summaries')
      .set({
        average: caseOf((row) => row.average, 'real'),
        position: caseOf((row) => row.position, 'integer'),
        class_size: caseOf((row) => row.class_size, 'integer'),
        updated_at: now,
      })
      .where('year', '=', year)
      .where('term', '=', term)
      .where(
        'student_id',
        'in',
        part.map((row) => row.student_id),
      )
      .execute();
  }
}
