import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../../../tests/support/pdf-text.js';
import { createTestApp, TestClient, type TestApp } from '../../../tests/support/test-app.js';
import { testConfig } from '../../../tests/support/test-config.js';
import { makeParentsContact, makeRegistrationReport, resolveReportClass } from './students.service.js';

/**
 * The text of the school-wide documents, page by page, on the demo school: the all-classes
 * registration report and Parents Contact of all classes. The snapshots were taken from the
 * documents as one pdfmake layout of the whole school; the documents are now made a class at a
 * time (D63) and must read exactly the same, page breaks and "Page x of n" included.
 * Only the time of printing, which changes with every download, is masked. SQLite only: the
 * reports' queries run on both engines in the route tests (vitest.config.ts).
 */

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await new TestClient(t.app, '10.63.0.1').signInAdmin();
});
afterAll(async () => {
  await t?.close();
});

/** Each page's text on its own line block, the printing time masked. */
async function pagesOf(url: string): Promise<{ pages: number; text: string }> {
  const response = await admin.get(url);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  return textOf(response.rawPayload);
}

async function textOf(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const pdf = await readPdf(bytes);
  const pages = pdf.pageTexts.map((page, index) => `--- page ${index + 1}\n${page.replace(/printed \d{4}-\d{2}-\d{2} \d{2}:\d{2}/g, 'printed <time>')}`);
  return { pages: pdf.pages, text: `${pages.join('\n')}\n` };
}

// Each test lays out a whole school's document (seconds; tens of seconds on a busy 2-core machine).
describe('the school-wide documents read as before, page by page', { timeout: 120_000 }, () => {
  it('the registration report of all classes', async () => {
    const { pages, text } = await pagesOf('/api/registration-report/all');
    expect(pages).toBeGreaterThan(20);
    await expect(text).toMatchFileSnapshot('__snapshots__/registration-report-all.txt');
  });

  it('Parents Contact of all classes', async () => {
    const { pages, text } = await pagesOf('/api/parents-contact/all');
    expect(pages).toBeGreaterThan(20);
    await expect(text).toMatchFileSnapshot('__snapshots__/parents-contact-all.txt');
  });

  // The demo school (32 a class) fits in one part (its classes apart by page breaks); a large
  // school's classes are split over many. Parts of 40 rows put each class in a part of its own.
  it('the same registration report when every class is a part of its own', async () => {
    const report = await textOf(await makeRegistrationReport(t.database.db, testConfig().schoolName, null, { rowsPerPart: 40 }));
    await expect(report.text).toMatchFileSnapshot('__snapshots__/registration-report-all.txt');
  });

  it('the same Parents Contact when every class is a part of its own', async () => {
    const contacts = await textOf(await makeParentsContact(t.database.db, testConfig().schoolName, null, { rowsPerPart: 40 }));
    await expect(contacts.text).toMatchFileSnapshot('__snapshots__/parents-contact-all.txt');
  });
});

// A class larger than a part is printed in pieces of a part each (D94): every student once, in the
// order of the whole class, each piece after the first headed '(continued)', the class total once.
describe('a class larger than a part', { timeout: 120_000 }, () => {
  const studentIds = (text: string) => text.match(/\b2026\d{4}\b/g) ?? [];

  it('the registration report prints all of its students once, in order, and its total once', async () => {
    const formClass = await resolveReportClass(t.database.db, '1A');
    const whole = await textOf(await makeRegistrationReport(t.database.db, testConfig().schoolName, formClass));
    const pieces = await textOf(await makeRegistrationReport(t.database.db, testConfig().schoolName, formClass, { rowsPerPart: 10 }));
    expect(studentIds(whole.text)).toHaveLength(32);
    expect(studentIds(pieces.text)).toEqual(studentIds(whole.text));
    expect(pieces.text.match(/Form 1 1A — Form Teacher: [^\n]*?\(continued\)/g)).toHaveLength(3);
    expect(pieces.text.match(/Class total 32 students/g)).toHaveLength(1);
    expect(pieces.text).toContain(`Page ${pieces.pages} of ${pieces.pages}`);
  });

  it('Parents Contact prints all of its students once, in order, each piece counting the whole class', async () => {
    const formClass = await resolveReportClass(t.database.db, '1A');
    const whole = await textOf(await makeParentsContact(t.database.db, testConfig().schoolName, formClass));
    const pieces = await textOf(await makeParentsContact(t.database.db, testConfig().schoolName, formClass, { rowsPerPart: 10 }));
    expect(studentIds(whole.text)).toHaveLength(32);
    expect(studentIds(pieces.text)).toEqual(studentIds(whole.text));
    expect(pieces.text.match(/\(32 students, continued\)/g)?.length).toBeGreaterThanOrEqual(3);
  });
});
