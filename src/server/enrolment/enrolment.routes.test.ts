import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { readWorkbook } from '../../../tests/support/workbook.js';
import { AdminStudentListSchema } from '../../shared/students.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { EnrolmentChangeAnswerSchema, EnrolmentSchema, type Enrolment } from '../../shared/enrolment.schemas.js';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STAFF_PASSWORD, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { nowIso } from '../db/database.js';
import { finaliseIntake } from '../intake/intake.service.js';
import { getRolloverState, runRollover, undoRollover } from '../rollover/rollover.service.js';

/**
 * Enrolment history, Withdraw and Readmit through the API (D80), on both engines: who may read and
 * change it; a withdrawal makes a former student exactly as a rollover's leaver (out of the list,
 * read-only, in the export with the exit); every refusal is a 4xx naming the problem and changes
 * nothing; a readmission puts the student back in a class; the intake, Add Student and the year
 * rollover (and its undo) write their entries and exits.
 */

let t: TestApp;
let ip = 0;
const client = () => new TestClient(t.app, `10.21.${Math.floor(++ip / 250)}.${ip % 250}`);
let admin: TestClient;
let office: TestClient;
let principal: TestClient;
let teacher5A: TestClient;
let teacher1A: TestClient;
let student: TestClient;
let parent: TestClient;
const leaver = DEMO_STUDENTS.registered.student_id; // in 5A, the demo family's child
const ACTOR = { actor_user_id: null, actor_label: 'test', ip: null, request_id: null };
const today = schoolToday();
const db = () => t.database.db;

/** A school day `days` away from today (negative: earlier). */
function dayFrom(days: number): string {
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A date cell as the day it shows. */
const dayOf = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : value);

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
  office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
  principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
  teacher5A = await client().signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
  teacher1A = await client().signInAdmin('teacher.1a', DEMO_STAFF_PASSWORD);
  student = await client().signInStudent(leaver, DEMO_STUDENTS.registered.password);
  parent = client();
  expect((await parent.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
});
afterAll(() => t.close());

async function enrolmentOf(c: TestClient, id: string): Promise<Enrolment> {
  const response = await c.get(`/api/enrolment/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return EnrolmentSchema.parse(response.json());
}

/** What a refusal must leave as it was: the student's row and their history. */
async function stateOf(id: string) {
  const [row, events] = await Promise.all([
    db().selectFrom('students').select(['class_id', 'left_on', 'left_class', 'updated_at']).where('id', '=', id).executeTakeFirst(),
    db().selectFrom('enrolment_events').selectAll().where('student_id', '=', id).orderBy('id').execute(),
  ]);
  return { row, events };
}

/** A student on the roll in a class, made for one test. */
async function newStudent(id: string, classId: string): Promise<string> {
  const iso = nowIso();
  await db().insertInto('students').values({ id, class_id: classId, first_name: 'Test', last_name: 'Student', created_at: iso, updated_at: iso }).execute();
  await db().insertInto('enrolment_events').values({ student_id: id, kind: 'entry', happened_on: dayFrom(-30), reason: 'transfer_in', class_id: classId, created_at: iso, updated_at: iso }).execute();
  return id;
}

describe('who may read and change a student’s enrolment', () => {
  it('staff read it (a form teacher their classes only); students and parents do not; only the office and administrators change it', async () => {
    expectError(await client().get(`/api/enrolment/${leaver}`), 401, 'unauthenticated');
    for (const c of [student, parent, teacher1A]) expectError(await c.get(`/api/enrolment/${leaver}`), 403, 'forbidden');
    for (const c of [teacher5A, principal, office, admin]) expect((await enrolmentOf(c, leaver)).student_id).toBe(leaver);
    const before = await stateOf(leaver);
    for (const c of [student, parent, teacher5A, principal]) {
      expectError(await c.post(`/api/enrolment/${leaver}/withdraw`, { date: today, reason: 'withdrawn' }), 403, 'forbidden');
      expectError(await c.post(`/api/enrolment/${leaver}/readmit`, { date: today, class_id: '5A' }), 403, 'forbidden');
    }
    expect(await stateOf(leaver)).toEqual(before);
    expectError(await office.get('/api/enrolment/20999999'), 404, 'not_found');
  });

  it('a demo student’s history is their Form 1 intake', async () => {
    const enrolment = await enrolmentOf(office, leaver);
    expect(enrolment).toMatchObject({ on_roll: true, class_id: '5A', left_on: null });
    expect(enrolment.events.map(({ id: _id, ...event }) => event)).toEqual([{ kind: 'entry', on: '2022-09-01', reason: 'form1_intake', class_id: '1A', other_school: null, note: null }]);
    expect(enrolment.window.latest).toBe(today);
  });
});

describe('withdraw', () => {
  it('refuses a date out of range, a transfer without the school, "other" without a note, and bad input, changing nothing', async () => {
    const id = await newStudent('20990101', '3B');
    const before = await stateOf(id);
    const { window } = await enrolmentOf(office, id);
    const cases: [unknown, string][] = [
      [{ date: dayFrom(1), reason: 'withdrawn' }, 'date'],
      [{ date: dayFrom(-31), reason: 'withdrawn' }, 'date'],
      [{ date: '2020-01-01', reason: 'withdrawn' }, 'date'],
      [{ date: '31/12/2026', reason: 'withdrawn' }, 'date'],
      [{ date: today, reason: 'transferred' }, 'other_school'],
      [{ date: today, reason: 'transferred', other_school: '   ' }, 'other_school'],
      [{ date: today, reason: 'other' }, 'note'],
      [{ date: today, reason: 'graduated' }, 'reason'],
      [{ date: today, reason: 'withdrawn', note: 'Moved\u202Eaway' }, 'note'],
      [{ date: today, reason: 'transferred', other_school: 'x'.repeat(101) }, 'other_school'],
    ];
    for (const [body, field] of cases) {
      const refused = expectError(await office.post(`/api/enrolment/${id}/withdraw`, body), 400);
      expect(Object.keys(refused.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect(window.earliest >= dayFrom(-30)).toBe(true);
    expect(await stateOf(id)).toEqual(before);
    expectError(await office.post('/api/enrolment/20999999/withdraw', { date: today, reason: 'withdrawn' }), 404, 'not_found');
  });

  it('makes the student a former student: out of the list, read-only, still signing in, with the exit in the history, the export and the audit', async () => {
    const response = await office.post(`/api/enrolment/${leaver}/withdraw`, { date: today, reason: 'transferred', other_school: 'Queen’s Royal College' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = EnrolmentChangeAnswerSchema.parse(response.json());
    expect(answer.enrolment).toMatchObject({ on_roll: false, class_id: null, left_on: today, left_class: '5A' });
    expect(answer.enrolment.events.at(-1)).toMatchObject({ kind: 'exit', on: today, reason: 'transferred', class_id: '5A', other_school: 'Queen’s Royal College' });
    expect(await db().selectFrom('students').select(['class_id', 'left_on', 'left_class']).where('id', '=', leaver).executeTakeFirstOrThrow()).toEqual({ class_id: null, left_on: today, left_class: '5A' });

    // Out of the list, in it with former students; the form teacher of 5A no longer reaches them (D60).
    expect(AdminStudentListSchema.parse((await office.get('/api/students')).json()).some((s) => s.id === leaver)).toBe(false);
    expect(AdminStudentListSchema.parse((await office.get('/api/students?former=include')).json()).find((s) => s.id === leaver)).toMatchObject({ left_on: today, left_class: '5A' });
    expectError(await teacher5A.get(`/api/enrolment/${leaver}`), 403, 'forbidden');

    // Read-only like a rollover's leaver; they still sign in, as former students do, and read their record.
    expectError(await office.post('/api/student', { id: leaver, first_name: 'Changed' }), 422, 'former_student');
    expectError(await office.post('/api/reset-password-student', { student_id: leaver }), 422, 'former_student');
    const again = await client().signInStudent(leaver, DEMO_STUDENTS.registered.password);
    expect((await again.get(`/api/student-record/${leaver}`)).statusCode).toBe(200);
    expectError(await again.post('/api/student', { id: leaver, home_address: '1 New Road' }), 422, 'former_student');

    const audit = await db().selectFrom('audit_log').select(['action', 'field', 'old_value', 'new_value', 'actor_label']).where('entity_id', '=', leaver).where('action', '=', 'withdraw').orderBy('id').execute();
    expect(audit).toEqual([
      { action: 'withdraw', field: 'left_on', old_value: null, new_value: today, actor_label: 'admin:office' },
      { action: 'withdraw', field: 'class_id', old_value: '5A', new_value: null, actor_label: 'admin:office' },
    ]);

    const cell = (await readWorkbook((await office.get('/api/registration-data-spreadsheet?former=include')).rawPayload)).rowOf(leaver);
    expect(dayOf(cell('Entry Date'))).toBe('2022-09-01');
    expect(cell('Entry Reason')).toBe('Form 1 intake');
    expect(dayOf(cell('Exit Date'))).toBe(today);
    expect(cell('Exit Reason')).toBe('Transferred to another school: Queen’s Royal College');
  });

  it('refuses a student who is not on the roll (a second withdrawal, a double click): 409, nothing changed', async () => {
    const before = await stateOf(leaver);
    const refused = expectError(await office.post(`/api/enrolment/${leaver}/withdraw`, { date: today, reason: 'withdrawn' }), 409, 'conflict');
    expect(refused.message).toMatch(/not on the roll/);
    expect(await stateOf(leaver)).toEqual(before);
  });
});

describe('readmit', () => {
  it('refuses a student on the roll, an unknown class, a class of another form and a date out of range, changing nothing', async () => {
    const onRoll = DEMO_STUDENTS.inProgress.student_id;
    const before = await stateOf(onRoll);
    expect(expectError(await office.post(`/api/enrolment/${onRoll}/readmit`, { date: today, class_id: '1A' }), 409, 'conflict').message).toMatch(/on the roll/);
    expect(await stateOf(onRoll)).toEqual(before);

    const former = await stateOf(leaver);
    const refusals: [unknown, string, RegExp][] = [
      [{ date: today, class_id: '9Z' }, 'class_id', /no class 9Z/],
      [{ date: today, class_id: '3A' }, 'class_id', /left from 5A: choose a class of Form 5 or Form 6/],
      [{ date: dayFrom(1), class_id: '5B' }, 'date', /Choose a date|can only be/],
      [{ date: dayFrom(-1), class_id: '5B' }, 'date', /can only be/],
      [{ date: today, class_id: '' }, 'class_id', /./],
      [{ date: 'today', class_id: '5B' }, 'date', /yyyy-MM-dd/],
    ];
    for (const [body, field, message] of refusals) {
      const refused = expectError(await office.post(`/api/enrolment/${leaver}/readmit`, body), 400);
      expect(refused.errors?.[field]?.join(' '), JSON.stringify(body)).toMatch(message);
    }
    expect(await stateOf(leaver)).toEqual(former);
  });

  it('puts the student back on the roll in the class chosen, with a "readmitted" entry and the audit', async () => {
    const response = await admin.post(`/api/enrolment/${leaver}/readmit`, { date: today, class_id: '5b', note: 'Came back from QRC' });
    expect(response.statusCode, response.body).toBe(200);
    const { enrolment } = EnrolmentChangeAnswerSchema.parse(response.json());
    expect(enrolment).toMatchObject({ on_roll: true, class_id: '5B', left_on: null, left_class: null });
    expect(enrolment.events.map((e) => [e.kind, e.reason, e.class_id])).toEqual([
      ['entry', 'form1_intake', '1A'],
      ['exit', 'transferred', '5A'],
      ['entry', 'readmitted', '5B'],
    ]);
    expect(enrolment.events.at(-1)).toMatchObject({ on: today, note: 'Came back from QRC' });
    expect(AdminStudentListSchema.parse((await office.get('/api/students')).json()).find((s) => s.id === leaver)).toMatchObject({ class_id: '5B' });
    expect((await office.post('/api/student', { id: leaver, middle_name: 'Back' })).statusCode).toBe(200);
    const audit = await db().selectFrom('audit_log').select(['field', 'old_value', 'new_value']).where('entity_id', '=', leaver).where('action', '=', 'readmit').orderBy('id').execute();
    expect(audit).toEqual([
      { field: 'left_on', old_value: today, new_value: null },
      { field: 'class_id', old_value: null, new_value: '5B' },
    ]);
    // A second readmission (the dialog sent twice) finds them on the roll.
    expectError(await office.post(`/api/enrolment/${leaver}/readmit`, { date: today, class_id: '5B' }), 409, 'conflict');
    // The export's exit columns are a former student's only.
    const cell = (await readWorkbook((await office.get('/api/registration-data-spreadsheet')).rawPayload)).rowOf(leaver);
    expect([cell('Entry Reason'), dayOf(cell('Entry Date')), cell('Exit Date') ?? null, cell('Exit Reason') ?? null]).toEqual(['Readmitted', today, null, null]);
  });
});

describe('the entries and exits other features record', () => {
  it('Add Student is a transfer in, into the class added to', async () => {
    const response = await office.post('/api/students', { id: '20990201', first_name: 'Nadia', last_name: 'Ali', class_id: '2C', date_of_birth: '2013-04-05', birth_certificate_no: 'B-2099-0201' });
    expect(response.statusCode, response.body).toBe(201);
    expect((await enrolmentOf(office, '20990201')).events).toMatchObject([{ kind: 'entry', on: today, reason: 'transfer_in', class_id: '2C' }]);
  });

  it('a New Form 1 finalise is each child’s Form 1 intake, in their class', async () => {
    const iso = nowIso();
    const school = await db().selectFrom('primary_schools').select('name').orderBy('name').executeTakeFirstOrThrow();
    await db()
      .insertInto('intake_students')
      .values({ row_number: 2, file_name: 'sea.csv', sea_no: 'S20990001', first_name: 'Kai', middle_name: null, last_name: 'Joseph', date_of_birth: '2014-02-03', sex: 'Male', primary_school: school.name, class_id: '1C', created_at: iso, updated_at: iso })
      .execute();
    const { created } = await finaliseIntake(db(), ACTOR, today);
    expect((await enrolmentOf(office, created[0]!.id)).events).toMatchObject([{ kind: 'entry', on: today, reason: 'form1_intake', class_id: '1C' }]);
  });

  it('a year rollover makes its leavers "graduated" from their class, and its undo takes that away', async () => {
    const fifthFormer = (await db().selectFrom('students').select('id').where('class_id', '=', '5C').orderBy('id').executeTakeFirstOrThrow()).id;
    const run = await runRollover(db(), ACTOR, (await getRolloverState(db())).plan);
    expect((await enrolmentOf(office, fifthFormer)).events.at(-1)).toMatchObject({ kind: 'exit', on: today, reason: 'graduated', class_id: '5C' });
    await undoRollover(db(), ACTOR, run.run.id);
    const after = await enrolmentOf(office, fifthFormer);
    expect(after.on_roll).toBe(true);
    expect(after.events.map((e) => e.kind)).toEqual(['entry']);
  });
});
