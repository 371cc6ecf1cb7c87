import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { schoolToday } from '../../shared/dates.js';
import { FIELD_MESSAGES, PLACE_IN_FAMILY_MESSAGES, REGISTRATION_FIELDS, WRITABLE_FIELDS } from '../../shared/registration.fields.js';
import { PERSON_NAME_MESSAGES } from '../../shared/person-name.js';
import {
  DECLARATION_MESSAGES,
  RegistrationPeriodListSchema,
  RegistrationStatusSchema,
  SaveStudentAnswerSchema,
  StudentRecordListSchema,
  WINDOW_MESSAGES,
} from '../../shared/registration.schemas.js';
import { DEMO_FAMILY, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { identityFieldOfError } from '../db/unique-violation.js';
import { updateStudentColumns } from './registration.repository.js';

const { registered, inProgress, passwordReset } = DEMO_STUDENTS;

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.3.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let student: TestClient;
let admin: TestClient;

const today = () => schoolToday();
function shiftDay(iso: string, days: number): string {
  const date = new Date(`${iso}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

async function studentRow(id: string) {
  return t.database.db.selectFrom('students').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function setDefaultWindow(open: 0 | 1, deadline: string | null) {
  await t.database.db.deleteFrom('registration_periods').execute();
  await t.database.db
    .insertInto('registration_periods')
    .values({ form_level: null, open, deadline, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' })
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  student = await client().signInStudent(inProgress.student_id, inProgress.password);
  admin = await client().signInAdmin();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await setDefaultWindow(1, shiftDay(today(), 30));
});

describe('GET /api/student-record/{id}', () => {
  it('refuses visitors (401) and other students (403)', async () => {
    expectError(await client().get(`/api/student-record/${inProgress.student_id}`), 401, 'unauthenticated');
    expectError(await student.get(`/api/student-record/${registered.student_id}`), 403, 'forbidden');
  });

  it("answers the student's own record as a list of one, with every catalogue field and the progress flags", async () => {
    const response = await student.get(`/api/student-record/${inProgress.student_id}`);
    expect(response.statusCode).toBe(200);
    const [record] = StudentRecordListSchema.parse(response.json());
    expect(record).toMatchObject({ id: inProgress.student_id, first_name: inProgress.first_name, last_name: inProgress.last_name });
    for (const field of REGISTRATION_FIELDS) expect(record).toHaveProperty(field.name);
    expect(record!.progress).toEqual(expect.objectContaining({ studentData: expect.any(Number) as number, submit: 0 }));
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('shows a finished registration with all flags set', async () => {
    const c = await client().signInStudent(registered.student_id, registered.password);
    const [record] = StudentRecordListSchema.parse((await c.get(`/api/student-record/${registered.student_id}`)).json());
    expect(record!.progress).toEqual({ studentData: 1, familyData: 1, healthData: 1, otherData: 1, documents: 1, submit: 1, termsAndConditions: 1 });
  });

  it('lets an administrator read any record, and answers 404 for an unknown id', async () => {
    expect((await admin.get(`/api/student-record/${registered.student_id}`)).statusCode).toBe(200);
    expectError(await admin.get('/api/student-record/99999999'), 404, 'not_found');
  });

  it('refuses a session that must change its password first', async () => {
    const c = await client().signInStudent(passwordReset.student_id, passwordReset.date_of_birth.replaceAll('-', ''));
    expectError(await c.get(`/api/student-record/${passwordReset.student_id}`), 403, 'password_change_required');
    expectError(await c.post('/api/student', { id: passwordReset.student_id, middle_name: 'X' }), 403, 'password_change_required');
  });
});

describe('POST /api/student', () => {
  it('refuses visitors and a missing CSRF header', async () => {
    expectError(await client().post('/api/student', { id: inProgress.student_id, middle_name: 'Joel' }), 401);
    expectError(await student.post('/api/student', { id: inProgress.student_id, middle_name: 'Joel' }, { csrf: false }), 403, 'csrf_failed');
  });

  it("refuses another student's id with 403 and changes nothing", async () => {
    const before = await studentRow(registered.student_id);
    expectError(await student.post('/api/student', { id: registered.student_id, middle_name: 'Hacked' }), 403, 'forbidden');
    expect(await studentRow(registered.student_id)).toEqual(before);
  });

  it('saves only the fields sent, writes one audit row per changed field, and answers the progress', async () => {
    const before = await studentRow(inProgress.student_id);
    const response = await student.post('/api/student', { id: inProgress.student_id, middle_name: '  Joel ', blood_type: 'AB-' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = SaveStudentAnswerSchema.parse(response.json());
    expect(answer.saved).toEqual({ middle_name: 'Joel', blood_type: 'AB-' });
    const after = await studentRow(inProgress.student_id);
    // The list's search follows the new middle name (D82).
    const searchName = [before.first_name, 'Joel', before.last_name].join(' ').toLowerCase();
    expect(after).toEqual({ ...before, middle_name: 'Joel', blood_type: 'AB-', updated_at: answer.updated_at, search_name: searchName });
    expect(after.updated_at > before.updated_at).toBe(true);

    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'student')
      .where('entity_id', '=', inProgress.student_id)
      .where('field', 'in', ['middle_name', 'blood_type'])
      .orderBy('id')
      .execute();
    expect(audit.map((row) => [row.field, row.old_value, row.new_value])).toEqual([
      ['middle_name', before.middle_name, 'Joel'],
      ['blood_type', before.blood_type, 'AB-'],
    ]);
    expect(audit[0]).toMatchObject({ action: 'update', actor_label: `student:${inProgress.student_id}` });

    const stored = await t.database.db.selectFrom('registration_progress').selectAll().where('student_id', '=', inProgress.student_id).executeTakeFirstOrThrow();
    expect(stored.student_data).toBe(answer.progress.studentData);

    // The same value again changes nothing and writes no audit row.
    const again = await student.post('/api/student', { id: inProgress.student_id, middle_name: 'Joel' });
    expect(again.statusCode).toBe(200);
    const count = await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).where('field', '=', 'middle_name').where('entity_id', '=', inProgress.student_id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('refuses unknown fields and names each bad field, saving nothing', async () => {
    const before = await studentRow(inProgress.student_id);
    const body = expectError(
      await student.post('/api/student', { id: inProgress.student_id, middle_name: 'Ok', shoe_size: 9, email: 'nope', mobile_phone_mother: '12ab' }),
      400,
      'validation_failed',
    );
    expect(body.errors).toMatchObject({ shoe_size: ['Unknown field.'], email: [FIELD_MESSAGES.email] });
    expect(body.errors?.mobile_phone_mother).toContain(FIELD_MESSAGES.onlyNumbers);
    expect(await studentRow(inProgress.student_id)).toEqual(before);
  });

  it('refuses the fields only the server writes, by name, from students and administrators alike', async () => {
    const before = await studentRow(inProgress.student_id);
    for (const client of [student, admin]) {
      const body = expectError(await client.post('/api/student', { id: inProgress.student_id, agree_terms_date: '2026-01-01', middle_name: 'Ok' }), 400, 'validation_failed');
      expect(body.errors).toEqual({ agree_terms_date: ['Unknown field.'] });
    }
    expect(await studentRow(inProgress.student_id)).toEqual(before);
  });

  it('refuses names carrying bidirectional control characters, from students and administrators alike (400, nothing stored)', async () => {
    const before = await studentRow(inProgress.student_id);
    for (const [client, body] of [
      [student, { id: inProgress.student_id, first_name: 'Ann\u202Eeve' }],
      [student, { id: inProgress.student_id, mother_name: 'Mary \u2066Smith\u2069' }],
      [admin, { id: inProgress.student_id, last_name: 'Lee\u202B' }],
    ] as const) {
      const refused = expectError(await client.post('/api/student', body), 400, 'validation_failed');
      const [field] = Object.keys(body).filter((key) => key !== 'id');
      expect(refused.errors).toEqual({ [field!]: ['Names cannot contain hidden text-direction characters. Type the name instead of pasting it.'] });
    }
    expect(await studentRow(inProgress.student_id)).toEqual(before);
  });

  it('is documented on /api/docs with every writable field of the catalogue and its rules', async () => {
    const docs = (await student.get('/api/docs/json')).json<{
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>>; additionalProperties?: unknown } }> } }>>;
    }>();
    const schema = docs.paths['/api/student']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(['id', ...WRITABLE_FIELDS.map((field) => field.name)].sort());
    expect(schema?.additionalProperties).toBe(false);
    expect(JSON.stringify(schema?.properties.first_name)).toContain('"maxLength":20');
    expect(JSON.stringify(schema?.properties.phone_home)).toContain('\\\\d{7}');
    expect(JSON.stringify(schema?.properties.sex)).toContain('"enum":["Female","Male","F","M"]');
    expect(schema?.properties.date_of_birth?.description).toMatch(/yyyy-MM-dd.*not in the future/);
  });

  it('refuses house_code and class_id from students but lets administrators set them', async () => {
    const before = await studentRow(inProgress.student_id);
    const refused = expectError(await student.post('/api/student', { id: inProgress.student_id, house_code: 'IBS', class_id: '5A' }), 400, 'validation_failed');
    expect(refused.errors).toEqual({ house_code: ['This field is read-only.'], class_id: ['This field is read-only.'] });
    expect(await studentRow(inProgress.student_id)).toEqual(before);

    const newHouse = before.house_code === 'IBS' ? 'MOT' : 'IBS';
    const ok = await admin.post('/api/student', { id: inProgress.student_id, house_code: newHouse });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await studentRow(inProgress.student_id)).house_code).toBe(newHouse);
    expectError(await admin.post('/api/student', { id: inProgress.student_id, class_id: '9Z' }), 400, 'validation_failed');
    await admin.post('/api/student', { id: inProgress.student_id, house_code: before.house_code });
  });

  it("keeps the admin Edit Student dialog's call working", async () => {
    const before = await studentRow(registered.student_id);
    const response = await admin.post('/api/student', {
      id: registered.student_id,
      first_name: before.first_name,
      last_name: 'Mohammed-Ali',
      date_of_birth: before.date_of_birth,
      birth_certificate_no: before.birth_certificate_no,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await studentRow(registered.student_id)).last_name).toBe('Mohammed-Ali');
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity_id', '=', registered.student_id).where('entity', '=', 'student').where('action', '=', 'update').execute();
    expect(audit.map((row) => row.field)).toEqual(['last_name']);
    expect(audit[0]?.actor_label).toMatch(/^admin:/);
    await admin.post('/api/student', { id: registered.student_id, last_name: before.last_name });
  });

  it('refuses a birth certificate pin or SEA number another student has (409 on the field), from the student and from Edit Student, storing nothing', async () => {
    const other = await studentRow(registered.student_id);
    const before = await studentRow(inProgress.student_id);
    const auditRows = () => t.database.db.selectFrom('audit_log').select('id').where('entity_id', '=', inProgress.student_id).execute();
    const auditBefore = await auditRows();
    const pinTaken = 'Another student has this birth certificate pin.';
    const seaTaken = 'Another student has this SEA number.';

    // The student's own save, in another case than stored.
    const own = expectError(await student.post('/api/student', { id: inProgress.student_id, birth_certificate_no: other.birth_certificate_no!.toLowerCase() }), 409, 'conflict');
    expect(own).toEqual({ message: pinTaken, code: 'conflict', errors: { birth_certificate_no: [pinTaken] } });
    const sea = expectError(await student.post('/api/student', { id: inProgress.student_id, sea_no: other.sea_no }), 409, 'conflict');
    expect(sea.errors).toEqual({ sea_no: [seaTaken] });
    // The Edit Student dialog's save: nothing of it is stored, not even the fields that were fine.
    const edit = expectError(
      await admin.post('/api/student', { id: inProgress.student_id, first_name: 'Changed', birth_certificate_no: other.birth_certificate_no }),
      409,
      'conflict',
    );
    expect(edit.errors).toEqual({ birth_certificate_no: [pinTaken] });
    expect(await studentRow(inProgress.student_id)).toEqual(before);
    expect(await auditRows()).toEqual(auditBefore);

    // The student's own number again, and a number nobody has, are saved.
    expect((await student.post('/api/student', { id: inProgress.student_id, birth_certificate_no: before.birth_certificate_no })).statusCode).toBe(200);
    const fresh = await admin.post('/api/student', { id: inProgress.student_id, birth_certificate_no: 'B99-0000001' });
    expect(fresh.statusCode, fresh.body).toBe(200);
    await admin.post('/api/student', { id: inProgress.student_id, birth_certificate_no: before.birth_certificate_no });
  });

  it('two saves racing for one new pin: one is saved, the other is answered 409', async () => {
    const [a, b] = [registered.student_id, inProgress.student_id];
    const before = await Promise.all([studentRow(a), studentRow(b)]);
    const results = await Promise.all([a, b].map((id) => admin.post('/api/student', { id, birth_certificate_no: 'B99-RACE-1' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const holders = await t.database.db.selectFrom('students').select('id').where('birth_certificate_no', '=', 'B99-RACE-1').execute();
    expect(holders).toHaveLength(1);
    // Past the service's check, the unique index refuses it, and the service knows which number.
    const loser = holders[0]!.id === a ? b : a;
    const refused = await updateStudentColumns(t.database.db, loser, { birth_certificate_no: 'b99-race-1' }, new Date().toISOString()).then(() => 'written', (error: unknown) => error);
    expect(identityFieldOfError(refused)).toBe('birth_certificate_no');
    for (const row of before) await admin.post('/api/student', { id: row.id, birth_certificate_no: row.birth_certificate_no });
  });

  it('answers 404 to an administrator naming an unknown student', async () => {
    expectError(await admin.post('/api/student', { id: '99999999', middle_name: 'X' }), 404, 'not_found');
  });

  it('two tabs saving different fields never undo each other', async () => {
    const tabA = student;
    const tabB = await client().signInStudent(inProgress.student_id, inProgress.password);
    const results = await Promise.all([
      tabA.post('/api/student', { id: inProgress.student_id, allergy: 'Peanuts' }),
      tabB.post('/api/student', { id: inProgress.student_id, transport: 'Maxi taxi' }),
      tabA.post('/api/student', { id: inProgress.student_id, other_illness: 'None' }),
      tabB.post('/api/student', { id: inProgress.student_id, achievements: 'Chess club' }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await studentRow(inProgress.student_id)).toMatchObject({ allergy: 'Peanuts', transport: 'Maxi taxi', other_illness: 'None', achievements: 'Chess club' });
  });

  it("refuses a student's or the office's agreement to the parent's declaration (403), storing nothing", async () => {
    const before = await studentRow(registered.student_id);
    const audits = async () => (await t.database.db.selectFrom('audit_log').select('id').where('entity_id', '=', registered.student_id).execute()).length;
    const auditsBefore = await audits();
    const c = await client().signInStudent(registered.student_id, registered.password);
    for (const value of [0, 1]) {
      const refused = expectError(await c.post('/api/student', { id: registered.student_id, agree_terms_conditions: value }), 403, 'forbidden');
      expect(refused.message).toBe(DECLARATION_MESSAGES.studentRefused);
    }
    // Sent with another field, the whole save is refused: nothing of it is stored.
    expectError(await c.post('/api/student', { id: registered.student_id, agree_terms_conditions: 0, allergy: 'Peanuts (refused save)' }), 403, 'forbidden');
    expect(expectError(await admin.post('/api/student', { id: registered.student_id, agree_terms_conditions: 0 }), 403, 'forbidden').message).toBe(DECLARATION_MESSAGES.staffRefused);
    expect(await studentRow(registered.student_id)).toEqual(before);
    expect(await audits()).toBe(auditsBefore);
  });

  it("a family account linked to the child agrees: who, what kind of account and when are stored and answered; withdrawing clears them", async () => {
    const family = client();
    expect((await family.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
    const account = await t.database.db.selectFrom('users').select(['id', 'display_name']).where('email', '=', DEMO_FAMILY.email).executeTakeFirstOrThrow();
    const id = inProgress.student_id;
    expect((await studentRow(id)).agree_terms_conditions).toBe(0);
    const answer = SaveStudentAnswerSchema.parse((await family.post('/api/student', { id, agree_terms_conditions: 1 })).json());
    expect(answer.progress.submit).toBe(1);
    const row = await studentRow(id);
    expect(row).toMatchObject({ agree_terms_conditions: 1, agree_terms_date: today(), agreed_by_user_id: account.id, agreed_by_name: account.display_name, agreed_by_kind: 'guardian' });
    expect(Date.now() - Date.parse(row.agreed_at!)).toBeGreaterThanOrEqual(0);
    const [record] = StudentRecordListSchema.parse((await family.get(`/api/student-record/${id}`)).json());
    expect(record!.agreement).toEqual({ name: DEMO_FAMILY.name, kind: 'guardian', at: row.agreed_at });
    expect(record!.family_linked).toBe(true);
    // The date is the server's to write.
    expectError(await family.post('/api/student', { id, agree_terms_date: '2020-01-01' }), 400, 'validation_failed');

    await family.post('/api/student', { id, agree_terms_conditions: 0 });
    expect(await studentRow(id)).toMatchObject({ agree_terms_conditions: 0, agree_terms_date: null, agreed_by_user_id: null, agreed_by_name: null, agreed_by_kind: null, agreed_at: null });
    const [withdrawn] = StudentRecordListSchema.parse((await family.get(`/api/student-record/${id}`)).json());
    expect(withdrawn!.agreement).toBeNull();
    // A child the account is not linked to: refused by the access layer.
    const notLinked = DEMO_STUDENTS.firstLogin.student_id;
    expectError(await family.post('/api/student', { id: notLinked, agree_terms_conditions: 1 }), 403, 'forbidden');
    const [unlinked] = StudentRecordListSchema.parse((await admin.get(`/api/student-record/${notLinked}`)).json());
    expect(unlinked!.family_linked).toBe(false);
  });

  it('a yes/no question saves yes, no and not answered (null), and refuses anything else with { message, errors }', async () => {
    const id = inProgress.student_id;
    for (const [sent, stored] of [[1, 1], [0, 0], [null, null], [true, 1]] as const) {
      const answer = SaveStudentAnswerSchema.parse((await student.post('/api/student', { id, polio: sent })).json());
      expect(answer.saved.polio).toBe(stored);
      expect((await studentRow(id)).polio).toBe(stored);
    }
    const [record] = StudentRecordListSchema.parse((await student.get(`/api/student-record/${id}`)).json());
    expect(record!.polio).toBe(1);
    await student.post('/api/student', { id, polio: null });
    for (const bad of [2, 'yes', '', -1, 'maybe']) {
      const refused = expectError(await student.post('/api/student', { id, polio: bad }), 400, 'validation_failed');
      expect(refused.message).toBe(FIELD_MESSAGES.yesNo);
      expect(refused.errors).toEqual({ polio: [FIELD_MESSAGES.yesNo] });
    }
    expect((await studentRow(id)).polio).toBeNull();
  });

  it('recomputes the progress flags: a living status with an empty section turns Family Data off, and back on', async () => {
    const c = await client().signInStudent(registered.student_id, registered.password);
    const before = await studentRow(registered.student_id);
    const refused = expectError(await c.post('/api/student', { id: registered.student_id, allergy: '' }), 400, 'validation_failed');
    expect(refused.errors).toEqual({ allergy: ['This field is required.'] });

    const stored = () =>
      t.database.db.selectFrom('registration_progress').selectAll().where('student_id', '=', registered.student_id).executeTakeFirstOrThrow();
    const otherStatus = before.living_status === 'Guardian' ? 'Father Only' : 'Guardian';
    const off = SaveStudentAnswerSchema.parse((await c.post('/api/student', { id: registered.student_id, living_status: otherStatus })).json());
    expect(off.progress.familyData).toBe(0);
    expect(off.progress.studentData).toBe(1);
    const storedOff = await stored();
    expect(storedOff).toMatchObject({ family_data: 0, student_data: 1 });

    // A save that changes no flag leaves the stored flags' row as it was (not even its updated_at).
    const unchanged = await c.post('/api/student', { id: registered.student_id, home_address: `${before.home_address ?? ''} (changed)`.slice(0, 100) });
    expect(unchanged.statusCode).toBe(200);
    expect(await stored()).toEqual(storedOff);

    const back = SaveStudentAnswerSchema.parse((await c.post('/api/student', { id: registered.student_id, living_status: before.living_status })).json());
    expect(back.progress.familyData).toBe(1);
    expect(await stored()).toMatchObject({ family_data: 1, student_data: 1 });
    const [record] = StudentRecordListSchema.parse((await c.get(`/api/student-record/${registered.student_id}`)).json());
    expect(record!.progress.familyData).toBe(1);
  });
});

describe('the registration window', () => {
  it('refuses student writes with 422 when closed, leaving the record unchanged', async () => {
    await setDefaultWindow(0, null);
    const before = await studentRow(inProgress.student_id);
    const body = expectError(await student.post('/api/student', { id: inProgress.student_id, middle_name: 'Closed' }), 422, 'registration_closed');
    expect(body.message).toBe(WINDOW_MESSAGES.closed);
    expect(await studentRow(inProgress.student_id)).toEqual(before);
    const status = RegistrationStatusSchema.parse((await student.get('/api/registration-status')).json());
    expect(status).toMatchObject({ open: 0, editable: false, reason: WINDOW_MESSAGES.closed });
  });

  it('refuses writes the day after the deadline but accepts them on the deadline day (server clock)', async () => {
    const yesterday = shiftDay(today(), -1);
    await setDefaultWindow(1, yesterday);
    const before = await studentRow(inProgress.student_id);
    const body = expectError(await student.post('/api/student', { id: inProgress.student_id, middle_name: 'Late' }), 422, 'registration_closed');
    expect(body.message).toBe(WINDOW_MESSAGES.deadlinePassed(yesterday));
    expect(await studentRow(inProgress.student_id)).toEqual(before);

    await setDefaultWindow(1, today());
    expect((await student.post('/api/student', { id: inProgress.student_id, middle_name: 'OnTime' })).statusCode).toBe(200);
    expect(RegistrationStatusSchema.parse((await student.get('/api/registration-status')).json()).editable).toBe(true);
  });

  it("uses the student's form level row over the default", async () => {
    const formLevel = Number((await studentRow(inProgress.student_id)).class_id![0]);
    await t.database.db
      .insertInto('registration_periods')
      .values({ form_level: formLevel, open: 0, deadline: null, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' })
      .execute();
    expectError(await student.post('/api/student', { id: inProgress.student_id, middle_name: 'X' }), 422, 'registration_closed');
    expect(RegistrationStatusSchema.parse((await student.get('/api/registration-status')).json()).form_level).toBe(formLevel);
    const other = await client().signInStudent(registered.student_id, registered.password);
    const otherLevel = Number((await studentRow(registered.student_id)).class_id![0]);
    // Another form level follows the (open) default.
    expect(otherLevel).not.toBe(formLevel);
    expect((await other.post('/api/student', { id: registered.student_id, achievements: 'Chess' })).statusCode).toBe(200);
  });

  it('lets administrators edit while closed', async () => {
    await setDefaultWindow(0, null);
    expect((await admin.post('/api/student', { id: inProgress.student_id, middle_name: 'Office' })).statusCode).toBe(200);
  });
});

describe('registration periods (administrators)', () => {
  it('refuses visitors and students', async () => {
    expectError(await client().get('/api/registration-periods'), 401);
    expectError(await student.get('/api/registration-periods'), 403, 'forbidden');
    expectError(await student.request('PUT', '/api/registration-periods', { body: { form_level: null, open: 1, deadline: null } }), 403, 'forbidden');
  });

  it('opens, closes and sets deadlines per form level or for all, with audit rows', async () => {
    const deadline = shiftDay(today(), 10);
    const put = await admin.request('PUT', '/api/registration-periods', { body: { form_level: null, open: 0, deadline } });
    expect(put.statusCode, put.body).toBe(200);
    const put2 = await admin.request('PUT', '/api/registration-periods', { body: { form_level: 3, open: 1, deadline: null } });
    const periods = RegistrationPeriodListSchema.parse(put2.json());
    expect(periods.map((p) => [p.form_level, p.open, p.deadline])).toEqual([
      [null, 0, deadline],
      [3, 1, null],
    ]);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'registration_period').execute();
    expect(audit.map((row) => [row.entity_id, row.field, row.new_value])).toEqual(
      expect.arrayContaining([
        ['all', 'open', '0'],
        ['all', 'deadline', deadline],
        ['3', 'open', '1'],
      ]),
    );
    const removed = RegistrationPeriodListSchema.parse((await admin.delete('/api/registration-periods/3')).json());
    expect(removed.map((p) => p.form_level)).toEqual([null]);
    expectError(await admin.delete('/api/registration-periods/3'), 404);
  });

  it('refuses a bad deadline or form level', async () => {
    expectError(await admin.request('PUT', '/api/registration-periods', { body: { form_level: null, open: 1, deadline: '2026-02-30' } }), 400, 'validation_failed');
    expectError(await admin.request('PUT', '/api/registration-periods', { body: { form_level: 9, open: 1, deadline: null } }), 400, 'validation_failed');
    expectError(await admin.request('PUT', '/api/registration-periods', { body: { form_level: null, open: 2, deadline: null } }), 400, 'validation_failed');
  });
});

describe('rules between fields and a student\'s own name (D77)', () => {
  it('refuses place in family 7 of 5 on the field, and changes nothing stored', async () => {
    expect((await student.post('/api/student', { id: inProgress.student_id, no_in_family: '5', place_in_family: '2' })).statusCode).toBe(200);
    const refused = expectError(await student.post('/api/student', { id: inProgress.student_id, place_in_family: '7' }), 400, 'validation_failed');
    expect(refused.errors).toEqual({ place_in_family: [PLACE_IN_FAMILY_MESSAGES.place(5)] });
    // Lowering the number below the place is told on the number.
    const lowered = expectError(await student.post('/api/student', { id: inProgress.student_id, no_in_family: '1' }), 400);
    expect(lowered.errors).toEqual({ no_in_family: [PLACE_IN_FAMILY_MESSAGES.number(2)] });
    expect(await studentRow(inProgress.student_id)).toMatchObject({ no_in_family: '5', place_in_family: '2' });
    expect((await student.post('/api/student', { id: inProgress.student_id, place_in_family: '5' })).statusCode).toBe(200);
  });

  it("refuses digits in the student's own name, not in the emergency contact or the relative in school", async () => {
    const refused = expectError(await student.post('/api/student', { id: inProgress.student_id, first_name: 'J4den' }), 400);
    expect(refused.errors?.first_name).toEqual([PERSON_NAME_MESSAGES.digit]);
    const saved = await student.post('/api/student', { id: inProgress.student_id, relative_in_school: 'Maria Ali 3B', emergency_contact: 'Aunt Jo, apt 2' });
    expect(saved.statusCode, saved.body).toBe(200);
  });
});
