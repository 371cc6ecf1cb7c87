import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { classReportCardsFileName } from '../../src/shared/term-reports.schemas.js';
import { DEMO_STAFF } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, signIn } from '../support/e2e.js';
import { readPdf } from '../support/pdf-text.js';

/**
 * Report day (D59) in a real browser on the demo school: the form teacher
 * of 5A opens Report Cards, builds their class's cards as one PDF while the screen shows the
 * server's count, and the saved PDF reads back one card per student in class order — on a
 * desktop and on a 390 px phone. The teacher sees their own class only, and no form zip.
 */

const spec = browserSpec({ width: 1280, height: 1000 });
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

const teacher = DEMO_STAFF.formTeacher;

/** 5A's students with 2025 Term 3 results, in class order (surname, first name, ID). */
async function classList(): Promise<string[]> {
  const rows = await spec.portal.database.db
    .selectFrom('students')
    .select(['id', 'first_name', 'last_name'])
    .where('class_id', '=', teacher.classId)
    .where('id', 'in', (eb) => eb.selectFrom('term_results').select('student_id').where('year', '=', 2025).where('term', '=', 3))
    .execute();
  const text = (value: string | null) => value ?? '';
  rows.sort((a, b) => (text(a.last_name) < text(b.last_name) ? -1 : text(a.last_name) > text(b.last_name) ? 1 : 0) || (text(a.first_name) < text(b.first_name) ? -1 : text(a.first_name) > text(b.first_name) ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows.map((row) => row.id);
}

describe('Report Cards', () => {
  for (const width of [1280, 390]) {
    it(`a form teacher downloads their class's cards as one PDF, the progress shown while it builds (${width}px)`, async () => {
      page = await spec.open({ width, height: 900 });
      await signIn(page, spec.portal, { username: teacher.username });
      if (width === 1280) {
        await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Report Cards' }).click();
      } else {
        await page.goto(spec.url('/admin/dashboard?view=reportCards'));
      }
      await page.getByRole('heading', { name: 'Report Cards', level: 1 }).waitFor();
      // The newest term with results is chosen: 2025 Term 3, not posted yet, which staff may print.
      await expect.poll(() => page.getByRole('combobox', { name: 'Term' }).innerText()).toContain('Term 3 Trinity 2025-2026 · not posted');
      // Their own class only, and no form zip (that is for the office, the principal and administrators).
      const classButtons = page.getByRole('button', { name: /^Class report cards \(PDF\) for / });
      expect(await classButtons.count()).toBe(1);
      expect(await page.getByRole('button', { name: /\(zip\)$/ }).count()).toBe(0);

      // Every text the progress line shows, recorded as it changes (the build may be quick).
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { progressSeen: string[] }).progressSeen = seen;
        new MutationObserver(() => {
          const text = document.querySelector('[data-testid="card-build-progress"]')?.textContent;
          if (text && seen.at(-1) !== text) seen.push(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      const expected = await classList();
      const download = page.waitForEvent('download', { timeout: 120_000 });
      await page.getByRole('button', { name: `Class report cards (PDF) for ${teacher.classId}` }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(classReportCardsFileName(teacher.classId, 2025, 3));
      await page.getByRole('status').filter({ hasText: `Saved ${classReportCardsFileName(teacher.classId, 2025, 3)}` }).waitFor();

      const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
      // The server's own count, part by part, up to the whole class.
      expect(seen.some((text) => /^5A: \d+ of \d+ cards$/.test(text)), seen.join(' | ')).toBe(true);
      expect(seen).toContain(`5A: ${expected.length} of ${expected.length} cards`);

      const pdf = await readPdf(fs.readFileSync(await file.path()));
      expect(pdf.pages).toBe(expected.length);
      expect(pdf.pageTexts.map((text) => /Student ID (\d{8})/.exec(text)?.[1])).toEqual(expected);
      for (const text of pdf.pageTexts) expect(text.match(/End of Term Report/g)).toHaveLength(1);

      // On a phone nothing runs off the side.
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    }, 180_000);
  }
});
