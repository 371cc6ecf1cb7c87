import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { AdminStudentListSchema, AdminStudentSchema, NEW_STUDENT_MESSAGES } from '../../shared/students.schemas.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * Add Student (POST /api/students) and a change of class from the Edit Student dialog (POST
 * /api/student with class_id), on SQLite and PostgreSQL: administrators only, the import's
 * rules and uniqueness checks, 400/409 with the field named and nothing stored, both audited.
 */

const { registered } = DEMO_STUDENTS;
let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
});
afterAll(async () => {
  await t?.close();
});

const newStudent = (overrides: Record<string, unknown> = {}) => ({
  id: '20269501',
  first_name: 'Amara',
  last_name: 'Baptiste',
  date_of_birth: '2014-06-15',
  class_id: '1A',
  birth_certificate_no: 'B14-9500001',
  ...overrides,
});

async function studentCount(): Promise<number> {
  const { count } = await t.database.db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(count);
}

describe('POST /api/students (Add Student)', () => {
  it('is for the office and administrators only (students.add), with the CSRF header', async () => {
    expectError(await client().post('/api/students', newStudent()), 401, 'unauthenticated');
    const student = await client().signInStudent(registered.student_id, registered.password);
    expectError(await student.post('/api/students', newStudent()), 403, 'forbidden');
    expectError(await admin.post('/api/students', newStudent(), { csrf: false }), 403, 'csrf_failed');
    const route = t.app.routeTable.find((r) => r.url === '/api/students' && r.method === 'POST');
    expect(route?.config?.access).toEqual({ can: 'students.add' });
  });

  it('refuses bad input with 400 and every problem by field; stores nothing', async () => {
    const before = await studentCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ first_name: '' }, 'first_name', NEW_STUDENT_MESSAGES.required],
      [{ last_name: 'x'.repeat(21) }, 'last_name', ''],
      [{ date_of_birth: '2999-01-01' }, 'date_of_birth', ''],
      [{ date_of_birth: '1949-12-31' }, 'date_of_birth', ''],
      [{ date_of_birth: 'soon' }, 'date_of_birth', ''],
      [{ class_id: '' }, 'class_id', NEW_STUDENT_MESSAGES.required],
      [{ class_id: '9Z' }, 'class_id', "'9Z' is not one of the listed values."],
      [{ birth_certificate_no: '' }, 'birth_certificate_no', NEW_STUDENT_MESSAGES.pinOrSea],
      [{ id: 'not an id!' }, 'id', ''],
      [{ house_code: 'A' }, 'house_code', ''],
    ];
    for (const [overrides, field, message] of cases) {
      const body = expectError(await admin.post('/api/students', newStudent(overrides)), 400, 'validation_failed');
      expect(Object.keys(body.errors ?? {}), JSON.stringify(overrides)).toContain(field);
      if (message) expect(body.errors?.[field]).toContain(message);
    }
    expectError(await admin.post('/api/students', 'not json', { headers: { 'content-type': 'application/json' } }), 400);
    expect(await studentCount()).toBe(before);
  });

  it('refuses with 409 an ID that exists and a pin or SEA number another student has (any case); stores nothing', async () => {
    const other = await t.database.db.selectFrom('students').select(['id', 'birth_certificate_no', 'sea_no']).where('sea_no', 'is not', null).where('birth_certificate_no', 'is not', null).executeTakeFirstOrThrow();
    const before = await studentCount();
    const taken = expectError(await admin.post('/api/students', newStudent({ id: registered.student_id })), 409, 'conflict');
    expect(taken.errors?.id).toEqual([NEW_STUDENT_MESSAGES.idTaken(registered.student_id)]);
    const pin = expectError(await admin.post('/api/students', newStudent({ birth_certificate_no: other.birth_certificate_no!.toLowerCase() })), 409, 'conflict');
    expect(pin.errors?.birth_certificate_no).toEqual([`Student ${other.id} already has this Birth Certificate Pin.`]);
    const sea = expectError(await admin.post('/api/students', newStudent({ birth_certificate_no: undefined, sea_no: other.sea_no })), 409, 'conflict');
    expect(sea.errors?.sea_no).toEqual([`Student ${other.id} already has this SEA Number.`]);
    expect(await studentCount()).toBe(before);
  });

  it('creates the student with a first sign-in account, audited, in the list', async () => {
    const response = await admin.post('/api/students', newStudent({ first_name: ' Amara ', sea_no: 'SEA2026-9501' }));
    expect(response.statusCode, response.body).toBe(201);
    const created = AdminStudentSchema.parse(response.json());
    expect(created).toMatchObject({ id: '20269501', first_name: 'Amara', last_name: 'Baptiste', class_id: '1A', date_of_birth: '2014-06-15', birth_certificate_no: 'B14-9500001' });
    const db = t.database.db;
    const stored = await db.selectFrom('students').selectAll().where('id', '=', '20269501').executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ first_name: 'Amara', sea_no: 'SEA2026-9501', class_id: '1A' });
    const user = await db.selectFrom('users').selectAll().where('student_id', '=', '20269501').executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'student', first_login: 1, password_hash: null });
    const audit = await db.selectFrom('audit_log').select(['action', 'actor_label', 'new_value']).where('entity_id', '=', '20269501').execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'create', actor_label: expect.stringMatching(/^admin:/) as unknown })]);
    expect(JSON.parse(audit[0]!.new_value!)).toMatchObject({ first_name: 'Amara', class_id: '1A' });
    const list = AdminStudentListSchema.parse((await admin.get('/api/students')).json());
    expect(list.find((s) => s.id === '20269501')).toMatchObject({ first_name: 'Amara', last_name: 'Baptiste', class_id: '1A' });
    const firstLogin = await client().post('/api/first-login', { identifier: 'B14-9500001', date_of_birth: '20140615' });
    expect(firstLogin.statusCode, firstLogin.body).toBe(200);
    // The same student again is a conflict, not a second row.
    expectError(await admin.post('/api/students', newStudent({ birth_certificate_no: 'B14-9500002' })), 409, 'conflict');
  });
});

describe('changing a class (POST /api/student with class_id, the Edit Student dialog)', () => {
  it('an administrator moves a student to another class, audited with the old and new class; an unknown class is 400', async () => {
    const db = t.database.db;
    const target = await db.selectFrom('students').select(['id', 'class_id']).where('class_id', '=', '2B').orderBy('id').executeTakeFirstOrThrow();
    expectError(await admin.post('/api/student', { id: target.id, class_id: '9Z' }), 400);
    expect((await db.selectFrom('students').select('class_id').where('id', '=', target.id).executeTakeFirstOrThrow()).class_id).toBe('2B');
    const response = await admin.post('/api/student', { id: target.id, class_id: '2C' });
    expect(response.statusCode, response.body).toBe(200);
    expect((await db.selectFrom('students').select('class_id').where('id', '=', target.id).executeTakeFirstOrThrow()).class_id).toBe('2C');
    const audit = await db.selectFrom('audit_log').select(['field', 'old_value', 'new_value']).where('entity_id', '=', target.id).where('field', '=', 'class_id').execute();
    expect(audit).toEqual([{ field: 'class_id', old_value: '2B', new_value: '2C' }]);
  });

  it('a student cannot change their own class', async () => {
    const student = await client().signInStudent(registered.student_id, registered.password);
    expectError(await student.post('/api/student', { id: registered.student_id, class_id: '5D' }), 400);
  });
});
