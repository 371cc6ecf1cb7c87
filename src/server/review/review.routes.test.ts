import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { storeFileBody, tinyPdf } from '../../../tests/support/test-files.js';
import { UploadedFileListSchema } from '../../shared/documents.schemas.js';
import { DocumentQueueSchema, OfficeStudentReviewSchema, RegistrationReviewAnswerSchema, RegistrationReviewSchema, ReviewDocumentAnswerSchema } from '../../shared/review.schemas.js';
import { AdminStudentListSchema } from '../../shared/students.schemas.js';
import { NoticeListSchema } from '../../shared/notices.schemas.js';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';

/**
 * The office's review through the API (D56), on both engines: the document queue
 * (oldest first, filters), accept / return / a new upload submitted again, verify / return /
 * reopen, a verified record read-only to the student and the parent but not to the office, who
 * may not review, bad input answered 400 with nothing stored, and the audit rows.
 */

let t: TestApp;
let ip = 0;
const client = () => new TestClient(t.app, `10.18.${Math.floor(++ip / 250)}.${ip % 250}`);
let office: TestClient;
let admin: TestClient;
let principal: TestClient;
let teacher: TestClient;
let parent: TestClient;
let student: TestClient;
const registered = DEMO_STUDENTS.registered.student_id;
const other = DEMO_STUDENTS.inProgress.student_id;

beforeAll(async () => {
  t = await createTestApp();
  office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
  admin = await client().signInAdmin();
  principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
  teacher = await client().signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
  parent = client();
  expect((await parent.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
  student = await client().signInStudent(registered, DEMO_STUDENTS.registered.password);
});
afterAll(() => t.close());

async function queue(c: TestClient, query = '') {
  const response = await c.get(`/api/review/documents${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return DocumentQueueSchema.parse(response.json());
}

async function reviewOf(c: TestClient, studentId: string) {
  const response = await c.get(`/api/registration-review/${studentId}`);
  expect(response.statusCode, response.body).toBe(200);
  return RegistrationReviewSchema.parse(response.json());
}

async function documentOf(studentId: string, fileType: string) {
  return t.database.db
    .selectFrom('documents')
    .select(['public_id', 'review_state', 'review_reason', 'reviewed_by', 'file_name'])
    .where('student_id', '=', studentId)
    .where('file_type', '=', fileType)
    .executeTakeFirstOrThrow();
}

const auditRows = (studentId: string, entity: string) =>
  t.database.db.selectFrom('audit_log').select(['action', 'field', 'old_value', 'new_value', 'actor_label']).where('entity', '=', entity).where('entity_id', '=', studentId).orderBy('id').execute();

async function upload(c: TestClient, studentId: string, fileType: string, name: string) {
  const { body, headers } = storeFileBody(studentId, fileType, { filename: name, bytes: await tinyPdf(name) });
  return c.post('/api/store-file', body, { headers });
}

describe('the document queue', () => {
  it('lists submitted documents oldest first, filtered by class and type, with the student beside each', async () => {
    const all = await queue(office);
    expect(all.items.length).toBeGreaterThan(0);
    const times = all.items.map((item) => item.uploaded_at);
    expect([...times].sort()).toEqual(times);
    const fiveA = await queue(office, '?class_id=5A&file_type=birth_certificate');
    expect(fiveA.items.length).toBeGreaterThan(0);
    for (const item of fiveA.items) {
      expect(item.student.class_id).toBe('5A');
      expect(item.file_type).toBe('birth_certificate');
    }
    const mine = fiveA.items.find((item) => item.student.id === registered);
    expect(mine?.student.last_name).toBe(DEMO_STUDENTS.registered.last_name);
    expect(fiveA.total).toBeLessThanOrEqual(all.total);
    expect((await queue(admin, '?class_id=5A')).total).toBeGreaterThan(0);
  });

  it('is refused to the principal, form teachers, students and parents; bad filters are 400', async () => {
    for (const c of [principal, teacher, student, parent]) expectError(await c.get('/api/review/documents'), 403, 'forbidden');
    expectError(await client().get('/api/review/documents'), 401, 'unauthenticated');
    const bad = expectError(await office.get('/api/review/documents?file_type=report_card&class_id=5A;drop'), 400);
    expect(Object.keys(bad.errors ?? {}).sort()).toEqual(['class_id', 'file_type']);
  });
});

describe('accepting and returning a document', () => {
  it('returns with a reason the family reads, a new upload is submitted again, then accepted; each change audited', async () => {
    const before = await documentOf(registered, 'birth_certificate');
    const returned = await office.post(`/api/review/documents/${before.public_id}`, { decision: 'return', reason: 'unreadable', details: 'The bottom half is cut off.' });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(ReviewDocumentAnswerSchema.parse(returned.json())).toMatchObject({ review_state: 'returned', review_reason: 'Unreadable / blurred: The bottom half is cut off.' });

    // The family sees the reason on the slot; the old file stays until replaced; the step is open again.
    const files = UploadedFileListSchema.parse((await parent.get(`/api/get-files/${registered}`)).json());
    expect(files.find((file) => file.type === 'birth_certificate')).toMatchObject({ name: before.file_name, review_state: 'returned', review_reason: 'Unreadable / blurred: The bottom half is cut off.' });
    const review = await reviewOf(parent, registered);
    expect(review.state).toBe('in_progress');
    expect(review.documents.find((d) => d.file_type === 'birth_certificate')?.review_state).toBe('returned');
    expect((await queue(office)).items.some((item) => item.public_id === before.public_id)).toBe(false);

    const fresh = await upload(parent, registered, 'birth_certificate', 'birth-again.pdf');
    expect(fresh.statusCode, fresh.body).toBe(200);
    const after = await documentOf(registered, 'birth_certificate');
    expect(after).toMatchObject({ review_state: 'submitted', review_reason: null, reviewed_by: null });
    expect((await reviewOf(student, registered)).state).toBe('submitted');
    expect((await queue(office, '?class_id=5A&file_type=birth_certificate')).items.some((item) => item.public_id === after.public_id)).toBe(true);

    const accepted = await office.post(`/api/review/documents/${after.public_id}`, { decision: 'accept' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await documentOf(registered, 'birth_certificate')).review_state).toBe('accepted');
    // The return told the family (the slot's name and the reason); the acceptance asked nothing of it.
    const kinds = NoticeListSchema.parse((await parent.get('/api/notices')).json()).notices.map((notice) => [notice.kind, notice.subject]);
    expect(kinds.filter(([kind]) => kind!.startsWith('document'))).toEqual([['document-returned', `Birth Certificate for ${DEMO_STUDENTS.registered.first_name} ${DEMO_STUDENTS.registered.last_name}: please upload a new one`]]);

    const rows = (await auditRows(registered, 'document')).filter((row) => row.field === 'birth_certificate').slice(-3);
    expect(rows.map((row) => row.action)).toEqual(['return', 'replace', 'accept']);
    expect(rows[0]).toMatchObject({ old_value: 'submitted', new_value: 'returned: Unreadable / blurred: The bottom half is cut off.', actor_label: 'admin:office' });
    expect(rows[2]).toMatchObject({ old_value: 'submitted', new_value: 'accepted' });
  }, 120_000);

  it('refuses a decision that changes nothing (accepted → accepted) with 409, storing and auditing nothing', async () => {
    const accepted = await documentOf(registered, 'birth_certificate');
    expect(accepted.review_state).toBe('accepted');
    const auditBefore = await auditRows(registered, 'document');
    const refused = expectError(await office.post(`/api/review/documents/${accepted.public_id}`, { decision: 'accept' }), 409, 'conflict');
    expect(refused.message).toBe('This document is accepted already: nothing was changed. Reload to see the latest decision.');
    // Even with a reason for a change: the same state is no change.
    expectError(await admin.post(`/api/review/documents/${accepted.public_id}`, { decision: 'accept', change_reason: 'Again.' }), 409, 'conflict');
    expect(await documentOf(registered, 'birth_certificate')).toEqual(accepted);
    expect(await auditRows(registered, 'document')).toEqual(auditBefore);
  });

  it('changes an earlier decision only with a reason, audited with it; the office reads who decided and when in school time', async () => {
    const accepted = await documentOf(registered, 'birth_certificate');
    const auditBefore = (await auditRows(registered, 'document')).length;
    const noReason = expectError(await office.post(`/api/review/documents/${accepted.public_id}`, { decision: 'return', reason: 'expired' }), 400);
    expect(noReason.errors).toEqual({ change_reason: ['Say why the earlier decision changes.'] });
    expect(expectError(await office.post(`/api/review/documents/${accepted.public_id}`, { decision: 'return', reason: 'expired', change_reason: '  ' }), 400).errors).toHaveProperty('change_reason');
    expect(await documentOf(registered, 'birth_certificate')).toEqual(accepted);
    expect(await auditRows(registered, 'document')).toHaveLength(auditBefore);

    const changed = await office.post(`/api/review/documents/${accepted.public_id}`, { decision: 'return', reason: 'expired', change_reason: 'The certified copy is from 2019.' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(ReviewDocumentAnswerSchema.parse(changed.json())).toMatchObject({ message: 'Decision changed.', review_state: 'returned', review_reason: 'Expired or not certified' });
    const back = await admin.post(`/api/review/documents/${accepted.public_id}`, { decision: 'accept', change_reason: 'The 2019 copy is certified after all.' });
    expect(back.statusCode, back.body).toBe(200);
    const rows = (await auditRows(registered, 'document')).slice(-2);
    expect(rows).toEqual([
      { action: 'change-decision', field: 'birth_certificate', old_value: 'accepted', new_value: 'returned: Expired or not certified (why changed: The certified copy is from 2019.)', actor_label: 'admin:office' },
      { action: 'change-decision', field: 'birth_certificate', old_value: 'returned: Expired or not certified', new_value: 'accepted (why changed: The 2019 copy is certified after all.)', actor_label: 'admin:admin' },
    ]);

    const view = await office.get(`/api/review/students/${registered}`);
    expect(view.statusCode, view.body).toBe(200);
    const birth = OfficeStudentReviewSchema.parse(view.json()).documents.find((doc) => doc.file_type === 'birth_certificate');
    const stored = await t.database.db.selectFrom('documents').select('reviewed_at').where('public_id', '=', accepted.public_id).executeTakeFirstOrThrow();
    expect(birth).toMatchObject({ public_id: accepted.public_id, review_state: 'accepted' });
    expect(birth!.reviewed_by).toEqual(expect.stringMatching(/\S/));
    // Port of Spain is UTC−4 all year: the stored instant, four hours earlier, as 'yyyy-MM-dd HH:mm'.
    const school = new Date(Date.parse(stored.reviewed_at!) - 4 * 3600_000).toISOString().replace('T', ' ').slice(0, 16);
    expect(birth!.reviewed_at).toBe(school);
  });

  it('answers 400 with field messages for a missing or unknown reason, or other without words, and stores nothing', async () => {
    const doc = await documentOf(other, 'birth_certificate').catch(() => undefined);
    const target = doc ?? (await documentOf(registered, 'sea_slip'));
    const stateBefore = (await t.database.db.selectFrom('documents').select('review_state').where('public_id', '=', target.public_id).executeTakeFirstOrThrow()).review_state;
    const auditBefore = (await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
    expect(expectError(await office.post(`/api/review/documents/${target.public_id}`, { decision: 'return' }), 400).errors).toEqual({ reason: ['Choose a reason.'] });
    expect(expectError(await office.post(`/api/review/documents/${target.public_id}`, { decision: 'return', reason: 'ugly' }), 400).errors).toHaveProperty('reason');
    expect(expectError(await office.post(`/api/review/documents/${target.public_id}`, { decision: 'return', reason: 'other', details: ' ' }), 400).errors).toEqual({
      details: ['Say what is wrong with the document.'],
    });
    expect(expectError(await office.post(`/api/review/documents/${target.public_id}`, { decision: 'maybe' }), 400).errors).toHaveProperty('decision');
    expectError(await office.post('/api/review/documents/AAAAAAAAAAAAAAAAAAAAAA', { decision: 'accept' }), 404, 'not_found');
    expect((await t.database.db.selectFrom('documents').select('review_state').where('public_id', '=', target.public_id).executeTakeFirstOrThrow()).review_state).toBe(stateBefore);
    expect((await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n).toEqual(auditBefore);
  });

  it('is refused to the principal, the form teacher, the student and the parent', async () => {
    const target = await documentOf(registered, 'sea_slip');
    for (const c of [principal, teacher, student, parent]) expectError(await c.post(`/api/review/documents/${target.public_id}`, { decision: 'accept' }), 403, 'forbidden');
    expect((await documentOf(registered, 'sea_slip')).review_state).toBe(target.review_state);
  });
});

describe('verifying, returning and reopening a registration', () => {
  it('verifies a submitted record, which is then read-only to the student and the parent but not to the office', async () => {
    const before = await reviewOf(office, registered);
    expect(before.state).toBe('submitted');
    expect(before.decisions).toEqual({
      verify: { allowed: true, reason: null },
      return: { allowed: true, reason: null },
      reopen: { allowed: false, reason: 'Only a verified registration can be reopened.' },
    });
    // Documents nobody reviewed: the office is told how many and must confirm (docs/decisions.md D81).
    expect(before.documents_unreviewed).toBeGreaterThan(0);
    const auditBefore = await auditRows(registered, 'registration');
    for (const body of [{}, { confirm_unreviewed: false }]) {
      const refused = expectError(await office.post(`/api/review/registrations/${registered}/verify`, body), 409, 'conflict');
      expect(refused.message).toBe(`${before.documents_unreviewed} documents are not reviewed yet. Confirm to verify the registration anyway.`);
    }
    expect(await t.database.db.selectFrom('registration_reviews').selectAll().where('student_id', '=', registered).execute()).toEqual([]);
    expect(await auditRows(registered, 'registration')).toEqual(auditBefore);
    const verified = await office.post(`/api/review/registrations/${registered}/verify`, { confirm_unreviewed: true });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(RegistrationReviewAnswerSchema.parse(verified.json()).state).toBe('verified');

    for (const c of [student, parent]) {
      const refused = expectError(await c.post('/api/student', { id: registered, achievements: 'Chess club' }), 422, 'registration_closed');
      expect(refused.message).toMatch(/verified/);
      expectError(await upload(c, registered, 'sea_slip', 'slip.pdf'), 422, 'registration_closed');
      const status = await c.get(`/api/registration-status?student_id=${registered}`);
      expect(status.json()).toMatchObject({ editable: false });
    }
    const byOffice = await office.post('/api/student', { id: registered, achievements: 'Chess club' });
    expect(byOffice.statusCode, byOffice.body).toBe(200);
    expect((await auditRows(registered, 'student')).at(-1)).toMatchObject({ field: 'achievements', new_value: 'Chess club', actor_label: 'admin:office' });

    // The list and its filter know the state.
    const list = AdminStudentListSchema.parse((await office.get('/api/students')).json());
    expect(list.find((s) => s.id === registered)?.registration).toBe('verified');

    expect(RegistrationReviewAnswerSchema.parse(verified.json()).decisions).toMatchObject({ verify: { allowed: false }, return: { allowed: true }, reopen: { allowed: true } });
    const reopened = await office.post(`/api/review/registrations/${registered}/reopen`, {});
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(RegistrationReviewAnswerSchema.parse(reopened.json()).state).toBe('submitted');
    expect((await student.post('/api/student', { id: registered, achievements: 'Chess club captain' })).statusCode).toBe(200);
  });

  it('returns a record with a note and steps the family reads; the family fixes it and it is submitted again', async () => {
    const returned = await admin.post(`/api/review/registrations/${registered}/return`, { note: 'Add the father\u2019s work phone.', steps: ['family', 'documents'] });
    expect(returned.statusCode, returned.body).toBe(200);
    const seen = await reviewOf(parent, registered);
    expect(seen).toMatchObject({ state: 'returned', note: 'Add the father\u2019s work phone.', steps: ['family', 'documents'] });
    // The family is told in the same transaction: the note, the steps by name, a link to this child's record.
    const notices = NoticeListSchema.parse((await parent.get('/api/notices')).json()).notices;
    const told = notices.find((notice) => notice.kind === 'registration-returned');
    expect(told?.student_ids).toEqual([registered]);
    const text = told!.blocks.flatMap((block) => ('text' in block ? [block.text] : [])).join(' ');
    expect(text).toContain('Add the father\u2019s work phone.');
    expect(text).toContain('Steps to fix: Family Data, Documents.');
    expect(told!.blocks.flatMap((block) => ('link' in block ? [new URL(block.link.href).search] : []))).toEqual([`?student=${registered}`]);
    const list = AdminStudentListSchema.parse((await office.get('/api/students')).json());
    expect(list.find((s) => s.id === registered)?.registration).toBe('returned');

    const fixed = await parent.post('/api/student', { id: registered, achievements: 'Chess and choir' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(await reviewOf(parent, registered)).toMatchObject({ state: 'submitted', note: null, steps: [] });
    const rows = await auditRows(registered, 'registration');
    expect(rows.map((row) => row.action).slice(-4)).toEqual(['verify', 'reopen', 'return', 'resubmit']);
    expect(rows.at(-2)).toMatchObject({ old_value: 'submitted', new_value: 'returned: Add the father\u2019s work phone. [family, documents]', actor_label: 'admin:admin' });
  });

  it('answers 409 for a decision the state does not allow, 400 for a bad note or step, and stores nothing', async () => {
    // The in-progress student is not submitted: nothing to verify, return or reopen, as its answer says.
    const { decisions } = await reviewOf(office, other);
    expect(Object.values(decisions).map((open) => open.allowed)).toEqual([false, false, false]);
    expect(expectError(await office.post(`/api/review/registrations/${other}/verify`, { confirm_unreviewed: true }), 409, 'conflict').message).toBe(decisions.verify.reason);
    expect(expectError(await office.post(`/api/review/registrations/${other}/return`, { note: 'Fix it.', steps: ['student'] }), 409, 'conflict').message).toBe(decisions.return.reason);
    expect(expectError(await office.post(`/api/review/registrations/${registered}/verify`, { confirm_unreviewed: 'yes' }), 400).errors).toHaveProperty('confirm_unreviewed');
    expectError(await office.post(`/api/review/registrations/${other}/verify`, {}), 409, 'conflict');
    expectError(await office.post(`/api/review/registrations/${other}/return`, { note: 'Fix it.', steps: ['student'] }), 409, 'conflict');
    expectError(await office.post(`/api/review/registrations/${registered}/reopen`, {}), 409, 'conflict');
    expect(expectError(await office.post(`/api/review/registrations/${registered}/return`, { note: '', steps: [] }), 400).errors).toEqual({
      note: ['Write a note for the family.'],
      steps: ['Choose at least one step to fix.'],
    });
    expect(expectError(await office.post(`/api/review/registrations/${registered}/return`, { note: 'x', steps: ['payment'] }), 400).errors).toHaveProperty(['steps.0']);
    expect(expectError(await office.post(`/api/review/registrations/${registered}/return`, { note: 'x'.repeat(501), steps: ['family'] }), 400).errors).toHaveProperty('note');
    expectError(await office.post('/api/review/registrations/29990999/verify', {}), 404, 'not_found');
    expect(await t.database.db.selectFrom('registration_reviews').selectAll().where('student_id', 'in', [registered, other]).execute()).toEqual([]);
  });

  it('is refused to the principal, the form teacher, the student and the parent; another child is 403 to the parent', async () => {
    for (const c of [principal, teacher, student, parent]) {
      for (const action of ['verify', 'reopen']) expectError(await c.post(`/api/review/registrations/${registered}/${action}`, {}), 403, 'forbidden');
      expectError(await c.post(`/api/review/registrations/${registered}/return`, { note: 'x', steps: ['family'] }), 403, 'forbidden');
    }
    expectError(await student.get(`/api/registration-review/${other}`), 403, 'forbidden');
    expectError(await parent.get('/api/registration-review/20220002'), 403, 'forbidden');
    expect((await reviewOf(teacher, registered)).state).toBe('submitted');
    expect(await t.database.db.selectFrom('registration_reviews').selectAll().where('student_id', '=', registered).execute()).toEqual([]);
  });
});

describe('the registration form and report', () => {
  it("the form's checklist says accepted, returned, received or missing for each document", async () => {
    const picture = await documentOf(registered, 'picture');
    expect((await office.post(`/api/review/documents/${picture.public_id}`, { decision: 'return', reason: 'wrong_document' })).statusCode).toBe(200);
    const response = await office.get(`/api/registration-form/${registered}`);
    expect(response.statusCode).toBe(200);
    const pdf = await readPdf(response.rawPayload);
    const squash = (text: string) => text.replace(/\s+/g, '');
    expect(pdf.compact).toContain(squash('Birth Certificate accepted'));
    expect(pdf.compact).toContain(squash('Picture returned'));
    expect(pdf.compact).toContain(squash('SEA Slip received'));

    const inProgress = await readPdf((await office.get(`/api/registration-form/${other}`)).rawPayload);
    expect(inProgress.compact).toContain('missing');
  });

  it('the registration report counts returned and verified records per class', async () => {
    const report = await readPdf((await office.get('/api/registration-report/5A')).rawPayload);
    expect(report.compact).toContain(squashAll('Awaiting Review'));
    expect(report.compact).toContain(squashAll('Verified'));
  });
});

describe('whom a decision reaches, and the printable notice', () => {
  it('names the family account and the verified parent e-mails, or nobody; refused to everyone but the office', async () => {
    const reach = async (studentId: string) => {
      const response = await office.get(`/api/review/students/${studentId}`);
      expect(response.statusCode, response.body).toBe(200);
      return OfficeStudentReviewSchema.parse(response.json()).reach;
    };
    expect((await reach(registered)).recipients).toContainEqual({ email: DEMO_FAMILY.email, via: 'family_account' });

    // A child with no family account and no verified parent e-mail: nobody, said so.
    const lonely = await t.database.db
      .selectFrom('students')
      .select('id')
      .where('left_on', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('guardian_students').select('student_id').whereRef('guardian_students.student_id', '=', 'students.id'))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('parent_email_verifications').select('student_id').whereRef('parent_email_verifications.student_id', '=', 'students.id'))))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(await reach(lonely.id)).toEqual({ recipients: [] });
    // Once the office marks the mother's e-mail verified, she is reached.
    await t.database.db.updateTable('students').set({ email_mother: 'mother.of.lonely@example.com' }).where('id', '=', lonely.id).execute();
    const at = new Date().toISOString();
    await t.database.db.insertInto('parent_email_verifications').values({ student_id: lonely.id, parent: 'mother', email: 'mother.of.lonely@example.com', verified_by_user_id: null, created_at: at, updated_at: at }).execute();
    expect(await reach(lonely.id)).toEqual({ recipients: [{ email: 'mother.of.lonely@example.com', via: 'verified_parent_email' }] });

    for (const c of [principal, teacher, student, parent]) {
      expectError(await c.get(`/api/review/students/${registered}`), 403, 'forbidden');
      expectError(await c.get(`/api/review/students/${registered}/notice`), 403, 'forbidden');
    }
    expectError(await office.get('/api/review/students/29990999'), 404, 'not_found');
  });

  it("prints a letter for the family with the returned record's note and steps and each returned document's reason", async () => {
    const picture = await documentOf(registered, 'picture');
    if (picture.review_state !== 'returned') {
      const body = { decision: 'return', reason: 'unreadable', details: 'The face is in shadow.', ...(picture.review_state === 'submitted' ? {} : { change_reason: 'A closer look.' }) };
      expect((await office.post(`/api/review/documents/${picture.public_id}`, body)).statusCode).toBe(200);
    }
    const response = await office.get(`/api/review/students/${registered}/notice`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const pdf = await readPdf(response.rawPayload);
    const squash = (text: string) => text.replace(/\s+/g, '');
    expect(pdf.compact).toContain(squash('What to fix in your registration'));
    expect(pdf.compact).toContain(squash(DEMO_STUDENTS.registered.first_name));
    expect(pdf.compact).toContain(squash('Documents to upload again'));
    expect(pdf.compact).toContain(squash('Picture'));
    expect(pdf.compact).toContain(squash((await documentOf(registered, 'picture')).review_reason!));
  });
});

const squashAll = (text: string) => text.replace(/\s+/g, '');
