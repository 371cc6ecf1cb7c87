import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { readCardBuild, readZip } from '../../../tests/support/report-card-build.js';
import { createTestApp, expectError, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { classReportCardsFileName, classReportCardsUrl, formReportCardsUrl } from '../../shared/term-reports.schemas.js';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS, demoTeacherUsername } from '../db/demo-data/demo-accounts.js';

/**
 * Report day (D59): a class's report cards as one PDF and a form level's as a zip of
 * class PDFs, streamed as JSON lines with the progress. Who may (office, principal, the class's
 * form teacher; the form zip: office, principal, administrator), what is refused and how, the
 * cards read back in class order a page each, and one audit row per student printed. The demo
 * school has 2025 results for today's forms 2–5 (terms 1 and 2 posted, term 3 not).
 */

let t: TestApp;
let ip = 0;
const client = () => new TestClient(t.app, `10.19.0.${++ip}`);
let office: TestClient;
let principal: TestClient;
let admin: TestClient;
let teacher: TestClient;
let otherTeacher: TestClient;
let student: TestClient;
let parent: TestClient;

const CLASS = DEMO_STAFF.formTeacher.classId; // 5A

/** Today's students of a class with results for the term, in list order (surname, first name, ID). */
async function classList(classId: string, year: number, term: number) {
  const rows = await t.database.db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name'])
    .where('class_id', '=', classId)
    .where('id', 'in', (eb) => eb.selectFrom('term_results').select('student_id').where('year', '=', year).where('term', '=', term))
    .execute();
  const byName = (a: string | null, b: string | null) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
  return rows.sort((a, b) => byName(a.last_name, b.last_name) || byName(a.first_name, b.first_name) || byName(a.id, b.id));
}

const printedRows = () => t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'report-card-printed').orderBy('id').execute();

beforeAll(async () => {
  t = await createTestApp();
  const staff = (username: string) => client().signInAdmin(username, DEMO_STAFF.office.password);
  office = await staff(DEMO_STAFF.office.username);
  principal = await staff(DEMO_STAFF.principal.username);
  teacher = await staff(DEMO_STAFF.formTeacher.username);
  otherTeacher = await staff(demoTeacherUsername('4A'));
  admin = await client().signInAdmin();
  student = await client().signInStudent(DEMO_STUDENTS.registered.student_id, DEMO_STUDENTS.registered.password);
  parent = client();
  expect((await parent.post('/api/family/login', { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/report-cards/class/{classId}/{year}/{term}', () => {
  it('gives the form teacher their class’s cards as one PDF: a card a page, in class order, with the progress first', async () => {
    const expected = await classList(CLASS, 2025, 1);
    expect(expected.length).toBeGreaterThan(REPORT_MIN_CLASS);
    const response = await teacher.get(classReportCardsUrl(CLASS, 2025, 1));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(response.headers['cache-control']).toContain('no-store');
    expect(response.headers['content-encoding']).toBeUndefined();

    const { events, file } = readCardBuild(response.body);
    expect(events[0]).toEqual({ type: 'start', total: expected.length, classes: 1, file_name: classReportCardsFileName(CLASS, 2025, 1), content_type: 'application/pdf' });
    const progress = events.flatMap((e) => (e.type === 'progress' ? [e.done] : []));
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(expected.length);
    // Every progress line comes before the file, and the file is whole.
    const firstData = events.findIndex((e) => e.type === 'data');
    expect(events.slice(firstData).some((e) => e.type === 'progress')).toBe(false);
    expect(events.at(-1)).toEqual({ type: 'end', bytes: file.length });

    const pdf = await readPdf(file);
    expect(pdf.pages).toBe(expected.length);
    pdf.pageTexts.forEach((text, index) => {
      const who = expected[index]!;
      // One card per page (the page break), the right student on it, and no one else's.
      expect(text.match(/End of Term Report/g)).toHaveLength(1);
      expect(text).toContain(`Student ID ${who.id}`);
      expect(text).toContain(`${who.first_name} ${who.last_name}`);
      expect(text).toContain('Term 1 Michaelmas');
      for (const other of expected) if (other.id !== who.id) expect(text).not.toContain(`Student ID ${other.id}`);
    });
    // Each card's own foot: its student, the class of that term (last year's Form 4, not today's
    // 5A) and its own page numbers (D84); and the single card's content.
    expect(pdf.pageTexts[0]).toMatch(new RegExp(`\\(${expected[0]!.id}\\) · Form 4 4[A-D] · Term 1 Michaelmas 2025-2026`));
    expect(pdf.text).not.toContain('Form 5 5A');
    for (const text of pdf.pageTexts) expect(text).toContain('Page 1 of 1');
    expect(pdf.pageTexts[0]).toContain('Form Teacher’s Remarks');
    // The first build starts the worker pool's thread: more time on a busy machine.
  }, 120_000);

  it('writes one audit row per student in the PDF, in one go, and the single card view stays logged', async () => {
    const expected = await classList(CLASS, 2025, 2);
    const response = await office.get(classReportCardsUrl(CLASS, 2025, 2));
    expect(response.statusCode).toBe(200);
    const rows = (await printedRows()).filter((row) => row.new_value === '2025-2 (5A class PDF)');
    expect(rows.map((r) => r.entity_id).sort()).toEqual(expected.map((s) => s.id).sort());
    for (const row of rows) {
      expect(row).toMatchObject({ entity: 'student', field: 'report_card', new_value: '2025-2 (5A class PDF)', actor_label: 'admin:office' });
    }
    expect(new Set(rows.map((r) => r.request_id)).size).toBe(1);
    expect(new Set(rows.map((r) => r.created_at)).size).toBe(1);

    const single = await office.get(`/api/report-card/${expected[0]!.id}/2025/2`);
    expect(single.statusCode).toBe(200);
    const viewed = await t.database.db.selectFrom('audit_log').select('entity_id').where('action', '=', 'report-card-viewed').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(viewed.entity_id).toBe(expected[0]!.id);
  });

  it('serves an unposted term to staff (term 3), to the principal and the administrator too', async () => {
    for (const who of [principal, admin, teacher]) {
      const response = await who.get(classReportCardsUrl(CLASS, 2025, 3));
      expect(response.statusCode).toBe(200);
      expect(readCardBuild(response.body).events.at(-1)?.type).toBe('end');
    }
  }, 120_000);

  it('answers 401 to a visitor and 403 to a student, a parent and the form teacher of another class, writing nothing', async () => {
    const before = (await printedRows()).length;
    expectError(await client().get(classReportCardsUrl(CLASS, 2025, 1)), 401);
    expectError(await student.get(classReportCardsUrl(CLASS, 2025, 1)), 403, 'forbidden');
    expectError(await parent.get(classReportCardsUrl(CLASS, 2025, 1)), 403, 'forbidden');
    expectError(await otherTeacher.get(classReportCardsUrl(CLASS, 2025, 1)), 403, 'forbidden');
    // A class that does not exist is outside a form teacher's classes like any other.
    expectError(await teacher.get(classReportCardsUrl('9Z', 2025, 1)), 403, 'forbidden');
    expect((await printedRows()).length).toBe(before);
  });

  it('answers 400 for a year, term or class that cannot be, and 404 for a class or term without cards', async () => {
    const bad = [classReportCardsUrl(CLASS, 1999, 1), `/api/report-cards/class/${CLASS}/20x5/1`, classReportCardsUrl(CLASS, 2025, 4), classReportCardsUrl(CLASS, 2025, 0), '/api/report-cards/class/bad%20id!/2025/1'];
    for (const url of bad) {
      const body = expectError(await office.get(url), 400, 'validation_failed');
      expect(Object.keys(body.errors ?? {})).toHaveLength(1);
    }
    expect(expectError(await office.get(classReportCardsUrl('9Z', 2025, 1)), 404).message).toBe('No form class is called 9Z.');
    expect(expectError(await office.get(classReportCardsUrl(CLASS, 2020, 1)), 404).message).toBe('No student of 5A has results for 2020 Term 1.');
    // Form 1 had no results in 2025 (its students were at primary school).
    expectError(await teacher.get(classReportCardsUrl(CLASS, 2024, 1)), 404);
  });
});

describe('GET /api/report-cards/form/{formLevel}/{year}/{term}', () => {
  it('gives the principal a zip with one PDF per class of the form, each that class’s cards', async () => {
    const classes = ['5A', '5B', '5C', '5D'];
    const lists = await Promise.all(classes.map((c) => classList(c, 2025, 1)));
    const total = lists.reduce((sum, list) => sum + list.length, 0);
    const response = await principal.get(formReportCardsUrl(5, 2025, 1));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const { events, file } = readCardBuild(response.body);
    expect(events[0]).toMatchObject({ type: 'start', total, classes: 4, content_type: 'application/zip' });
    const progress = events.flatMap((e) => (e.type === 'progress' ? [e] : []));
    expect(progress.at(-1)).toMatchObject({ done: total, total, class_id: '5D' });
    expect(events.at(-1)).toEqual({ type: 'end', bytes: file.length });

    const entries = await readZip(file);
    expect(entries.map((e) => e.name)).toEqual(classes.map((c) => classReportCardsFileName(c, 2025, 1)));
    for (const [index, entry] of entries.entries()) {
      const pdf = await readPdf(entry.bytes);
      expect(pdf.pages).toBe(lists[index]!.length);
      expect(pdf.pageTexts.map((text) => /Student ID (\d{8})/.exec(text)?.[1])).toEqual(lists[index]!.map((s) => s.id));
    }
    const rows = (await printedRows()).filter((row) => row.new_value === '2025-1 (Form 5 zip)');
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.entity_id)).size).toBe(total);
  }, 120_000);

  it('is for the office, the principal and administrators: 401, 403 for a form teacher, a student and a parent', async () => {
    expectError(await client().get(formReportCardsUrl(5, 2025, 1)), 401);
    for (const who of [teacher, student, parent]) expectError(await who.get(formReportCardsUrl(5, 2025, 1)), 403, 'forbidden');
  });

  it('answers 400 for a form level, year or term that cannot be, 404 for a form without cards', async () => {
    for (const url of ['/api/report-cards/form/7/2025/1', '/api/report-cards/form/0/2025/1', '/api/report-cards/form/x/2025/1', formReportCardsUrl(5, 3000, 1), formReportCardsUrl(5, 2025, 9)]) {
      expect(Object.keys(expectError(await office.get(url), 400, 'validation_failed').errors ?? {})).toHaveLength(1);
    }
    expect(expectError(await office.get(formReportCardsUrl(6, 2025, 1)), 404).message).toBe('The school has no Form 6 classes.');
    expect(expectError(await office.get(formReportCardsUrl(1, 2025, 1)), 404).message).toBe('No Form 1 student has results for 2025 Term 1.');
  });
});

/** The demo's classes are large enough that several parts (and so several progress lines) are made. */
const REPORT_MIN_CLASS = 8;
