import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { currentEngine } from '../../../tests/support/test-database.js';
import { DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { listSchoolDays } from '../../shared/school-days.js';

/**
 * A class's printouts (docs/decisions.md D83), read back as text: the class list (names, student
 * IDs, sex, by name) and the blank register (names, a column for each school day of the month,
 * holidays left out). Who may print them is the class reports' rule: the form teacher their own
 * class. The SQL is the list's own; the documents are checked on SQLite.
 */

let t: TestApp;
let office: TestClient;
let teacher: TestClient;

describe.runIf(currentEngine() === 'sqlite')('class list and blank register PDFs', () => {
  beforeAll(async () => {
    t = await createTestApp();
    office = await new TestClient(t.app, '10.83.0.1').signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
    teacher = await new TestClient(t.app, '10.83.0.2').signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  const rollOf = (classId: string) =>
    t.database.db.selectFrom('students').select(['id', 'first_name', 'last_name', 'sex']).where('class_id', '=', classId).where('left_on', 'is', null).orderBy('last_name').orderBy('first_name').execute();

  it('the class list names every student of the class on the roll, with ID and sex, by name; a former student is not on it', async () => {
    const roll = await rollOf('5A');
    const [leaver, ...staying] = roll;
    await t.database.db.updateTable('students').set({ left_on: '2026-07-15', left_class: '5A' }).where('id', '=', leaver!.id).execute();
    const response = await teacher.get('/api/class-list/5A?download=1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('attachment; filename="Class List 5A.pdf"');
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.pageSizes[0]).toEqual([612, 792]);
    expect(pdf.text).toContain('Class List');
    expect(pdf.text).toContain('Form 5 5A');
    expect(pdf.text).toContain(`${staying.length} students`);
    const females = staying.filter((s) => s.sex === 'Female').length;
    expect(pdf.text).toContain(`Female ${females} · Male ${staying.length - females}`);
    let at = -1;
    for (const [index, student] of staying.entries()) {
      const line = `${index + 1} ${student.last_name}, ${student.first_name} ${student.id} ${student.sex}`;
      const found = pdf.text.indexOf(line);
      expect(found, line).toBeGreaterThan(at);
      at = found;
    }
    expect(pdf.text).not.toContain(leaver!.id);
  });

  it('the register has a column for each school day of the month, holidays and weekends left out, and an empty row per student', async () => {
    await t.database.db.insertInto('school_holidays').values({ date: '2026-11-04', name: 'Test Day', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }).execute();
    const holidays = (await t.database.db.selectFrom('school_holidays').select('date').where('date', 'like', '2026-11-%').execute()).map((row) => row.date);
    const days = listSchoolDays('2026-11-01', '2026-11-30', holidays);
    expect(days).not.toContain('2026-11-04');
    const response = await office.get('/api/class-register/4b?month=2026-11');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('inline; filename="Register 4B 2026-11.pdf"');
    const pdf = await readPdf(response.rawPayload);
    // Across the page: Letter, landscape.
    expect(pdf.pageSizes[0]).toEqual([792, 612]);
    expect(pdf.text).toContain('Register — November 2026');
    expect(pdf.text).toContain(`Form 4 4B`);
    expect(pdf.text).toContain(`${days.length} school days`);
    // The day headings in order: the day of the month over its weekday's initial.
    const initial = (day: string) => 'SMTWTFS'[new Date(`${day}T12:00:00Z`).getUTCDay()];
    expect(pdf.compact).toContain(`No.Name${days.map((day) => `${Number(day.slice(8))}${initial(day)}`).join('')}`);
    const roll = await rollOf('4B');
    for (const [index, student] of roll.entries()) expect(pdf.text).toContain(`${index + 1} ${student.last_name}, ${student.first_name}`);
    // Nothing but names and numbers in the rows: the register is blank.
    expect(pdf.text).not.toContain(roll[0]!.id);
  });

  it('is refused to a form teacher for another class, to a student, and for a class or month that is not one', async () => {
    expectError(await teacher.get('/api/class-list/4B'), 403, 'forbidden');
    expectError(await teacher.get('/api/class-register/4B?month=2026-11'), 403, 'forbidden');
    const student = await new TestClient(t.app, '10.83.0.3').signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await student.get('/api/class-list/5A'), 403);
    expectError(await office.get('/api/class-list/9Z'), 404);
    expectError(await office.get('/api/class-register/4B?month=2026-13'), 400);
    expectError(await office.get('/api/class-register/4B'), 400);
  });
});
