import crypto from 'node:crypto';
import { studentParamOf } from '../http/access.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient } from '../../../tests/support/test-app.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { AuditLogPageSchema, DeleteStudentAnswerSchema, StudentExportSchema, StudentHistorySchema } from '../../shared/privacy.schemas.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { agentFor, OWN_STUDENT, routeRows } from '../../../tests/support/security/harness.js';
import { sampleFor } from '../../../tests/support/security/route-samples.js';

/**
 * Administrators' reads of a student's data, documents and
 * exports are logged (generated over the route table, so a new student-data route is covered
 * when it arrives); the log and a student's change history are readable by administrators only;
 * a student's data exports whole and deletes whole.
 */

const t = await createTestApp();
afterAll(() => t.close());
const db = t.database.db;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.8.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
const admin = () => client().signInAdmin();

const auditCount = async () => Number((await db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const lastAudit = () => db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

function expectError(response: { statusCode: number; json(): unknown }, status: number) {
  expect(response.statusCode).toBe(status);
  return ApiErrorSchema.parse(response.json());
}

describe('administrator reads are logged', () => {
  /** GET routes that serve one student's data, a document, or an export of many. */
  const reads = routeRows(t.app).filter(
    (row) =>
      row.method === 'GET' &&
      (studentParamOf(row.access) !== null ||
        ['/api/documents/:publicId', '/api/registration-report/:classId', '/api/registration-data-spreadsheet', '/api/parents-contact/:classId', '/api/parents-contact-spreadsheet/:classId', '/api/term-results/template', '/api/privacy/students/:studentId/export'].includes(row.url)),
  );

  it('finds the student-data routes in the route table', () => {
    expect(reads.length).toBeGreaterThanOrEqual(14);
  });

  it.each(reads.map((row) => [row.key] as const))('%s by an administrator leaves an audit row (who, what, when)', async (key) => {
    const row = reads.find((r) => r.key === key)!;
    const agent = await agentFor(t.app, db, 'admin');
    const request = await sampleFor(row.method, row.url)!.request({ db, caller: 'admin', student: OWN_STUDENT });
    const before = await auditCount();
    const started = new Date().toISOString();
    const response = await agent.request('GET', request);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(await auditCount()).toBe(before + 1);
    const entry = await lastAudit();
    expect(entry.actor_label).toMatch(/^admin:/);
    expect(['read', 'export', 'report-card-viewed']).toContain(entry.action);
    expect(entry.created_at >= started).toBe(true);
    if (studentParamOf(row.access) !== null || row.url === '/api/documents/:publicId') expect(entry.entity_id).toBe(OWN_STUDENT);
  });

  it("a student's reads of their own data are not logged as administrator reads", async () => {
    const agent = await agentFor(t.app, db, 'own');
    const before = await auditCount();
    expect((await agent.request('GET', { url: `/api/student-record/${OWN_STUDENT}` })).statusCode).toBe(200);
    expect(await auditCount()).toBe(before);
  });

  it('a refused read leaves no read row', async () => {
    const agent = await agentFor(t.app, db, 'admin');
    const before = await auditCount();
    expect((await agent.request('GET', { url: '/api/student-record/00000000' })).statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
  });
});

describe('the audit log and the change history', () => {
  it('only administrators read them', async () => {
    expectError(await client().get('/api/privacy/audit-log'), 401);
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await student.get('/api/privacy/audit-log'), 403);
    expectError(await student.get(`/api/privacy/students/${OWN_STUDENT}/history`), 403);
  });

  it('the history shows each field change with old and new value, who and when; the log filters and pages', async () => {
    const a = await admin();
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expect((await student.post('/api/student', { id: OWN_STUDENT, middle_name: 'Historyone' })).statusCode).toBe(200);
    expect((await a.post('/api/student', { id: OWN_STUDENT, middle_name: 'Historytwo' })).statusCode).toBe(200);

    const history = StudentHistorySchema.parse((await a.get(`/api/privacy/students/${OWN_STUDENT}/history`)).json());
    const middle = history.changes.filter((c) => c.field === 'middle_name');
    expect(middle.slice(-2).map((c) => [c.actor.split(':')[0], c.new_value])).toEqual([
      ['student', 'Historyone'],
      ['admin', 'Historytwo'],
    ]);
    expect(middle.at(-1)?.old_value).toBe('Historyone');
    expect(middle.at(-1)!.at > middle.at(-2)!.at || middle.at(-1)!.id > middle.at(-2)!.id).toBe(true);
    expect(history.changes.every((c) => c.action !== 'read')).toBe(true);

    const page = AuditLogPageSchema.parse((await a.get(`/api/privacy/audit-log?student_id=${OWN_STUDENT}&limit=2`)).json());
    expect(page.entries).toHaveLength(2);
    expect(page.entries[0]!.id).toBeGreaterThan(page.entries[1]!.id);
    expect(page.next_before_id).toBe(page.entries[1]!.id);
    const older = AuditLogPageSchema.parse((await a.get(`/api/privacy/audit-log?student_id=${OWN_STUDENT}&limit=2&before_id=${page.next_before_id}`)).json());
    expect(older.entries[0]!.id).toBeLessThan(page.entries[1]!.id);
    const updates = AuditLogPageSchema.parse((await a.get('/api/privacy/audit-log?action=update&limit=200')).json());
    expect(updates.entries.every((e) => e.action === 'update')).toBe(true);
    expectError(await a.get('/api/privacy/audit-log?action=DROP%20TABLE'), 400);
    expectError(await a.get('/api/privacy/students/nobody-here/history'), 404);
  });
});

describe('export everything held about one student', () => {
  it('answers one JSON file with the record, account (no hash), documents, results, attendance and log; and logs the export', async () => {
    const a = await admin();
    const response = await a.get(`/api/privacy/students/${OWN_STUDENT}/export`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="Student 20220001 - everything held\.json"$/);
    expect(response.headers['cache-control']).toMatch(/no-store/);
    expect(response.body).not.toMatch(/\$argon2|password_hash|id_hash/);
    const data = StudentExportSchema.parse(response.json());
    expect(data.student.id).toBe(OWN_STUDENT);
    expect(data.account?.student_id).toBe(OWN_STUDENT);
    const stored = await db.selectFrom('documents').select(['file_type', 'sha256', 'bytes']).where('student_id', '=', OWN_STUDENT).execute();
    expect(data.documents.map((d) => d.file_type).sort()).toEqual(stored.map((d) => d.file_type).sort());
    for (const d of data.documents) {
      expect(crypto.createHash('sha256').update(Buffer.from(d.content, 'base64')).digest('hex')).toBe(d.sha256);
    }
    expect(data.term_results.length).toBeGreaterThan(0);
    expect(data.attendance_records.length).toBeGreaterThan(0);
    expect(data.term_results.every((r) => r.student_id === OWN_STUDENT)).toBe(true);
    const entry = await lastAudit();
    expect([entry.action, entry.entity, entry.entity_id]).toEqual(['export', 'student', OWN_STUDENT]);
  });
});

describe('delete a student entirely', () => {
  it('needs the ID typed again, removes every row that names the student, and keeps one row saying who deleted it', async () => {
    const a = await admin();
    const victim = DEMO_STUDENTS.registered.student_id === OWN_STUDENT ? '20220004' : OWN_STUDENT;
    const victimUser = await db.selectFrom('users').select('id').where('student_id', '=', victim).executeTakeFirstOrThrow();
    // The student signs in (a session and audit rows that name them), then the office deletes them.
    const student = await client().signInStudent(victim, 'portal-demo-2026');
    expect((await student.post('/api/student', { id: victim, middle_name: 'Leaving' })).statusCode).toBe(200);

    expectError(await a.request('DELETE', `/api/privacy/students/${victim}`, { body: { confirm_student_id: '20220005' } }), 400);
    expect(await db.selectFrom('students').select('id').where('id', '=', victim).executeTakeFirst()).toBeDefined();
    expectError(await student.request('DELETE', `/api/privacy/students/${victim}`, { body: { confirm_student_id: victim } }), 403);

    const response = await a.request('DELETE', `/api/privacy/students/${victim}`, { body: { confirm_student_id: victim } });
    expect(response.statusCode, response.body).toBe(200);
    expect(DeleteStudentAnswerSchema.parse(response.json()).deleted).toMatchObject({ students: 1, users: 1, sessions: 1 });

    for (const table of ['documents', 'term_results', 'term_summaries', 'attendance_records', 'attendance_scans', 'registration_progress'] as const) {
      expect(await db.selectFrom(table).select('student_id').where('student_id', '=', victim).execute(), table).toEqual([]);
    }
    expect(await db.selectFrom('students').select('id').where('id', '=', victim).execute()).toEqual([]);
    expect(await db.selectFrom('users').select('id').where('student_id', '=', victim).execute()).toEqual([]);
    expect(await db.selectFrom('sessions').select('user_id').where('user_id', '=', victimUser.id).execute()).toEqual([]);
    const remaining = await db
      .selectFrom('audit_log')
      .select(['action', 'entity', 'entity_id', 'old_value', 'new_value', 'actor_label'])
      .where((eb) => eb.or([eb('entity_id', '=', victim), eb('actor_label', '=', `student:${victim}`)]))
      .execute();
    expect(remaining).toEqual([{ action: 'delete', entity: 'student', entity_id: victim, old_value: null, new_value: 'deleted entirely', actor_label: expect.stringMatching(/^admin:/) as string }]);
    // The old session is dead and the ID is gone everywhere.
    expect((await student.get(`/api/student-record/${victim}`)).statusCode).toBe(401);
    expectError(await a.get(`/api/student-record/${victim}`), 404);
    expectError(await a.request('DELETE', `/api/privacy/students/${victim}`, { body: { confirm_student_id: victim } }), 404);
  });
});
