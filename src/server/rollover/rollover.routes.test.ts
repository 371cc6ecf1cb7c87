import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { readWorkbook } from '../../../tests/support/workbook.js';
import { AdminStudentListSchema, StudentListPageSchema } from '../../shared/students.schemas.js';
import { multipartBody } from '../../../tests/support/test-files.js';
import { ClassAttendanceSchema } from '../../shared/attendance.schemas.js';
import { FORMER_STUDENT_MESSAGE, RolloverPreviewSchema, RolloverRunAnswerSchema, RolloverStateSchema, type RolloverPlanInput } from '../../shared/rollover.schemas.js';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { schoolToday } from '../../shared/dates.js';
import { getRolloverState, runRollover, undoRollover } from './rollover.service.js';

/**
 * The year rollover through the API (D60), on both engines: administrators only; the
 * preview's counts per class on the demo school; a bad plan answered 400 with nothing stored; a
 * failure late in the run leaves nothing changed; the run moves every class by the mapping, makes
 * Form 5 former students (out of the lists, in the export on request, read-only: 422), creates
 * the new year's terms, re-opens registration and clears the office's decisions; the undo the
 * same day puts everything back exactly; the next day, or under a later run, it is refused.
 */

let t: TestApp;
let ip = 0;
const client = () => new TestClient(t.app, `10.19.${Math.floor(++ip / 250)}.${ip % 250}`);
let admin: TestClient;
let office: TestClient;
let principal: TestClient;
let teacher: TestClient;
let student: TestClient;
let parent: TestClient;
const leaver = DEMO_STUDENTS.registered.student_id; // in 5A
const ACTOR = { actor_user_id: null, actor_label: 'test', ip: null, request_id: null };

beforeAll(async () => {
  t = await createTestApp();
  admin = await client().signInAdmin();
  office = await client().signInAdmin(DEMO_STAFF.office.username, DEMO_STAFF.office.password);
  principal = await client().signInAdmin(DEMO_STAFF.principal.username, DEMO_STAFF.principal.password);
  teacher = await client().signInAdmin(DEMO_STAFF.formTeacher.username, DEMO_STAFF.formTeacher.password);
  student = await client().signInStudent(leaver, DEMO_STUDENTS.registered.password);
  parent = client();
  expect((await parent.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
});
afterAll(() => t.close());

const db = () => t.database.db;

/** Everything a rollover touches, in a stable order: the undo must give this back exactly. */
async function snapshot() {
  const [students, terms, periods, reviews, reRegistrations, runs] = await Promise.all([
    db().selectFrom('students').select(['id', 'class_id', 'left_on', 'left_class', 'updated_at']).orderBy('id').execute(),
    db().selectFrom('academic_terms').selectAll().orderBy('id').execute(),
    db().selectFrom('registration_periods').selectAll().orderBy('id').execute(),
    db().selectFrom('registration_reviews').selectAll().orderBy('student_id').execute(),
    db().selectFrom('re_registration_steps').select(['year', 'student_id', 'step']).orderBy('student_id').orderBy('step').execute(),
    db().selectFrom('year_rollovers').select('id').execute(),
  ]);
  return { students, terms, periods, reviews, reRegistrations, runs: runs.length };
}

async function classCounts(): Promise<Map<string, number>> {
  const rows = await db().selectFrom('students').select(['class_id']).where('class_id', 'is not', null).where('left_on', 'is', null).execute();
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.class_id!, (counts.get(row.class_id!) ?? 0) + 1);
  return counts;
}

async function state() {
  const response = await admin.get('/api/year-rollover');
  expect(response.statusCode, response.body).toBe(200);
  return RolloverStateSchema.parse(response.json());
}

/** The default plan with 3A sent to 4B instead of 4A (the office's edit), and the students retained. */
async function editedPlan(retained: string[] = []): Promise<RolloverPlanInput> {
  const { plan } = await state();
  return { ...plan, mapping: plan.mapping.map((m) => (m.from === '3A' ? { ...m, to: '4B' } : m)), registration_deadline: '2027-10-15', retained };
}

/** The first student on the roll of a class (by ID). */
async function firstOf(classId: string): Promise<string> {
  const row = await db().selectFrom('students').select('id').where('class_id', '=', classId).where('left_on', 'is', null).orderBy('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Noon of a school day, as an instant: the clock of a run "on that day". */
const onSchoolDay = (day: string) => new Date(`${day}T16:00:00Z`);

describe('who may roll the year over', () => {
  it('administrators only: 401 signed out, 403 for the office, the principal, a form teacher, a student and a parent', async () => {
    const plan = (await state()).plan;
    expectError(await client().get('/api/year-rollover'), 401, 'unauthenticated');
    for (const c of [office, principal, teacher, student, parent]) {
      expectError(await c.get('/api/year-rollover'), 403, 'forbidden');
      expectError(await c.post('/api/year-rollover/preview', plan), 403, 'forbidden');
      expectError(await c.post('/api/year-rollover', plan), 403, 'forbidden');
      expectError(await c.post('/api/year-rollover/1/undo'), 403, 'forbidden');
    }
    expect((await snapshot()).runs).toBe(0);
  });
});

describe('the preview', () => {
  it('starts from the default plan: NX → (N+1)X, Form 5 leaves, the terms one year on', async () => {
    const current = await state();
    expect(current.from_year).toBe(2026);
    expect(current.to_year).toBe(2027);
    const to = new Map(current.plan.mapping.map((m) => [m.from, m.to]));
    expect(to.get('1A')).toBe('2A');
    expect(to.get('3C')).toBe('4C');
    expect(to.get('4D')).toBe('5D');
    expect(to.get('5A')).toBeNull();
    expect(current.plan.terms).toEqual([
      { term: 1, start_date: '2027-09-07', end_date: '2027-12-11' },
      { term: 2, start_date: '2028-01-04', end_date: '2028-03-26' },
      { term: 3, start_date: '2028-04-12', end_date: '2028-07-09' },
    ]);
    expect(current.runs).toEqual([]);
  });

  it('counts per class who goes where and who leaves, on the demo school, and writes nothing', async () => {
    const before = await snapshot();
    const counts = await classCounts();
    const response = await admin.post('/api/year-rollover/preview', await editedPlan());
    expect(response.statusCode, response.body).toBe(200);
    const preview = RolloverPreviewSchema.parse(response.json());
    const row = (id: string) => preview.classes.find((c) => c.class_id === id)!;
    expect(preview.classes).toHaveLength(20);
    for (const c of preview.classes) expect(c.students, c.class_id).toBe(counts.get(c.class_id) ?? 0);
    expect(row('3A')).toMatchObject({ to: '4B', students: counts.get('3A') });
    expect(row('4B').after).toBe((counts.get('3A') ?? 0) + (counts.get('3B') ?? 0));
    expect(row('4A').after).toBe(0);
    expect(row('2A').after).toBe(counts.get('1A'));
    expect(row('1A').after).toBe(0);
    expect(row('5A')).toMatchObject({ to: null, after: counts.get('4A') });
    const formFive = ['5A', '5B', '5C', '5D'].reduce((n, id) => n + (counts.get(id) ?? 0), 0);
    expect(preview.leaving).toBe(formFive);
    expect(preview.moving + preview.leaving).toBe([...counts.values()].reduce((a, b) => a + b, 0));
    expect(preview.periods).toBe(before.periods.length);
    expect(await snapshot()).toEqual(before);
  });

  it('answers a bad plan 400 with every problem by field, and stores nothing', async () => {
    const before = await snapshot();
    const plan = await editedPlan();
    const bad = {
      ...plan,
      mapping: plan.mapping
        .map((m) => (m.from === '3A' ? { ...m, to: '4Z' } : m.from === '2B' ? { ...m, to: '4B' } : m))
        .filter((m) => m.from !== '1C'),
    };
    const index = (from: string) => bad.mapping.findIndex((m) => m.from === from);
    for (const url of ['/api/year-rollover/preview', '/api/year-rollover']) {
      const body = expectError(await admin.post(url, bad), 400, 'validation_failed');
      expect(body.errors![`mapping.${index('3A')}.to`]![0]).toMatch(/no class 4Z/);
      expect(body.errors![`mapping.${index('2B')}.to`]![0]).toMatch(/Form 3/);
      expect(body.errors!.mapping![0]).toMatch(/1C/);
    }
    const overlapping = { ...plan, terms: [plan.terms[0]!, { ...plan.terms[1]!, start_date: '2027-12-01' }, plan.terms[2]!] };
    expect(expectError(await admin.post('/api/year-rollover', overlapping), 400).errors!['terms.1.start_date']).toBeDefined();
    const early = { ...plan, terms: [{ ...plan.terms[0]!, start_date: '2027-06-01' }, plan.terms[1]!, plan.terms[2]!] };
    expect(expectError(await admin.post('/api/year-rollover', early), 400).errors!['terms.0.start_date']![0]).toMatch(/after 2026-2027 ends/);
    expectError(await admin.post('/api/year-rollover', { ...plan, registration_deadline: '2027-02-30' }), 400);
    expectError(await admin.post('/api/year-rollover', { ...plan, mapping: [...plan.mapping, plan.mapping[0]!] }), 400);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a retained list naming an unknown ID, a former student, a student in no class or one ID twice: 400 by entry, nothing stored', async () => {
    const before = await snapshot();
    const former = await firstOf('2B');
    const classless = await firstOf('2C');
    await db().updateTable('students').set({ left_on: '2026-06-30', left_class: '2B', class_id: null }).where('id', '=', former).execute();
    await db().updateTable('students').set({ class_id: null }).where('id', '=', classless).execute();
    try {
      const kept = await firstOf('3A');
      const plan = await editedPlan([kept, '99999999', former, classless]);
      for (const url of ['/api/year-rollover/preview', '/api/year-rollover']) {
        const body = expectError(await admin.post(url, plan), 400, 'validation_failed');
        expect(body.errors).toEqual({
          'retained.1': ['No student has the ID 99999999.'],
          'retained.2': [`${former} has left the school: only students on the roll can stay in their form.`],
          'retained.3': [`${classless} is in no class: only students in a class move up or stay.`],
        });
      }
      expect(expectError(await admin.post('/api/year-rollover', await editedPlan([kept, kept])), 400).errors!['retained.1']![0]).toMatch(/given twice/);
      expect(expectError(await admin.post('/api/year-rollover/preview', await editedPlan(['no such id!'])), 400).errors!['retained.0']).toBeDefined();
    } finally {
      await db().updateTable('students').set({ left_on: null, left_class: null, class_id: '2B' }).where('id', '=', former).execute();
      await db().updateTable('students').set({ class_id: '2C' }).where('id', '=', classless).execute();
    }
    expect(await snapshot()).toEqual(before);
  });

  it('counts the retained: they stay in their class (a Form 5 leaver repeats where there is no Form 6)', async () => {
    const counts = await classCounts();
    const [inThreeA, inFiveA] = [await firstOf('3A'), await firstOf('5A')];
    const plain = RolloverPreviewSchema.parse((await admin.post('/api/year-rollover/preview', await editedPlan())).json());
    const response = await admin.post('/api/year-rollover/preview', await editedPlan([inThreeA, inFiveA]));
    expect(response.statusCode, response.body).toBe(200);
    const preview = RolloverPreviewSchema.parse(response.json());
    const row = (id: string) => preview.classes.find((c) => c.class_id === id)!;
    expect(preview.retained).toBe(2);
    expect(preview.moving).toBe(plain.moving - 1);
    expect(preview.leaving).toBe(plain.leaving - 1);
    expect(row('3A')).toMatchObject({ students: counts.get('3A'), retained: 1, to: '4B', after: (counts.get('2A') ?? 0) + 1 });
    expect(row('4B').after).toBe((counts.get('3A') ?? 0) - 1 + (counts.get('3B') ?? 0));
    expect(row('5A')).toMatchObject({ retained: 1, after: (counts.get('4A') ?? 0) + 1 });
  });

  it('leaves nothing changed when the run fails late (after every step has written)', async () => {
    const before = await snapshot();
    // The run's own row names its administrator: an account that does not exist fails the last insert.
    await expect(runRollover(db(), { ...ACTOR, actor_user_id: 987654 }, await editedPlan())).rejects.toThrow();
    expect(await snapshot()).toEqual(before);
  });
});

describe('the run and its undo', () => {
  let before: Awaited<ReturnType<typeof snapshot>>;
  let countsBefore: Map<string, number>;
  let runId: number;
  let reviewed: string;
  let keptInThreeA: string;
  let keptInFiveA: string;

  it('runs in one go: classes move by the mapping, Form 5 leaves, terms, windows and reviews', async () => {
    // An office decision to clear: a submitted record of Form 2, verified.
    const submitted = await db()
      .selectFrom('registration_progress')
      .innerJoin('students', 'students.id', 'registration_progress.student_id')
      .select('students.id')
      .where('registration_progress.submit', '=', 1)
      .where('students.class_id', '=', '2A')
      .executeTakeFirst();
    reviewed = submitted?.id ?? leaver;
    await db().insertInto('registration_reviews').values({ student_id: reviewed, state: 'verified', note: null, steps: '[]', reviewed_by: null, reviewed_at: '2026-11-01T10:00:00.000Z', created_at: '2026-11-01T10:00:00.000Z', updated_at: '2026-11-01T10:00:00.000Z' }).execute();
    await db().updateTable('registration_periods').set({ open: 0 }).execute();
    before = await snapshot();
    countsBefore = await classCounts();
    const inClass = (id: string) => before.students.filter((s) => s.class_id === id).map((s) => s.id);

    keptInThreeA = inClass('3A').at(-1)!;
    keptInFiveA = inClass('5A').find((id) => id !== leaver)!;
    const plan = await editedPlan([keptInThreeA, keptInFiveA]);
    const response = await admin.post('/api/year-rollover', plan);
    expect(response.statusCode, response.body).toBe(201);
    const answer = RolloverRunAnswerSchema.parse(response.json());
    runId = answer.run.id;
    expect(answer.message).toMatch(/2027-2028: .* 2 retained/);
    expect(answer.run).toMatchObject({ from_year: 2026, to_year: 2027, run_on: schoolToday(), can_undo: true, undone_at: null });
    expect(answer.run.summary).toMatchObject({ retained: 2, leaving: inClass('5A').length - 1 + ['5B', '5C', '5D'].reduce((n, c) => n + inClass(c).length, 0) });

    const after = await db().selectFrom('students').select(['id', 'class_id', 'left_on', 'left_class']).execute();
    const byId = new Map(after.map((s) => [s.id, s]));
    // The retained stay in their class: 3A (now with the students who came up from 2A), and 5A repeating (no Form 6).
    expect(byId.get(keptInThreeA)).toEqual({ id: keptInThreeA, class_id: '3A', left_on: null, left_class: null });
    expect(byId.get(keptInFiveA)).toEqual({ id: keptInFiveA, class_id: '5A', left_on: null, left_class: null });
    for (const id of inClass('3A')) if (id !== keptInThreeA) expect(byId.get(id)!.class_id).toBe('4B');
    for (const id of inClass('3B')) expect(byId.get(id)!.class_id).toBe('4B');
    for (const id of inClass('1A')) expect(byId.get(id)!.class_id).toBe('2A');
    for (const id of inClass('4D')) expect(byId.get(id)!.class_id).toBe('5D');
    for (const id of inClass('5A')) if (id !== keptInFiveA) expect(byId.get(id)).toEqual({ id, class_id: null, left_on: schoolToday(), left_class: '5A' });
    const counts = await classCounts();
    for (const form1 of ['1A', '1B', '1C', '1D']) expect(counts.get(form1) ?? 0).toBe(0);
    expect(counts.get('4A') ?? 0).toBe(0);
    expect(counts.get('5B')).toBe(countsBefore.get('4B'));
    expect(counts.get('3A')).toBe((countsBefore.get('2A') ?? 0) + 1);
    expect(counts.get('5A')).toBe((countsBefore.get('4A') ?? 0) + 1);

    const terms = await db().selectFrom('academic_terms').select(['term', 'start_date', 'end_date']).where('year', '=', 2027).orderBy('term').execute();
    expect(terms).toEqual(plan.terms);
    const periods = await db().selectFrom('registration_periods').select(['open', 'deadline']).execute();
    expect(periods.length).toBeGreaterThan(0);
    for (const period of periods) expect(period).toEqual({ open: 1, deadline: '2027-10-15' });
    expect(await db().selectFrom('registration_reviews').selectAll().execute()).toEqual([]);
    // Every student still on the roll is asked to confirm each step for 2027 (D62); the leavers are not.
    const pending = await db().selectFrom('re_registration_steps').select(['student_id']).where('year', '=', 2027).where('confirmed_at', 'is', null).execute();
    const asked = new Set(pending.map((row) => row.student_id));
    expect(asked.size).toBe(after.filter((s) => s.class_id !== null).length);
    for (const id of inClass('5A')) expect(asked.has(id)).toBe(id === keptInFiveA);
    expect(asked.has(inClass('3A')[0]!)).toBe(true);

    const audit = await db().selectFrom('audit_log').select(['entity', 'entity_id', 'field', 'old_value', 'new_value']).where('action', '=', 'rollover').execute();
    expect(audit.find((row) => row.entity === 'school-year')).toMatchObject({ entity_id: String(runId), old_value: '2026-2027' });
    expect(audit.find((row) => row.entity_id === leaver)).toMatchObject({ field: 'left_on', old_value: '5A' });
    // Each retained student is audited on their own, with where they stay.
    const retainedAudit = await db().selectFrom('audit_log').select(['entity_id', 'field', 'old_value', 'new_value']).where('action', '=', 'rollover-retain').orderBy('entity_id').execute();
    expect(retainedAudit).toEqual(
      [
        { entity_id: keptInThreeA, field: 'class_id', old_value: '3A', new_value: '3A' },
        { entity_id: keptInFiveA, field: 'class_id', old_value: '5A', new_value: '5A' },
      ].sort((a, b) => a.entity_id.localeCompare(b.entity_id)),
    );
  });

  it('refuses a second rollover until the new year has begun (409 saying from when), and stores nothing', async () => {
    const standing = await snapshot();
    const current = await state();
    expect(current.from_year).toBe(2027);
    expect(current.not_before).toBe('2027-09-07');
    expect(current.not_before_reason).toBe('The school is already in 2027-2028, which begins on 07/09/2027. The rollover to 2028-2029 is possible from that day.');
    for (const url of ['/api/year-rollover/preview', '/api/year-rollover']) {
      const refused = expectError(await admin.post(url, current.plan), 409, 'conflict');
      expect(refused.message).toBe(current.not_before_reason);
    }
    // The day before the new year's first term still waits; from that day it may run (the next test runs it).
    await expect(runRollover(db(), ACTOR, current.plan, onSchoolDay('2027-09-06'))).rejects.toMatchObject({ statusCode: 409 });
    expect(await snapshot()).toEqual(standing);
    expect((await state()).runs[0]).toMatchObject({ id: runId, can_undo: true });
  });

  it('keeps leavers out of every list by default, in the list and the export on request', async () => {
    const listed = AdminStudentListSchema.parse((await admin.get('/api/students')).json());
    expect(listed.some((s) => s.id === leaver)).toBe(false);
    expect(listed.every((s) => !s.left_on)).toBe(true);
    const withFormer = AdminStudentListSchema.parse((await admin.get('/api/students?former=include')).json());
    expect(withFormer.find((s) => s.id === leaver)).toMatchObject({ class_id: null, left_on: schoolToday(), left_class: '5A' });
    // Form 5 leaves but for the one retained, who repeats in 5A.
    expect(withFormer.length - listed.length).toBe(before.students.filter((s) => s.class_id?.startsWith('5')).length - 1);
    expectError(await admin.get('/api/students?former=all'), 400);

    // The list paged on the server (a large school's, D64) leaves them out the same way, and counts them only when asked.
    const paged = StudentListPageSchema.parse((await admin.get(`/api/students?page=0&search=${leaver}`)).json());
    expect(paged.rows.map((s) => s.id)).not.toContain(leaver);
    expect(paged.totalStudents).toBe(listed.length);
    const pagedWithFormer = StudentListPageSchema.parse((await admin.get(`/api/students?page=0&former=include&search=${leaver}`)).json());
    expect(pagedWithFormer.rows.find((s) => s.id === leaver)).toMatchObject({ left_class: '5A' });
    expect(pagedWithFormer.totalStudents).toBe(withFormer.length);

    const plain = await readWorkbook((await admin.get('/api/registration-data-spreadsheet')).rawPayload);
    const full = await readWorkbook((await admin.get('/api/registration-data-spreadsheet?former=include')).rawPayload);
    const ids = (book: Awaited<ReturnType<typeof readWorkbook>>) => book.rows.map((row) => row['Student ID']);
    expect(ids(plain)).not.toContain(leaver);
    expect(ids(full)).toContain(leaver);
    expect(ids(full)).toHaveLength(withFormer.length);
    expect(ids(plain)).toHaveLength(listed.length);

    // Class lists: 5A now holds the students who came up from 4A and the one retained, and none of the leavers.
    const attendance = await admin.get('/api/class-attendance?class_id=5A&from=2026-11-02&to=2026-11-06');
    expect(attendance.statusCode, attendance.body).toBe(200);
    expect(ClassAttendanceSchema.parse(attendance.json()).students).toHaveLength(countsBefore.get('4A')! + 1);
    expect(attendance.body).not.toContain(leaver);
    const queue = await admin.get('/api/review/documents');
    expect(queue.statusCode).toBe(200);
    expect(queue.body).not.toContain(`"${leaver}"`);
  });

  it('keeps a former student read-only: every edit 422, reads still answered', async () => {
    for (const [c, body] of [
      [admin, { id: leaver, first_name: 'Changed' }],
      [office, { id: leaver, first_name: 'Changed' }],
      [student, { id: leaver, home_address: '1 New Road' }],
    ] as const) {
      const refused = expectError(await c.post('/api/student', body), 422, 'former_student');
      expect(refused.message).toMatch(/left the school/);
    }
    expectError(await office.post('/api/reset-password-student', { student_id: leaver }), 422, 'former_student');
    // Import Students names the leaver: that row is refused, and nothing of the file is written.
    const file = multipartBody([{ name: 'file', filename: 'students.csv', contentType: 'text/csv', bytes: Buffer.from(`Student ID,First Name\n${leaver},Changed\n`) }]);
    const refusedImport = expectError(await office.post('/api/students/import?dryRun=0', file.body, { headers: file.headers }), 400, 'validation_failed');
    expect(refusedImport.errors).toEqual({ 'row 2: Student ID': [FORMER_STUDENT_MESSAGE] });
    expect((await db().selectFrom('students').select('first_name').where('id', '=', leaver).executeTakeFirstOrThrow()).first_name).not.toBe('Changed');
    expectError(await office.post(`/api/review/registrations/${leaver}/verify`, {}), 422, 'former_student');
    expect((await office.get(`/api/student-record/${leaver}`)).statusCode).toBe(200);
    expect((await student.get(`/api/student-record/${leaver}`)).statusCode).toBe(200);
    expect((await office.get(`/api/privacy/students/${leaver}/history`)).statusCode).toBe(403);
    expect((await admin.get(`/api/privacy/students/${leaver}/history`)).statusCode).toBe(200);
  });

  it('refuses the undo the next day, and while a later rollover stands', async () => {
    const tomorrow = new Date(Date.now() + 36 * 3600_000);
    const late = await undoRollover(db(), ACTOR, runId, tomorrow).then(
      () => null,
      (error: unknown) => error as { statusCode: number; message: string },
    );
    expect(late?.statusCode).toBe(409);
    expect(late?.message).toMatch(/only on the day it ran \(\d{2}\/\d{2}\/\d{4}\)/);

    // The next rollover on the first day of 2027-2028, when it may run.
    const firstDay = onSchoolDay('2027-09-07');
    const later = await runRollover(db(), ACTOR, (await state()).plan, firstDay);
    expect(later.run).toMatchObject({ from_year: 2027, run_on: '2027-09-07' });
    const refused = expectError(await admin.post(`/api/year-rollover/${runId}/undo`), 409, 'conflict');
    expect(refused.message).toMatch(/later rollover/);
    expect((await getRolloverState(db(), firstDay)).runs.map((run) => [run.id, run.can_undo])).toEqual([
      [later.run.id, true],
      [runId, false],
    ]);
    await undoRollover(db(), ACTOR, later.run.id, firstDay);
  });

  it('undoes the same day: students, terms, windows and reviews exactly as before; audited; once only', async () => {
    const response = await admin.post(`/api/year-rollover/${runId}/undo`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = RolloverRunAnswerSchema.parse(response.json());
    expect(answer.run).toMatchObject({ id: runId, can_undo: false });
    expect(answer.run.undone_at).not.toBeNull();
    const now = await snapshot();
    expect({ ...now, runs: 0 }).toEqual({ ...before, runs: 0 });
    expect(now.runs).toBe(2);
    expect(await classCounts()).toEqual(countsBefore);
    expect(await db().selectFrom('registration_reviews').select('student_id').execute()).toEqual([{ student_id: reviewed }]);

    const audit = await db().selectFrom('audit_log').select(['entity', 'entity_id']).where('action', '=', 'rollover-undo').where('entity', '=', 'school-year').execute();
    expect(audit.map((row) => row.entity_id)).toEqual(expect.arrayContaining([String(runId)]));
    expectError(await admin.post(`/api/year-rollover/${runId}/undo`), 409, 'conflict');
    expectError(await admin.post('/api/year-rollover/99999/undo'), 404, 'not_found');
    expectError(await admin.post('/api/year-rollover/abc/undo'), 400);

    // Back on the roll: the leaver edits again (under the window rules), and is listed.
    expect(AdminStudentListSchema.parse((await admin.get('/api/students')).json()).some((s) => s.id === leaver)).toBe(true);
    expect((await admin.post('/api/student', { id: leaver, first_name: DEMO_STUDENTS.registered.first_name })).statusCode).toBe(200);
  });
});

describe('a Form 5 student who stays on, where the school has Form 6', () => {
  it('goes to the Form 6 class of the same letter, is audited, and the undo brings them back', async () => {
    const at = '2026-11-01T10:00:00.000Z';
    await db().insertInto('form_classes').values({ id: '6A', form_level: 6, created_at: at, updated_at: at }).execute();
    try {
      const stays = await firstOf('5A');
      const plan = (await state()).plan;
      expect(plan.mapping.find((m) => m.from === '6A')).toEqual({ from: '6A', to: null });
      const preview = RolloverPreviewSchema.parse((await admin.post('/api/year-rollover/preview', { ...plan, retained: [stays] })).json());
      expect(preview.classes.find((c) => c.class_id === '6A')).toMatchObject({ students: 0, after: 1 });
      const response = await admin.post('/api/year-rollover', { ...plan, retained: [stays] });
      expect(response.statusCode, response.body).toBe(201);
      const runId = RolloverRunAnswerSchema.parse(response.json()).run.id;
      expect(await db().selectFrom('students').select(['class_id', 'left_on']).where('id', '=', stays).executeTakeFirstOrThrow()).toEqual({ class_id: '6A', left_on: null });
      expect(await db().selectFrom('audit_log').select(['old_value', 'new_value']).where('action', '=', 'rollover-retain').where('entity_id', '=', stays).execute()).toContainEqual({ old_value: '5A', new_value: '6A' });
      expect((await admin.post(`/api/year-rollover/${runId}/undo`)).statusCode).toBe(200);
      expect(await db().selectFrom('students').select(['class_id', 'left_on']).where('id', '=', stays).executeTakeFirstOrThrow()).toEqual({ class_id: '5A', left_on: null });
    } finally {
      await db().deleteFrom('form_classes').where('id', '=', '6A').execute();
    }
  });
});
