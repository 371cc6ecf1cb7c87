import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_FAMILY, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * PDFs on a phone and on a desktop (D45): a student opens a report card, the
 * registration form and the attendance report, and an administrator a student's registration form.
 * On the Complete step at 390 px the registration form is a page of the same content (D75).
 * At 390 px the pages are images drawn by pdf.js (drawn, not blank, no wider than the screen, no
 * sideways scroll); at 1280 px the browser's own viewer shows them in a frame. Everywhere the one
 * "Download PDF" saves the PDF with its name. A refused PDF says why in words.
 */

const student = DEMO_STUDENTS.registered;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const FILE_DOWNLOAD_ICON_PATH = 'M19 9h-4V3H9v6H5l7 7zM5 18v2h14v-2z';

const spec = browserSpec(null);
spec.usePortal();

/** Opens the test's browser, failing the test on any console error (pdf.js, the worker, the CSP). */
async function openAt(size: { width: number; height: number }): Promise<{ page: Page; consoleErrors: string[] }> {
  const page = await spec.open(size);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  return { page, consoleErrors };
}

/** How much of an image is not white: 0 for a blank page. */
function inkOf(image: Locator): Promise<number> {
  return image.evaluate((element: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = element.naturalWidth;
    canvas.height = element.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(element, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let ink = 0;
    for (let index = 0; index < data.length; index += 4) if (data[index]! < 200 || data[index + 1]! < 200 || data[index + 2]! < 200) ink += 1;
    return ink / (canvas.width * canvas.height);
  });
}

/** At 390 px: page images, drawn, sharp for the screen, within its width; no sideways scroll anywhere. */
async function expectPageImages(page: Page, where: Locator, name: string | RegExp): Promise<void> {
  const region = where.getByRole('region', { name, exact: true });
  const first = region.getByRole('img', { name: /^Page 1 of \d+$/ });
  await first.waitFor();
  await expect.poll(() => region.getAttribute('aria-busy')).toBe('false');
  expect(await where.locator('iframe').count()).toBe(0);
  const images = region.getByRole('img');
  const count = await images.count();
  expect(await images.last().getAttribute('alt')).toBe(`Page ${count} of ${count}`);
  expect(await first.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  expect(await inkOf(first)).toBeGreaterThan(0.002);
  const box = (await first.boundingBox())!;
  const { innerWidth, scrollWidth, ratio } = await page.evaluate(() => ({
    innerWidth: window.innerWidth,
    scrollWidth: Math.max(document.documentElement.scrollWidth, ...[...document.querySelectorAll('[role="dialog"] *, main *')].map((element) => (getComputedStyle(element).overflowX === 'auto' || getComputedStyle(element).overflowX === 'scroll' ? element.scrollWidth - element.clientWidth : 0))),
    ratio: window.devicePixelRatio,
  }));
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(innerWidth);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  // Drawn for the screen's pixels, not scaled up from a thumbnail.
  expect(await first.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThanOrEqual(Math.floor(box.width * ratio));
}

/**
 * At 390 px the Complete step shows the registration form as a page (D75): the PDF's content in
 * the page's own text, no smaller than 14 px, and nothing wider than the screen.
 */
async function expectReadableForm(page: Page, where: Locator): Promise<void> {
  const article = where.getByRole('article', { name: /^Student Registration Form, / });
  await article.getByText(`Agreed online by ${DEMO_FAMILY.name} (parent or guardian) on`, { exact: false }).waitFor();
  expect(await where.locator('iframe').count()).toBe(0);
  const { innerWidth, scrollWidth, smallest, right } = await page.evaluate(() => {
    const form = document.querySelector('article')!;
    const texts = [...form.querySelectorAll('*')].filter((element) => [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== ''));
    return {
      innerWidth: window.innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      smallest: Math.min(...texts.map((element) => parseFloat(getComputedStyle(element).fontSize))),
      right: Math.max(...texts.map((element) => element.getBoundingClientRect().right)),
    };
  });
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  expect(right).toBeLessThanOrEqual(innerWidth);
  expect(smallest).toBeGreaterThanOrEqual(14);
}

/** At 1280 px: the browser's own viewer in a frame, with the PDF's address. */
async function expectFrame(where: Locator, path: RegExp): Promise<void> {
  const frame = where.locator('iframe');
  await frame.waitFor();
  expect(await frame.getAttribute('src')).toMatch(path);
  expect(await where.getByRole('img', { name: /^Page \d+ of \d+$/ }).count()).toBe(0);
}

/** "Download PDF" (one name, one icon, everywhere) saves a real PDF under `fileName`. */
async function expectDownload(page: Page, where: Locator, fileName: string): Promise<void> {
  const action = where.getByRole('link', { name: 'Download PDF', exact: true });
  expect(await action.count()).toBe(1);
  // The same icon (MUI's FileDownload) everywhere.
  expect(await action.locator('svg path').getAttribute('d')).toBe(FILE_DOWNLOAD_ICON_PATH);
  const box = (await action.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(await page.evaluate(() => window.innerWidth));
  const [download] = await Promise.all([page.waitForEvent('download'), action.click()]);
  expect(download.suggestedFilename()).toBe(fileName);
  expect(fs.readFileSync(await download.path()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
}

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('at %s width', (label, size) => {
  const phone = label === 'phone';

  it('a student opens a report card, the registration form and the attendance report', async () => {
    const { page, consoleErrors } = await openAt(size);
    // A posted report card, full screen with Download PDF and Close.
    await signIn(page, spec.portal, { studentId: student.student_id }, '/term-reports');
    await page.getByRole('list', { name: 'Term reports' }).getByRole('button').filter({ hasText: 'Term 1 Michaelmas 2025-2026' }).click();
    const card = page.getByRole('dialog', { name: /Term 1 Michaelmas 2025-2026/ });
    await card.waitFor();
    if (phone) await expectPageImages(page, card, /^Report card .*Term 1 Michaelmas 2025-2026/);
    else await expectFrame(card, new RegExp(`^/api/report-card/${student.student_id}/2025/1$`));
    await page.screenshot({ path: screenshotPath(`pdf-view-report-card-${label}.png`) });
    await expectDownload(page, card, `Report Card ${student.student_id} 2025 Term 1.pdf`);
    await card.getByRole('button', { name: 'Close' }).click();
    await card.waitFor({ state: 'detached' });

    // The registration form on the Complete step, in the page.
    await page.goto(spec.url('/registration/complete'));
    const formSection = page.getByRole('region', { name: 'Registration Form', exact: true });
    await formSection.waitFor();
    if (phone) await expectReadableForm(page, formSection);
    else await expectFrame(formSection, new RegExp(`^/api/registration-form/${student.student_id}\\?v=`));
    await page.screenshot({ path: screenshotPath(`pdf-view-registration-form-${label}.png`), fullPage: phone });
    await expectDownload(page, formSection, `Registration Form ${student.student_id}.pdf`);

    // The attendance report for the term so far.
    await page.goto(spec.url('/attendance'));
    await page.getByRole('button', { name: 'Generate Report', exact: true }).click();
    const range = page.getByRole('dialog', { name: 'Generate Report' });
    const start = await range.locator('input[name="startDate"]').inputValue();
    const end = await range.locator('input[name="endDate"]').inputValue();
    await range.getByRole('button', { name: 'Display Report' }).click();
    const report = page.getByRole('dialog', { name: 'Attendance Report' });
    await report.waitFor();
    if (phone) await expectPageImages(page, report, 'Attendance report PDF');
    else await expectFrame(report, new RegExp(`^/api/student-attendance-report/${student.student_id}/${start}/${end}$`));
    await page.screenshot({ path: screenshotPath(`pdf-view-attendance-${label}.png`) });
    await expectDownload(page, report, `Attendance ${student.student_id} ${start} to ${end}.pdf`);
    await report.getByRole('button', { name: 'Close' }).click();
    await report.waitFor({ state: 'detached' });

    expect(consoleErrors).toEqual([]);
  });

  it("an administrator opens a student's registration form from the student list", async () => {
    const { page, consoleErrors } = await openAt(size);
    await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
    await page.getByRole('searchbox', { name: 'Search students' }).fill(student.student_id);
    const row = page.locator(`[role="row"][data-id="${student.student_id}"]`);
    await row.waitFor();
    if (phone) {
      await row.getByRole('button', { name: /^Actions for / }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: /^View registration form / }).click();
    } else {
      await row.getByRole('button', { name: /^View registration form / }).click();
    }
    const dialog = page.getByRole('dialog', { name: /Registration Form/ });
    await dialog.waitFor();
    if (phone) await expectPageImages(page, dialog, `Registration Form — ${student.last_name}, ${student.first_name} (${student.student_id})`);
    else await expectFrame(dialog, new RegExp(`^/api/registration-form/${student.student_id}$`));
    await expectDownload(page, dialog, `Registration Form ${student.student_id}.pdf`);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(consoleErrors).toEqual([]);
  });
});

describe('a PDF the server refuses', () => {
  it('says why in words on a phone', async () => {
    const { page } = await openAt(PHONE);
    await signIn(page, spec.portal, { studentId: student.student_id }, '/term-reports');
    const item = page.getByRole('list', { name: 'Term reports' }).getByRole('button').filter({ hasText: 'Term 1 Michaelmas 2025-2026' });
    await item.waitFor();
    // The session ends (signed out elsewhere) before the card is opened.
    await spec.portal.database.db.deleteFrom('sessions').execute();
    const refusal = await (await fetch(spec.url(`/api/report-card/${student.student_id}/2025/1`))).json() as { message: string };
    await item.click();
    const card = page.getByRole('dialog', { name: /Term 1 Michaelmas 2025-2026/ });
    const alert = card.getByRole('alert');
    await alert.waitFor();
    expect(refusal.message.length).toBeGreaterThan(10);
    expect(await alert.textContent()).toBe(refusal.message);
    expect(await card.getByRole('img', { name: /^Page/ }).count()).toBe(0);
  });
});
