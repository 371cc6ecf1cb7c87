import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAbsenceNote } from '../../../tests/support/absence-notes.js';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { StudentAttendanceSchema, type StudentAttendance } from '../../shared/attendance.schemas.js';
import { ATTENDANCE_WORDS, attendanceFigures, attendanceLines, attendancePercent, punctualityPercent } from '../../shared/attendance.stats.js';
import { schoolToday } from '../../shared/dates.js';
import { addDays } from '../../shared/school-days.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { DEMO_ACADEMIC_TERMS, DEMO_SCHOOL_HOLIDAYS, findDemoAttendanceTerm } from '../db/demo-data/demo-calendar.js';

/**
 * GET /api/student-attendance/{userID} and the attendance report PDF (docs/requirements.md R10, R5, R15) against
 * the demo school: the permission matrix, the response's shape and figures for a known student,
 * and the report's bad ranges.
 */

const { registered, inProgress } = DEMO_STUDENTS;

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.6.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let student: TestClient;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  student = await client().signInStudent(registered.student_id, registered.password);
  admin = await client().signInAdmin();
});
afterAll(async () => {
  await t.close();
});

function expectError(response: { statusCode: number; json(): unknown }, status: number, code?: string) {
  expect(response.statusCode).toBe(status);
  const body = ApiErrorSchema.parse(response.json());
  if (code) expect(body.code).toBe(code);
  return body;
}

/** Weekdays of the range that are not demo holidays, counted without the code under test. */
function expectedSchoolDays(from: string, to: string): number {
  const holidays = new Set(DEMO_SCHOOL_HOLIDAYS.map((h) => h.date));
  let count = 0;
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += 86_400_000) {
    const date = new Date(ms);
    const iso = date.toISOString().slice(0, 10);
    if (date.getUTCDay() !== 0 && date.getUTCDay() !== 6 && !holidays.has(iso)) count++;
  }
  return count;
}

const today = schoolToday();
const demoTerm = findDemoAttendanceTerm(today)!;
const countedUntil = today < demoTerm.end_date ? today : demoTerm.end_date;

describe('GET /api/student-attendance/{userID}', () => {
  it('refuses a visitor (401) and another student (403)', async () => {
    expectError(await client().get(`/api/student-attendance/${registered.student_id}`), 401, 'unauthenticated');
    const other = await client().signInStudent(inProgress.student_id, inProgress.password);
    expectError(await other.get(`/api/student-attendance/${registered.student_id}`), 403, 'forbidden');
  });

  it("answers the attendance shape and this term's figures for the demo student", async () => {
    const response = await student.get(`/api/student-attendance/${registered.student_id}`);
    expect(response.statusCode).toBe(200);
    const body: StudentAttendance = StudentAttendanceSchema.parse(response.json());
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(['class_id', 'term', 'possible_attendance', 'attendance', 'lates', 'attendance_records']),
    );
    expect(body).toMatchObject({
      class_id: '5A',
      form_level: 5,
      term: String(demoTerm.term),
      year: demoTerm.year,
      start_date: demoTerm.start_date,
      end_date: demoTerm.end_date,
      counted_until: countedUntil,
      student: { id: registered.student_id, first_name: registered.first_name, last_name: registered.last_name },
    });

    // Possible: two sessions per school day of the term so far.
    expect(body.possible_attendance).toBe(2 * expectedSchoolDays(demoTerm.start_date, countedUntil));

    // Attendance and lates: what the stored rows say (a time in without a time out counts twice).
    const rows = await t.database.db
      .selectFrom('attendance_records')
      .selectAll()
      .where('student_id', '=', registered.student_id)
      .where('date_scanned', '>=', demoTerm.start_date)
      .where('date_scanned', '<=', countedUntil)
      .orderBy('date_scanned')
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    const present = rows.reduce((sum, row) => sum + (row.time_in && !row.time_out ? 2 : row.attendance_am + row.attendance_pm), 0);
    expect(body.attendance).toBe(present);
    expect(body.lates).toBe(rows.filter((row) => row.late === 1).length);
    expect(body.attendance).toBeLessThanOrEqual(body.possible_attendance);

    expect(body.attendance_records.map((r) => r.date_scanned)).toEqual(rows.map((row) => row.date_scanned));
    const first = body.attendance_records[0]!;
    expect(first).toEqual({
      date_scanned: rows[0]!.date_scanned,
      attendance_am: rows[0]!.attendance_am,
      attendance_pm: rows[0]!.attendance_pm,
      time_in: rows[0]!.time_in,
      time_out: rows[0]!.time_out,
      late: rows[0]!.late,
      time_scanned_in: rows[0]!.time_scanned_in,
      time_scanned_out: rows[0]!.time_scanned_out,
    });
    expect(first.time_in).toMatch(/^\d{2}:\d{2}$/);
    expect(first.time_scanned_in).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body.terms[0]).toEqual({ year: demoTerm.year, term: demoTerm.term, start_date: demoTerm.start_date, end_date: demoTerm.end_date });
  });

  it('lets an administrator read any student, and answers 404 for no such student', async () => {
    const response = await admin.get(`/api/student-attendance/${inProgress.student_id}`);
    expect(response.statusCode).toBe(200);
    expect(StudentAttendanceSchema.parse(response.json())).toMatchObject({ class_id: '1A', form_level: 1 });
    expectError(await admin.get('/api/student-attendance/19990001'), 404, 'not_found');
  });

  it('answers an earlier term the school kept no attendance for as not recorded, with the class of that term', async () => {
    const past = DEMO_ACADEMIC_TERMS.find((term) => term.end_date < demoTerm.start_date)!;
    const response = await student.get(`/api/student-attendance/${registered.student_id}?year=${past.year}&term=${past.term}`);
    expect(response.statusCode).toBe(200);
    const body = StudentAttendanceSchema.parse(response.json());
    // Nothing absent, no zeros of a register that was never kept; the class its report card names.
    const summary = await t.database.db
      .selectFrom('term_summaries')
      .innerJoin('form_classes', 'form_classes.id', 'term_summaries.class_id')
      .select(['class_id', 'form_level'])
      .where('student_id', '=', registered.student_id)
      .where('year', '=', past.year)
      .where('term', '=', past.term)
      .executeTakeFirstOrThrow();
    expect(summary.class_id).not.toBe('5A');
    expect(body).toMatchObject({
      term: String(past.term),
      year: past.year,
      class_id: summary.class_id,
      form_level: summary.form_level,
      recorded: false,
      possible_attendance: 0,
      attendance: 0,
      lates: 0,
      attendance_records: [],
    });
    expect(body.school_days).toHaveLength(expectedSchoolDays(past.start_date, past.end_date));

    // A form 1 student has no report of an earlier term: the class then is not recorded, not today's.
    const first = StudentAttendanceSchema.parse(
      (await admin.get(`/api/student-attendance/${inProgress.student_id}?year=${past.year}&term=${past.term}`)).json(),
    );
    expect(first.class_id).toBeNull();
    expect(first.form_level).toBeNull();
    expect(first.recorded).toBe(false);
  });

  it("lists every school day of the term so far, so a day without a record reads as a day absent", async () => {
    const body = StudentAttendanceSchema.parse((await student.get(`/api/student-attendance/${registered.student_id}`)).json());
    expect(body.recorded).toBe(true);
    expect(body.school_days).toHaveLength(expectedSchoolDays(demoTerm.start_date, countedUntil));
    expect(body.school_days[0]! >= demoTerm.start_date).toBe(true);
    expect(body.school_days.at(-1)! <= countedUntil).toBe(true);
    expect(body.possible_attendance).toBe(2 * body.school_days.length);
  });

  it('refuses a half-given or impossible term (400) and a term the school does not have (404)', async () => {
    const url = `/api/student-attendance/${registered.student_id}`;
    expectError(await student.get(`${url}?year=2026`), 400, 'validation_failed');
    expectError(await student.get(`${url}?year=2026&term=4`), 400, 'validation_failed');
    expectError(await student.get(`${url}?year=abc&term=1`), 400, 'validation_failed');
    expectError(await student.get(`${url}?year=2031&term=1`), 404, 'not_found');
  });
});

describe('GET /api/student-attendance-report/{studentId}/{startDate}/{endDate}', () => {
  const reportUrl = (id: string, from: string, to: string) => `/api/student-attendance-report/${id}/${from}/${to}`;

  it('refuses a visitor (401) and another student (403)', async () => {
    expectError(await client().get(reportUrl(registered.student_id, demoTerm.start_date, countedUntil)), 401);
    const other = await client().signInStudent(inProgress.student_id, inProgress.password);
    expectError(await other.get(reportUrl(registered.student_id, demoTerm.start_date, countedUntil)), 403, 'forbidden');
  });

  it('refuses bad, reversed, future and over-long ranges with 400', async () => {
    const id = registered.student_id;
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expectError(await student.get(reportUrl(id, '2026-13-01', countedUntil)), 400, 'validation_failed');
    expectError(await student.get(reportUrl(id, 'yesterday', countedUntil)), 400, 'validation_failed');
    expectError(await student.get(reportUrl(id, '2026-02-30', countedUntil)), 400, 'validation_failed');
    const reversed = expectError(await student.get(reportUrl(id, countedUntil, demoTerm.start_date)), 400, 'validation_failed');
    expect(reversed.errors?.endDate).toEqual(['The end date cannot be before the start date.']);
    const future = expectError(await student.get(reportUrl(id, demoTerm.start_date, tomorrow)), 400, 'validation_failed');
    expect(future.errors?.endDate).toEqual(['The end date cannot be in the future.']);
    expectError(await student.get(reportUrl(id, '2024-01-01', countedUntil)), 400, 'validation_failed');
  });

  it("prints the student's range with the daily table, totals and both percentages", async () => {
    const json = StudentAttendanceSchema.parse((await student.get(`/api/student-attendance/${registered.student_id}`)).json());
    const response = await student.get(reportUrl(registered.student_id, demoTerm.start_date, countedUntil));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('inline');
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.pageSizes[0]).toEqual([612, 792]);
    for (const text of [
      'Attendance Report',
      `${registered.last_name}, ${registered.first_name}`,
      registered.student_id,
      '5A',
      `${demoTerm.start_date} to ${countedUntil}`,
      'Date AM PM Late Time In Time Out',
      json.attendance_records[0]!.date_scanned,
    ]) {
      expect(pdf.compact).toContain(text.replace(/\s+/g, ''));
    }
    // The totals in the screen's words, counted by the shared definition from the screen's own answer (D76).
    const figures = attendanceFigures(json.school_days, json.attendance_records, json.recorded);
    expect(figures.sessionsPresent).toBe(json.attendance);
    expect(figures.possibleSessions).toBe(json.possible_attendance);
    expect(figures.daysLate).toBe(json.lates);
    for (const line of attendanceLines(figures)) expect(pdf.compact).toContain(`${line.label}${line.value}`.replace(/\s+/g, ''));
    expect(pdf.compact).toContain(`Sessionspresent${json.attendance}of${json.possible_attendance}(twoaday)`);
    expect(pdf.compact).toContain(`Attendance${attendancePercent(json.attendance, json.possible_attendance)}%ofsessions`);
    expect(pdf.compact).toContain(`Punctuality${punctualityPercent(figures.daysAtSchool, json.lates)}%ofdaysatschoolontime`);
    expect(pdf.compact).toContain(ATTENDANCE_WORDS.explained.replace(/\s+/g, ''));
    expect(pdf.compact).not.toContain('Early');
    expect(pdf.compact).not.toContain('Possiblesessions');
  });

  it('says nothing was recorded for a range without records, instead of listing every day absent', async () => {
    const past = DEMO_ACADEMIC_TERMS.find((term) => term.end_date < demoTerm.start_date && term.end_date >= addDays(today, -390))!;
    const from = addDays(past.end_date, -20);
    const response = await student.get(reportUrl(registered.student_id, from, past.end_date));
    expect(response.statusCode).toBe(200);
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.compact).toContain('Noattendancewasrecordedforthisrange.');
    expect(pdf.compact).not.toContain('Absent');
    expect(pdf.compact).not.toContain('Possiblesessions');
    expect(pdf.compact).not.toContain('Class5A'); // the class of that term, from its report
    expect(pdf.compact).toMatch(/Class4[A-D]/);
  });

  it('lets an administrator print any student, and answers 404 for no such student', async () => {
    const response = await admin.get(reportUrl(inProgress.student_id, countedUntil, countedUntil));
    expect(response.statusCode).toBe(200);
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.compact).toContain(`${inProgress.last_name},${inProgress.first_name}`);
    expectError(await admin.get(reportUrl('19990001', countedUntil, countedUntil)), 404, 'not_found');
  });
});

describe('what accepted absence notes excuse (D93), in the answer and the report', () => {
  it('prints an excused absence and late arrival as excused, and the totals split absent and late', async () => {
    const before = StudentAttendanceSchema.parse((await student.get(`/api/student-attendance/${registered.student_id}`)).json());
    const db = t.database.db;
    // A day at school made a day absent (no record), and a day at school made late: each covered by an accepted whole-day note.
    const [absentDay, lateDay] = before.attendance_records.filter((record) => before.school_days.includes(record.date_scanned) && record.late === 0).map((record) => record.date_scanned);
    await db.deleteFrom('attendance_records').where('student_id', '=', registered.student_id).where('date_scanned', '=', absentDay!).execute();
    await db.updateTable('attendance_records').set({ late: 1 }).where('student_id', '=', registered.student_id).where('date_scanned', '=', lateDay!).execute();
    for (const date of [absentDay!, lateDay!]) await insertAbsenceNote(db, { studentId: registered.student_id, date, state: 'accepted' });

    const json = StudentAttendanceSchema.parse((await student.get(`/api/student-attendance/${registered.student_id}`)).json());
    expect(json.absent_excused).toBe(before.absent_excused + 2);
    expect(json.absent_unexcused).toBe(before.absent_unexcused);
    expect(json.lates_excused).toBe(before.lates_excused + 1);

    const pdf = await readPdf((await student.get(`/api/student-attendance-report/${registered.student_id}/${demoTerm.start_date}/${countedUntil}`)).rawPayload);
    expect(pdf.compact).toMatch(new RegExp(`${absentDay}[A-Za-z]{3}Absent\\(excused\\)Absent\\(excused\\)--`));
    expect(pdf.compact).toMatch(new RegExp(`${lateDay}[A-Za-z]{3}PresentPresentY\\(excused\\)`));
    const lates = (n: number) => `${n}${n === 1 ? 'day' : 'days'}`;
    expect(pdf.compact).toContain(`Sessionsabsent${json.possible_attendance - json.attendance}`);
    expect(pdf.compact).toContain(`Sessionsabsent(excused)${json.absent_excused}`);
    expect(pdf.compact).toContain(`Sessionsabsent(unexcused)${json.absent_unexcused}`);
    expect(pdf.compact).toContain(`Late(excused)${lates(json.lates_excused)}`);
  });
});
