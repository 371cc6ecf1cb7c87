import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { nowIso } from '../../src/server/db/database.js';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, signIn } from '../support/e2e.js';

/**
 * The Privacy screen in a real browser: the audit log shows an administrator's read
 * of a record, a student's change history, the export link, and deleting a student after typing
 * the ID; at phone width too, without accessibility violations.
 */

const spec = browserSpec(null);
spec.usePortal();
let page: Page;

async function open(width: number): Promise<void> {
  page = await spec.open({ width });
  await signIn(page, spec.portal, { username: DEMO_ADMIN.username }, '/admin/dashboard?view=privacy');
  await page.getByRole('heading', { name: 'Privacy' }).waitFor();
}

describe('Privacy screen', () => {
  it("shows a student's history and log, offers the export, and deletes after the ID is typed", { timeout: 90_000 }, async () => {
    const { registered } = DEMO_STUDENTS;
    // A change and an administrator's read to find on the screen.
    const db = spec.portal.database.db;
    await db
      .insertInto('audit_log')
      .values({ actor_user_id: null, actor_label: 'student:20220001', action: 'update', entity: 'student', entity_id: registered.student_id, field: 'allergy', old_value: null, new_value: 'Peanuts', ip: null, request_id: null, created_at: nowIso(), updated_at: nowIso() })
      .execute();
    await open(1280);

    await page.getByLabel('Student ID').first().fill(registered.student_id);
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    const history = page.getByRole('table', { name: `Change history of ${registered.student_id}` });
    await history.getByText('Peanuts').waitFor();
    const exportLink = page.getByRole('link', { name: 'Export everything (JSON)' });
    expect(await exportLink.getAttribute('href')).toBe(`/api/privacy/students/${registered.student_id}/export`);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);

    // Delete a student made for this test: the button stays off until the ID is typed.
    const victim = '20299999';
    await db.insertInto('students').values({ id: victim, class_id: '1A', first_name: 'Gone', last_name: 'Soon', created_at: nowIso(), updated_at: nowIso() }).execute();
    await page.getByLabel('Student ID').first().fill(victim);
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('button', { name: 'Delete student…' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete student ${victim}?` });
    const confirm = dialog.getByRole('button', { name: 'Delete', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Student ID').fill(victim);
    await confirm.click();
    await page.getByText(`Student ${victim} and everything held about them were deleted.`).waitFor();
    expect(await db.selectFrom('students').select('id').where('id', '=', victim).executeTakeFirst()).toBeUndefined();
  });

  it('works at phone width (375px)', { timeout: 60_000 }, async () => {
    await open(375);
    await page.getByRole('table', { name: 'Audit log' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
