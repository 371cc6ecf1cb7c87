import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { ReRegistrationAnswerSchema, ReRegistrationChangesSchema, ReRegistrationListSchema, StudentReRegistrationSchema } from '../../shared/re-registration.schemas.js';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { closeReRegistration, openReRegistration } from './re-registration.service.js';

/**
 * Re-registration through the API (D62), on both engines: opening asks every student in
 * a class (and no one else) to confirm each step, refused a second time; "Nothing changed" and a
 * saved change confirm a step, each audited; the office reads the change with its old and new
 * value; who may do what; bad input 400 with nothing stored; open and close inside a caller's
 * transaction.
 */

let t: TestApp;
let ip = 0;
const client = () => new TestClient(t.app, `10.19.${Math.floor(++ip / 250)}.${ip % 250}`);
let admin: TestClient;
let office: TestClient;
let principal: TestClient;
let teacher: TestClient;
let parent: TestClient;
let student: TestClient;
const child = DEMO_STUDENTS.registered.student_id;
const YEAR = 2026;
let otherFamilysChild: string;
let classless: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
  office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
  principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
  teacher = await client().signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
  parent = client();
  expect((await parent.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
  student = await client().signInStudent(child, DEMO_STUDENTS.registered.password);
  const db = t.database.db;
  const someone = await db.selectFrom('students').select('id').where('id', 'not in', [...DEMO_FAMILY.childIds]).where('class_id', 'is not', null).orderBy('id').executeTakeFirstOrThrow();
  otherFamilysChild = someone.id;
  // A student in no class (not returning): not asked to re-register.
  const iso = new Date().toISOString();
  classless = '29990001';
  await db.insertInto('students').values({ id: classless, first_name: 'Nobody', last_name: 'Inclass', created_at: iso, updated_at: iso }).execute();
});
afterAll(() => t.close());

async function stateOf(c: TestClient, studentId: string) {
  const response = await c.get(`/api/students/${studentId}/re-registration`);
  expect(response.statusCode, response.body).toBe(200);
  return StudentReRegistrationSchema.parse(response.json());
}

async function changesOf(c: TestClient, studentId: string) {
  const response = await c.get(`/api/review/re-registrations/${studentId}`);
  expect(response.statusCode, response.body).toBe(200);
  return ReRegistrationChangesSchema.parse(response.json());
}

const stepRows = (year: number) => t.database.db.selectFrom('re_registration_steps').select(['student_id', 'step', 'confirmed_at', 'how']).where('year', '=', year).execute();

const auditOf = (studentId: string, entity: string) =>
  t.database.db.selectFrom('audit_log').select(['action', 'field', 'old_value', 'new_value', 'actor_label']).where('entity', '=', entity).where('entity_id', '=', studentId).orderBy('id').execute();

describe('opening a year', () => {
  it('is refused to the office, the principal, teachers, families and visitors; a bad year is 400 and stores nothing', async () => {
    for (const c of [office, principal, teacher, parent, student]) expectError(await c.post('/api/re-registrations', { year: YEAR }), 403, 'forbidden');
    expectError(await client().post('/api/re-registrations', { year: YEAR }), 401);
    for (const year of ['next', 1999, 2026.5, null]) {
      const bad = expectError(await admin.post('/api/re-registrations', { year }), 400);
      expect(Object.keys(bad.errors ?? {})).toEqual(['year']);
    }
    expect(await t.database.db.selectFrom('re_registrations').selectAll().execute()).toEqual([]);
  });

  it('asks every student in a class to confirm each of the five steps, and no one else; a second opening is 409', async () => {
    const before = ReRegistrationListSchema.parse((await office.get('/api/re-registrations')).json());
    expect(before).toEqual({ suggested_year: YEAR, years: [] });

    const opened = await admin.post('/api/re-registrations', { year: YEAR });
    expect(opened.statusCode, opened.body).toBe(200);
    const inClasses = await t.database.db.selectFrom('students').select('id').where('class_id', 'is not', null).execute();
    expect(ReRegistrationAnswerSchema.parse(opened.json())).toMatchObject({ year: YEAR, students: inClasses.length });
    const rows = await stepRows(YEAR);
    expect(rows).toHaveLength(inClasses.length * 5);
    expect(rows.every((row) => row.confirmed_at === null && row.how === null)).toBe(true);
    expect(rows.some((row) => row.student_id === classless)).toBe(false);
    expect(new Set(rows.map((row) => row.step))).toEqual(new Set(['student', 'family', 'health', 'other', 'documents']));

    const again = expectError(await admin.post('/api/re-registrations', { year: YEAR }), 409, 'conflict');
    expect(again.message).toMatch(/already open/);
    expect(await stepRows(YEAR)).toHaveLength(inClasses.length * 5);

    const list = ReRegistrationListSchema.parse((await office.get('/api/re-registrations')).json());
    expect(list.years).toEqual([expect.objectContaining({ year: YEAR, students: inClasses.length, confirmed: 0 })]);
    expect((await auditOf(String(YEAR), 're_registration')).map((row) => row.action)).toEqual(['open']);
  });

  it('shows the family each step still to confirm; a student in no class has nothing asked', async () => {
    const state = await stateOf(parent, child);
    expect(state).toMatchObject({ year: YEAR, pending: 5 });
    expect(state.steps.map((step) => step.label)).toEqual(['Student Data', 'Family Data', 'Health Data', 'Other Data', 'Documents']);
    expect(await stateOf(admin, classless)).toEqual({ year: null, opened_at: null, steps: [], pending: 0 });
  });
});

describe('confirming steps', () => {
  it('"Nothing changed" confirms a step, audited once; again changes nothing', async () => {
    const response = await parent.post(`/api/students/${child}/re-registration/health`);
    expect(response.statusCode, response.body).toBe(200);
    const state = StudentReRegistrationSchema.parse(response.json());
    expect(state.pending).toBe(4);
    expect(state.steps.find((step) => step.step === 'health')).toMatchObject({ how: 'unchanged', confirmed_by: `guardian:${DEMO_FAMILY.email}` });
    expect((await parent.post(`/api/students/${child}/re-registration/health`)).statusCode).toBe(200);
    const audit = (await auditOf(child, 'registration')).filter((row) => row.action === 're-register');
    expect(audit).toEqual([{ action: 're-register', field: 'health', old_value: 'pending', new_value: 'unchanged', actor_label: `guardian:${DEMO_FAMILY.email}` }]);
  });

  it('a changed field confirms its step and the office sees it with its old and new value, who and when', async () => {
    const before = await t.database.db.selectFrom('students').select('emergency_contact').where('id', '=', child).executeTakeFirstOrThrow();
    const saved = await parent.post('/api/student', { id: child, emergency_contact: 'Ravi Mohammed' });
    expect(saved.statusCode, saved.body).toBe(200);
    const state = await stateOf(student, child);
    expect(state.steps.find((step) => step.step === 'family')).toMatchObject({ how: 'changed', confirmed_by: `guardian:${DEMO_FAMILY.email}` });
    expect(state.pending).toBe(3);

    const changes = await changesOf(office, child);
    expect(changes.changes).toEqual([
      { field: 'emergency_contact', label: 'Emergency Contact', step: 'family', old_value: before.emergency_contact, new_value: 'Ravi Mohammed', by: `guardian:${DEMO_FAMILY.email}`, at: expect.any(String) as string },
    ]);
    expect(changes.steps.filter((step) => step.how === 'unchanged').map((step) => step.step)).toEqual(['health']);
    expect((await changesOf(admin, child)).changes).toHaveLength(1);
  });

  it("an office correction is shown but does not confirm the family's step", async () => {
    expect((await office.post('/api/student', { id: child, achievements: 'Form 4 debating champion' })).statusCode).toBe(200);
    const state = await stateOf(office, child);
    expect(state.steps.find((step) => step.step === 'other')?.confirmed_at).toBeNull();
    expect((await changesOf(office, child)).changes.map((change) => change.label)).toEqual(['Emergency Contact', 'Achievements']);
    // Staff may confirm on the family's behalf.
    const confirmed = await office.post(`/api/students/${child}/re-registration/other`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(StudentReRegistrationSchema.parse(confirmed.json()).steps.find((step) => step.step === 'other')?.confirmed_by).toBe(`admin:${DEMO_STAFF.office.username}`);
  });

  it("a parent cannot read or confirm another family's child; the principal and teachers only read", async () => {
    expectError(await parent.post(`/api/students/${otherFamilysChild}/re-registration/student`), 403, 'forbidden');
    expectError(await parent.get(`/api/students/${otherFamilysChild}/re-registration`), 403, 'forbidden');
    expectError(await student.post(`/api/students/${otherFamilysChild}/re-registration/student`), 403, 'forbidden');
    expectError(await principal.post(`/api/students/${child}/re-registration/student`), 403, 'forbidden');
    expectError(await teacher.post(`/api/students/${child}/re-registration/student`), 403, 'forbidden');
    expect((await stateOf(principal, child)).year).toBe(YEAR);
    for (const c of [principal, teacher, parent, student]) expectError(await c.get(`/api/review/re-registrations/${child}`), 403, 'forbidden');
    expectError(await client().post(`/api/students/${child}/re-registration/student`), 401);
    const untouched = await t.database.db.selectFrom('re_registration_steps').select('confirmed_at').where('student_id', '=', otherFamilysChild).execute();
    expect(untouched.every((row) => row.confirmed_at === null)).toBe(true);
  });

  it('a bad step or student id is 400 in the house shape; a student with nothing asked is 409; an unknown one 404', async () => {
    for (const step of ['complete', 'terms', 'STUDENT', '%20']) {
      const bad = expectError(await parent.post(`/api/students/${child}/re-registration/${step}`), 400);
      expect(bad.errors?.step?.[0]).toMatch(/Choose a step/);
    }
    expectError(await admin.post('/api/students/not%20an%20id/re-registration/student'), 400);
    expectError(await admin.post(`/api/students/${classless}/re-registration/student`), 409, 'conflict');
    expectError(await admin.get('/api/students/20999999/re-registration'), 404);
    expectError(await office.get('/api/review/re-registrations/20999999'), 404);
    expect((await stateOf(parent, child)).pending).toBe(2);
  });

  it('is refused to the family (422) while registration is closed, and allowed to staff', async () => {
    const periods = await t.database.db.selectFrom('registration_periods').selectAll().execute();
    await t.database.db.updateTable('registration_periods').set({ open: 0 }).execute();
    try {
      expectError(await parent.post(`/api/students/${child}/re-registration/student`), 422, 'registration_closed');
      expect((await stateOf(parent, child)).steps.find((step) => step.step === 'student')?.confirmed_at).toBeNull();
      expect((await admin.post(`/api/students/${child}/re-registration/student`)).statusCode).toBe(200);
    } finally {
      for (const period of periods) await t.database.db.updateTable('registration_periods').set({ open: period.open }).where('form_level', 'is', period.form_level).execute();
    }
  });
});

describe('inside a caller transaction (the year rollover)', () => {
  const actor = { actor_user_id: null, actor_label: 'rollover-test', ip: null, request_id: null };

  it('opens and closes with the caller, and a rolled-back caller leaves nothing', async () => {
    const db = t.database.db;
    await expect(
      db.transaction().execute(async (trx) => {
        await openReRegistration(trx, { year: 2027, actor });
        expect((await trx.selectFrom('re_registration_steps').select('student_id').where('year', '=', 2027).execute()).length).toBeGreaterThan(0);
        throw new Error('the rollover failed');
      }),
    ).rejects.toThrow('the rollover failed');
    expect(await stepRows(2027)).toEqual([]);

    const opened = await db.transaction().execute((trx) => openReRegistration(trx, { year: 2027, actor }));
    expect(opened.students).toBeGreaterThan(0);
    // The newest year is the one a record confirms.
    expect((await stateOf(parent, child)).year).toBe(2027);
    expect(await db.transaction().execute((trx) => closeReRegistration(trx, 2027, actor))).toEqual({ year: 2027, students: opened.students });
    expect(await db.transaction().execute((trx) => closeReRegistration(trx, 2027))).toBeNull();
    expect(await stepRows(2027)).toEqual([]);
    expect((await stateOf(parent, child)).year).toBe(YEAR);
  });

  it('the administrator closes a year through the API (404 once gone); the office may not', async () => {
    expectError(await office.delete(`/api/re-registrations/${YEAR}`), 403, 'forbidden');
    expectError(await admin.delete('/api/re-registrations/soon'), 400);
    const closed = await admin.delete(`/api/re-registrations/${YEAR}`);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await stepRows(YEAR)).toEqual([]);
    expectError(await admin.delete(`/api/re-registrations/${YEAR}`), 404);
    expect(await stateOf(parent, child)).toMatchObject({ year: null, pending: 0 });
  });
});
