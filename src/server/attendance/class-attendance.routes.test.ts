import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAbsenceNote } from '../../../tests/support/absence-notes.js';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { readWorkbook } from '../../../tests/support/workbook.js';
import { listName } from '../../shared/students.schemas.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import {
  ClassAttendanceSchema,
  StudentAttendanceSchema,
  classAttendanceUrl,
  type ClassAttendance,
} from '../../shared/attendance.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { addDays } from '../../shared/school-days.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { DEMO_ACADEMIC_TERMS, findDemoAttendanceTerm } from '../db/demo-data/demo-calendar.js';

/**
 * A class's attendance over a date range: who may read it, what bad input
 * gets, figures that agree with each student's own attendance screen, and the PDF and XLSX of the
 * same rows.
 */

const { registered } = DEMO_STUDENTS;

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.8.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
});
afterAll(async () => {
  await t.close();
});

const today = schoolToday();
const demoTerm = findDemoAttendanceTerm(today)!;
const countedUntil = today < demoTerm.end_date ? today : demoTerm.end_date;
const term = { class_id: '5A', from: demoTerm.start_date, to: countedUntil };

function expectError(response: { statusCode: number; json(): unknown }, status: number) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  return ApiErrorSchema.parse(response.json());
}

async function classAttendance(query: { class_id: string; from?: string; to?: string } = term): Promise<ClassAttendance> {
  const response = await admin.get(classAttendanceUrl(query));
  expect(response.statusCode, response.body).toBe(200);
  return ClassAttendanceSchema.parse(response.json());
}

describe('who may read a class', () => {
  it('refuses a visitor (401) and a student, even of that class (403), for the screen, the PDF and the XLSX', async () => {
    const student = await client().signInStudent(registered.student_id, registered.password);
    for (const file of [undefined, 'pdf', 'xlsx'] as const) {
      expectError(await client().get(classAttendanceUrl(term, file)), 401);
      expectError(await student.get(classAttendanceUrl(term, file)), 403);
    }
  });
});

describe('bad input', () => {
  it('names the field and the problem, and a class the school does not have is a 404', async () => {
    const cases: [string, string, string][] = [
      [`/api/class-attendance?from=${term.from}&to=${term.to}`, 'class_id', 'Choose a class.'],
      [`/api/class-attendance?class_id=5A;DROP&from=${term.from}&to=${term.to}`, 'class_id', 'Name a form class such as 3B.'],
      [`/api/class-attendance?class_id=5A&to=${term.to}`, 'from', 'Choose a start date.'],
      [`/api/class-attendance?class_id=5A&from=2026-02-30&to=${term.to}`, 'from', 'Enter a date as yyyy-MM-dd.'],
      [`/api/class-attendance?class_id=5A&from=${term.from}&to=${addDays(today, 1)}`, 'to', 'The end date cannot be in the future.'],
      [`/api/class-attendance?class_id=5A&from=${term.to}&to=${addDays(term.to, -1)}`, 'to', 'The end date cannot be before the start date.'],
      [`/api/class-attendance?class_id=5A&from=${addDays(today, -500)}&to=${today}`, 'to', 'A report covers at most 400 days.'],
    ];
    for (const [url, field, message] of cases) {
      for (const path of [url, url.replace('/api/class-attendance?', '/api/class-attendance/pdf?'), url.replace('/api/class-attendance?', '/api/class-attendance/xlsx?')]) {
        const body = expectError(await admin.get(path), 400);
        expect(body.errors?.[field], `${path}: ${JSON.stringify(body)}`).toContain(message);
      }
    }
    const missing = expectError(await admin.get(classAttendanceUrl({ ...term, class_id: '9Z' })), 404);
    expect(missing.message).toBe('The school has no form class 9Z.');
  });
});

describe('the figures', () => {
  it("lists every student now in the class, each with the figures of the student's own attendance screen", async () => {
    const body = await classAttendance();
    const members = await t.database.db.selectFrom('students').select(['id']).where('class_id', '=', '5A').execute();
    expect(body.students.map((row) => row.id).sort()).toEqual(members.map((row) => row.id).sort());
    expect(body).toMatchObject({ class_id: '5A', class_name: 'Form 5 5A', from: term.from, to: term.to, recorded: true });
    // Names in list order.
    const names = body.students.map((row) => listName(row));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));

    // The term so far is exactly what each student's own screen shows for the current term.
    for (const row of body.students.slice(0, 5)) {
      const own = StudentAttendanceSchema.parse((await admin.get(`/api/student-attendance/${row.id}`)).json());
      expect(body.possible).toBe(own.possible_attendance);
      expect(body.school_days).toBe(own.school_days.length);
      expect(row.present, row.id).toBe(own.attendance);
      expect(row.lates, row.id).toBe(own.lates);
      expect(row.absent, row.id).toBe(own.possible_attendance - own.attendance);
    }
    expect(body.totals.present).toBe(body.students.reduce((sum, row) => sum + row.present, 0));
    expect(body.totals.absent).toBe(body.students.reduce((sum, row) => sum + row.absent, 0));
    expect(body.students.some((row) => row.absent > 0)).toBe(true);
  });

  it('without dates, answers the current term so far', async () => {
    const body = await classAttendance({ class_id: '5A' });
    expect(body).toMatchObject({ from: term.from, to: term.to });
    expect(body.students).toEqual((await classAttendance()).students);
  });

  it('a shorter range counts only its days', async () => {
    const week = { ...term, to: addDays(term.from, 6) };
    const body = await classAttendance(week);
    const row = body.students.find((student) => student.id === registered.student_id)!;
    const records = await t.database.db
      .selectFrom('attendance_records')
      .select(['date_scanned'])
      .where('student_id', '=', registered.student_id)
      .where('date_scanned', '>=', week.from)
      .where('date_scanned', '<=', week.to)
      .execute();
    expect(body.possible).toBe(2 * body.school_days);
    expect(body.school_days).toBeLessThanOrEqual(5);
    expect(row.present).toBeLessThanOrEqual(2 * records.length);
  });

  it('a range the school recorded nothing in says so, with no one absent', async () => {
    const past = DEMO_ACADEMIC_TERMS.find((candidate) => candidate.end_date < demoTerm.start_date)!;
    const body = await classAttendance({ class_id: '5A', from: past.start_date, to: past.end_date });
    expect(body.recorded).toBe(false);
    expect(body.possible).toBe(0);
    expect(body.students.every((row) => row.present === 0 && row.absent === 0 && row.attendance_percent === 0)).toBe(true);
    const pdf = await readPdf((await admin.get(classAttendanceUrl({ class_id: '5A', from: past.start_date, to: past.end_date }, 'pdf'))).rawPayload);
    expect(pdf.text).toContain('No attendance was recorded for this range.');
  });
});

describe('the PDF and the spreadsheet', () => {
  it('the PDF is a download with every student, the figures and the class totals; the export is audited', async () => {
    const body = await classAttendance();
    const response = await admin.get(classAttendanceUrl(term, 'pdf'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Class Attendance 5A ${term.from} to ${term.to}.pdf"`);
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.text).toContain('Class Attendance');
    expect(pdf.text).toContain(`Form 5 5A · ${term.from} to ${term.to}`);
    const squashed = pdf.compact;
    for (const row of body.students) {
      expect(squashed).toContain(row.id);
      expect(squashed).toContain(`${row.attendance_percent}%`);
    }
    const { totals } = body;
    expect(squashed).toContain(
      `Classtotal${body.students.length}students${totals.present}${totals.absent}${totals.absent_excused}${totals.absent_unexcused}${totals.lates}${totals.lates_excused}${totals.attendance_percent}%`,
    );
    // Ten columns: Letter across (landscape).
    expect(pdf.pageSizes[0]).toEqual([792, 612]);
    expect(squashed).toContain('Sessionsabsent(excused)Sessionsabsent(unexcused)Dayslate');
    // Every page that holds the class's rows names the class (the heading repeats).
    for (const page of pdf.pageTexts) expect(page).toContain('Form 5 5A');

    const audit = await t.database.db.selectFrom('audit_log').select('new_value').where('action', '=', 'export').execute();
    expect(audit.map((row) => row.new_value)).toContain(`Class Attendance PDF (Form 5 5A · ${term.from} to ${term.to})`);
  });

  it('the spreadsheet has the same rows, numbers as numbers', async () => {
    const body = await classAttendance();
    const response = await admin.get(classAttendanceUrl(term, 'xlsx'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(`Class Attendance 5A ${term.from} to ${term.to}.xlsx`);
    const { headers, rows, rowOf } = await readWorkbook(response.rawPayload);
    expect(headers).toEqual([
      'Student ID',
      'Last Name',
      'First Name',
      'Present (sessions)',
      'Absent (sessions)',
      'Sessions absent (excused)',
      'Sessions absent (unexcused)',
      'Days late',
      'Days late (excused)',
      'Attendance %',
      'Punctuality %',
    ]);
    expect(rows).toHaveLength(body.students.length);
    const first = body.students[0]!;
    const cell = rowOf(first.id);
    expect(cell('Present (sessions)')).toBe(first.present);
    expect(cell('Absent (sessions)')).toBe(first.absent);
    expect(cell('Attendance %')).toBe(first.attendance_percent);
    expect(cell('Last Name')).toBe(first.last_name);
  });
});

describe('what accepted absence notes excuse (D93)', () => {
  it("splits a student's absent sessions and late days on the screen's answer, the PDF and the spreadsheet, and in the totals", async () => {
    const before = await classAttendance();
    const db = t.database.db;
    const own = StudentAttendanceSchema.parse((await admin.get(`/api/student-attendance/${registered.student_id}`)).json());
    // A day at school made a day absent, and another made late: each covered by an accepted whole-day note.
    const [absentDay, lateDay] = own.attendance_records.filter((record) => own.school_days.includes(record.date_scanned) && record.late === 0).map((record) => record.date_scanned);
    await db.deleteFrom('attendance_records').where('student_id', '=', registered.student_id).where('date_scanned', '=', absentDay!).execute();
    await db.updateTable('attendance_records').set({ late: 1 }).where('student_id', '=', registered.student_id).where('date_scanned', '=', lateDay!).execute();
    for (const date of [absentDay!, lateDay!]) await insertAbsenceNote(db, { studentId: registered.student_id, date, state: 'accepted' });
    // A note still waiting excuses nothing.
    const waitingDay = own.school_days.find((day) => day !== absentDay && day !== lateDay && !own.attendance_records.some((record) => record.date_scanned === day));

    const body = await classAttendance();
    const was = before.students.find((row) => row.id === registered.student_id)!;
    const row = body.students.find((student) => student.id === registered.student_id)!;
    expect(row).toMatchObject({
      absent: was.absent + 2,
      absent_excused: was.absent_excused + 2,
      absent_unexcused: was.absent_unexcused,
      lates: was.lates + 1,
      lates_excused: was.lates_excused + 1,
    });
    // The student's own screen counts the same.
    const now = StudentAttendanceSchema.parse((await admin.get(`/api/student-attendance/${registered.student_id}`)).json());
    expect([now.absent_excused, now.absent_unexcused, now.lates_excused]).toEqual([row.absent_excused, row.absent_unexcused, row.lates_excused]);
    expect(body.totals).toMatchObject({
      absent_excused: body.students.reduce((sum, student) => sum + student.absent_excused, 0),
      absent_unexcused: body.students.reduce((sum, student) => sum + student.absent_unexcused, 0),
      lates_excused: body.students.reduce((sum, student) => sum + student.lates_excused, 0),
    });
    expect(body.totals.absent_excused).toBeGreaterThanOrEqual(2);
    if (waitingDay) await insertAbsenceNote(db, { studentId: registered.student_id, date: waitingDay });
    expect((await classAttendance()).students.find((student) => student.id === registered.student_id)!.absent_excused).toBe(row.absent_excused);

    const pdf = await readPdf((await admin.get(classAttendanceUrl(term, 'pdf'))).rawPayload);
    expect(pdf.compact).toContain(
      `${row.id}${listName(row).replace(/\s+/g, '')}${row.present}${row.absent}${row.absent_excused}${row.absent_unexcused}${row.lates}${row.lates_excused}${row.attendance_percent}%`,
    );
    expect(pdf.compact).toContain(
      `Classtotal${body.students.length}students${body.totals.present}${body.totals.absent}${body.totals.absent_excused}${body.totals.absent_unexcused}${body.totals.lates}${body.totals.lates_excused}`,
    );

    const { rowOf } = await readWorkbook((await admin.get(classAttendanceUrl(term, 'xlsx'))).rawPayload);
    const cell = rowOf(row.id);
    expect(cell('Absent (sessions)')).toBe(row.absent);
    expect(cell('Sessions absent (excused)')).toBe(row.absent_excused);
    expect(cell('Sessions absent (unexcused)')).toBe(row.absent_unexcused);
    expect(cell('Days late (excused)')).toBe(row.lates_excused);
  });
});
