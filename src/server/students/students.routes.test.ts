import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { readWorkbook } from '../../../tests/support/workbook.js';
import { AdminStudentListSchema, StudentImportResultSchema, listName } from '../../shared/students.schemas.js';
import { toCompactDate } from '../../shared/dates.js';
import { REGISTRATION_FIELDS } from '../../shared/registration.fields.js';
import { nowIso } from '../db/database.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * The admin routes against the seeded demo school, on SQLite and PostgreSQL: the
 * permission matrix of every route, the student list, the admin's edit through POST
 * /api/student, the spreadsheet and reports read back, Import Students, and the reset.
 */

const { registered, inProgress } = DEMO_STUDENTS;

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.7.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
});
afterAll(async () => {
  await t?.close();
});

/** A multipart/form-data body with one file in the field "file". */
function multipart(fileName: string, content: Buffer | string, mime: string) {
  const boundary = `----portal${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${mime}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const CSV = 'text/csv';
function upload(c: TestClient, dryRun: 0 | 1, fileName: string, content: Buffer | string, mime = CSV) {
  const { body, headers } = multipart(fileName, content, mime);
  return c.post(`/api/students/import?dryRun=${dryRun}`, body, { headers });
}

const ADMIN_GETS = [
  '/api/students',
  '/api/registration-data-spreadsheet',
  '/api/registration-report/all',
  '/api/registration-report/1A',
  '/api/parents-contact/all',
  '/api/parents-contact/1A',
  '/api/parents-contact-spreadsheet/all',
  '/api/students/import-template',
];

describe('permission matrix', () => {
  it('every admin route refuses visitors (401) and students (403)', async () => {
    const visitor = client();
    const student = await client().signInStudent(registered.student_id, registered.password);
    for (const url of ADMIN_GETS) {
      expectError(await visitor.get(url), 401, 'unauthenticated');
      expectError(await student.get(url), 403, 'forbidden');
    }
    expectError(await upload(visitor, 1, 'students.csv', 'Student ID\n1'), 401, 'unauthenticated');
    expectError(await upload(student, 1, 'students.csv', 'Student ID\n1'), 403, 'forbidden');
    // The import writes: it needs the CSRF header like every other change.
    const { body, headers } = multipart('students.csv', 'Student ID\n1', CSV);
    expectError(await admin.post('/api/students/import?dryRun=0', body, { headers, csrf: false }), 403, 'csrf_failed');
  });

  it('every admin route is declared for staff: a school-wide action, no student route (D49)', () => {
    const adminPaths = t.app.routeTable
      // A student's family, its parent e-mails' marks, its re-registration and its history are
      // reached per student, through the policy's student actions.
      .filter(
        (route) =>
          /^\/api\/(students|registration-data|registration-report|parents-contact)/.test(route.url) &&
          !/^\/api\/students\/:(student_id|studentId)\/(family|parent-emails|re-registration|history)/.test(route.url),
      )
      .map((route) => [route.url, route.config?.access] as const);
    expect(adminPaths.length).toBeGreaterThanOrEqual(7);
    for (const [url, access] of adminPaths) {
      expect(typeof access === 'object' && 'can' in access && !('student' in access), url).toBe(true);
    }
  });
});

describe('GET /api/students', () => {
  it('answers the list fields of every student, by class and then last and first name', async () => {
    const response = await admin.get('/api/students');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const list = AdminStudentListSchema.parse(response.json());
    const { count } = await t.database.db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(list).toHaveLength(Number(count));
    expect(Object.keys(list[0]!).sort()).toEqual(['birth_certificate_no', 'class_id', 'date_of_birth', 'first_name', 'id', 'last_name', 'middle_name', 'registration', 'sex', 'updatedAt']);
    const key = (s: (typeof list)[number]) => [s.class_id ?? '~', s.last_name?.toLowerCase() ?? '~', s.first_name?.toLowerCase() ?? '~', s.id];
    for (let i = 1; i < list.length; i++) {
      const [before, after] = [key(list[i - 1]!), key(list[i]!)];
      const order = before.findIndex((part, j) => part !== after[j]);
      expect(order === -1 || before[order]! < after[order]!, `${before.join('/')} before ${after.join('/')}`).toBe(true);
    }
    const row = list.find((s) => s.id === registered.student_id)!;
    const stored = await t.database.db.selectFrom('students').selectAll().where('id', '=', registered.student_id).executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: stored.id,
      first_name: registered.first_name,
      last_name: registered.last_name,
      class_id: stored.class_id,
      date_of_birth: stored.date_of_birth,
      birth_certificate_no: stored.birth_certificate_no,
      middle_name: stored.middle_name,
      sex: stored.sex,
      updatedAt: stored.updated_at,
      registration: 'submitted',
    });
    expect(listName(row)).toBe(`${registered.last_name}, ${registered.first_name}`);
  });
});

describe('Edit Student (POST /api/student as an administrator)', () => {
  const target = '20260001';

  it('refuses empty names and pin, a birth date before 1950 or in the future; stores nothing', async () => {
    const before = await t.database.db.selectFrom('students').selectAll().where('id', '=', target).executeTakeFirstOrThrow();
    for (const [field, value] of [
      ['first_name', ''],
      ['last_name', '  '],
      ['birth_certificate_no', ''],
      ['date_of_birth', '1949-12-31'],
      ['date_of_birth', '2999-01-01'],
      ['first_name', 'x'.repeat(21)],
    ] as const) {
      const body = expectError(await admin.post('/api/student', { id: target, [field]: value }), 400, 'validation_failed');
      expect(Object.keys(body.errors ?? {})).toContain(field);
    }
    const after = await t.database.db.selectFrom('students').selectAll().where('id', '=', target).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it('saves every field in one request, and the list shows them', async () => {
    const response = await admin.post('/api/student', { id: target, first_name: 'Jadon', last_name: 'Ramdass-Lee', date_of_birth: '2013-05-06', birth_certificate_no: 'B13-7700001' });
    expect(response.statusCode, response.body).toBe(200);
    const list = AdminStudentListSchema.parse((await admin.get('/api/students')).json());
    expect(list.find((s) => s.id === target)).toMatchObject({ id: target, first_name: 'Jadon', last_name: 'Ramdass-Lee', date_of_birth: '2013-05-06', birth_certificate_no: 'B13-7700001' });
    const audit = await t.database.db.selectFrom('audit_log').select(['field', 'actor_label']).where('entity_id', '=', target).where('action', '=', 'update').execute();
    expect(audit.map((a) => a.field)).toEqual(expect.arrayContaining(['first_name', 'last_name', 'date_of_birth', 'birth_certificate_no']));
    expect(audit.every((a) => a.actor_label.startsWith('admin:'))).toBe(true);
  });
});

describe('Registration Data.xlsx', () => {
  it('streams every student with readable headers, names for codes, dates as dates, a frozen filtered header, inert formulas', async () => {
    const db = t.database.db;
    const victim = await db.selectFrom('students').select(['id']).where('class_id', '=', '2B').orderBy('id').executeTakeFirstOrThrow();
    // Unanswered health questions and permit (D75): exported as Not answered, never as No (D84).
    const unanswered = await db.selectFrom('students').select(['id']).where('class_id', '=', '2C').orderBy('id').executeTakeFirstOrThrow();
    await db
      .updateTable('students')
      .set({ immigration_permit: null, hepatitis: null, asthma: null, diabetes: 0, polio: 1, updated_at: nowIso() })
      .where('id', '=', unanswered.id)
      .execute();
    await db.updateTable('students').set({ allergy: '=HYPERLINK("http://evil.example","click")', medical_history: '@SUM(1+1)', updated_at: nowIso() }).where('id', '=', victim.id).execute();

    const response = await admin.get('/api/registration-data-spreadsheet');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.headers['content-disposition']).toContain('attachment; filename="Registration Data.xlsx"');
    const { workbook, sheet, headers, rowOf } = await readWorkbook(response.rawPayload);

    expect(headers[0]).toBe('Student ID');
    for (const field of REGISTRATION_FIELDS) expect(headers).toContain(field.label);
    expect(headers).toEqual(expect.arrayContaining(['Documents Complete', 'Registration Submitted', 'Last Updated']));
    expect(new Set(headers).size).toBe(headers.length);
    const { count } = await db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(sheet.actualRowCount).toBe(Number(count) + 1);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(workbook.worksheets[0]!.autoFilter).toBeTruthy();

    const stored = await db.selectFrom('students').selectAll().where('id', '=', registered.student_id).executeTakeFirstOrThrow();
    const religion = await db.selectFrom('religions').select('religion').where('code', '=', stored.religion_code!).executeTakeFirstOrThrow();
    const house = await db.selectFrom('houses').select('name').where('id', '=', stored.house_code!).executeTakeFirstOrThrow();
    const cell = rowOf(registered.student_id);
    expect(cell('First Name')).toBe(registered.first_name);
    expect(cell('Last Name')).toBe(registered.last_name);
    expect(cell('Class')).toBe(stored.class_id);
    expect(cell('Religion')).toBe(religion.religion);
    expect(cell('House')).toBe(house.name);
    expect(cell('Date of Birth')).toEqual(new Date(`${stored.date_of_birth}T00:00:00.000Z`));
    expect(cell('I Agree to the Terms and Conditions')).toBe('Yes');
    expect(cell('Registration Submitted')).toBe('Yes');
    expect(cell('Last Updated')).toBeInstanceOf(Date);
    // Cells share their column's style object (xlsx-writer.ts): every row keeps the date formats.
    const columnOf = (header: string) => headers.indexOf(header) + 1;
    sheet.eachRow((row, rowNumber) => {
      if (rowNumber === 1) return;
      expect(row.getCell(columnOf('Date of Birth')).numFmt).toBe('yyyy-mm-dd');
      expect(row.getCell(columnOf('Last Updated')).numFmt).toBe('yyyy-mm-dd hh:mm');
    });

    // Phones as every export prints them (the Parents Contact and the call list too).
    const phone = stored.mobile_phone_mother!;
    expect(cell("Mother's Mobile Phone")).toBe(`(868) ${phone.slice(0, 3)}-${phone.slice(3)}`);

    const notAnswered = rowOf(unanswered.id);
    expect([notAnswered('Immigration Permit'), notAnswered('Hepatitis'), notAnswered('Asthma')]).toEqual(['Not answered', 'Not answered', 'Not answered']);
    expect([notAnswered('Diabetes'), notAnswered('Polio')]).toEqual(['No', 'Yes']);

    const evil = rowOf(victim.id);
    expect(evil('Allergies')).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(evil('Medical History')).toBe(`'@SUM(1+1)`);

    const audit = await db.selectFrom('audit_log').select(['action', 'new_value']).where('action', '=', 'export').execute();
    expect(audit.map((a) => a.new_value)).toContain('Registration Data.xlsx');
  });
});

describe('registration report', () => {
  it('all classes: a section per class with each student, class and school totals', async () => {
    const response = await admin.get('/api/registration-report/all');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.text).toContain('Registration Report');
    expect(pdf.text).toContain('All classes');
    expect(pdf.text).toContain('School total');
    for (const classId of ['1A', '3B', '5D']) expect(pdf.text).toContain(`Form ${classId[0]} ${classId}`);
    expect(pdf.compact).toContain(`${registered.last_name},${registered.first_name}`.replace(/\s/g, ''));
    expect(pdf.text).toContain('Class total');
    expect(pdf.text).toContain('Missing Documents');
    const { count } = await t.database.db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(pdf.text).toContain(`Summary — ${count} students`);
    expect(pdf.pageSizes[0]).toEqual([792, 612]);
  });

  it('one class: only that class; an unknown class is 404 and a malformed one 400', async () => {
    const stored = await t.database.db.selectFrom('students').select(['class_id']).where('id', '=', inProgress.student_id).executeTakeFirstOrThrow();
    const response = await admin.get(`/api/registration-report/${stored.class_id}`);
    expect(response.statusCode).toBe(200);
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.text).toContain(`Form ${stored.class_id![0]} ${stored.class_id}`);
    expect(pdf.compact).toContain(inProgress.student_id);
    expect(pdf.compact).not.toContain(registered.student_id);
    // One class: its class total, and no school total repeating it (D84).
    expect(pdf.text).toContain('Class total');
    expect(pdf.text).not.toContain('School total');
    // A student half-way through: Family Data is not done and documents are missing.
    expect(pdf.text).toMatch(/Birth Certificate/);
    expectError(await admin.get('/api/registration-report/9Z'), 404, 'not_found');
    expectError(await admin.get('/api/registration-report/not%20a%20class'), 400, 'validation_failed');
  });
});

describe('Parents Contact', () => {
  it('PDF: mother, father, guardian and emergency contact per student', async () => {
    const stored = await t.database.db.selectFrom('students').selectAll().where('id', '=', registered.student_id).executeTakeFirstOrThrow();
    const response = await admin.get(`/api/parents-contact/${stored.class_id}`);
    expect(response.statusCode).toBe(200);
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.text).toContain('Parents Contact');
    for (const heading of ['Mother', 'Father', 'Guardian', 'Emergency Contact']) expect(pdf.text).toContain(heading);
    expect(pdf.compact).toContain(`${registered.last_name},${registered.first_name}`);
    expect(stored.emergency_contact).toBeTruthy();
    expect(pdf.compact).toContain(stored.emergency_contact!.replace(/\s/g, ''));
    const parent = stored.mother_name ?? stored.father_name ?? stored.guardian_name;
    expect(pdf.compact).toContain(parent!.replace(/\s/g, ''));
    // The class runs over several pages, and each continued page repeats the class's heading.
    const { count } = await t.database.db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('count')).where('class_id', '=', stored.class_id).executeTakeFirstOrThrow();
    expect(pdf.pages).toBeGreaterThan(1);
    for (const page of pdf.pageTexts) expect(page).toContain(`Form ${stored.class_id![0]} ${stored.class_id}`);
    for (const page of pdf.pageTexts) expect(page).toContain(`(${Number(count)} students)`);
  });

  it('spreadsheet: one row per student of the class, phones with the prefix', async () => {
    const stored = await t.database.db.selectFrom('students').selectAll().where('id', '=', registered.student_id).executeTakeFirstOrThrow();
    const response = await admin.get(`/api/parents-contact-spreadsheet/${stored.class_id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(`Parents Contact - Form ${stored.class_id![0]} ${stored.class_id}.xlsx`);
    const { sheet, headers, rowOf } = await readWorkbook(response.rawPayload);
    expect(headers).toEqual(expect.arrayContaining(["Mother's Name", "Father's Mobile Phone", "Guardian's E-mail", 'Emergency Contact', 'Emergency Contact Phone']));
    const { count } = await t.database.db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('count')).where('class_id', '=', stored.class_id).executeTakeFirstOrThrow();
    expect(sheet.actualRowCount).toBe(Number(count) + 1);
    const cell = rowOf(registered.student_id);
    expect(cell('Emergency Contact')).toBe(stored.emergency_contact);
    const phone = stored.emergency_home_phone!;
    expect(cell('Emergency Contact Phone')).toBe(`(868) ${phone.slice(0, 3)}-${phone.slice(3)}`);
  });
});

describe('Import Students', () => {
  it('serves the template with the headings the import reads', async () => {
    const response = await admin.get('/api/students/import-template');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('Student Import Template.xlsx');
    const { headers } = await readWorkbook(response.rawPayload);
    expect(headers).toEqual(['Student ID', 'First Name', 'Middle Name', 'Last Name', 'Sex', 'Date of Birth', 'Birth Certificate Pin', 'SEA Number', 'Class', 'House', 'Previous School']);
    // The template uploaded back as it is (no rows) is refused with a clear message.
    const empty = await upload(admin, 1, 'template.xlsx', response.rawPayload, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(expectError(empty, 400).message).toContain('no student rows');
  });

  it('a good file: the dry run previews, the import creates and updates, first sign-in works', async () => {
    const db = t.database.db;
    const existing = await db.selectFrom('students').selectAll().where('id', '=', '20250003').executeTakeFirstOrThrow();
    const house = await db.selectFrom('houses').select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow();
    const csv = [
      'Student ID,First Name,Last Name,Date of Birth,Birth Certificate Pin,Class,House,Sex,Religion,Home Phone',
      `20269001,Imani,Joseph,2014-02-03,B26-9000001,1A,${house.name},female,Hindu,(868) 622-1234`,
      `20269002,Kai,Ali,09/03/2014,B26-9000002,1B,${house.id},Male,,`,
      `${existing.id},${existing.first_name},Renamed-Kay,,,,,,,`,
      `${registered.student_id},${registered.first_name},${registered.last_name},,,,,,,`,
    ].join('\r\n');

    const preview = StudentImportResultSchema.parse((await upload(admin, 1, 'new students.csv', csv)).json());
    expect(preview).toMatchObject({ dryRun: true, committed: false, summary: { created: 2, updated: 1, unchanged: 1, errors: 0 } });
    expect(preview.rows.map((r) => [r.row, r.id, r.action])).toEqual([
      [2, '20269001', 'create'],
      [3, '20269002', 'create'],
      [4, existing.id, 'update'],
      [5, registered.student_id, 'unchanged'],
    ]);
    expect(preview.rows[2]!.changes).toEqual(['last_name']);
    expect(await db.selectFrom('students').select('id').where('id', '=', '20269001').executeTakeFirst()).toBeUndefined();

    const response = await upload(admin, 0, 'new students.csv', csv);
    expect(response.statusCode, response.body).toBe(200);
    expect(StudentImportResultSchema.parse(response.json())).toMatchObject({ committed: true, summary: { created: 2, updated: 1, unchanged: 1, errors: 0 } });

    const created = await db.selectFrom('students').selectAll().where('id', 'in', ['20269001', '20269002']).orderBy('id').execute();
    expect(created.map((s) => [s.first_name, s.date_of_birth, s.class_id, s.house_code])).toEqual([
      ['Imani', '2014-02-03', '1A', house.id],
      ['Kai', '2014-03-09', '1B', house.id],
    ]);
    expect(created[0]).toMatchObject({ sex: 'Female', phone_home: '6221234' });
    expect(created[0]!.religion_code).not.toBeNull();
    const renamed = await db.selectFrom('students').selectAll().where('id', '=', existing.id).executeTakeFirstOrThrow();
    expect(renamed.last_name).toBe('Renamed-Kay');
    expect(renamed.first_name).toBe(existing.first_name);
    expect(renamed.date_of_birth).toBe(existing.date_of_birth);

    const user = await db.selectFrom('users').selectAll().where('student_id', '=', '20269001').executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'student', first_login: 1, password_hash: null });
    const firstLogin = await client().post('/api/first-login', { identifier: 'B26-9000001', date_of_birth: '20140203' });
    expect(firstLogin.statusCode, firstLogin.body).toBe(200);
    expect(firstLogin.json()).toMatchObject({ student_id: '20269001', first_login: 1 });

    const audit = await db.selectFrom('audit_log').select(['action', 'entity_id', 'field']).where('action', 'in', ['create', 'import']).execute();
    expect(audit).toEqual(expect.arrayContaining([{ action: 'create', entity_id: '20269001', field: null }, expect.objectContaining({ action: 'import' })]));
  });

  it('a bad file: every row’s problems in the preview; the import refuses and writes nothing', async () => {
    const db = t.database.db;
    const other = await db.selectFrom('students').select(['id', 'birth_certificate_no']).where('id', '=', '20230002').executeTakeFirstOrThrow();
    const csv = [
      'Student ID;First Name;Last Name;Date of Birth;Birth Certificate Pin;Class;Sex;Favourite Colour',
      '20269101;Ana;;2014-02-03;B26-9100001;1A;Female;red',
      '20269102;Ben;Cole;2099-01-01;B26-9100002;9Z;Boy;blue',
      `20269103;Cy;Dean;2014-01-01;${other.birth_certificate_no};1A;Male;green`,
      'not an id!;Di;Eve;2014-01-01;B26-9100004;1A;Male;',
      '20269105;Ed;Fox;2014-01-01;;1A;Male;',
    ].join('\n');
    const preview = StudentImportResultSchema.parse((await upload(admin, 1, 'bad.csv', csv)).json());
    expect(preview.ignoredColumns).toEqual(['Favourite Colour']);
    expect(preview.summary).toEqual({ created: 0, updated: 0, unchanged: 0, errors: 5 });
    const errorsOf = (row: number) => preview.rows.find((r) => r.row === row)!.errors;
    expect(errorsOf(2).last_name).toEqual(['Required for a new student.']);
    expect(errorsOf(3)).toMatchObject({ date_of_birth: ['The date cannot be in the future.'], class_id: ["'9Z' is not one of the listed values."], sex: ['Choose one of: Female, Male (or F, M).'] });
    expect(errorsOf(4).birth_certificate_no).toEqual([`Student ${other.id} already has this Birth Certificate Pin.`]);
    expect(errorsOf(5).id).toBeDefined();
    expect(errorsOf(6).birth_certificate_no?.[0]).toContain('Birth Certificate Pin or an SEA Number');

    const refused = expectError(await upload(admin, 0, 'bad.csv', csv), 400, 'validation_failed');
    expect(refused.message).toBe('5 rows have problems; nothing was imported.');
    expect(Object.keys(refused.errors ?? {})).toContain('row 3: Date of Birth');
    const written = await db.selectFrom('students').select('id').where('id', 'like', '202691%').execute();
    expect(written).toEqual([]);
  });

  it('swaps two students’ pins in one file (the unique index checks each statement; the import clears them first)', async () => {
    const db = t.database.db;
    const pair = await db.selectFrom('students').select(['id', 'birth_certificate_no']).where('id', 'like', '2024%').where('birth_certificate_no', 'is not', null).orderBy('id').offset(40).limit(2).execute();
    const [a, b] = pair as [{ id: string; birth_certificate_no: string }, { id: string; birth_certificate_no: string }];
    const csv = ['Student ID,Birth Certificate Pin', `${a.id},${b.birth_certificate_no}`, `${b.id},${a.birth_certificate_no}`].join('\n');
    const done = await upload(admin, 0, 'swap.csv', csv);
    expect(done.statusCode, done.body).toBe(200);
    const after = await db.selectFrom('students').select(['id', 'birth_certificate_no']).where('id', 'in', [a.id, b.id]).orderBy('id').execute();
    expect(after).toEqual([
      { id: a.id, birth_certificate_no: b.birth_certificate_no },
      { id: b.id, birth_certificate_no: a.birth_certificate_no },
    ]);
  });

  it('a mixed XLSX: good rows are not written while one row has a problem (all or nothing); formulas are refused', async () => {
    const db = t.database.db;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Students');
    sheet.addRow(['Student ID', 'First Name', 'Last Name', 'Date of Birth', 'SEA Number', 'Class']);
    sheet.addRow([20269201, 'Gia', 'Hall', new Date(Date.UTC(2014, 0, 5)), 'SEA2026-9201', '2A']);
    sheet.addRow(['20269202', 'Hu', { formula: 'UPPER("x")', result: 'X' }, '2014-01-06', 'SEA2026-9202', '2A']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const mime = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

    const preview = StudentImportResultSchema.parse((await upload(admin, 1, 'mixed.xlsx', bytes, mime)).json());
    expect(preview.rows.map((r) => r.action)).toEqual(['create', 'error']);
    expect(preview.rows[1]!.errors.last_name?.[0]).toContain('Formulas are not imported');
    expectError(await upload(admin, 0, 'mixed.xlsx', bytes, mime), 400, 'validation_failed');
    expect(await db.selectFrom('students').select('id').where('id', 'in', ['20269201', '20269202']).execute()).toEqual([]);

    // Fixed, the same file imports both, the XLSX date read as a date.
    sheet.getRow(3).getCell(3).value = 'Ito';
    const fixed = Buffer.from(await workbook.xlsx.writeBuffer());
    const done = await upload(admin, 0, 'mixed.xlsx', fixed, mime);
    expect(done.statusCode, done.body).toBe(200);
    const rows = await db.selectFrom('students').select(['id', 'date_of_birth', 'sea_no']).where('id', 'in', ['20269201', '20269202']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: '20269201', date_of_birth: '2014-01-05', sea_no: 'SEA2026-9201' },
      { id: '20269202', date_of_birth: '2014-01-06', sea_no: 'SEA2026-9202' },
    ]);
  });

  it('refuses a file without a Student ID column, a non-spreadsheet, and a request without a file', async () => {
    expect(expectError(await upload(admin, 1, 'x.csv', 'First Name,Last Name\nA,B'), 400).message).toContain('Student ID');
    expectError(await upload(admin, 1, 'photo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png'), 415, 'unsupported_media_type');
    expectError(await admin.post('/api/students/import?dryRun=1', { file: 'x' }), 415, 'unsupported_media_type');
    const { body, headers } = multipart('x.csv', 'Student ID\n1', CSV);
    expectError(await admin.post('/api/students/import?dryRun=2', body, { headers }), 400, 'validation_failed');
  });
});

describe('password reset from the list', () => {
  it('reset, then the first sign-in with the date of birth (yyyymmdd) asks for a new password', async () => {
    const db = t.database.db;
    const target = await db.selectFrom('students').select(['id', 'date_of_birth']).where('id', 'like', '2025%').orderBy('id').offset(7).limit(1).executeTakeFirstOrThrow();
    const reset = await admin.post('/api/reset-password-student', { student_id: target.id });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: 'password reset successfully' });
    const student = client();
    const signIn = await student.post('/api/login-student', { student_id: target.id, password: toCompactDate(target.date_of_birth!) });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json()).toMatchObject({ student_id: target.id, password_reset: 1 });
    expectError(await student.get(`/api/student-record/${target.id}`), 403, 'password_change_required');
  });
});
