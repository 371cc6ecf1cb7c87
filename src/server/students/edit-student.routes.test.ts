import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { StudentChangesPageSchema, type StudentChangesPage } from '../../shared/students.schemas.js';
import { IDENTITY_TAKEN_MESSAGES } from '../../shared/registration.fields.js';
import { DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * Edit Student's one save of every changed field (POST /api/student as staff) and a student's
 * history (GET /api/students/{id}/history), on SQLite and PostgreSQL: all or nothing with every
 * problem by field, a class move with the names in one request, who may save and who may read
 * the history (a form teacher only their class's), the changes newest first with the catalogue's
 * labels and yes/no answers in words, paged.
 */

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.8.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let office: TestClient;
/** A student of 1A (not the form teacher's class) and one of 5A (theirs). */
let target: string;
let ofTeachersClass: string;

beforeAll(async () => {
  t = await createTestApp();
  office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
  const db = t.database.db;
  target = (await db.selectFrom('students').select('id').where('class_id', '=', '1A').orderBy('id').offset(3).limit(1).executeTakeFirstOrThrow()).id;
  ofTeachersClass = (await db.selectFrom('students').select('id').where('class_id', '=', DEMO_STAFF.formTeacher.classId).orderBy('id').offset(3).limit(1).executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

const recordOf = (id: string) => t.database.db.selectFrom('students').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const auditCountOf = async (id: string) =>
  Number((await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).where('entity_id', '=', id).where('action', '=', 'update').executeTakeFirstOrThrow()).n);

describe('Edit Student: every changed field in one POST /api/student', () => {
  it('refuses the whole save when any field is wrong, naming each, and stores nothing', async () => {
    const before = await recordOf(target);
    const audits = await auditCountOf(target);
    const body = expectError(
      await office.post('/api/student', { id: target, first_name: 'Valid', last_name: 'x'.repeat(21), date_of_birth: '2999-01-01', birth_certificate_no: '' }),
      400,
    );
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(['birth_certificate_no', 'last_name']);
    // A class the school does not have: refused with the good name beside it.
    const badClass = expectError(await office.post('/api/student', { id: target, first_name: 'Valid', class_id: '9Z' }), 400);
    expect(Object.keys(badClass.errors ?? {})).toEqual(['class_id']);
    // A future date, with a good name.
    const future = expectError(await office.post('/api/student', { id: target, first_name: 'Valid', date_of_birth: '2999-01-01' }), 400);
    expect(Object.keys(future.errors ?? {})).toEqual(['date_of_birth']);
    expect(await recordOf(target)).toEqual(before);
    expect(await auditCountOf(target)).toBe(audits);
  });

  it("answers 409 with the message under the pin when another student has it, and keeps the other fields unsaved", async () => {
    const before = await recordOf(target);
    const taken = (await recordOf(DEMO_STUDENTS.registered.student_id)).birth_certificate_no;
    const body = expectError(await office.post('/api/student', { id: target, first_name: 'Unsaved', birth_certificate_no: taken }), 409);
    expect(body.errors).toEqual({ birth_certificate_no: [IDENTITY_TAKEN_MESSAGES.birth_certificate_no] });
    expect(await recordOf(target)).toEqual(before);
  });

  it('saves the names and a class move together: one change of updated_at, one audit row per field', async () => {
    const audits = await auditCountOf(target);
    const response = await office.post('/api/student', { id: target, first_name: 'Jane', last_name: 'Doe', class_id: '1B' });
    expect(response.statusCode, response.body).toBe(200);
    const after = await recordOf(target);
    expect(after).toMatchObject({ first_name: 'Jane', last_name: 'Doe', class_id: '1B', search_name: 'jane doe' });
    expect(await auditCountOf(target)).toBe(audits + 3);
  });

  it('is for staff whose role edits records: not a form teacher or the principal, nor another student', async () => {
    const before = await recordOf(ofTeachersClass);
    expectError(await client().post('/api/student', { id: ofTeachersClass, first_name: 'Nobody' }), 401);
    const teacher = await client().signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
    expectError(await teacher.post('/api/student', { id: ofTeachersClass, first_name: 'Nobody' }), 403, 'forbidden');
    const principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
    expectError(await principal.post('/api/student', { id: ofTeachersClass, first_name: 'Nobody' }), 403, 'forbidden');
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await student.post('/api/student', { id: ofTeachersClass, first_name: 'Nobody' }), 403, 'forbidden');
    expect(await recordOf(ofTeachersClass)).toEqual(before);
  });
});

describe("GET /api/students/{id}/history: a student's changes", () => {
  const historyOf = async (c: TestClient, id: string, query = ''): Promise<StudentChangesPage> => {
    const response = await c.get(`/api/students/${id}/history${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return StudentChangesPageSchema.parse(response.json());
  };

  it("lists the changes newest first with the catalogue's labels, yes/no answers in words, who and when", async () => {
    const saved = await office.post('/api/student', { id: target, immigration_permit: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    const { changes, next_before_id } = await historyOf(office, target);
    expect(next_before_id).toBeNull();
    expect(changes[0]).toMatchObject({ field: 'immigration_permit', label: 'Immigration Permit', old_value: 'Not answered', new_value: 'Yes', who: `admin:${DEMO_STAFF.office.username}` });
    const move = changes.find((change) => change.field === 'class_id')!;
    expect(move).toMatchObject({ label: 'Class', old_value: '1A', new_value: '1B' });
    expect(changes.find((change) => change.field === 'first_name')).toMatchObject({ label: 'First Name', new_value: 'Jane' });
    expect(changes.map((change) => change.id)).toEqual([...changes.map((change) => change.id)].sort((a, b) => b - a));
    expect(changes.every((change) => !Number.isNaN(Date.parse(change.at)))).toBe(true);
    // Reads of the record are not changes.
    expect(changes.some((change) => change.field === null || change.label === '')).toBe(false);
  });

  it('pages back with before_id', async () => {
    const all = (await historyOf(office, target)).changes;
    expect(all.length).toBeGreaterThanOrEqual(4);
    const first = await historyOf(office, target, '?limit=2');
    expect(first.changes).toEqual(all.slice(0, 2));
    expect(first.next_before_id).toBe(all[1]!.id);
    const second = await historyOf(office, target, `?limit=2&before_id=${first.next_before_id}`);
    expect(second.changes).toEqual(all.slice(2, 4));
    for (const query of ['?limit=0', '?limit=101', '?before_id=x', '?before_id=-1']) expectError(await office.get(`/api/students/${target}/history${query}`), 400);
  });

  it('is for staff, a form teacher for their own class only, and the student and family for their own record', async () => {
    expectError(await client().get(`/api/students/${target}/history`), 401);
    const teacher = await client().signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
    expectError(await teacher.get(`/api/students/${target}/history`), 403, 'forbidden');
    expect((await historyOf(teacher, ofTeachersClass)).student_id).toBe(ofTeachersClass);
    const principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
    expect((await historyOf(principal, target)).changes.length).toBeGreaterThan(0);
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await student.get(`/api/students/${target}/history`), 403, 'forbidden');
    // Not even their own: the history names the staff who changed the record (staff only, D82).
    expectError(await student.get(`/api/students/${DEMO_STUDENTS.registered.student_id}/history`), 403, 'forbidden');
    expectError(await office.get('/api/students/29999999/history'), 404);
  });
});
