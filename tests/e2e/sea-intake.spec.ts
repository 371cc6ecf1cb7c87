import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { browserSpec, signIn } from '../support/e2e.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';

/**
 * The new Form 1 (D61) in a real browser against the demo school: the administrator
 * imports an SEA placement list, balances it, drags a child to another class, finalises, and finds
 * the new students in the student list (1280 px); on a phone (390 px) the allocation works with
 * each child's Class select and the intake can be cleared. SQLite; the routes run on both engines
 * in the server suite.
 */

const spec = browserSpec({ width: 1280, height: 1000 });
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

const button = (name: string) => page.getByRole('button', { name, exact: true });
const column = (classId: string) => page.locator(`section[data-class="${classId}"]`);
const card = (sea: string) => page.locator(`li[data-sea="${sea}"]`);

/** Eight children, four girls and four boys, from two primary schools of the lookup. */
async function placementList(prefix: string): Promise<string> {
  const schools = await spec.portal.database.db.selectFrom('primary_schools').select('name').orderBy('name').limit(2).execute();
  const rows = ['SEA Number,First Name,Middle Name,Last Name,Date of Birth,Sex,Primary School'];
  for (let i = 0; i < 8; i++) {
    rows.push(`${prefix}-${i},Newa${String.fromCharCode(97 + i)},,${prefix}child${String.fromCharCode(97 + i)},2014-0${1 + i}-1${i},${i % 2 ? 'Male' : 'Female'},"${schools[i % 2]!.name}"`);
  }
  return rows.join('\n') + '\n';
}

async function importList(prefix: string): Promise<void> {
  await page.locator('input[type="file"][name="file"]').setInputFiles({ name: 'sea.csv', mimeType: 'text/csv', buffer: Buffer.from(await placementList(prefix)) });
  await button('Import list').click();
  await page.getByText('8 children from sea.csv; 8 not in a class yet.').waitFor();
}

/** Drags a child by their handle onto a class's column, with the mouse moving in steps as a person's does. */
async function drag(sea: string, classId: string): Promise<void> {
  const handle = card(sea).getByRole('button', { name: /^Drag / });
  const from = (await handle.boundingBox())!;
  const to = (await column(classId).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + 40, { steps: 15 });
  await page.mouse.up();
}

describe('New Form 1', () => {
  it('imports the SEA list, balances, drags a child to another class and finalises into the student list (1280px)', async () => {
    await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'New Form 1' }).click();
    await page.getByRole('heading', { name: 'New Form 1' }).waitFor();
    await importList('SEAW');

    await button('Balance').click();
    await page.getByText('8 children from sea.csv, every one in a class.').waitFor();
    for (const classId of ['1A', '1B', '1C', '1D']) {
      await column(classId).getByTestId(`counts-${classId}`).getByText('New: 2 (1 F, 1 M)').waitFor();
    }

    const moving = (await column('1A').locator('li').first().getAttribute('data-sea'))!;
    await drag(moving, '1B');
    await column('1B').locator(`li[data-sea="${moving}"]`).waitFor();
    await column('1B').getByTestId('counts-1B').getByText(/^New: 3 /).waitFor();
    await column('1A').getByTestId('counts-1A').getByText(/^New: 1 /).waitFor();

    await button('Finalise').click();
    const confirm = page.getByRole('dialog', { name: 'Finalise the new Form 1?' });
    await confirm.getByRole('button', { name: 'Create 8 students' }).click();
    await page.getByText(/^Created 8 students: \d{8} to \d{8}\.$/).waitFor();

    const created = await spec.portal.database.db.selectFrom('students').select(['id', 'sea_no', 'class_id', 'last_name']).where('sea_no', 'like', 'SEAW-%').orderBy('id').execute();
    expect(created).toHaveLength(8);
    expect(created.find((s) => s.sea_no === moving)!.class_id).toBe('1B');
    expect(created.filter((s) => s.class_id === '1B')).toHaveLength(3);

    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Dashboard' }).click();
    const newcomer = created.find((s) => s.sea_no === moving)!;
    await page.getByRole('searchbox', { name: 'Search students' }).fill(newcomer.last_name!);
    await page.locator(`[role="row"][data-id="${newcomer.id}"]`).waitFor();
  });

  it('on a phone the allocation works with the Class select, and the intake can be cleared (390px)', async () => {
    page = await spec.open({ width: 390, height: 900 });
    await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
    await page.goto(spec.url('/admin/dashboard?view=newFormOne'));
    await page.getByRole('heading', { name: 'New Form 1' }).waitFor();
    await importList('SEAP');

    const child = card('SEAP-3');
    await child.getByLabel(/^Class for /).selectOption('1C');
    await column('1C').locator('li[data-sea="SEAP-3"]').waitFor();
    await page.getByText('8 children from sea.csv; 7 not in a class yet.').waitFor();
    await column('1C').getByTestId('counts-1C').getByText('New: 1 (0 F, 1 M)').waitFor();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);

    await button('Clear intake').click();
    await page.getByRole('dialog', { name: 'Clear the intake?' }).getByRole('button', { name: 'Clear intake' }).click();
    await button('Import list').waitFor();
    expect(await spec.portal.database.db.selectFrom('intake_students').select('id').execute()).toEqual([]);
  });
});
