import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { startSmtpInbox } from '../../../tests/support/smtp-inbox.js';
import { AdminStudentListSchema, StudentListPageSchema } from '../../shared/students.schemas.js';
import { BulkAnswerSchema, BulkSummarySchema, type BulkSelection } from '../../shared/bulk.schemas.js';
import { ParentEmailListSchema } from '../../shared/notices.schemas.js';
import { DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * The student list's bulk actions (docs/decisions.md D83), on SQLite and PostgreSQL: who may take
 * them, the refusals (a class the school does not have this year, former students, a stale count),
 * all or nothing, one audit row per student, and invitations that go once to each parent e-mail on
 * record, over real SMTP, whose opening verifies that e-mail.
 */

let t: TestApp;
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.31.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`);
let admin: TestClient;
let office: TestClient;
let teacher: TestClient;
let principal: TestClient;
const uniqueEmail = (label: string) => `${label}.${crypto.randomBytes(4).toString('hex')}@example.com`;

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
  office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
  teacher = await client().signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
  principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.database.db;
const ofClass = (classId: string): BulkSelection => ({ kind: 'filter', filter: { class_id: classId } });

async function classOf(id: string): Promise<string | null> {
  return (await db().selectFrom('students').select('class_id').where('id', '=', id).executeTakeFirstOrThrow()).class_id;
}

async function idsIn(classId: string): Promise<string[]> {
  const rows = await db().selectFrom('students').select('id').where('class_id', '=', classId).where('left_on', 'is', null).orderBy('id').execute();
  return rows.map((row) => row.id);
}

async function auditCount(action: string, field?: string): Promise<number> {
  let query = db().selectFrom('audit_log').select((eb) => eb.fn.countAll<number | string>().as('n')).where('action', '=', action);
  if (field) query = query.where('field', '=', field);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Makes one student a former student, as a rollover leaves them. */
async function makeFormer(id: string): Promise<void> {
  await db().updateTable('students').set({ left_on: '2026-07-15', left_class: await classOf(id) }).where('id', '=', id).execute();
}

describe('POST /api/students/bulk/summary', () => {
  it('counts the filtered list as the list shows it, to the caller; a form teacher only their class', async () => {
    const in4c = await idsIn('4C');
    const summary = BulkSummarySchema.parse((await office.post('/api/students/bulk/summary', { selection: ofClass('4C') })).json());
    expect(summary.students).toBe(in4c.length);
    expect(summary.students).toBeGreaterThan(2);
    // A form teacher's list holds only their class: another class's filter matches nobody for them.
    const theirs = BulkSummarySchema.parse((await teacher.post('/api/students/bulk/summary', { selection: ofClass('4C') })).json());
    expect(theirs.students).toBe(0);
    const own = BulkSummarySchema.parse((await teacher.post('/api/students/bulk/summary', { selection: { kind: 'filter', filter: {} } })).json());
    expect(own.students).toBe((await idsIn('5A')).length);
    expect((await client().post('/api/students/bulk/summary', { selection: ofClass('4C') })).statusCode).toBe(401);
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await student.post('/api/students/bulk/summary', { selection: ofClass('4C') }), 403);
  });

  it('refuses a bad selection with 400 and names what is wrong', async () => {
    expectError(await office.post('/api/students/bulk/summary', { selection: { kind: 'ids', ids: [] } }), 400);
    expectError(await office.post('/api/students/bulk/summary', { selection: { kind: 'everyone' } }), 400);
    expectError(await office.post('/api/students/bulk/summary', { selection: { kind: 'filter', filter: { class_id: '<b>' } } }), 400);
    expectError(await office.post('/api/students/bulk/summary', { selection: { kind: 'ids', ids: ['29990999'] } }), 404);
  });
});

describe('POST /api/students/bulk/class', () => {
  it('moves the whole filtered list to a class of this year in one go, an audit row each', async () => {
    const moving = await idsIn('3D');
    const before = await auditCount('update', 'class_id');
    const answer = await office.post('/api/students/bulk/class', { selection: ofClass('3D'), class_id: '3c', expected: moving.length });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(BulkAnswerSchema.parse(answer.json())).toMatchObject({ changed: moving.length, unchanged: 0, message: `${moving.length} students moved to 3C.` });
    for (const id of moving) expect(await classOf(id)).toBe('3C');
    expect(await idsIn('3D')).toEqual([]);
    expect((await auditCount('update', 'class_id')) - before).toBe(moving.length);
    const row = await db().selectFrom('audit_log').selectAll().where('entity_id', '=', moving[0]!).where('field', '=', 'class_id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ action: 'update', entity: 'student', old_value: '3D', new_value: '3C' });
    expect(row.actor_label).toContain('office');
  });

  it('refuses an unknown class, a class of no year the school has, a former student and a stale count, changing nobody', async () => {
    const ids = await idsIn('2B');
    expect(ids.length).toBeGreaterThan(2);
    const unknown = expectError(await admin.post('/api/students/bulk/class', { selection: ofClass('2B'), class_id: '7Z' }), 400);
    expect(unknown.errors?.class_id?.[0]).toContain("no form class 7Z this year");
    const stale = expectError(await admin.post('/api/students/bulk/class', { selection: ofClass('2B'), class_id: '2A', expected: ids.length + 1 }), 409, 'conflict');
    expect(stale.message).toContain(`now holds ${ids.length} students`);
    // Rows ticked on a page, one of which has since left: all or nothing, so nobody moves.
    await makeFormer(ids[0]!);
    expectError(await admin.post('/api/students/bulk/class', { selection: { kind: 'ids', ids }, class_id: '2A' }), 422, 'former_student');
    for (const id of ids) expect(await classOf(id)).toBe('2B');
    // The whole filtered list with former students shown: the former student is left out and kept.
    const summary = BulkSummarySchema.parse((await admin.post('/api/students/bulk/summary', { selection: { kind: 'filter', filter: { class_id: '2B', former: 'include' } } })).json());
    expect(summary).toMatchObject({ students: ids.length - 1, former_left_out: 1 });
    const moved = await admin.post('/api/students/bulk/class', { selection: { kind: 'filter', filter: { class_id: '2B', former: 'include' } }, class_id: '2A', expected: ids.length - 1 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await classOf(ids[0]!)).toBe('2B');
    for (const id of ids.slice(1)) expect(await classOf(id)).toBe('2A');
  });

  it('is the office’s and administrators’: a form teacher and the principal are refused, and so is a student', async () => {
    const body = { selection: ofClass('5A'), class_id: '5B' };
    expectError(await teacher.post('/api/students/bulk/class', body), 403, 'forbidden');
    expectError(await principal.post('/api/students/bulk/class', body), 403, 'forbidden');
    const student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
    expectError(await student.post('/api/students/bulk/class', { selection: { kind: 'ids', ids: [DEMO_STUDENTS.registered.student_id] }, class_id: '5B' }), 403);
    expect(await classOf(DEMO_STUDENTS.registered.student_id)).toBe('5A');
  });
});

describe('POST /api/students/bulk/paper-documents', () => {
  it('marks a slot received on paper once per student, audited; a second run leaves them as they were', async () => {
    const ids = (await idsIn('1C')).slice(0, 3);
    const body = { selection: { kind: 'ids', ids }, file_type: 'birth_certificate', expected: 3 };
    const first = BulkAnswerSchema.parse((await office.post('/api/students/bulk/paper-documents', body)).json());
    expect(first).toMatchObject({ changed: 3, unchanged: 0, message: 'Birth Certificate marked received on paper for 3 students.' });
    const stored = await db().selectFrom('paper_documents').selectAll().where('student_id', 'in', ids).execute();
    expect(stored.map((row) => [row.student_id, row.file_type]).sort()).toEqual(ids.map((id) => [id, 'birth_certificate']).sort());
    const again = BulkAnswerSchema.parse((await office.post('/api/students/bulk/paper-documents', body)).json());
    expect(again).toMatchObject({ changed: 0, unchanged: 3 });
    expect(await auditCount('document-paper-received', 'birth_certificate')).toBe(3);
    // The office sees the paper copy in the student's documents: who received it, in school time.
    const review = (await office.get(`/api/review/students/${ids[0]}`)).json<{ paper: { file_type: string; received_at: string; received_by: string | null }[] }>();
    expect(review.paper).toEqual([{ file_type: 'birth_certificate', received_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/) as string, received_by: expect.any(String) as string }]);
  });

  it('refuses an unknown slot (400), a former student (422, nobody marked) and a form teacher (403)', async () => {
    const ids = (await idsIn('1D')).slice(0, 2);
    expectError(await office.post('/api/students/bulk/paper-documents', { selection: { kind: 'ids', ids }, file_type: 'library_card' }), 400);
    await makeFormer(ids[1]!);
    expectError(await office.post('/api/students/bulk/paper-documents', { selection: { kind: 'ids', ids }, file_type: 'sea_slip' }), 422, 'former_student');
    expect(await db().selectFrom('paper_documents').selectAll().where('student_id', 'in', ids).execute()).toEqual([]);
    expectError(await teacher.post('/api/students/bulk/paper-documents', { selection: ofClass('5A'), file_type: 'sea_slip' }), 403, 'forbidden');
  });
});

describe('POST /api/students/bulk/invitations', () => {
  it('refuses a form teacher and a former student, sending nothing', async () => {
    const before = Number((await db().selectFrom('outbox').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    expectError(await teacher.post('/api/students/bulk/invitations', { selection: ofClass('5A') }), 403, 'forbidden');
    const ids = (await idsIn('1B')).slice(0, 2);
    await makeFormer(ids[0]!);
    expectError(await office.post('/api/students/bulk/invitations', { selection: { kind: 'ids', ids } }), 422, 'former_student');
    expect(Number((await db().selectFrom('outbox').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n)).toBe(before);
  });

  it('mails each parent e-mail on record once, says who cannot be reached, and the opened link verifies the e-mail', async () => {
    const inbox = await startSmtpInbox();
    const mailed = await createTestApp({ smtpUrl: inbox.url });
    try {
      const mdb = mailed.database.db;
      const ids = (await mdb.selectFrom('students').select('id').where('class_id', '=', '4A').where('left_on', 'is', null).orderBy('id').limit(3).execute()).map((row) => row.id);
      const [a, b] = ids as [string, string, string];
      const mother = uniqueEmail('mother');
      const father = uniqueEmail('father');
      const guardian = uniqueEmail('guardian');
      await mdb.updateTable('students').set({ email_mother: null, email_father: null, email_guardian: null }).where('id', 'in', ids).execute();
      // Mother and father on one record, the same address twice on another (sent once), none on the third.
      await mdb.updateTable('students').set({ email_mother: ` ${mother.toUpperCase()} `, email_father: father }).where('id', '=', a).execute();
      await mdb.updateTable('students').set({ email_mother: guardian, email_guardian: guardian }).where('id', '=', b).execute();
      // The father has a family account already; the mother will make hers from the invitation.
      const fatherClient = new TestClient(mailed.app, '10.31.250.3');
      await registerFamily(fatherClient, 'Frank Parent', father);
      const clerk = await new TestClient(mailed.app, '10.31.250.1').signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
      const selection = { kind: 'ids', ids };
      const summary = BulkSummarySchema.parse((await clerk.post('/api/students/bulk/summary', { selection })).json());
      expect(summary).toEqual({ students: 3, former_left_out: 0, invitations: 3, without_parent_email: 1, recently_invited: 0 });

      const sent = await clerk.post('/api/students/bulk/invitations', { selection, expected: 3 });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(BulkAnswerSchema.parse(sent.json())).toMatchObject({ changed: 3, unchanged: 0, message: '3 invitations sent. 1 student with no parent e-mail.' });
      expect(await mailed.app.mailSender.drain()).toMatchObject({ sent: 3, failed: 0 });
      const messages = (await inbox.waitForMessages(4)).slice(1);
      expect(messages.map((message) => message.recipients[0]).sort()).toEqual([father, guardian, mother].sort());
      expect(messages.every((message) => message.subject.startsWith('Follow '))).toBe(true);

      // Sent again straight away: nobody is mailed twice.
      const again = BulkAnswerSchema.parse((await clerk.post('/api/students/bulk/invitations', { selection })).json());
      expect(again).toMatchObject({ changed: 0, unchanged: 3, message: '0 invitations sent. 3 already invited in the last 24 hours. 1 student with no parent e-mail.' });
      expect(await mailed.app.mailSender.drain()).toMatchObject({ sent: 0 });
      expect(await mdb.selectFrom('audit_log').select('entity_id').where('action', '=', 'family-invite').where('entity_id', 'in', ids).execute()).toHaveLength(3);
      const marksOf = () => mdb.selectFrom('parent_email_verifications').select(['parent', 'email']).where('student_id', '=', a).orderBy('parent').execute();
      expect(await marksOf()).toEqual([]);

      // The father, signed in, opens his invitation: the record's father e-mail is verified.
      const linkOf = (to: string) => new URL(messages.find((message) => message.recipients[0] === to)!.links.find((href) => href.includes('/family/accept'))!).searchParams.get('token');
      const accepted = await fatherClient.post('/api/family/accept', { token: linkOf(father) });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(await marksOf()).toEqual([{ parent: 'father', email: father }]);
      // The mother makes her account from the address the invitation reached: her e-mail is verified too.
      await registerFamily(new TestClient(mailed.app, '10.31.250.2'), 'Mona Parent', mother);
      expect(await marksOf()).toEqual([
        { parent: 'father', email: father },
        { parent: 'mother', email: mother },
      ]);
      const emails = ParentEmailListSchema.parse((await clerk.get(`/api/students/${a}/parent-emails`)).json());
      expect(emails.emails.filter((entry) => entry.verified).map((entry) => entry.parent).sort()).toEqual(['father', 'mother']);

      /** Registers a family account and opens its confirmation link, as a parent does from the mail. */
      async function registerFamily(parent: TestClient, name: string, email: string): Promise<void> {
        const before = inbox.messages.length;
        expect((await parent.post('/api/family/register', { name, email })).statusCode).toBe(202);
        await mailed.app.mailSender.drain();
        const mail = (await inbox.waitForMessages(before + 1)).find((message) => message.recipients[0] === email && message.subject.includes('Confirm'))!;
        const token = new URL(mail.links.find((href) => href.includes('/family/verify'))!).searchParams.get('token');
        expect((await parent.post('/api/family/verify', { token, password: 'a family passphrase for tests' })).statusCode).toBe(200);
      }
    } finally {
      await mailed.close();
      await inbox.close();
    }
  });
});

describe('the list the bulk actions act on', () => {
  it('is the filter the list applies, on the server: a search and a stage select the students the list pages count', async () => {
    const list = AdminStudentListSchema.parse((await admin.get('/api/students')).json());
    const search = list.find((student) => student.class_id === '5C' && student.last_name)!.last_name!.slice(0, 3);
    const filters: Record<string, string>[] = [{ search }, { registration: 'in_progress' }, { class_id: '5C', registration: 'not_started' }];
    for (const filter of filters) {
      const page = StudentListPageSchema.parse((await admin.get(`/api/students?${new URLSearchParams({ ...filter, page: '0', page_size: '25' }).toString()}`)).json());
      const summary = BulkSummarySchema.parse((await admin.post('/api/students/bulk/summary', { selection: { kind: 'filter', filter } })).json());
      expect(summary.students, JSON.stringify(filter)).toBe(page.total);
      expect(page.total, JSON.stringify(filter)).toBeGreaterThan(0);
    }
  });
});
