import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { multipartBody } from '../../../tests/support/test-files.js';
import { schoolToday } from '../../shared/dates.js';
import { IntakeFinaliseResultSchema, IntakeUndoAnswerSchema, IntakeViewSchema, type IntakeView } from '../../shared/intake.schemas.js';
import { studentIdOf, sequenceOf } from '../../shared/student-numbering.js';
import { DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { undoFinalise } from './intake.service.js';

/**
 * The new Form 1 from the SEA placement list (D61) against the seeded demo school, on
 * SQLite and PostgreSQL: who may call it, the import's row checks (nothing stored on a problem),
 * Balance, a move, Finalise (the IDs by the numbering rule, all or nothing) and the first login
 * of a new student by SEA number.
 */

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.19.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let admin: TestClient;
let office: TestClient;
let schools: string[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
  office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
  schools = (await t.database.db.selectFrom('primary_schools').select('name').orderBy('name').limit(3).execute()).map((s) => s.name);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.database.db.deleteFrom('intake_students').execute();
});

const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
function upload(c: TestClient, fileName: string, content: Buffer | string, mime = CSV) {
  const { body, headers } = multipartBody([{ name: 'file', filename: fileName, contentType: mime, bytes: Buffer.isBuffer(content) ? content : Buffer.from(content) }]);
  return c.post('/api/intake/import', body, { headers });
}

const HEADER = 'SEA Number,First Name,Middle Name,Last Name,Date of Birth,Sex,Primary School';
/** 14 children: 8 girls and 6 boys from three schools (a school's name as the office might write it). */
function goodList(prefix: string): string {
  const rows: string[] = [HEADER];
  for (let i = 0; i < 14; i++) {
    const sex = i < 8 ? 'Female' : i % 2 === 0 ? 'male' : 'Male';
    const school = i % 3 === 0 ? schools[0]!.toUpperCase() : schools[i % 3]!;
    rows.push(`${prefix}-${String(i).padStart(3, '0')},Child${String.fromCharCode(65 + i)},${i % 4 === 0 ? 'Marie' : ''},Intake${String.fromCharCode(65 + i)},${i % 2 ? '2014-03-0' + (1 + (i % 9)) : '0' + (1 + (i % 9)) + '/04/2014'},${sex},"${school}"`);
  }
  return rows.join('\n') + '\n';
}

async function view(c: TestClient = admin): Promise<IntakeView> {
  const response = await c.get('/api/intake');
  expect(response.statusCode).toBe(200);
  return IntakeViewSchema.parse(response.json());
}

async function studentsWithSea(prefix: string) {
  return t.database.db.selectFrom('students').select(['id', 'sea_no', 'class_id', 'date_of_birth', 'sex', 'previous_school', 'middle_name']).where('sea_no', 'like', `${prefix}-%`).orderBy('id').execute();
}

describe('who may use it', () => {
  it('refuses visitors (401) and students, the principal and form teachers (403); the office may', async () => {
    const visitor = client();
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    const principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
    const teacher = await client().signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
    const calls = (c: TestClient) => [
      c.get('/api/intake'),
      upload(c, 'sea.csv', goodList('SEAP')),
      c.post('/api/intake/balance'),
      c.patch('/api/intake/students/1', { class_id: '1A' }),
      c.delete('/api/intake'),
      c.post('/api/intake/finalise'),
    ];
    for (const response of await Promise.all(calls(visitor))) expectError(response, 401, 'unauthenticated');
    for (const c of [student, principal, teacher]) {
      for (const response of await Promise.all(calls(c))) expectError(response, 403, 'forbidden');
    }
    expect((await view(office)).students).toEqual([]);
    // The import writes: it needs the CSRF header like every other change.
    const { body, headers } = multipartBody([{ name: 'file', filename: 'sea.csv', contentType: CSV, bytes: Buffer.from(goodList('SEAP')) }]);
    expectError(await office.post('/api/intake/import', body, { headers, csrf: false }), 403, 'csrf_failed');
    expect((await view()).students).toEqual([]);
  });
});

describe('POST /api/intake/import', () => {
  it('stores a good CSV as the intake, names made canonical, nobody in a class yet; a second list waits for a clear', async () => {
    const response = await upload(office, 'sea-2026.csv', goodList('SEAC'));
    expect(response.statusCode, response.body).toBe(200);
    const answer = IntakeViewSchema.parse(response.json());
    expect(answer.fileName).toBe('sea-2026.csv');
    expect(answer.students).toHaveLength(14);
    expect(answer.unallocated).toBe(14);
    expect(answer.classes.map((c) => c.id)).toEqual(['1A', '1B', '1C', '1D']);
    expect(answer.classes[0]!.existing.total).toBeGreaterThan(0);
    const first = answer.students.find((s) => s.sea_no === 'SEAC-000')!;
    // dd/MM/yyyy read as the student import reads it; the school as the lookup writes it; 'male' as Male.
    expect(first).toMatchObject({ row: 2, date_of_birth: '2014-04-01', primary_school: schools[0], middle_name: 'Marie', class_id: null, sex: 'Female' });
    expect(answer.students.find((s) => s.sea_no === 'SEAC-009')).toMatchObject({ sex: 'Male', middle_name: null });
    expect(answer.students.filter((s) => s.sex === 'Female')).toHaveLength(8);

    const again = expectError(await upload(office, 'sea-2026.csv', goodList('SEAD')), 409, 'conflict');
    expect(again.message).toMatch(/clear/i);
    const audit = await t.database.db.selectFrom('audit_log').select(['action', 'new_value']).where('entity', '=', 'intake').where('action', '=', 'import').execute();
    expect(audit.at(-1)).toEqual({ action: 'import', new_value: 'sea-2026.csv: 14 children' });
  });

  it('reads an XLSX built with exceljs (a real date cell and text cells alike)', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('SEA');
    sheet.addRow(['SEA number', 'first name', 'last name', 'date of birth', 'sex', 'primary school']);
    sheet.addRow(['SEAX-1', 'Ava', 'Ramjit', new Date(Date.UTC(2014, 5, 7)), 'Female', schools[1]]);
    sheet.addRow(['SEAX-2', 'Ben', 'Lewis', '2013-12-24', 'Male', schools[2]]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const response = await upload(admin, 'sea.xlsx', bytes, XLSX);
    expect(response.statusCode, response.body).toBe(200);
    const answer = IntakeViewSchema.parse(response.json());
    expect(answer.students.map((s) => [s.sea_no, s.date_of_birth, s.sex, s.primary_school])).toEqual([
      ['SEAX-2', '2013-12-24', 'Male', schools[2]],
      ['SEAX-1', '2014-06-07', 'Female', schools[1]],
    ]);
  });

  it('answers every row problem as row and column, and stores nothing', async () => {
    const file = [
      HEADER,
      'SEAE-1,Amy,,Ali,31/02/2014,Female,' + schools[0],
      'SEAE-2,Bo,,Baptiste,2014-01-02,X,' + schools[0],
      'SEAE-3,Cy,,Charles,2014-01-03,Male,' + schools[1],
      'seae-3,Di,,Dass,2014-01-04,Female,' + schools[1],
      `${DEMO_STUDENTS.firstLogin.sea_no},Ed,,Edwards,2014-01-05,Male,${schools[2]}`,
      'SEAE-6,Fay,,Francis,2014-01-06,Female,Nowhere Primary',
      'SEAE-7,,,Gomez,2099-01-07,Male,' + schools[2],
    ].join('\n');
    const body = expectError(await upload(admin, 'sea.csv', file), 400, 'validation_failed');
    expect(body.message).toBe('6 rows have problems; nothing was imported.');
    expect(Object.keys(body.errors!).sort()).toEqual(
      ['row 2: Date of Birth', 'row 3: Sex', 'row 5: SEA Number', 'row 6: SEA Number', 'row 7: Primary School', 'row 8: Date of Birth', 'row 8: First Name'].sort(),
    );
    expect(body.errors!['row 5: SEA Number']).toEqual(['Row 4 has the same SEA Number.']);
    expect(body.errors!['row 6: SEA Number']).toEqual([`Student ${DEMO_STUDENTS.firstLogin.student_id} already has this SEA Number.`]);
    expect(body.errors!['row 7: Primary School']![0]).toMatch(/not in the list of primary schools/);
    expect(body.errors!['row 8: First Name']).toEqual(['This field is required.']);
    // A sex it cannot read is answered with the values it takes (D79).
    expect(body.errors!['row 3: Sex']).toEqual(['Choose one of: Female, Male (or F, M).']);
    expect((await view()).students).toEqual([]);
  });

  it('reads F and M as Female and Male, and warns (without refusing) of a sex that does not match a girls’ or boys’ school', async () => {
    const girls = (await t.database.db.selectFrom('primary_schools').select('name').where('name', 'like', "%Girls'%").orderBy('name').executeTakeFirstOrThrow()).name;
    const boys = (await t.database.db.selectFrom('primary_schools').select('name').where('name', 'like', "%Boys'%").orderBy('name').executeTakeFirstOrThrow()).name;
    const mixed = (await t.database.db.selectFrom('primary_schools').select('name').where('name', 'not like', '%Boys%').where('name', 'not like', '%Girls%').orderBy('name').executeTakeFirstOrThrow()).name;
    const file = [
      HEADER,
      `SEAW-1,Ann,,Ali,2014-01-01,F,"${girls}"`,
      `SEAW-2,Bob,,Baptiste,2014-01-02,M,"${girls}"`,
      `SEAW-3,Cat,,Charles,2014-01-03,f,"${boys}"`,
      `SEAW-4,Dan,,Dass,2014-01-04,m,"${boys}"`,
      `SEAW-5,Eve,,Edwards,2014-01-05,Female,"${mixed}"`,
    ].join('\n');
    const response = await upload(office, 'sea.csv', file);
    expect(response.statusCode, response.body).toBe(200);
    const answer = IntakeViewSchema.parse(response.json());
    const child = (sea: string) => answer.students.find((s) => s.sea_no === sea)!;
    expect(['SEAW-1', 'SEAW-2', 'SEAW-3', 'SEAW-4', 'SEAW-5'].map((sea) => child(sea).sex)).toEqual(['Female', 'Male', 'Female', 'Male', 'Female']);
    expect(child('SEAW-2').warning).toBe(`Sex is Male, but ${girls} is a girls' school: check the Sex and the Primary School.`);
    expect(child('SEAW-3').warning).toBe(`Sex is Female, but ${boys} is a boys' school: check the Sex and the Primary School.`);
    for (const sea of ['SEAW-1', 'SEAW-4', 'SEAW-5']) expect(child(sea).warning, sea).toBeNull();
  });

  it('refuses a file without a column it needs, an empty file and a file of another kind (400, 415)', async () => {
    const missing = expectError(await upload(admin, 'sea.csv', 'SEA Number,First Name,Last Name,Sex\nS-1,A,B,Male\n'), 400, 'bad_request');
    expect(missing.message).toBe("The file needs the columns 'Date of Birth', 'Primary School'.");
    expectError(await upload(admin, 'sea.csv', `${HEADER}\n`), 400, 'bad_request');
    expectError(await upload(admin, 'sea.csv', ''), 400);
    expectError(await upload(admin, 'sea.pdf', '%PDF-1.4', 'application/pdf'), 415, 'unsupported_media_type');
    expectError(await admin.post('/api/intake/import', { file: 'x' }), 415, 'unsupported_media_type');
    expect((await view()).students).toEqual([]);
  });
});

describe('the allocation', () => {
  it('Balance spreads each sex evenly (at most one apart) and each school within a sex; the same list gives the same answer', async () => {
    await upload(admin, 'sea.csv', goodList('SEAB'));
    const response = await office.post('/api/intake/balance');
    expect(response.statusCode, response.body).toBe(200);
    const balanced = IntakeViewSchema.parse(response.json());
    expect(balanced.unallocated).toBe(0);
    const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
    expect(spread(balanced.classes.map((c) => c.intake.female))).toBeLessThanOrEqual(1);
    expect(spread(balanced.classes.map((c) => c.intake.male))).toBeLessThanOrEqual(1);
    expect(spread(balanced.classes.map((c) => c.intake.total))).toBeLessThanOrEqual(1);
    expect(balanced.classes.reduce((n, c) => n + c.intake.total, 0)).toBe(14);
    for (const sex of ['Female', 'Male']) {
      for (const school of schools) {
        const perClass = balanced.classes.map((c) => balanced.students.filter((s) => s.class_id === c.id && s.sex === sex && s.primary_school === school).length);
        expect(spread(perClass), `${sex} ${school}`).toBeLessThanOrEqual(1);
      }
    }
    const bySchoolTotal = balanced.classes.flatMap((c) => c.bySchool).reduce((n, s) => n + s.count, 0);
    expect(bySchoolTotal).toBe(14);
    const again = IntakeViewSchema.parse((await office.post('/api/intake/balance')).json());
    expect(again.students).toEqual(balanced.students);
  });

  it('moves one child to another class (or back to none) and refuses a class outside Form 1, an unknown child and a bad body', async () => {
    const imported = IntakeViewSchema.parse((await upload(admin, 'sea.csv', goodList('SEAM'))).json());
    const child = imported.students[0]!;
    const moved = await admin.patch(`/api/intake/students/${child.id}`, { class_id: '1C' });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = IntakeViewSchema.parse(moved.json());
    expect(after.students.find((s) => s.id === child.id)!.class_id).toBe('1C');
    expect(after.classes.find((c) => c.id === '1C')!.intake).toEqual({ total: 1, female: child.sex === 'Female' ? 1 : 0, male: child.sex === 'Male' ? 1 : 0 });
    const audit = await t.database.db.selectFrom('audit_log').select(['entity_id', 'old_value', 'new_value']).where('entity', '=', 'intake').where('field', '=', 'class_id').execute();
    expect(audit.at(-1)).toEqual({ entity_id: child.sea_no, old_value: null, new_value: '1C' });

    const outside = expectError(await admin.patch(`/api/intake/students/${child.id}`, { class_id: '5A' }), 400, 'validation_failed');
    expect(outside.errors).toEqual({ class_id: ['Choose one of the Form 1 classes.'] });
    expectError(await admin.patch('/api/intake/students/999999', { class_id: '1A' }), 404, 'not_found');
    expectError(await admin.patch(`/api/intake/students/${child.id}`, { class_id: 12 }), 400);
    expectError(await admin.patch(`/api/intake/students/${child.id}`, {}), 400);
    expectError(await admin.patch('/api/intake/students/abc', { class_id: '1A' }), 400);
    expectError(await admin.patch('/api/intake/students/99999999999', { class_id: '1A' }), 400);
    const back = IntakeViewSchema.parse((await admin.patch(`/api/intake/students/${child.id}`, { class_id: null })).json());
    expect(back.students.find((s) => s.id === child.id)!.class_id).toBeNull();
  });

  it('clears the intake, after which the list imports again', async () => {
    await upload(admin, 'sea.csv', goodList('SEAR'));
    const cleared = await office.delete('/api/intake');
    expect(cleared.statusCode).toBe(200);
    expect(IntakeViewSchema.parse(cleared.json()).students).toEqual([]);
    expect((await upload(admin, 'sea.csv', goodList('SEAR'))).statusCode).toBe(200);
  });
});

describe('POST /api/intake/finalise', () => {
  it('changes nothing while a child has no class, or when a student took an SEA number meanwhile', async () => {
    expect(expectError(await admin.post('/api/intake/finalise'), 409, 'conflict').message).toMatch(/^Nothing to finalise/);
    await upload(admin, 'sea.csv', goodList('SEAN'));
    await admin.post('/api/intake/balance');
    const child = (await view()).students[3]!;
    await admin.patch(`/api/intake/students/${child.id}`, { class_id: null });
    const unallocated = expectError(await admin.post('/api/intake/finalise'), 400, 'validation_failed');
    expect(unallocated.errors).toEqual({ [`row ${child.row}: Class`]: ['Choose a class.'] });
    await admin.patch(`/api/intake/students/${child.id}`, { class_id: '1B' });

    const bystander = '20220003';
    const before = await t.database.db.selectFrom('students').select('sea_no').where('id', '=', bystander).executeTakeFirstOrThrow();
    await t.database.db.updateTable('students').set({ sea_no: child.sea_no.toLowerCase() }).where('id', '=', bystander).execute();
    const taken = expectError(await admin.post('/api/intake/finalise'), 409, 'conflict');
    expect(taken.errors).toEqual({ [`row ${child.row}: SEA Number`]: [`Student ${bystander} already has this SEA Number.`] });
    await t.database.db.updateTable('students').set({ sea_no: before.sea_no }).where('id', '=', bystander).execute();

    expect(await studentsWithSea('SEAN')).toEqual([]);
    expect((await view()).students).toHaveLength(14);
  });

  it('two finalises at once (two windows, a double click) make the students once: the second is refused with the reason', async () => {
    await upload(admin, 'sea.csv', goodList('SEAD'));
    await admin.post('/api/intake/balance');
    const answers = await Promise.all([admin.post('/api/intake/finalise'), office.post('/api/intake/finalise')]);
    expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join('\n')).toEqual([200, 409]);
    const refused = expectError(answers.find((a) => a.statusCode === 409)!, 409, 'conflict');
    expect(refused.message).toMatch(/^Nothing to finalise: .*finalised or cleared meanwhile/);
    expect(await studentsWithSea('SEAD')).toHaveLength(14);
    expect((await view()).students).toEqual([]);
  });

  it('makes each child a student in their class with the next IDs of the year, who first-logs in by SEA number', async () => {
    const year = Number(schoolToday().slice(0, 4));
    // A student numbered high in the year: the new IDs continue after them, never filling gaps.
    const highest = (await t.database.db.selectFrom('students').select('id').where('id', 'like', `${year}%`).execute())
      .map((s) => sequenceOf(s.id, year) ?? 0)
      .reduce((a, b) => Math.max(a, b), 0);
    const iso = new Date().toISOString();
    await t.database.db.insertInto('students').values({ id: studentIdOf(year, highest + 40), first_name: 'Late', last_name: 'Joiner', created_at: iso, updated_at: iso }).execute();

    await upload(office, 'sea.csv', goodList('SEAF'));
    const balanced = IntakeViewSchema.parse((await office.post('/api/intake/balance')).json());
    const response = await office.post('/api/intake/finalise');
    expect(response.statusCode, response.body).toBe(200);
    const { created } = IntakeFinaliseResultSchema.parse(response.json());
    expect(created.map((c) => c.id)).toEqual(Array.from({ length: 14 }, (_, i) => studentIdOf(year, highest + 41 + i)));
    // In class order, then by name: the screen's order.
    expect(created.map((c) => c.sea_no)).toEqual(balanced.students.map((s) => s.sea_no));

    const stored = await studentsWithSea('SEAF');
    expect(stored).toHaveLength(14);
    for (const c of created) {
      const child = balanced.students.find((s) => s.sea_no === c.sea_no)!;
      expect(stored.find((s) => s.id === c.id)).toEqual({
        id: c.id,
        sea_no: child.sea_no,
        class_id: child.class_id,
        date_of_birth: child.date_of_birth,
        sex: child.sex,
        previous_school: child.primary_school,
        middle_name: child.middle_name,
      });
    }
    expect((await view()).students).toEqual([]);
    const audit = await t.database.db.selectFrom('audit_log').select(['action', 'entity_id']).where('action', '=', 'create').where('entity_id', 'in', created.map((c) => c.id)).execute();
    expect(audit).toHaveLength(14);

    const newcomer = balanced.students.find((s) => s.sea_no === created[0]!.sea_no)!;
    const login = await client().post('/api/first-login', { identifier: newcomer.sea_no, date_of_birth: newcomer.date_of_birth });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json()).toMatchObject({ student_id: created[0]!.id, first_login: 1 });

    // Their SEA numbers are now students': the same list is refused row by row.
    const again = expectError(await upload(office, 'sea.csv', goodList('SEAF')), 400, 'validation_failed');
    expect(again.errors!['row 2: SEA Number']).toEqual([`Student ${created.find((c) => c.sea_no === 'SEAF-000')!.id} already has this SEA Number.`]);
  });
});

describe('POST /api/intake/finalises/:id/undo', () => {
  const ACTOR = { actor_user_id: null, actor_label: 'test', ip: null, request_id: null };

  async function finalised(prefix: string): Promise<{ id: number; balanced: IntakeView; created: string[] }> {
    await upload(office, 'sea-undo.csv', goodList(prefix));
    const balanced = IntakeViewSchema.parse((await office.post('/api/intake/balance')).json());
    const response = await office.post('/api/intake/finalise');
    expect(response.statusCode, response.body).toBe(200);
    const result = IntakeFinaliseResultSchema.parse(response.json());
    return { id: result.finalise_id, balanced, created: result.created.map((c) => c.id) };
  }
  const accountsOf = (ids: string[]) => t.database.db.selectFrom('users').select('student_id').where('student_id', 'in', ids).execute();

  it('refuses a bad or unknown finalise, another day, an intake waiting, a used student and a finalise under a later one; nothing changes', async () => {
    const first = await finalised('SEAU');
    expect((await view()).finalises[0]).toMatchObject({ id: first.id, count: 14, first_id: first.created[0], last_id: first.created.at(-1), can_undo: true, undone_at: null });
    expectError(await office.post('/api/intake/finalises/abc/undo'), 400);
    expectError(await office.post('/api/intake/finalises/999999/undo'), 404, 'not_found');
    const tomorrow = new Date(Date.now() + 36 * 3600_000);
    const late = await undoFinalise(t.database.db, ACTOR, first.id, tomorrow).then(
      () => null,
      (error: unknown) => error as { statusCode: number; message: string },
    );
    expect(late?.statusCode).toBe(409);
    expect(late?.message).toMatch(/only on the day it ran \(\d{2}\/\d{2}\/\d{4}\)/);

    await upload(office, 'sea.csv', goodList('SEAV'));
    expect(expectError(await office.post(`/api/intake/finalises/${first.id}/undo`), 409, 'conflict').message).toMatch(/SEA list is imported and waiting/);
    await office.delete('/api/intake');

    // One new student signs in the first time: the finalise is no longer undone whole.
    const child = first.balanced.students.find((s) => s.sea_no === 'SEAU-003')!;
    const newcomer = (await studentsWithSea('SEAU')).find((s) => s.sea_no === child.sea_no)!.id;
    expect((await client().post('/api/first-login', { identifier: child.sea_no, date_of_birth: child.date_of_birth })).statusCode).toBe(200);
    const used = expectError(await office.post(`/api/intake/finalises/${first.id}/undo`), 409, 'conflict');
    expect(used.message).toMatch(new RegExp(`^1 new student was used or changed since the finalise \\(${newcomer}\\)`));
    expect(await studentsWithSea('SEAU')).toHaveLength(14);
    expect((await view()).students).toEqual([]);

    // Another finalise after it: only the newest can be undone.
    const second = await finalised('SEAT');
    expect(expectError(await office.post(`/api/intake/finalises/${first.id}/undo`), 409, 'conflict').message).toMatch(/later finalise stands/);
    expect((await view()).finalises.map((f) => [f.id, f.can_undo])).toEqual(expect.arrayContaining([[second.id, true], [first.id, false]]));
    expect((await office.post(`/api/intake/finalises/${second.id}/undo`)).statusCode).toBe(200);
    await office.delete('/api/intake');
  });

  it('the same day: the students go (accounts too), the children are back in the intake in their classes; audited; once only', async () => {
    const { id, balanced, created } = await finalised('SEAZ');
    const undoAudit = () => t.database.db.selectFrom('audit_log').select('id').where('action', '=', 'finalise-undo').where('entity_id', 'in', [...created, String(id)]).execute();
    const auditBefore = (await undoAudit()).length;
    const response = await office.post(`/api/intake/finalises/${id}/undo`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = IntakeUndoAnswerSchema.parse(response.json());
    expect(answer.message).toBe('The finalise is undone: 14 children are back in the intake, in the same classes.');
    const strip = (v: IntakeView) => v.students.map(({ id: _id, ...child }) => child);
    expect(strip(answer.view)).toEqual(strip(balanced));
    expect(answer.view.finalises.find((f) => f.id === id)).toMatchObject({ can_undo: false });
    expect(answer.view.finalises.find((f) => f.id === id)!.undone_at).not.toBeNull();
    expect(await studentsWithSea('SEAZ')).toEqual([]);
    expect(await accountsOf(created)).toEqual([]);
    // One row per student and one for the whole (the IDs may have been given and taken back before).
    expect((await undoAudit()).length - auditBefore).toBe(15);
    expectError(await office.post(`/api/intake/finalises/${id}/undo`), 409, 'conflict');

    // Finalised again, then two undos at once: one undoes, the other is told.
    const again = IntakeFinaliseResultSchema.parse((await office.post('/api/intake/finalise')).json());
    expect(again.created).toHaveLength(14);
    const answers = await Promise.all([office.post(`/api/intake/finalises/${again.finalise_id}/undo`), admin.post(`/api/intake/finalises/${again.finalise_id}/undo`)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await view()).students).toHaveLength(14);
    expect(await studentsWithSea('SEAZ')).toEqual([]);
  });
});
