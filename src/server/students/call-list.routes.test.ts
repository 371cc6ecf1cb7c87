import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { readWorkbook } from '../../../tests/support/workbook.js';
import { AdminStudentListSchema, matchesStudentFilter, type AdminStudent } from '../../shared/students.schemas.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * Chasing incomplete registrations, on SQLite and PostgreSQL: the student list says how far each
 * registration has come (from the stored progress), and GET /api/students/call-list answers the
 * same filtered list as a spreadsheet with the parents' phones and e-mails, administrators only,
 * audited; a bad filter is a 400.
 */

const { registered, inProgress } = DEMO_STUDENTS;
let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.11.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
});
afterAll(async () => {
  await t?.close();
});

async function readPdfText(response: { rawPayload: Buffer }): Promise<string> {
  const pdf = await readPdf(response.rawPayload);
  return pdf.text;
}

async function list(): Promise<AdminStudent[]> {
  return AdminStudentListSchema.parse((await admin.get('/api/students')).json());
}

describe('registration state in the student list', () => {
  it('is not started, in progress or complete, by the rules of the registration report', async () => {
    const students = await list();
    const byId = new Map(students.map((s) => [s.id, s.registration]));
    expect(byId.get(registered.student_id)).toBe('submitted');
    expect(byId.get(inProgress.student_id)).toBe('in_progress');
    expect(byId.get(DEMO_STUDENTS.firstLogin.student_id)).toBe('not_started');
    // The demo school has families at every stage, so each filter has someone to find.
    expect(new Set(students.map((s) => s.registration))).toEqual(new Set(['not_started', 'in_progress', 'submitted']));
    // "Complete" counts as the registration report counts it: all six steps done.
    const report = await readPdfText(await admin.get('/api/registration-report/all'));
    const complete = students.filter((s) => s.registration === 'submitted').length;
    expect(report.replace(/\s+/g, ' ')).toContain(`${students.length} students, ${complete} with every step complete`);
  });
});

describe('GET /api/students/call-list', () => {
  it('is for administrators only; a bad filter is 400 with the field named', async () => {
    const url = '/api/students/call-list?registration=not_started';
    expect((await client().get(url)).statusCode).toBe(401);
    const student = await client().signInStudent(registered.student_id, registered.password);
    expect((await student.get(url)).statusCode).toBe(403);
    for (const [query, field] of [
      ['registration=started', 'registration'],
      ['class_id=%3Cscript%3E', 'class_id'],
      [`search=${'x'.repeat(101)}`, 'search'],
    ] as const) {
      const response = await admin.get(`/api/students/call-list?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(ApiErrorSchema.parse(response.json()).errors ?? {})).toContain(field);
    }
  });

  it('holds exactly the filtered list, by class and name, with the parents’ phones and e-mails, and is audited', async () => {
    const db = t.database.db;
    const students = await list();
    const target = students.find((s) => s.registration === 'in_progress' && s.class_id !== null)!;
    const filter = { class_id: target.class_id!, registration: 'in_progress' as const };
    const expected = students.filter((s) => matchesStudentFilter(s, filter));
    expect(expected.length).toBeGreaterThan(0);

    const response = await admin.get(`/api/students/call-list?class_id=${filter.class_id}&registration=in_progress`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(decodeURIComponent(String(response.headers['content-disposition']))).toContain(`Call List - ${filter.class_id}, In progress.xlsx`);
    const { headers, rows } = await readWorkbook(response.rawPayload);
    expect(headers.slice(0, 6)).toEqual(['Student ID', 'Last Name', 'First Name', 'Class', 'Date of Birth', 'Registration']);
    expect(headers).toEqual(expect.arrayContaining(["Mother's Mobile Phone", "Mother's E-mail", "Father's Mobile Phone", "Father's E-mail", "Guardian's Mobile Phone", 'Emergency Contact Phone']));
    expect(rows.map((r) => r['Student ID']).sort()).toEqual(expected.map((s) => s.id).sort());
    expect(rows.every((r) => r.Class === filter.class_id && r.Registration === 'In progress')).toBe(true);
    const names = rows.map((r) => [r['Last Name'], r['First Name']].map((cell) => (typeof cell === 'string' ? cell : '')).join('|'));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));

    const first = rows[0]!;
    const record = await db.selectFrom('students').selectAll().where('id', '=', first['Student ID'] as string).executeTakeFirstOrThrow();
    expect(first["Mother's E-mail"] ?? null).toBe(record.email_mother);
    if (record.mobile_phone_mother) expect(first["Mother's Mobile Phone"]).toBe(`(868) ${record.mobile_phone_mother.slice(0, 3)}-${record.mobile_phone_mother.slice(3)}`);

    const audit = await db.selectFrom('audit_log').select(['action', 'new_value']).where('action', '=', 'export').where('new_value', 'like', 'Call list%').execute();
    expect(audit).toEqual([{ action: 'export', new_value: `Call list (${filter.class_id}, In progress): ${expected.length} students` }]);
  });

  it('searches as the list does: by class and by date of birth', async () => {
    const students = await list();
    const target = students.find((s) => s.date_of_birth !== null)!;
    const month = target.date_of_birth!.slice(0, 7);
    const response = await admin.get(`/api/students/call-list?search=${month}`);
    const { rows } = await readWorkbook(response.rawPayload);
    const expected = students.filter((s) => matchesStudentFilter(s, { search: month }));
    expect(expected.some((s) => s.id === target.id)).toBe(true);
    expect(rows.map((r) => r['Student ID']).sort()).toEqual(expected.map((s) => s.id).sort());
    expect(students.filter((s) => matchesStudentFilter(s, { search: '2b' })).every((s) => s.class_id === '2B' || JSON.stringify(s).toLowerCase().includes('2b'))).toBe(true);
  });
});
