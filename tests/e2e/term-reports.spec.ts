import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * Term reports in a real browser against the real server and the demo school (docs/requirements.md
 * R9): an administrator posts a term, and the student opens the report card on a phone; a removed
 * term is greyed out and cannot be opened; the results import checks a file before committing it.
 * On SQLite only: the server suites run every repository on PostgreSQL, and the screens do not know
 * which engine answered.
 */

const student = DEMO_STUDENTS.registered;
const PHONE = { width: 375, height: 740 };

const spec = browserSpec(null);
const url = spec.url;
const open = (size?: { width: number; height: number }) => spec.open(size);
const signInAdmin = (page: Page) => signIn(page, spec.portal, { username: DEMO_ADMIN.username });
const signInStudent = (page: Page) => signIn(page, spec.portal, { studentId: student.student_id });

async function openPostTermReports(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Post Term Reports' }).click();
  await page.getByRole('heading', { level: 1, name: 'Post Term Reports' }).waitFor();
}

/** Edit → the dialog → Yes (post) or No (remove) → the snackbar (docs/requirements.md R9). */
async function setPosted(page: Page, year: number, term: number, post: boolean): Promise<void> {
  await page.getByRole('button', { name: `Edit ${year} Term ${term}` }).click();
  const dialog = page.getByRole('dialog', { name: `Post ${year} Term ${term} reports?` });
  await dialog.waitFor();
  expect(await dialog.getByRole('button').allTextContents()).toEqual(expect.arrayContaining(['Cancel', 'No', 'Yes']));
  await dialog.getByRole('button', { name: post ? 'Yes' : 'No', exact: true }).click();
  await page.getByText(`${year} Term ${term} reports ${post ? 'posted' : 'removed'}`).waitFor();
  await dialog.waitFor({ state: 'detached' });
}

const reportItems = (page: Page) => page.getByRole('list', { name: 'Term reports' }).getByRole('button');

spec.usePortal();

describe('posting a term and reading the card', () => {
  it('an administrator posts 2025 Term 3 and the student opens the card on a phone', async () => {
    const admin = await open();
    await signInAdmin(admin);
    await openPostTermReports(admin);
    const headers = (await admin.getByRole('columnheader').allTextContents()).map((h) => h.trim());
    expect(headers).toEqual(['Academic Year', 'Term', 'Posted', 'Status', 'Edit']);
    const row = admin
      .getByRole('row')
      .filter({ hasText: '2025-2026' })
      .filter({ has: admin.getByRole('button', { name: 'Edit 2025 Term 3' }) });
    expect(await row.textContent()).toContain('not posted');
    await setPosted(admin, 2025, 3, true);
    expect(await row.textContent()).toMatch(/posted\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

    const page = await open(PHONE);
    await signInStudent(page);
    await page.getByRole('link', { name: /View Term Reports/ }).click();
    await page.waitForURL(url('/term-reports'));
    await page.getByRole('heading', { level: 1, name: 'Select Term Report' }).waitFor();
    const items = reportItems(page);
    expect(await items.count()).toBe(3);
    const newest = items.first();
    const text = (await newest.textContent()) ?? '';
    expect(text).toContain('Form 4 4A');
    expect(text).toContain('End of Term Report');
    expect(text).toContain('Term 3 Trinity 2025-2026');
    expect(text).toMatch(/Report posted \d{4}-\d{2}-\d{2}/);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // By keyboard: focus the item and press Enter.
    const card = page.waitForResponse((response) => response.url().endsWith(`/api/report-card/${student.student_id}/2025/3`));
    await newest.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /Term 3 Trinity 2025-2026/ });
    await dialog.waitFor();
    const answer = await card;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/pdf');
    // A phone shows the card's pages as images (D45), and saves it with Download PDF.
    await dialog.getByRole('img', { name: 'Page 1 of 1' }).waitFor();
    expect(await dialog.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(
      `/api/report-card/${student.student_id}/2025/3?download=1`,
    );
    await page.screenshot({ path: screenshotPath(`term-reports-card-phone.png`) });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('a removed term is greyed out and cannot be opened by the student', async () => {
    const admin = await open();
    await signInAdmin(admin);
    await openPostTermReports(admin);
    await setPosted(admin, 2025, 2, false);

    const page = await open(PHONE);
    await signInStudent(page);
    await page.goto(url('/term-reports'));
    const items = reportItems(page);
    await items.first().waitFor();
    const term2 = items.filter({ hasText: 'Term 2 Hilary 2025-2026' });
    expect(await term2.textContent()).toContain('Report not posted');
    expect(await term2.getAttribute('aria-disabled')).toBe('true');
    const term1 = items.filter({ hasText: 'Term 1 Michaelmas 2025-2026' });
    expect(await term1.getAttribute('aria-disabled')).toBeNull();

    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const severe = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      // Greyed-out (disabled) items are exempt from contrast rules (WCAG 1.4.3 "inactive components").
      .filter((violation) => violation.id !== 'color-contrast' || violation.nodes.some((node) => !node.html.includes('Mui-disabled')))
      .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
    expect(severe).toEqual([]);

    // The server agrees: the card of a removed term is refused to the student.
    const status = await page.evaluate(async (id) => (await fetch(`/api/report-card/${id}/2025/2`)).status, student.student_id);
    expect(status).toBe(403);
  });
});

describe('importing term results', () => {
  it('checks a file, shows every row’s problem, and imports only a clean file', async () => {
    const page = await open();
    await signInAdmin(page);
    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Import Term Results' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import Term Results' }).waitFor();
    await page.getByRole('combobox', { name: 'Academic Year' }).click();
    await page.getByRole('option', { name: '2026-2027' }).click();

    const ids = await spec.portal.database.db
      .selectFrom('students')
      .select('id')
      .where('class_id', '=', '3B')
      .orderBy('id')
      .limit(2)
      .execute();
    const header = 'Student ID,Subject,Coursework,Exam,Comment';
    const bad = `${header}\n${ids[0]!.id},MATH,80,70,Good\n${ids[1]!.id},MATH,=1+1,70,\n`;
    const chooser = page.locator('input[type="file"][name="file"]');
    await chooser.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByRole('button', { name: 'Check file' }).click();
    const preview = page.getByRole('table', { name: 'Rows of the file' });
    await preview.waitFor();
    expect(await preview.innerText()).toContain('Coursework “=1+1” is not a mark');
    expect(await page.getByRole('button', { name: 'Import results', exact: true }).isDisabled()).toBe(true);

    const good = `${header}\n${ids[0]!.id},MATH,80,70,Good\n${ids[1]!.id},MATH,61,70,\n`;
    await chooser.setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByText('0 with problems').waitFor();
    await page.getByRole('button', { name: 'Import 2 results' }).click();
    await page.getByText(/Imported 2 results for 2 students in 1 class into 2026 Term 1/).waitFor();
    const stored = await spec.portal.database.db
      .selectFrom('term_results')
      .select('total')
      .where('year', '=', 2026)
      .where('term', '=', 1)
      .orderBy('student_id')
      .execute();
    expect(stored.map((r) => r.total)).toEqual([74, 66.4]);
  });

  for (const size of [undefined, PHONE]) {
    it(`downloads a class’s mark sheet for one subject with its students listed${size ? ' (phone)' : ''}`, async () => {
      const page = await open(size);
      await signInAdmin(page);
      // On a phone the admin menu is a drawer behind a button named after the screen shown.
      if (size) await page.getByRole('button', { name: 'Menu: Dashboard' }).click();
      await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Import Term Results' }).click();
      await page.getByRole('heading', { level: 1, name: 'Import Term Results' }).waitFor();
      // Until a class and a subject are chosen there is nothing to download.
      expect(await page.getByRole('button', { name: 'Download mark sheet' }).isDisabled()).toBe(true);
      const download = page.getByRole('link', { name: 'Download mark sheet' });
      await page.getByRole('combobox', { name: 'Class' }).click();
      await page.getByRole('option', { name: 'Form 3 3B' }).click();
      await page.getByRole('combobox', { name: 'Subject' }).click();
      await page.getByRole('option', { name: 'Mathematics' }).click();
      const box = await download.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toBe('Mark Sheet 3B MATH.xlsx');
    });
  }
});
