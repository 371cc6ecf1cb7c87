import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAbsenceNote } from '../../../tests/support/absence-notes.js';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { ApiErrorSchema } from '../../shared/api-error.js';
import { countPossibleSessions } from '../../shared/school-days.js';
import { PostedTermReportListSchema, PostedTermReportSchema, ReportCardTermListSchema } from '../../shared/term-reports.schemas.js';
import { createDatabase, type Db } from '../db/database.js';
import { DEMO_STUDENTS } from '../db/demo-data/demo-accounts.js';
import { schoolDateTime } from '../../shared/dates.js';
import { postDueTermReports } from './term-reports.service.js';

/**
 * Term reports over HTTP against the demo school (docs/requirements.md R9, R15): the student's list,
 * the report card and who may read it, posting and removing, and scheduled posting. The demo has
 * 2025 results (its form 2–5 students, then in forms 1–4): terms 1 and 2 posted, term 3 not.
 */

const { registered, inProgress } = DEMO_STUDENTS;

let t: TestApp;
let ip = 0;
const client = () => new TestClient(t.app, `10.5.0.${++ip}`);
let student: TestClient;
let admin: TestClient;
let classmate: string;

function expectError(response: { statusCode: number; json(): unknown }, status: number, code?: string) {
  expect(response.statusCode, response.statusCode === status ? '' : String((response as { body?: string }).body)).toBe(status);
  const body = ApiErrorSchema.parse(response.json());
  if (code) expect(body.code).toBe(code);
  return body;
}

const card = (c: TestClient, id: string, year: number | string, term: number | string) => c.get(`/api/report-card/${id}/${year}/${term}`);
const post = (body: unknown) => admin.post('/api/post-term-reports', body);
const auditCount = async (action: string, entityId?: string) => {
  let query = t.database.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('action', '=', action);
  if (entityId) query = query.where('entity_id', '=', entityId);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

beforeAll(async () => {
  t = await createTestApp();
  student = await client().signInStudent(registered.student_id, registered.password);
  admin = await client().signInAdmin();
  const other = await t.database.db
    .selectFrom('term_summaries')
    .select('student_id')
    .where('class_id', '=', '4A')
    .where('year', '=', 2025)
    .where('student_id', '!=', registered.student_id)
    .executeTakeFirstOrThrow();
  classmate = other.student_id;
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/report-card-terms/{userID}', () => {
  it('lists every term the student has results for, newest first, posted or not (R9)', async () => {
    const response = await student.get(`/api/report-card-terms/${registered.student_id}`);
    expect(response.statusCode).toBe(200);
    const terms = ReportCardTermListSchema.parse(response.json());
    expect(terms.map((r) => [r.year, r.term, r.posted])).toEqual([
      [2025, '3', 0],
      [2025, '2', 1],
      [2025, '1', 1],
    ]);
    // The class of that year (form 4, now in 5A), not today's.
    for (const r of terms) expect([r.form_level, r.class_id]).toEqual([4, '4A']);
    expect(terms[1]!.date_posted).toBe('2026-04-10 10:30:00');
    expect(terms[0]!.date_posted).toBeNull();
  });

  it('is empty for a student without results', async () => {
    const c = await client().signInStudent(inProgress.student_id, inProgress.password);
    const response = await c.get(`/api/report-card-terms/${inProgress.student_id}`);
    expect(response.json()).toEqual([]);
  });

  it('answers 401 to a visitor, 403 for another student, any student to an administrator', async () => {
    expectError(await client().get(`/api/report-card-terms/${registered.student_id}`), 401);
    expectError(await student.get(`/api/report-card-terms/${classmate}`), 403, 'forbidden');
    const asAdmin = await admin.get(`/api/report-card-terms/${classmate}`);
    expect(asAdmin.statusCode).toBe(200);
    expect(ReportCardTermListSchema.parse(asAdmin.json())).toHaveLength(3);
    expectError(await admin.get('/api/report-card-terms/99999999'), 404);
    expectError(await admin.get('/api/report-card-terms/bad%20id!'), 400);
  });
});

describe('GET /api/report-card/{studentId}/{year}/{term}', () => {
  it('gives the student their own posted card: who, which term, standing, subjects, remarks, key, stamp line', async () => {
    const response = await card(student, registered.student_id, 2025, 1);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/^inline;/);
    expect(response.headers['cache-control']).toContain('no-store');
    const pdf = await readPdf(response.rawPayload);
    expect(pdf.pages).toBe(1);
    expect(pdf.pageSizes[0]).toEqual([612, 792]); // Letter

    const db = t.database.db;
    const results = await db
      .selectFrom('term_results')
      .innerJoin('subjects', 'subjects.id', 'term_results.subject_id')
      .select(['subjects.name', 'term_results.total', 'term_results.grade', 'term_results.comment'])
      .where('student_id', '=', registered.student_id)
      .where('year', '=', 2025)
      .where('term', '=', 1)
      .execute();
    const summary = await db
      .selectFrom('term_summaries')
      .selectAll()
      .where('student_id', '=', registered.student_id)
      .where('year', '=', 2025)
      .where('term', '=', 1)
      .executeTakeFirstOrThrow();
    expect(results.length).toBeGreaterThanOrEqual(8);
    const expected = [
      'End of Term Report',
      `${registered.first_name} ${registered.last_name}`,
      registered.student_id,
      '2010-02-14',
      'Form 4 4A',
      'Term 1 Michaelmas',
      '2025-2026',
      'Number in Class',
      String(summary.class_size),
      'Position in Class',
      'Class Average',
      'Sessions Absent',
      'Not recorded', // the demo school kept no attendance in 2025
      summary.form_teacher_remarks!,
      summary.principal_remarks!,
      'A 75–100',
      'E 0–49.9',
      'not valid without the school stamp',
      ...results.flatMap((r) => [r.name, String(r.total), r.comment!]),
    ];
    for (const text of expected) expect(pdf.compact, text).toContain(text.replace(/\s+/g, ''));
  });

  it('logs each view in the audit log', async () => {
    const before = await auditCount('report-card-viewed', registered.student_id);
    await card(student, registered.student_id, 2025, 2);
    await card(admin, registered.student_id, 2025, 2);
    expect(await auditCount('report-card-viewed', registered.student_id)).toBe(before + 2);
    const row = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'report-card-viewed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect([row.actor_label, row.new_value]).toEqual(['admin:admin', '2025-2']);
  });

  it('offers the card as a download for phones that cannot show a PDF in a frame', async () => {
    const response = await student.get(`/api/report-card/${registered.student_id}/2025/1?download=1`);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="Report Card 20220001 2025 Term 1.pdf"/);
  });

  it('refuses a student an unposted term and another student’s card; an administrator gets both', async () => {
    expectError(await card(student, registered.student_id, 2025, 3), 403, 'forbidden');
    expectError(await card(student, classmate, 2025, 1), 403, 'forbidden');
    expectError(await card(client(), registered.student_id, 2025, 1), 401);
    for (const [id, term] of [
      [registered.student_id, 3],
      [classmate, 1],
    ] as const) {
      const response = await card(admin, id, 2025, term);
      expect(response.statusCode).toBe(200);
      expect((await readPdf(response.rawPayload)).compact).toContain(id);
    }
  });

  it('answers 404 for a term without results and 400 for a term or year that cannot be', async () => {
    expectError(await card(admin, registered.student_id, 2026, 1), 404);
    expectError(await card(admin, '99999999', 2025, 1), 404);
    expectError(await card(admin, registered.student_id, 2025, 4), 400, 'validation_failed');
    expectError(await card(admin, registered.student_id, 1999, 1), 400, 'validation_failed');
    expectError(await card(admin, registered.student_id, 'twenty', 1), 400, 'validation_failed');
  });

  it('counts sessions absent and late against two possible sessions per school day of the term', async () => {
    // Three weeks of 2025 Term 1 recorded for this student: present every day but two (one
    // half day), late twice. Everything else in the term counts as absent.
    const db = t.database.db;
    const now = new Date().toISOString();
    const days = ['2025-09-08', '2025-09-09', '2025-09-10', '2025-09-11', '2025-09-12'];
    await db
      .insertInto('attendance_records')
      .values(
        days.map((date, i) => ({
          student_id: classmate,
          date_scanned: date,
          attendance_am: 1,
          attendance_pm: i === 2 ? 0 : 1,
          time_in: i < 2 ? '08:10' : '07:40',
          time_out: '14:45',
          late: i < 2 ? 1 : 0,
          time_scanned_in: null,
          time_scanned_out: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const holidays = (await db.selectFrom('school_holidays').select('date').execute()).map((h) => h.date);
    const possible = countPossibleSessions('2025-09-08', '2025-12-12', holidays);
    const attended = days.length * 2 - 1;
    const pdf = await readPdf((await card(admin, classmate, 2025, 1)).rawPayload);
    expect(pdf.text).toMatch(new RegExp(`Sessions Absent\\s+${possible - attended} of ${possible}`));
    expect(pdf.text).toMatch(new RegExp(`Sessions Late\\s+2 of ${possible} \\(0 excused\\)`));

    // Accepted notes (D93): a day absent whole, the half day's afternoon, the first late arrival;
    // a declined note excuses nothing. The card keeps its counts and says the excused part.
    const absentDay = '2025-09-15';
    expect(holidays).not.toContain(absentDay);
    await insertAbsenceNote(db, { studentId: classmate, date: absentDay, state: 'accepted' });
    await insertAbsenceNote(db, { studentId: classmate, date: days[2]!, part: 'pm', state: 'accepted' });
    await insertAbsenceNote(db, { studentId: classmate, date: days[0]!, part: 'late', state: 'accepted' });
    await insertAbsenceNote(db, { studentId: classmate, date: '2025-09-16', state: 'declined' });
    const excused = await readPdf((await card(admin, classmate, 2025, 1)).rawPayload);
    expect(excused.text).toMatch(new RegExp(`Sessions Absent\\s+${possible - attended} of ${possible} \\(3 excused\\)`));
    expect(excused.text).toMatch(new RegExp(`Sessions Late\\s+2 of ${possible} \\(1 excused\\)`));
  });
});

describe('posting and removing (R9 Post Term Reports)', () => {
  it('lists every term with its state and how many students have results (admin only)', async () => {
    expectError(await student.get('/api/term-reports-posted'), 403, 'forbidden');
    expectError(await client().get('/api/term-reports-posted'), 401);
    const list = PostedTermReportListSchema.parse((await admin.get('/api/term-reports-posted')).json());
    const byTerm = new Map(list.map((r) => [`${r.year}-${r.term}`, r]));
    expect(byTerm.get('2025-1')).toMatchObject({ posted: 1, date_posted: '2025-12-19 14:05:00' });
    expect(byTerm.get('2025-3')).toMatchObject({ posted: 0, date_posted: null, scheduled_at: null });
    expect(byTerm.get('2025-3')!.students).toBeGreaterThan(400);
    expect(byTerm.get('2026-1')!.students).toBe(0);
  });

  it('validates the call and changes nothing when it is wrong', async () => {
    const cases: [unknown, string][] = [
      [{ year: 1999, term: 3, posted: 1 }, 'year'],
      [{ year: 2025, term: 4, posted: 1 }, 'term'],
      [{ year: 2025, term: 3, posted: 2 }, 'posted'],
      // The server records when reports are posted (D84): a date sent is refused, never kept.
      [{ year: 2025, term: 3, posted: 1, date_posted: '2026-07-20 09:00:00' }, 'date_posted'],
      [{ year: 2099, term: 3, posted: 1, date_posted: '2099-07-20 09:00:00' }, 'date_posted'],
      [{ year: 2025, term: 3, posted: 1, date_posted: '20/07/2026 09:00' }, 'date_posted'],
      [{ year: 2025, term: 3, posted: 0, date_posted: '2026-07-20 09:00:00' }, 'date_posted'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await post(body), 400, 'validation_failed');
      expect(Object.keys(error.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const noResults = expectError(await post({ year: 2026, term: 2, posted: 1 }), 409, 'conflict');
    expect(noResults.message).toMatch(/no results/);
    expectError(await post({ year: 2027, term: 1, posted: 0, date_posted: null }), 404);
    expectError(await student.post('/api/post-term-reports', { year: 2025, term: 3, posted: 1 }), 403);
    const row = await t.database.db
      .selectFrom('term_reports')
      .selectAll()
      .where('year', '=', 2025)
      .where('term', '=', 3)
      .executeTakeFirstOrThrow();
    expect([row.posted, row.date_posted]).toEqual([0, null]);
    expect(
      await t.database.db.selectFrom('term_reports').select('id').where('year', '=', 2026).where('term', '=', 2).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('post → the student sees and opens it, dated by the server’s clock in the school’s time; posting again changes nothing; remove → it is gone', async () => {
    const before = schoolDateTime(new Date(), { seconds: true });
    const posted = PostedTermReportSchema.parse((await post({ year: 2025, term: '3', posted: 1 })).json());
    const after = schoolDateTime(new Date(), { seconds: true });
    expect(posted).toMatchObject({ year: 2025, term: '3', posted: 1 });
    // 'yyyy-MM-dd HH:mm:ss' in America/Port_of_Spain, between the clock read before and after the call.
    expect(posted.date_posted! >= before && posted.date_posted! <= after, `${before} ≤ ${posted.date_posted} ≤ ${after}`).toBe(true);
    let list = ReportCardTermListSchema.parse((await student.get(`/api/report-card-terms/${registered.student_id}`)).json());
    expect(list[0]).toMatchObject({ year: 2025, term: '3', posted: 1, date_posted: posted.date_posted });
    expect((await card(student, registered.student_id, 2025, 3)).statusCode).toBe(200);

    // Idempotent: a retried (or repeated) post keeps the first date and writes no second audit row.
    const again = PostedTermReportSchema.parse((await post({ year: 2025, term: 3, posted: 1 })).json());
    expect(again.date_posted).toBe(posted.date_posted);
    expect(await auditCount('term-reports-posted', '2025-3')).toBe(1);

    const removed = PostedTermReportSchema.parse((await post({ year: 2025, term: 3, posted: 0, date_posted: null })).json());
    expect(removed).toMatchObject({ posted: 0, date_posted: null });
    list = ReportCardTermListSchema.parse((await student.get(`/api/report-card-terms/${registered.student_id}`)).json());
    expect(list[0]).toMatchObject({ term: '3', posted: 0, date_posted: null });
    expectError(await card(student, registered.student_id, 2025, 3), 403);
    expect((await post({ year: 2025, term: 3, posted: 0 })).statusCode).toBe(200);
    expect(await auditCount('term-reports-removed', '2025-3')).toBe(1);
  });
});

describe('scheduled posting (an addition to posting)', () => {
  const schedule = (body: unknown) => admin.post('/api/term-reports/schedule', body);
  const soon = () => new Date(Date.now() + 3_600_000).toISOString();

  it('validates: a time in the future, a term with results, not already posted; admins only', async () => {
    expectError(await schedule({ year: 2025, term: 3, scheduled_at: '2020-01-01T08:00:00Z' }), 400, 'validation_failed');
    expectError(await schedule({ year: 2025, term: 3, scheduled_at: 'tomorrow' }), 400, 'validation_failed');
    expectError(await schedule({ year: 2026, term: 2, scheduled_at: soon() }), 409);
    expectError(await schedule({ year: 2025, term: 1, scheduled_at: soon() }), 409);
    expectError(await student.post('/api/term-reports/schedule', { year: 2025, term: 3, scheduled_at: soon() }), 403);
  });

  it('stores the time in UTC, and cancelling clears it', async () => {
    const stored = PostedTermReportSchema.parse(
      (await schedule({ year: 2025, term: 3, scheduled_at: '2099-12-18T08:00:00-04:00' })).json(),
    );
    expect(stored.scheduled_at).toBe('2099-12-18T12:00:00.000Z');
    const cancelled = PostedTermReportSchema.parse((await schedule({ year: 2025, term: 3, scheduled_at: null })).json());
    expect(cancelled.scheduled_at).toBeNull();
  });

  it('posts a due term exactly once, however many processes check at the same moment', async () => {
    const at = new Date(Date.now() + 60_000);
    expect((await schedule({ year: 2025, term: 3, scheduled_at: at.toISOString() })).statusCode).toBe(200);
    expect(await postDueTermReports(t.database.db, new Date(at.getTime() - 1000))).toEqual([]);

    // Four "processes", each with its own connection to the same database.
    const others: Db[] = [1, 2, 3].map(() => createDatabase(t.database.location));
    try {
      const later = new Date(at.getTime() + 5000);
      const outcomes = await Promise.all([t.database.db, ...others].map((db) => postDueTermReports(db, later)));
      expect(outcomes.flat()).toEqual([{ year: 2025, term: 3 }]);
    } finally {
      await Promise.all(others.map((db) => db.destroy()));
    }
    const row = await t.database.db
      .selectFrom('term_reports')
      .selectAll()
      .where('year', '=', 2025)
      .where('term', '=', 3)
      .executeTakeFirstOrThrow();
    expect([row.posted, row.scheduled_at, row.date_posted]).toEqual([1, null, schoolDateTime(at, { seconds: true })]);
    expect(await auditCount('term-reports-posted', '2025-3')).toBe(2); // the manual post earlier, and this one
    const scheduler = await t.database.db
      .selectFrom('audit_log')
      .select('actor_label')
      .where('action', '=', 'term-reports-posted')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(scheduler.actor_label).toBe('scheduler');
    expect((await card(student, registered.student_id, 2025, 3)).statusCode).toBe(200);
  });

  it('writes the school’s local time as date posted', () => {
    expect(schoolDateTime(new Date('2026-12-18T12:00:00Z'), { seconds: true })).toBe('2026-12-18 08:00:00');
    expect(schoolDateTime(new Date('2027-01-01T03:30:05Z'), { seconds: true })).toBe('2026-12-31 23:30:05');
  });
});
