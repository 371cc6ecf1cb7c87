import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';

/**
 * The new school year in Chromium (the rollover part): the administrator
 * at 1280 px opens New School Year on the demo school, sends 3A to 4B instead of 4A, previews
 * (the counts per class), runs it, finds a 3A student in 4B in the student list, and undoes it;
 * at 390 px the preview and a class's list of students read without sideways scrolling; at
 * 1280 px two students of 3A are unticked (retained), the run keeps them in 3A while the rest move
 * up, and the screen then says when the next rollover becomes possible instead of offering it.
 */

const spec = browserSpec(null);
spec.usePortal();
const db = () => spec.portal.database.db;

async function openNewSchoolYear(page: Page, narrow: boolean): Promise<void> {
  await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
  if (narrow) await page.getByRole('button', { name: /^Menu:/ }).click();
  await page.getByRole('button', { name: 'New School Year' }).click();
  await page.getByRole('heading', { level: 1, name: 'New School Year' }).waitFor();
  await page.getByRole('table', { name: 'Where each class goes' }).waitFor();
}

const classOf = async (id: string) => (await db().selectFrom('students').select('class_id').where('id', '=', id).executeTakeFirstOrThrow()).class_id;

describe('the year rollover', () => {
  it('previews with counts per class, runs with an edited mapping, shows the move in the student list, and undoes (1280 px)', async () => {
    const inThreeA = await db().selectFrom('students').select('id').where('class_id', '=', '3A').where('left_on', 'is', null).orderBy('id').execute();
    const inFiveA = await db().selectFrom('students').select('id').where('class_id', '=', '5A').execute();
    const target = inThreeA[0]!.id;
    const page = await spec.open({ width: 1280, height: 1000 });
    await openNewSchoolYear(page, false);

    await page.getByRole('combobox', { name: '3A moves to' }).click();
    await page.getByRole('option', { name: '4B', exact: true }).click();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Preview: 2026-2027 → 2027-2028' });
    await preview.waitFor();
    await preview.locator('[data-preview-class="3A"]').getByText(`3A: ${inThreeA.length} students → 4B`).waitFor();
    await preview.locator('[data-preview-class="5A"]').getByText(`5A: ${inFiveA.length} students → leave`).waitFor();
    await page.screenshot({ path: screenshotPath('rollover-preview-1280.png') });

    await page.getByRole('button', { name: 'Run the rollover' }).click();
    await page.getByRole('dialog', { name: 'Move the school to 2027-2028?' }).getByRole('button', { name: 'Run the rollover' }).click();
    await page.getByText(/The school is now in 2027-2028/).waitFor();
    expect(await classOf(target)).toBe('4B');

    await page.getByRole('button', { name: 'Dashboard' }).click();
    await page.getByRole('searchbox', { name: 'Search students' }).fill(target);
    await page.locator(`[role="row"][data-id="${target}"]`).getByRole('gridcell', { name: '4B', exact: true }).waitFor();

    await page.getByRole('button', { name: 'New School Year' }).click();
    const runs = page.getByRole('region', { name: 'Rollovers' });
    await runs.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('dialog', { name: 'Undo the rollover?' }).getByRole('button', { name: 'Undo the rollover' }).click();
    await page.getByText(/is undone: the school is back in 2026-2027/).waitFor();
    await runs.getByText(/\(undone\)/).waitFor();
    expect(await classOf(target)).toBe('3A');
    expect(await classOf(inFiveA[0]!.id)).toBe('5A');
  });

  it('shows the preview readably on a phone (390 px)', async () => {
    const page = await spec.open({ width: 390, height: 844 });
    await openNewSchoolYear(page, true);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Preview: 2026-2027 → 2027-2028' });
    await preview.waitFor();
    await preview.locator('[data-preview-class="1A"]').getByText(/1A: \d+ students → 2A/).waitFor();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    const box = await preview.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    // A class's students open under it, each ticked to move up, one column wide.
    await preview.locator('[data-preview-class="1A"]').getByRole('button').first().click();
    const first = preview.getByRole('list', { name: 'Students of 1A' }).getByRole('checkbox').first();
    await first.waitFor();
    expect(await first.isChecked()).toBe(true);
    const listed = await preview.getByRole('list', { name: 'Students of 1A' }).boundingBox();
    expect(listed!.x + listed!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('rollover-preview-390.png'), fullPage: true });
  });

  it('keeps two unticked students in their form while the others move up, then says when the next rollover is possible (1280 px)', async () => {
    const inThreeA = await db().selectFrom('students').select('id').where('class_id', '=', '3A').where('left_on', 'is', null).execute();
    const page = await spec.open({ width: 1280, height: 1000 });
    await openNewSchoolYear(page, false);
    // The new year's dates in the school's format, whatever the browser's.
    expect(await page.getByRole('textbox', { name: 'Term 1 starts' }).inputValue()).toBe('07/09/2027');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Preview: 2026-2027 → 2027-2028' });
    await preview.locator('[data-preview-class="3A"]').getByRole('button').first().click();
    const ticks = preview.getByRole('list', { name: 'Students of 3A' }).getByRole('checkbox');
    const retained: string[] = [];
    for (const index of [0, 1]) {
      const tick = ticks.nth(index);
      retained.push(/\((\w+)\) moves up$/.exec((await tick.getAttribute('aria-label')) ?? '')![1]!);
      await tick.uncheck();
    }
    await preview.getByText('2 students stay in their form or stay on').waitFor();
    await preview.locator('[data-preview-class="3A"]').getByText('(2 retained)').waitFor();
    await page.screenshot({ path: screenshotPath('rollover-retained-1280.png') });

    await page.getByRole('button', { name: 'Run the rollover' }).click();
    const confirm = page.getByRole('dialog', { name: 'Move the school to 2027-2028?' });
    await confirm.getByText(/2 students stay in their form or stay on/).waitFor();
    await confirm.getByRole('button', { name: 'Run the rollover' }).click();
    await page.getByText(/The school is now in 2027-2028: .* 2 retained/).waitFor();
    for (const id of retained) expect(await classOf(id)).toBe('3A');
    for (const { id } of inThreeA.filter((s) => !retained.includes(s.id))) expect(await classOf(id)).toBe('4A');

    // The school is now in 2027-2028, which has not begun: the screen says when, and offers no run.
    await page.getByText('The school is already in 2027-2028, which begins on 07/09/2027. The rollover to 2028-2029 is possible from that day.').waitFor();
    expect(await page.getByRole('button', { name: 'Run the rollover' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Preview', exact: true }).count()).toBe(0);
    await page.getByRole('region', { name: 'Rollovers' }).getByText(/2 students retained/).waitFor();
    await page.screenshot({ path: screenshotPath('rollover-waits-1280.png') });
  });
});
