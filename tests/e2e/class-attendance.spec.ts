import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { listName } from '../../src/shared/students.schemas.js';
import { ClassAttendanceSchema, type ClassAttendance } from '../../src/shared/attendance.schemas.js';
import { addDays } from '../../src/shared/school-days.js';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, signIn } from '../support/e2e.js';
import { readPdf } from '../support/pdf-text.js';
import { readWorkbook } from '../support/workbook.js';

/**
 * Reports ▸ Class Attendance in a real browser on the demo school: the office
 * chooses a class, sees this term so far for every student, narrows the dates, and downloads the
 * same rows as a PDF and a spreadsheet — on a desktop and on a 390 px phone.
 */

const spec = browserSpec({ width: 1280, height: 1000 });
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

const { registered } = DEMO_STUDENTS;

async function apiAnswer(query: string): Promise<ClassAttendance> {
  const response = await page.request.get(spec.url(`/api/class-attendance?${query}`));
  expect(response.status()).toBe(200);
  return ClassAttendanceSchema.parse(await response.json());
}

/** Types a date into an MUI X date field, section by section, as a keyboard user would. */
async function typeDate(label: string, isoDate: string): Promise<void> {
  const field = page.getByRole('group', { name: label });
  await field.getByRole('spinbutton').first().click();
  await page.keyboard.type(isoDate.replaceAll('-', ''));
}

async function noSidewaysScroll(): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

describe('Class Attendance', () => {
  for (const width of [1280, 390]) {
    it(`shows a class's term so far, narrows the dates and downloads the PDF and spreadsheet (${width}px)`, async () => {
      page = await spec.open({ width, height: 900 });
      await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
      if (width === 1280) {
        await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Class Attendance' }).click();
      } else {
        await page.goto(spec.url('/admin/dashboard?view=classAttendance'));
      }
      await page.getByRole('heading', { name: 'Class Attendance', level: 1 }).waitFor();
      await page.getByText('Choose a class to see its attendance.').waitFor();

      await page.getByRole('combobox', { name: 'Class' }).click();
      await page.getByRole('option', { name: 'Form 5 5A' }).click();
      const term = await apiAnswer('class_id=5A');
      const table = page.getByRole('table', { name: `Form 5 5A · ${term.from} to ${term.to}` });
      await table.waitFor();
      // The fields show the range the table covers.
      await expect.poll(() => page.locator('input[name="from"]').inputValue()).toBe(term.from);
      expect(await page.locator('input[name="to"]').inputValue()).toBe(term.to);
      const mine = term.students.find((row) => row.id === registered.student_id)!;
      const row = table.getByRole('row', { name: new RegExp(listName(mine)) });
      await expect.poll(() => row.innerText()).toContain(`${mine.attendance_percent}%`);
      expect(await row.innerText()).toContain(String(mine.absent));
      expect(await table.getByRole('row').count()).toBe(term.students.length + 2);
      await table.getByText(`Class total (${term.students.length})`).waitFor();

      // On a phone every column a person needs is on the screen, with nothing to scroll sideways.
      const box = (await table.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await noSidewaysScroll();

      // A week from the term's start: the table follows the dates.
      const weekEnd = addDays(term.from, 6);
      await typeDate('End date', weekEnd);
      const week = await apiAnswer(`class_id=5A&from=${term.from}&to=${weekEnd}`);
      await page.getByRole('table', { name: `Form 5 5A · ${term.from} to ${weekEnd}` }).waitFor();
      const weekRow = week.students.find((student) => student.id === registered.student_id)!;
      expect(await page.getByRole('row', { name: new RegExp(listName(weekRow)) }).innerText()).toContain(`${weekRow.attendance_percent}%`);

      // The downloads hold the rows on the screen.
      const pdfDownload = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download PDF' }).click();
      const pdfFile = await pdfDownload;
      expect(pdfFile.suggestedFilename()).toBe(`Class Attendance 5A ${term.from} to ${weekEnd}.pdf`);
      const pdf = await readPdf(fs.readFileSync(await pdfFile.path()));
      expect(pdf.text).toContain(`Form 5 5A · ${term.from} to ${weekEnd}`);
      expect(pdf.compact).toContain(registered.student_id);

      const sheetDownload = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download spreadsheet' }).click();
      const sheetFile = await sheetDownload;
      expect(sheetFile.suggestedFilename()).toBe(`Class Attendance 5A ${term.from} to ${weekEnd}.xlsx`);
      const { rows } = await readWorkbook(fs.readFileSync(await sheetFile.path()));
      expect(rows).toHaveLength(week.students.length);
      await noSidewaysScroll();
    });
  }

  it('says what is wrong with a range, and keeps the last good table', async () => {
    await signIn(page, spec.portal, { username: DEMO_ADMIN.username }, '/admin/dashboard?view=classAttendance');
    await page.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'Form 5 5A' }).click();
    const term = await apiAnswer('class_id=5A');
    const table = page.getByRole('table', { name: `Form 5 5A · ${term.from} to ${term.to}` });
    await table.waitFor();
    await typeDate('End date', addDays(term.from, -1));
    await page.getByRole('alert').filter({ hasText: 'The end date cannot be before the start date.' }).waitFor();
    // The table stays with the last range that was good (typing passes through good dates on the way).
    const kept = page.getByRole('table', { name: /^Form 5 5A · / });
    await kept.waitFor();
    expect(await kept.getByRole('row').count()).toBe(term.students.length + 2);
  });
});
