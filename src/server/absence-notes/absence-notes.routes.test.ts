import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureSchoolDaysOfTerm, insertAbsenceNote, pastSchoolDaysOfTerm } from '../../../tests/support/absence-notes.js';
import { startSmtpInbox, type SmtpInbox } from '../../../tests/support/smtp-inbox.js';
import { addFamilyAccount } from '../../../tests/support/family-accounts.js';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { multipartBody, ONE_PIXEL_PNG } from '../../../tests/support/test-files.js';
import {
  ABSENCE_NOTE_MAX_SCHOOL_DAYS,
  ABSENCE_NOTE_MESSAGES,
  ABSENCE_NOTE_TEXT_MAX,
  AbsenceNoteAnswerSchema,
  AbsenceNoteDetailSchema,
  AbsenceNoteListSchema,
  AbsenceNoteQueueSchema,
} from '../../shared/absence-notes.schemas.js';
import { ClassAttendanceSchema, StudentAttendanceSchema } from '../../shared/attendance.schemas.js';
import { schoolToday } from '../../shared/dates.js';
import { NoticeListSchema } from '../../shared/notices.schemas.js';
import { DeleteStudentAnswerSchema } from '../../shared/privacy.schemas.js';
import { StudentChangesPageSchema } from '../../shared/students.schemas.js';
import { findScreenTerm, listSchoolDaysBetween } from '../attendance/attendance.service.js';
import { nowIso, type Db } from '../db/database.js';
import { DEMO_FAMILY, DEMO_PASSWORD, DEMO_STAFF, DEMO_STAFF_PASSWORD, DEMO_STUDENTS, demoTeacherUsername } from '../db/demo-data/demo-accounts.js';

/**
 * Absence notes through the API on both engines (docs/decisions.md D93): a family explains days,
 * the class's form teacher decides, the figures split excused from unexcused, the family is told
 * once through the real SMTP server; every rule of a note's input refused with the field named;
 * the wrong people refused; the notes go with the student's data on deletion.
 */

let t: TestApp;
let inbox: SmtpInbox;
let db: Db;
let ip = 0;
const client = () => new TestClient(t.app, `10.93.${Math.floor(++ip / 250)}.${ip % 250}`);

/** The demo family's child in 5A, whose family and form teacher the journey follows. */
const CHILD = DEMO_STUDENTS.registered.student_id;
let past: string[];

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await createTestApp({ smtpUrl: inbox.url });
  db = t.database.db;
  past = await pastSchoolDaysOfTerm(db);
  // The tests use past days of this term but never today (the gates may not have opened yet).
  past = past.filter((day) => day < schoolToday());
  expect(past.length, 'the demo term has school days before today').toBeGreaterThan(8);
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

async function signInFamily(email: string = DEMO_FAMILY.email): Promise<TestClient> {
  const signedIn = client();
  const response = await signedIn.post('/api/family/login', { email, password: DEMO_FAMILY.password });
  expect(response.statusCode, response.body).toBe(200);
  return signedIn;
}
const staff = (username: string) => client().signInAdmin(username, username === 'admin' ? 'admin-demo-2026' : DEMO_STAFF_PASSWORD);
const teacherOf = (classId: string) => staff(demoTeacherUsername(classId));
const student = (id: string) => client().signInStudent(id, DEMO_PASSWORD);

const addFamily = (email: string, childIds: readonly string[]) => addFamilyAccount(db, email, childIds);

/** Students of a class with no family account, who sign in with the demo password; each test takes its own. */
async function studentsWithoutFamily(classId: string, count: number, skip = 0): Promise<string[]> {
  const rows = await db
    .selectFrom('students')
    .innerJoin('users', 'users.student_id', 'students.id')
    .select('students.id')
    .where('students.class_id', '=', classId)
    .where('users.first_login', '=', 0)
    .where('users.password_reset', '=', 0)
    .where('students.id', 'not in', db.selectFrom('guardian_students').select('student_id'))
    .orderBy('students.id', 'desc')
    .offset(skip)
    .limit(count)
    .execute();
  expect(rows).toHaveLength(count);
  return rows.map((row) => row.id);
}

/** The note form as the portal's page sends it: multipart fields, and a file when given. */
function noteForm(fields: Record<string, string>, file?: { filename: string; contentType: string; bytes: Buffer }) {
  return multipartBody([...Object.entries(fields).map(([name, value]) => ({ name, value })), ...(file ? [{ name: 'file', ...file }] : [])]);
}
async function sendNote(as: TestClient, fields: Record<string, string>, file?: { filename: string; contentType: string; bytes: Buffer }) {
  const { body, headers } = noteForm({ part: 'whole_day', reason: 'illness', ...fields }, file);
  return as.request('POST', '/api/absence-notes', { body, headers });
}
const notesOf = async (studentId: string) => db.selectFrom('absence_notes').selectAll().where('student_id', '=', studentId).execute();

/** The child's attendance figures for the current term. */
async function attendanceOf(as: TestClient, studentId: string) {
  const response = await as.get(`/api/student-attendance/${studentId}`);
  expect(response.statusCode, response.body).toBe(200);
  return StudentAttendanceSchema.parse(response.json());
}

describe('a family explains two days, the form teacher accepts', () => {
  it('waits, is queued for the class, excuses the absences once accepted, tells the family once, and is in the history', async () => {
    const [day1, day2] = [past.at(-3)!, past.at(-2)!];
    // The child missed both days: no arrival at the gate.
    await db.deleteFrom('attendance_records').where('student_id', '=', CHILD).where('date_scanned', 'in', [day1, day2]).execute();
    const family = await signInFamily();
    const before = await attendanceOf(family, CHILD);
    expect(before.absent_excused + before.absent_unexcused).toBe(before.possible_attendance - before.attendance);

    const sent = await sendNote(family, { student_id: CHILD, date_from: day1, date_to: day2, text: 'Fever; the doctor saw her on the second day.' }, { filename: 'IMG_0042.PNG', contentType: 'image/png', bytes: ONE_PIXEL_PNG });
    expect(sent.statusCode, sent.body).toBe(201);
    const { note } = AbsenceNoteAnswerSchema.parse(sent.json());
    expect(note).toMatchObject({ student_id: CHILD, sender: 'family', date_from: day1, date_to: day2, state: 'waiting', school_days: 2, decision: null });
    expect(note.attachment).toMatchObject({ file_name: 'IMG_0042.png', mime: 'image/png' });

    // The family's list shows it waiting.
    const listed = AbsenceNoteListSchema.parse((await family.get(`/api/absence-notes?student_id=${CHILD}`)).json());
    expect(listed.can_send).toBe(true);
    expect(listed.notes.map((n) => [n.id, n.state])).toContainEqual([note.id, 'waiting']);

    // The form teacher of 5A sees it in the queue, waiting first, and reads it with the child's days and the photo.
    const teacher = await teacherOf('5A');
    const queue = AbsenceNoteQueueSchema.parse((await teacher.get('/api/absence-notes/queue?class_id=5A')).json());
    expect(queue.items[0]!.state).toBe('waiting');
    expect(queue.items.map((item) => item.id)).toContain(note.id);
    const detail = AbsenceNoteDetailSchema.parse((await teacher.get(`/api/absence-notes/${note.id}`)).json());
    expect(detail.days).toEqual([
      { date: day1, status: 'absent', time_in: null, excused: { am: false, pm: false, late: false } },
      { date: day2, status: 'absent', time_in: null, excused: { am: false, pm: false, late: false } },
    ]);
    const photo = await teacher.get(note.attachment!.url);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.headers['cache-control']).toBe('private, no-store');

    // A form teacher of another class neither sees nor decides it.
    const otherTeacher = await teacherOf('1A');
    const theirs = AbsenceNoteQueueSchema.parse((await otherTeacher.get('/api/absence-notes/queue')).json());
    expect(theirs.items.map((item) => item.id)).not.toContain(note.id);
    expectError(await otherTeacher.get('/api/absence-notes/queue?class_id=5A'), 403, 'forbidden');
    expectError(await otherTeacher.get(`/api/absence-notes/${note.id}`), 403, 'forbidden');
    expectError(await otherTeacher.get(note.attachment!.url), 403, 'forbidden');
    expectError(await otherTeacher.post(`/api/absence-notes/${note.id}/decision`, { decision: 'accept' }), 403, 'forbidden');

    // Accepted: the four sessions are excused, on the student's answer and the class's.
    const accepted = await teacher.post(`/api/absence-notes/${note.id}/decision`, { decision: 'accept', reason: 'evidence_seen' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(AbsenceNoteAnswerSchema.parse(accepted.json()).note).toMatchObject({ state: 'accepted', decision: { reason: 'evidence_seen', text: "A doctor's note or other evidence was seen" } });
    const after = await attendanceOf(family, CHILD);
    expect(after.absent_excused).toBe(before.absent_excused + 4);
    expect(after.absent_unexcused).toBe(before.absent_unexcused - 4);
    expect(after.attendance).toBe(before.attendance);
    expect(after.excused_days).toEqual(expect.arrayContaining([{ date: day1, am: true, pm: true, late: true }, { date: day2, am: true, pm: true, late: true }]));
    const classDays = ClassAttendanceSchema.parse((await teacher.get(`/api/class-attendance?class_id=5A&from=${day1}&to=${day2}`)).json());
    expect(classDays.students.find((row) => row.id === CHILD)).toMatchObject({ absent: 4, absent_excused: 4, absent_unexcused: 0 });
    expect(classDays.totals.absent_excused).toBeGreaterThanOrEqual(4);

    // Told once: a notice and its mail; a second decision (another tab) is refused and tells no one.
    await t.app.mailSender.drain();
    const told = inbox.messages.filter((mail) => mail.subject.startsWith('Absence note for'));
    expect(told.length).toBeGreaterThanOrEqual(1);
    expect(told.flatMap((mail) => mail.to)).toContain(DEMO_FAMILY.email);
    expect(told.find((mail) => mail.to.includes(DEMO_FAMILY.email))!.subject).toMatch(/accepted$/);
    expect(told.every((mail) => !mail.text.includes('Fever'))).toBe(true);
    const again = expectError(await (await staff(DEMO_STAFF.office.username)).post(`/api/absence-notes/${note.id}/decision`, { decision: 'decline', reason: 'evidence_needed' }), 409, 'conflict');
    expect(again.message).toBe(ABSENCE_NOTE_MESSAGES.notWaiting('accepted'));
    await t.app.mailSender.drain();
    expect(inbox.messages.filter((mail) => mail.subject.startsWith('Absence note for'))).toHaveLength(told.length);
    const notices = NoticeListSchema.parse((await family.get('/api/notices')).json());
    expect(notices.notices.filter((n) => n.kind === 'absence-note-decided')).toHaveLength(1);

    // The family reads the answer.
    const answered = AbsenceNoteListSchema.parse((await family.get(`/api/absence-notes?student_id=${CHILD}`)).json()).notes.find((n) => n.id === note.id)!;
    expect(answered).toMatchObject({ state: 'accepted', decision: { decided_by: expect.any(String) as string } });

    // Every step in the student's history.
    const history = StudentChangesPageSchema.parse((await teacher.get(`/api/students/${CHILD}/history`)).json());
    const steps = history.changes.filter((change) => change.field === 'absence_note').map((change) => change.new_value);
    expect(steps).toEqual([expect.stringMatching(new RegExp(`^Note ${note.id}: .*: accepted$`)) as string, expect.stringMatching(new RegExp(`^Note ${note.id}: .*: waiting for the school$`)) as string]);
    expect(steps.join(' ')).not.toContain('Fever');
  });

  it('declining leaves the days unexcused; the principal may decide', async () => {
    const day = past.at(-4)!;
    await db.deleteFrom('attendance_records').where('student_id', '=', CHILD).where('date_scanned', '=', day).execute();
    const family = await signInFamily();
    const before = await attendanceOf(family, CHILD);
    // A form's unused last-day field comes empty: one day.
    const { note } = AbsenceNoteAnswerSchema.parse((await sendNote(family, { student_id: CHILD, date_from: day, date_to: '', reason: 'transport' })).json());
    expect(note).toMatchObject({ date_from: day, date_to: day, school_days: 1 });
    const principal = await staff(DEMO_STAFF.principal.username);
    const declined = await principal.post(`/api/absence-notes/${note.id}/decision`, { decision: 'decline', reason: 'other', details: 'The school bus ran that day.' });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(AbsenceNoteAnswerSchema.parse(declined.json()).note.decision).toMatchObject({ reason: 'other', text: 'The school bus ran that day.' });
    const after = await attendanceOf(family, CHILD);
    expect([after.absent_excused, after.absent_unexcused]).toEqual([before.absent_excused, before.absent_unexcused]);
  });

  it('a late note excuses the late arrival only', async () => {
    const day = past.at(-5)!;
    const iso = nowIso();
    await db.deleteFrom('attendance_records').where('student_id', '=', CHILD).where('date_scanned', '=', day).execute();
    await db
      .insertInto('attendance_records')
      .values({ student_id: CHILD, date_scanned: day, attendance_am: 1, attendance_pm: 1, time_in: '08:40', time_out: '14:30', late: 1, created_at: iso, updated_at: iso })
      .execute();
    const family = await signInFamily();
    const before = await attendanceOf(family, CHILD);
    const { note } = AbsenceNoteAnswerSchema.parse((await sendNote(family, { student_id: CHILD, date_from: day, part: 'late', reason: 'medical_appointment' })).json());
    expect((await (await staff(DEMO_STAFF.office.username)).post(`/api/absence-notes/${note.id}/decision`, { decision: 'accept' })).statusCode).toBe(200);
    const after = await attendanceOf(family, CHILD);
    expect(after.lates_excused).toBe(before.lates_excused + 1);
    expect(after.absent_excused).toBe(before.absent_excused);
  });
});

describe("a note's input: each rule refused with its field named, nothing stored", () => {
  const bad = async (fields: Record<string, string>, status: number, field: string, file?: { filename: string; contentType: string; bytes: Buffer }) => {
    const family = await signInFamily();
    const count = (await notesOf(CHILD)).length;
    const body = expectError(await sendNote(family, { student_id: CHILD, ...fields }, file), status);
    expect(Object.keys(body.errors ?? {}), body.message).toContain(field);
    expect(await notesOf(CHILD)).toHaveLength(count);
    return body;
  };

  it(`refuses a range over ${ABSENCE_NOTE_MAX_SCHOOL_DAYS} school days`, async () => {
    const term = (await findScreenTerm(db, schoolToday()))!;
    const days = await listSchoolDaysBetween(db, term.start_date, term.end_date);
    const body = await bad({ date_from: days[0]!, date_to: days[ABSENCE_NOTE_MAX_SCHOOL_DAYS]! }, 400, 'date_to');
    expect(body.errors?.date_to).toEqual([ABSENCE_NOTE_MESSAGES.tooManyDays]);
  });

  it('refuses a range across terms, and one in another term', async () => {
    const term = (await findScreenTerm(db, schoolToday()))!;
    const previous = await db.selectFrom('academic_terms').select(['start_date', 'end_date']).where('end_date', '<', term.start_date).orderBy('end_date', 'desc').executeTakeFirstOrThrow();
    const lastOfPrevious = (await listSchoolDaysBetween(db, previous.start_date, previous.end_date)).at(-1)!;
    expect((await bad({ date_from: lastOfPrevious, date_to: past[0]! }, 400, 'date_to')).errors?.date_to).toEqual([ABSENCE_NOTE_MESSAGES.acrossTerms]);
    expect((await bad({ date_from: lastOfPrevious }, 400, 'date_from')).errors?.date_from).toEqual([ABSENCE_NOTE_MESSAGES.otherTerm]);
  });

  it('refuses days before the student joined, days with no school day, and a last day before the first', async () => {
    const [joined] = await studentsWithoutFamily('5A', 1);
    await db.updateTable('enrolment_events').set({ happened_on: past.at(-2)! }).where('student_id', '=', joined!).where('kind', '=', 'entry').execute();
    const own = await student(joined!);
    const refused = expectError(await sendNote(own, { student_id: joined!, date_from: past.at(-3)! }), 400);
    expect(refused.errors?.date_from?.[0]).toMatch(/^The student joined the school on /);
    const saturday = [...past].reverse().map((day) => new Date(`${day}T00:00:00Z`)).find((date) => date.getUTCDay() === 5)!;
    saturday.setUTCDate(saturday.getUTCDate() + 1);
    expect((await bad({ date_from: saturday.toISOString().slice(0, 10) }, 400, 'date_from')).errors?.date_from).toEqual([ABSENCE_NOTE_MESSAGES.noSchoolDay]);
    await bad({ date_from: past.at(-2)!, date_to: past.at(-3)! }, 400, 'date_to');
    await bad({ date_from: past.at(-2)!, date_to: '2026-02-30' }, 400, 'date_to');
  });

  it('refuses a reason not in the list, text over 500 characters, "other" without words, a missing part', async () => {
    await bad({ date_from: past.at(-2)!, reason: 'holiday in Tobago' }, 400, 'reason');
    await bad({ date_from: past.at(-2)!, text: 'x'.repeat(ABSENCE_NOTE_TEXT_MAX + 1) }, 400, 'text');
    await bad({ date_from: past.at(-2)!, reason: 'other', text: '  ' }, 400, 'text');
    await bad({ date_from: past.at(-2)!, part: 'all week' }, 400, 'part');
  });

  it('refuses a bad attachment: not a PDF or a photo, or a photo that does not decode', async () => {
    await bad({ date_from: past.at(-2)! }, 415, 'file', { filename: 'note.png', contentType: 'image/png', bytes: Buffer.from('<html>not a picture</html>') });
    await bad({ date_from: past.at(-2)! }, 415, 'file', { filename: 'note.png', contentType: 'image/png', bytes: Buffer.concat([ONE_PIXEL_PNG.subarray(0, 40)]) });
  });

  it('refuses a second note overlapping one that waits; a double submit stores one note', async () => {
    const [child] = await studentsWithoutFamily('5A', 1, 1);
    const own = await student(child!);
    const day = past.at(-6)!;
    const both = await Promise.all([sendNote(own, { student_id: child!, date_from: day }), sendNote(own, { student_id: child!, date_from: day })]);
    expect(both.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    expect(await notesOf(child!)).toHaveLength(1);
    const overlapping = expectError(await sendNote(own, { student_id: child!, date_from: past.at(-7)!, date_to: day, part: 'am' }), 409, 'conflict');
    expect(overlapping.errors?.date_from).toEqual([ABSENCE_NOTE_MESSAGES.overlapsWaiting]);
    // The afternoon of another day, and a late arrival beside a morning note, do not overlap.
    expect((await sendNote(own, { student_id: child!, date_from: past.at(-7)!, part: 'pm' })).statusCode).toBe(201);
  });
});

describe('the queue', () => {
  it('puts waiting notes first, oldest first, and filters by state, class, dates and reason', async () => {
    const [a, b] = await studentsWithoutFamily('4B', 2);
    const early = await insertAbsenceNote(db, { studentId: a!, date: past.at(-12)! });
    const late = await insertAbsenceNote(db, { studentId: b!, date: past.at(-11)! });
    const decided = await insertAbsenceNote(db, { studentId: b!, date: past.at(-13)!, state: 'accepted' });
    await db.updateTable('absence_notes').set({ reason: 'weather' }).where('id', '=', late).execute();
    // Sent in the same millisecond: the note stored first is still the older.
    const sentAt = (await db.selectFrom('absence_notes').select('created_at').where('id', '=', early).executeTakeFirstOrThrow()).created_at;
    await db.updateTable('absence_notes').set({ created_at: sentAt }).where('id', '=', late).execute();
    const office = await staff(DEMO_STAFF.office.username);
    const queue = async (query: string) => AbsenceNoteQueueSchema.parse((await office.get(`/api/absence-notes/queue?${query}`)).json());
    const all = await queue('class_id=4B');
    expect(all.items.map((item) => item.id)).toEqual([early, late, decided]);
    expect(all).toMatchObject({ total: 3, waiting: 2 });
    expect(all.items[0]!.student).toMatchObject({ class_id: '4B' });
    expect((await queue('class_id=4B&state=accepted')).items.map((item) => item.id)).toEqual([decided]);
    expect((await queue('class_id=4B&reason=weather')).items.map((item) => item.id)).toEqual([late]);
    expect((await queue(`class_id=4B&from=${past.at(-11)!}&to=${past.at(-11)!}`)).items.map((item) => item.id)).toEqual([late]);
    expectError(await office.get('/api/absence-notes/queue?reason=holiday'), 400);
  });
});

describe('planned ahead, withdrawn while it waits', () => {
  it('takes a day ahead in this term, and lets the family withdraw it once', async () => {
    const ahead = (await futureSchoolDaysOfTerm(db))[0] ?? past.at(-8)!;
    const family = await signInFamily();
    const { note } = AbsenceNoteAnswerSchema.parse((await sendNote(family, { student_id: CHILD, date_from: ahead, part: 'am', reason: 'medical_appointment', text: 'Clinic at 9.' })).json());
    const withdrawn = await family.post(`/api/absence-notes/${note.id}/withdraw`, {});
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(AbsenceNoteAnswerSchema.parse(withdrawn.json()).note).toMatchObject({ state: 'withdrawn', withdrawn_at: expect.any(String) as string });
    expectError(await family.post(`/api/absence-notes/${note.id}/withdraw`, {}), 409, 'conflict');
    expectError(await (await staff(DEMO_STAFF.office.username)).post(`/api/absence-notes/${note.id}/decision`, { decision: 'accept' }), 409, 'conflict');
  });
});

describe('the wrong people', () => {
  it('refuses another family, a student whose family sends their notes, a visitor, and staff sending; reads follow the health-data rule', async () => {
    const [otherChild] = await studentsWithoutFamily('5A', 1, 2);
    await addFamily('another.family@example.com', [otherChild!]);
    const noteId = await insertAbsenceNote(db, { studentId: CHILD, date: past.at(-9)!, attachment: ONE_PIXEL_PNG });
    const otherFamily = await signInFamily('another.family@example.com');
    expectError(await sendNote(otherFamily, { student_id: CHILD, date_from: past.at(-9)! }), 403, 'forbidden');
    expectError(await otherFamily.get(`/api/absence-notes?student_id=${CHILD}`), 403, 'forbidden');
    expectError(await otherFamily.get(`/api/absence-notes/${noteId}`), 403, 'forbidden');
    expectError(await otherFamily.get(`/api/absence-notes/${noteId}/attachment`), 403, 'forbidden');
    expectError(await otherFamily.post(`/api/absence-notes/${noteId}/withdraw`, {}), 403, 'forbidden');

    // The child of a family: the family sends, and the family's note is not the child's to read.
    const child = await student(CHILD);
    const refused = expectError(await sendNote(child, { student_id: CHILD, date_from: past.at(-9)! }), 403, 'forbidden');
    expect(refused.message).toBe(ABSENCE_NOTE_MESSAGES.studentHasFamily);
    expectError(await child.get(`/api/absence-notes/${noteId}`), 403, 'forbidden');
    expect(AbsenceNoteListSchema.parse((await child.get(`/api/absence-notes?student_id=${CHILD}`)).json())).toEqual({ can_send: false, notes: [] });

    expectError(await client().get(`/api/absence-notes/${noteId}`), 401, 'unauthenticated');
    expectError(await sendNote(client(), { student_id: CHILD, date_from: past.at(-9)! }), 401, 'unauthenticated');
    const admin = await staff('admin');
    expectError(await sendNote(admin, { student_id: CHILD, date_from: past.at(-9)! }), 403, 'forbidden');
    // Health data: the administrator neither reads nor decides a note (D93).
    expectError(await admin.get(`/api/absence-notes/${noteId}`), 403, 'forbidden');
    expectError(await admin.get(`/api/absence-notes/${noteId}/attachment`), 403, 'forbidden');
    expectError(await admin.post(`/api/absence-notes/${noteId}/decision`, { decision: 'accepted', reason: 'ok' }), 403, 'forbidden');
    expect((await otherFamily.get(`/api/absence-notes?student_id=${otherChild}`)).statusCode).toBe(200);
  });

  it('lets a student with no family send, list and read their own notes; their answer reaches them on their list', async () => {
    const [alone] = await studentsWithoutFamily('5A', 1, 3);
    const own = await student(alone!);
    const sent = await sendNote(own, { student_id: alone!, date_from: past.at(-10)!, reason: 'family_emergency' });
    expect(sent.statusCode, sent.body).toBe(201);
    const { note } = AbsenceNoteAnswerSchema.parse(sent.json());
    expect(note.sender).toBe('student');
    expectError(await sendNote(own, { student_id: CHILD, date_from: past.at(-10)! }), 403, 'forbidden');
    const office = await staff(DEMO_STAFF.office.username);
    expect((await office.post(`/api/absence-notes/${note.id}/decision`, { decision: 'decline', reason: 'evidence_needed' })).statusCode).toBe(200);
    const list = AbsenceNoteListSchema.parse((await own.get(`/api/absence-notes?student_id=${alone}`)).json());
    expect(list.can_send).toBe(true);
    const mine = list.notes;
    expect(mine).toMatchObject([{ id: note.id, state: 'declined', decision: { text: "A doctor's note or other evidence is needed" } }]);
    expect((await own.get(`/api/absence-notes/${note.id}`)).statusCode).toBe(200);
  });
});

describe("deleting a student's data", () => {
  it('takes their notes and attachments with it', async () => {
    const [leaving] = await studentsWithoutFamily('5A', 1, 4);
    await insertAbsenceNote(db, { studentId: leaving!, date: past.at(-2)!, sender: 'student', attachment: ONE_PIXEL_PNG });
    const admin = await staff('admin');
    const response = await admin.request('DELETE', `/api/privacy/students/${leaving}`, { body: JSON.stringify({ confirm_student_id: leaving }), headers: { 'content-type': 'application/json' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(DeleteStudentAnswerSchema.parse(response.json()).deleted).toMatchObject({ absence_notes: 1, absence_note_attachments: 1 });
    expect(await notesOf(leaving!)).toEqual([]);
    expect(await db.selectFrom('absence_note_attachments').select('note_id').where('note_id', 'not in', db.selectFrom('absence_notes').select('id')).execute()).toEqual([]);
  });
});
