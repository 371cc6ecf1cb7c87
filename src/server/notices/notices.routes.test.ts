import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addFamilyAccount } from '../../../tests/support/family-accounts.js';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { TEST_PUBLIC_URL } from '../../../tests/support/test-config.js';
import { startSmtpInbox, type DeliveredMail, type SmtpInbox } from '../../../tests/support/smtp-inbox.js';
import { schoolToday } from '../../shared/dates.js';
import { NoticeListSchema, NoticePreferencesSchema, ParentEmailListSchema, ReminderPreviewSchema } from '../../shared/notices.schemas.js';
import { addDays, isWeekday } from '../../shared/school-days.js';
import { ingestScans } from '../attendance/scans.service.js';
import { nowIso, type Db } from '../db/database.js';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { notifyFamilies, notifyFamily, runAttendanceDigest, runDueAttendanceDigest } from './notices.service.js';

/**
 * Messages to families (docs/decisions.md D57) through the API and the real SMTP server
 * of the mail suite, on both engines: the attendance digest driven by a day of gate scans, term
 * reports posted, deadline reminders with their preview and weekly limit, the unsubscribe link,
 * the notices list, the office's verified parent e-mails and the kinds the review code will send.
 */

let t: TestApp;
let inbox: SmtpInbox;
let db: Db;
let ip = 0;
const client = () => new TestClient(t.app, `10.18.${Math.floor(++ip / 250)}.${ip % 250}`);

beforeEach(async () => {
  inbox = await startSmtpInbox();
  t = await createTestApp({ smtpUrl: inbox.url });
  db = t.database.db;
});
afterEach(async () => {
  await t.close();
  await inbox.close();
});

/** Demo students in a class, not the demo family's, with no family account linked. */
async function pickStudents(count: number): Promise<{ id: string; name: string }[]> {
  const rows = await db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name'])
    .where('class_id', 'is not', null)
    .where('id', 'not in', [...DEMO_FAMILY.childIds])
    .where('id', 'not in', db.selectFrom('guardian_students').select('student_id'))
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.map((row) => ({ id: row.id, name: `${row.first_name} ${row.last_name}` }));
}

const addFamily = (email: string, childIds: readonly string[]) => addFamilyAccount(db, email, childIds);

async function signInFamily(email: string): Promise<TestClient> {
  const signedIn = client();
  const response = await signedIn.post('/api/family/login', { email, password: DEMO_FAMILY.password });
  expect(response.statusCode, response.body).toBe(200);
  return signedIn;
}

const office = () => client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);

/** The office marks a record's mother e-mail as verified, through its route. */
async function verifyMotherEmail(clerk: TestClient, studentId: string, email: string): Promise<void> {
  await db.updateTable('students').set({ email_mother: email }).where('id', '=', studentId).execute();
  const marked = await clerk.request('PUT', `/api/students/${studentId}/parent-emails/mother`, { body: { email, verified: true } });
  expect(marked.statusCode, marked.body).toBe(200);
}

/** Sends what is queued and answers everything the inbox holds. */
async function delivered(): Promise<readonly DeliveredMail[]> {
  await t.app.mailSender.drain();
  return inbox.messages;
}

/** The latest weekday before today: a school day the test makes its own. */
function testDay(): string {
  let day = addDays(schoolToday(), -1);
  while (!isWeekday(day)) day = addDays(day, -1);
  return day;
}

describe('the attendance digest', () => {
  it("sends each family one message with exactly that day's absences and lates, none when all were present, turned off or already sent", async () => {
    const date = testDay();
    await db.deleteFrom('school_holidays').where('date', '=', date).execute();
    await db.deleteFrom('attendance_records').where('date_scanned', '=', date).execute();
    await db.deleteFrom('attendance_scans').where('scanned_date', '=', date).execute();
    const [absent, late, present, offChild, lateNoAccount, unreachable, other] = await pickStudents(7);
    await addFamily('digest.a@example.com', [absent!.id, late!.id]);
    await addFamily('digest.b@example.com', [present!.id]);
    await addFamily('digest.c@example.com', [offChild!.id]);
    const clerk = await office();
    await verifyMotherEmail(clerk, lateNoAccount!.id, 'mother.d@example.com');

    // A day of gate scans: the demo family's three children and B's child on time, A's second
    // child and D's child late; A's first child, C's child and an unreachable child never scanned.
    // The day before has a late scan of A's absent child: it must not appear.
    const scans = [
      ...DEMO_FAMILY.childIds.map((id) => ({ studentId: id, date, time: '07:30' })),
      { studentId: present!.id, date, time: '07:41' },
      { studentId: late!.id, date, time: '08:20' },
      { studentId: lateNoAccount!.id, date, time: '08:35' },
      { studentId: other!.id, date, time: '07:20' },
      { studentId: present!.id, date, time: '14:30' },
      { studentId: absent!.id, date: addDays(date, -1), time: '09:10' },
    ].map((scan, index) => ({ ...scan, index }));
    expect((await ingestScans(db, scans, 'gate test')).rejected).toEqual([]);
    void unreachable;

    // C turns the digest off on the preferences page.
    const c = await signInFamily('digest.c@example.com');
    const turnedOff = await c.request('PUT', '/api/notice-preferences', { body: { 'attendance-digest': false, 'deadline-reminder': true } });
    expect(NoticePreferencesSchema.parse(turnedOff.json())).toEqual({ 'attendance-digest': false, 'deadline-reminder': true });

    // The school's switch off: nothing at all.
    const settings = await clerk.request('PUT', '/api/notice-settings', { body: { digest_enabled: false, digest_time: '10:00', reminder_days: 7 } });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(await runAttendanceDigest(db, { date })).toEqual({ sent: 0 });
    expect(await delivered()).toHaveLength(0);

    await clerk.request('PUT', '/api/notice-settings', { body: { digest_enabled: true, digest_time: '10:00', reminder_days: 7 } });
    expect(await runAttendanceDigest(db, { date })).toEqual({ sent: 2 });
    const messages = await delivered();
    expect(messages.map((m) => m.recipients[0]).sort()).toEqual(['digest.a@example.com', 'mother.d@example.com']);
    const a = messages.find((m) => m.recipients[0] === 'digest.a@example.com')!;
    expect(a.subject).toBe(`Attendance on ${date}: 2 records for your family`);
    expect(a.text).toContain(`${absent!.name}: absent (no arrival recorded at the gate).`);
    expect(a.text).toContain(`${late!.name}: late, arrived at 08:20.`);
    expect(a.text).not.toContain('09:10');
    const d = messages.find((m) => m.recipients[0] === 'mother.d@example.com')!;
    expect(d.text).toContain(`${lateNoAccount!.name}: late, arrived at 08:35.`);
    expect(d.text).not.toContain(absent!.name);
    // Each child's line has a link to that child's attendance, named for the child.
    const attendanceLinks = (message: { links: string[] }) => message.links.filter((href) => href.includes('/attendance')).sort();
    expect(attendanceLinks(a)).toEqual([absent!.id, late!.id].map((id) => `${TEST_PUBLIC_URL}/attendance?student=${id}`).sort());
    expect(a.text).toContain(`See ${late!.name}’s attendance`);
    expect(attendanceLinks(d)).toEqual([`${TEST_PUBLIC_URL}/attendance?student=${lateNoAccount!.id}`]);
    // And a link that opens the absence-note form on that day, for each child (named when there are two).
    const explainLinks = (message: { links: string[] }) => message.links.filter((href) => href.includes('/absence-notes')).sort();
    expect(explainLinks(a)).toEqual([absent!.id, late!.id].map((id) => `${TEST_PUBLIC_URL}/absence-notes?student=${id}&date=${date}`).sort());
    expect(a.text).toContain(`Explain ${absent!.name}’s absence or late arrival`);
    expect(explainLinks(d)).toEqual([`${TEST_PUBLIC_URL}/absence-notes?student=${lateNoAccount!.id}&date=${date}`]);
    expect(d.text).toContain('Explain this absence');

    // A rerun (or a second process) the same day sends nothing more.
    expect(await runAttendanceDigest(db, { date })).toEqual({ sent: 0 });
    expect(await delivered()).toHaveLength(2);
    expect(await db.selectFrom('notices').select('id').where('kind', '=', 'attendance-digest').execute()).toHaveLength(2);

    // The family sees the message in the portal, unread, then read.
    const familyA = await signInFamily('digest.a@example.com');
    const list = NoticeListSchema.parse((await familyA.get('/api/notices')).json());
    expect(list.unread).toBe(1);
    expect(list.notices.map((n) => [n.kind, n.subject, n.read])).toEqual([['attendance-digest', a.subject, false]]);
    expect(list.notices[0]!.blocks).toContainEqual({ text: `${late!.name}: late, arrived at 08:20.` });
    expect((await familyA.post(`/api/notices/${list.notices[0]!.id}/read`)).statusCode).toBe(204);
    expect(NoticeListSchema.parse((await familyA.get('/api/notices')).json()).unread).toBe(0);
    // Another family's notice is not found for them.
    expect((await c.post(`/api/notices/${list.notices[0]!.id}/read`)).statusCode).toBe(404);

    // The unsubscribe link in the mail works without a sign-in and turns off that kind only.
    const link = new URL(a.links.find((href) => href.includes('/notices/unsubscribe'))!);
    const visitor = client();
    expect((await visitor.post('/api/notices/unsubscribe', { token: `${link.searchParams.get('token')!.slice(0, -2)}xx` })).statusCode).toBe(400);
    const unsubscribed = await visitor.post('/api/notices/unsubscribe', { token: link.searchParams.get('token') });
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(200);
    expect(unsubscribed.json()).toMatchObject({ kind: 'attendance-digest', email: 'digest.a@example.com' });
    expect(NoticePreferencesSchema.parse((await familyA.get('/api/notice-preferences')).json())).toEqual({ 'attendance-digest': false, 'deadline-reminder': true });
    // A week earlier (the same weekday), with A's digest turned off: only D hears of that day.
    const weekBefore = addDays(date, -7);
    await db.deleteFrom('school_holidays').where('date', '=', weekBefore).execute();
    await db.deleteFrom('attendance_records').where('date_scanned', '=', weekBefore).execute();
    await db.deleteFrom('attendance_scans').where('scanned_date', '=', weekBefore).execute();
    const onTime = [...DEMO_FAMILY.childIds, present!.id, other!.id].map((studentId, index) => ({ studentId, date: weekBefore, time: '07:00', index }));
    await ingestScans(db, onTime, 'gate test');
    expect(await runAttendanceDigest(db, { date: weekBefore })).toEqual({ sent: 1 });
    expect((await delivered()).slice(2).map((m) => m.recipients[0])).toEqual(['mother.d@example.com']);
  });
});

describe('one-click unsubscribe from the mail program (RFC 8058, D84)', () => {
  it('the digest carries List-Unsubscribe; a GET only leads to the confirm page, a wrong token is refused, the POST turns the digest off without a sign-in, and the next digest is not sent', async () => {
    const date = testDay();
    await db.deleteFrom('school_holidays').where('date', '=', date).execute();
    await db.deleteFrom('attendance_records').where('date_scanned', '=', date).execute();
    await db.deleteFrom('attendance_scans').where('scanned_date', '=', date).execute();
    const [child, other] = await pickStudents(2);
    await addFamily('oneclick@example.com', [child!.id]);
    // The school recorded the day (another child at the gate); the family's child never came.
    expect((await ingestScans(db, [{ studentId: other!.id, date, time: '07:05', index: 0 }], 'gate test')).rejected).toEqual([]);
    await runAttendanceDigest(db, { date });
    const mail = (await delivered()).find((m) => m.recipients[0] === 'oneclick@example.com')!;
    expect(mail.text).toContain(`${child!.name}: absent`);
    const header = mail.headers['list-unsubscribe']!;
    expect(header).toMatch(new RegExp(`^<${TEST_PUBLIC_URL}/api/mail/unsubscribe\\?token=[A-Za-z0-9_.-]+>$`));
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const link = new URL(header.slice(1, -1));
    const token = link.searchParams.get('token')!;
    const digestOn = async () => NoticePreferencesSchema.parse((await (await signInFamily('oneclick@example.com')).get('/api/notice-preferences')).json())['attendance-digest'];

    // A mail scanner following the link turns nothing off: the GET leads to the page that asks.
    const opened = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/notices/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await digestOn()).toBe(true);

    // The mail program's POST: no cookie, no CSRF header, the form body RFC 8058 names.
    const oneClick = (query: string) =>
      t.app.inject({ method: 'POST', url: `/api/mail/unsubscribe?${query}`, payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const forged = await oneClick(`token=${encodeURIComponent(`${token.slice(0, -2)}${token.endsWith('xx') ? 'yy' : 'xx'}`)}`);
    expect(forged.statusCode).toBe(400);
    expect((await oneClick('')).statusCode).toBe(400);
    expect(await digestOn()).toBe(true);
    const done = await oneClick(`token=${encodeURIComponent(token)}`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ kind: 'attendance-digest', email: 'oneclick@example.com' });
    expect(await digestOn()).toBe(false);

    // The next school day the child is absent again: no digest for this family.
    const before = (await delivered()).length;
    const next = addDays(date, -7);
    await db.deleteFrom('school_holidays').where('date', '=', next).execute();
    await db.deleteFrom('attendance_records').where('date_scanned', '=', next).execute();
    await db.deleteFrom('attendance_scans').where('scanned_date', '=', next).execute();
    expect((await ingestScans(db, [{ studentId: other!.id, date: next, time: '07:05', index: 0 }], 'gate test')).rejected).toEqual([]);
    await runAttendanceDigest(db, { date: next });
    expect((await delivered()).slice(before).map((m) => m.recipients[0])).not.toContain('oneclick@example.com');
  });
});

describe("the digest's timer", () => {
  it("runs once the school's time has come, once a day, and not while the school has it off", async () => {
    const today = schoolToday();
    // The school's time zone (America/Port_of_Spain) is UTC-4 all year.
    const at = (time: string) => new Date(`${today}T${time}:00-04:00`);
    expect(await runDueAttendanceDigest(db, at('09:59'))).toBeNull();
    expect(await runDueAttendanceDigest(db, at('10:01'))).not.toBeNull();
    expect(await runDueAttendanceDigest(db, at('10:02'))).toBeNull();
    await db.deleteFrom('settings').where('key', '=', 'notices_digest_last_date').execute();
    const clerk = await office();
    await clerk.request('PUT', '/api/notice-settings', { body: { digest_enabled: false, digest_time: '10:00', reminder_days: 7 } });
    expect(await runDueAttendanceDigest(db, at('10:03'))).toBeNull();
  });
});

describe('term reports posted', () => {
  it('tells each family once, with a link into the portal that needs a sign-in', async () => {
    const clerk = await office();
    const term = await db
      .selectFrom('term_results')
      .innerJoin('term_reports', (join) => join.onRef('term_reports.year', '=', 'term_results.year').onRef('term_reports.term', '=', 'term_results.term'))
      .select(['term_results.year', 'term_results.term'])
      .where('term_results.student_id', 'in', [...DEMO_FAMILY.childIds])
      .orderBy('term_results.year', 'desc')
      .orderBy('term_results.term', 'desc')
      .executeTakeFirstOrThrow();
    const withReports = await db.selectFrom('term_results').select('student_id').distinct().where('year', '=', term.year).where('term', '=', term.term).where('student_id', 'in', [...DEMO_FAMILY.childIds]).execute();
    expect(withReports.length).toBeGreaterThan(0);
    // A second account of the same family, and another family with a child of that term.
    await addFamily('second.parent@example.com', [withReports[0]!.student_id]);
    expect((await clerk.post('/api/post-term-reports', { year: term.year, term: term.term, posted: 0 })).statusCode).toBe(200);
    const posted = await clerk.post('/api/post-term-reports', { year: term.year, term: term.term, posted: 1 });
    expect(posted.statusCode, posted.body).toBe(200);
    const messages = await delivered();
    expect(messages.map((m) => m.recipients[0]).sort()).toEqual([DEMO_FAMILY.email, 'second.parent@example.com']);
    const label = `Term ${term.term} ${['', 'Michaelmas', 'Hilary', 'Trinity'][term.term]} ${term.year}-${term.year + 1}`;
    for (const message of messages) {
      expect(message.subject).toBe(`Report cards for ${label} are ready`);
      expect(message.html).not.toMatch(/\.pdf|report-card\//i);
      const link = message.links.find((href) => href.endsWith('/term-reports'))!;
      expect(new URL(link).search).toBe('');
    }
    // Posting again (idempotent) tells no one twice.
    await clerk.post('/api/post-term-reports', { year: term.year, term: term.term, posted: 1 });
    expect(await delivered()).toHaveLength(2);
    // What the link leads to needs a sign-in.
    expect((await client().get(`/api/report-card/${withReports[0]!.student_id}/${term.year}/${term.term}`)).statusCode).toBe(401);
    // The family's list shows it; the student sees it too when it is about them alone.
    const family = await signInFamily(DEMO_FAMILY.email);
    const list = NoticeListSchema.parse((await family.get('/api/notices')).json());
    expect(list.notices.map((n) => n.subject)).toEqual([`Report cards for ${label} are ready`]);
  });
});

describe('deadline reminders', () => {
  it('the preview lists exactly who; a send reaches them; a second send within the week sends nothing', async () => {
    const clerk = await office();
    const [incomplete, done, noMail] = DEMO_FAMILY.childIds.length === 3 ? ['20260001', '20220001', '20240001'] : [];
    const [stranger] = await pickStudents(1);
    const deadline = addDays(schoolToday(), 3);
    await db.updateTable('registration_periods').set({ open: 1, deadline }).execute();
    const complete = { student_data: 1, family_data: 1, health_data: 1, other_data: 1, documents: 1, submit: 1, terms_and_conditions: 1 };
    // Every record finished but the demo family's in-progress child and one stranger's.
    await db.updateTable('registration_progress').set(complete).execute();
    for (const id of DEMO_FAMILY.childIds) {
      const iso = nowIso();
      await db.insertInto('registration_progress').values({ student_id: id, ...complete, created_at: iso, updated_at: iso }).onConflict((oc) => oc.column('student_id').doUpdateSet(complete)).execute();
    }
    await db.updateTable('registration_progress').set({ submit: 0, terms_and_conditions: 0 }).where('student_id', 'in', [incomplete!, stranger!.id]).execute();
    void done;
    void noMail;
    await verifyMotherEmail(clerk, stranger!.id, 'stranger.mother@example.com');

    const preview = ReminderPreviewSchema.parse((await clerk.get('/api/deadline-reminders/preview')).json());
    expect(preview.recipients.map((r) => [r.email, r.account, r.students.map((s) => [s.id, s.deadline])]).sort()).toEqual([
      [DEMO_FAMILY.email, true, [[incomplete, deadline]]],
      ['stranger.mother@example.com', false, [[stranger!.id, deadline]]],
    ]);
    expect(preview.reminder_days).toBe(7);

    const sent = await clerk.post('/api/deadline-reminders');
    expect(sent.json()).toEqual({ sent: 2 });
    const messages = await delivered();
    expect(messages.map((m) => m.recipients[0]).sort()).toEqual([DEMO_FAMILY.email, 'stranger.mother@example.com']);
    expect(messages[0]!.subject).toContain(`Registration closes on ${deadline}`);
    expect(messages.every((m) => m.links.some((href) => href.includes('/notices/unsubscribe?token=')))).toBe(true);
    // …and the one-click headers a mail program offers as "Unsubscribe" (RFC 8058, D84).
    for (const m of messages) {
      expect(m.headers['list-unsubscribe']).toMatch(new RegExp(`^<${TEST_PUBLIC_URL}/api/mail/unsubscribe\\?token=[A-Za-z0-9_.-]+>$`));
      expect(m.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    }

    const again = ReminderPreviewSchema.parse((await clerk.get('/api/deadline-reminders/preview')).json());
    expect(again.recipients).toEqual([]);
    expect(again.skipped).toBe(2);
    expect((await clerk.post('/api/deadline-reminders')).json()).toEqual({ sent: 0 });
    expect(await delivered()).toHaveLength(2);

    // N outside the window: no one.
    await db.updateTable('registration_periods').set({ deadline: addDays(schoolToday(), 30) }).execute();
    expect(ReminderPreviewSchema.parse((await clerk.get('/api/deadline-reminders/preview')).json()).recipients).toEqual([]);

    // Only the office and administrators.
    const principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
    expect((await principal.get('/api/deadline-reminders/preview')).statusCode).toBe(403);
    expect((await (await signInFamily(DEMO_FAMILY.email)).post('/api/deadline-reminders')).statusCode).toBe(403);
  });
});

describe('verified parent e-mails and the kinds the review sends', () => {
  it('a changed e-mail loses its mark; returned and verified notices reach the verified address', async () => {
    const clerk = await office();
    const [student] = await pickStudents(1);
    await verifyMotherEmail(clerk, student!.id, 'mum@example.com');
    let emails = ParentEmailListSchema.parse((await clerk.get(`/api/students/${student!.id}/parent-emails`)).json());
    expect(emails.emails.find((e) => e.parent === 'mother')).toMatchObject({ email: 'mum@example.com', verified: true });
    // An address the record does not hold cannot be marked.
    expect((await clerk.request('PUT', `/api/students/${student!.id}/parent-emails/father`, { body: { email: 'dad@example.com', verified: true } })).statusCode).toBe(400);
    const audit = await db.selectFrom('audit_log').select(['action', 'field']).where('entity_id', '=', student!.id).where('action', '=', 'parent-email-verified').execute();
    expect(audit).toEqual([{ action: 'parent-email-verified', field: 'email_mother' }]);

    await db.transaction().execute(async (trx) => {
      await notifyFamily(trx, { studentId: student!.id, kind: 'document-returned', data: { documentLabel: 'Birth Certificate', reason: 'The scan is unreadable.' } });
      await notifyFamily(trx, { studentId: student!.id, kind: 'registration-returned', data: { note: 'Please correct the address.', steps: ['Student Data', 'Family Data'] } });
      await notifyFamily(trx, { studentId: student!.id, kind: 'registration-verified', data: {} });
    });
    const messages = await delivered();
    expect(messages.map((m) => [m.recipients[0], m.subject])).toEqual([
      ['mum@example.com', `Birth Certificate for ${student!.name}: please upload a new one`],
      ['mum@example.com', `${student!.name}'s registration needs changes`],
      ['mum@example.com', `${student!.name}'s registration is verified`],
    ]);
    expect(messages[0]!.text).toContain('The reason: The scan is unreadable.');
    expect(messages[1]!.text).toContain('Steps to fix: Student Data, Family Data.');
    // None of these kinds can be turned off, so they carry no unsubscribe link.
    expect(messages.some((m) => m.links.some((href) => href.includes('unsubscribe')))).toBe(false);

    // The record's e-mail changes: the mark no longer counts and nothing more goes there.
    await db.updateTable('students').set({ email_mother: 'new.mum@example.com' }).where('id', '=', student!.id).execute();
    emails = ParentEmailListSchema.parse((await clerk.get(`/api/students/${student!.id}/parent-emails`)).json());
    expect(emails.emails.find((e) => e.parent === 'mother')).toMatchObject({ email: 'new.mum@example.com', verified: false });
    expect(await db.transaction().execute((trx) => notifyFamily(trx, { studentId: student!.id, kind: 'registration-verified', data: {} }))).toBe(0);

    // A family account, once linked, is written to instead.
    await addFamily('linked.parent@example.com', [student!.id]);
    expect(await db.transaction().execute((trx) => notifyFamily(trx, { studentId: student!.id, kind: 'registration-verified', data: {} }))).toBe(1);
    expect((await delivered()).at(-1)!.recipients).toEqual(['linked.parent@example.com']);
  });
});

describe("a student's own notices", () => {
  it('shows the notices about the student alone, once, and none naming a sibling; staff have none', async () => {
    const child = DEMO_STUDENTS.inProgress.student_id;
    await addFamily('second.parent@example.com', [child, DEMO_STUDENTS.registered.student_id]);
    await db.transaction().execute(async (trx) => {
      expect(await notifyFamily(trx, { studentId: child, kind: 'registration-verified', data: {} })).toBe(2);
      expect(await notifyFamilies(trx, { studentIds: DEMO_FAMILY.childIds, kind: 'term-reports-posted', data: () => ({ termLabel: 'Term 1 Michaelmas 2026-2027' }) })).toBe(2);
    });
    const student = await client().signInStudent(child, DEMO_STUDENTS.inProgress.password);
    const own = NoticeListSchema.parse((await student.get('/api/notices')).json());
    expect(own.notices.map((n) => [n.kind, n.student_ids])).toEqual([['registration-verified', [child]]]);
    const family = NoticeListSchema.parse((await (await signInFamily(DEMO_FAMILY.email)).get('/api/notices')).json());
    expect(family.notices.map((n) => n.kind).sort()).toEqual(['registration-verified', 'term-reports-posted']);
    expect(NoticeListSchema.parse((await (await office()).get('/api/notices')).json()).notices).toEqual([]);
    expect((await client().get('/api/notices')).statusCode).toBe(401);
  });
});

describe('what reaches whom: no parent’s link in a child’s hands, no parent left out by a linked account', () => {
  it("the portal's copy of a notice never holds the unsubscribe link, for the child or the parent; only the mail does", async () => {
    const child = DEMO_STUDENTS.registered.student_id;
    await db.transaction().execute((trx) => notifyFamily(trx, { studentId: child, kind: 'deadline-reminder', data: { deadline: '2026-12-01' } }));
    const [mail] = await delivered();
    const link = mail!.links.find((href) => href.includes('/notices/unsubscribe'));
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token')!;

    const student = await client().signInStudent(child, DEMO_STUDENTS.registered.password);
    const parent = await signInFamily(DEMO_FAMILY.email);
    for (const reader of [student, parent]) {
      const answer = await reader.get('/api/notices');
      expect(answer.statusCode, answer.body).toBe(200);
      expect(NoticeListSchema.parse(answer.json()).notices.map((n) => n.kind)).toContain('deadline-reminder');
      expect(answer.body).not.toContain(token);
      expect(answer.body).not.toContain('unsubscribe');
    }
    // A notice stored with its token (as the portal once kept them) shows without it too.
    const stored = await db.selectFrom('notices').select('data').where('kind', '=', 'deadline-reminder').executeTakeFirstOrThrow();
    const withToken = JSON.stringify({ ...(JSON.parse(stored.data) as object), unsubscribeToken: token });
    await db.updateTable('notices').set({ data: withToken }).where('kind', '=', 'deadline-reminder').execute();
    expect((await db.selectFrom('notices').select('data').where('kind', '=', 'deadline-reminder').executeTakeFirstOrThrow()).data).toContain(token);
    const again = await student.get('/api/notices');
    expect(again.body).not.toContain(token);
    expect(again.body).not.toContain('unsubscribe');
    // The parent's own link still works from the mail.
    expect((await client().post('/api/notices/unsubscribe', { token })).statusCode).toBe(200);
  });

  it("a child's verified parent addresses hear as well as every linked account; a verified address that is a linked account's hears once", async () => {
    const clerk = await office();
    const [student] = await pickStudents(1);
    await verifyMotherEmail(clerk, student!.id, 'mother.kept@example.com');
    // The student registers an address of their own and links it: the mother must still hear.
    await addFamily('student.own@example.com', [student!.id]);
    expect(await db.transaction().execute((trx) => notifyFamily(trx, { studentId: student!.id, kind: 'registration-verified', data: {} }))).toBe(2);
    expect((await delivered()).map((m) => m.recipients[0]).sort()).toEqual(['mother.kept@example.com', 'student.own@example.com']);

    // The mother's own account, linked with her verified address: one message to her, as the account.
    const motherId = await addFamily('mother.kept@example.com', [student!.id]);
    expect(await db.transaction().execute((trx) => notifyFamily(trx, { studentId: student!.id, kind: 'registration-verified', data: {} }))).toBe(2);
    expect((await delivered()).slice(2).map((m) => m.recipients[0]).sort()).toEqual(['mother.kept@example.com', 'student.own@example.com']);
    const hers = await db.selectFrom('notices').select(['recipient_key']).where('email', '=', 'mother.kept@example.com').orderBy('id').execute();
    expect(hers.map((row) => row.recipient_key)).toEqual(['email:mother.kept@example.com', `user:${motherId}`]);
  });
});
