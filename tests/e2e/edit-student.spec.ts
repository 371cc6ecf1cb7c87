import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, signIn } from '../support/e2e.js';

/**
 * Edit Student at 1280 px (docs/decisions.md D82): a name and the class changed, then Cancel
 * and "Discard changes?" leave the record and the audit log as they were (a reload shows the old
 * values); changed again, Save with the class move confirmed stores both.
 */

const spec = browserSpec({ width: 1280, height: 1000 });
let page: Page;
beforeEach(() => {
  page = spec.page;
});
spec.usePortal();

const gridRow = (studentId: string) => page.locator(`[role="row"][data-id="${studentId}"]`);

describe('Edit Student', () => {
  it('saves nothing on Cancel, and a name and a class move together on Save once the move is confirmed', async () => {
    const db = spec.portal.database.db;
    const student = await db.selectFrom('students').select(['id', 'first_name', 'last_name', 'class_id']).where('class_id', '=', '2A').orderBy('id').offset(2).limit(1).executeTakeFirstOrThrow();
    const updates = async () =>
      Number((await db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).where('entity_id', '=', student.id).where('action', '=', 'update').executeTakeFirstOrThrow()).n);
    const auditBefore = await updates();

    await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
    const openEdit = async () => {
      await page.getByRole('searchbox', { name: 'Search students' }).fill(student.id);
      await gridRow(student.id).getByRole('button', { name: /^Edit / }).click();
      const dialog = page.getByRole('dialog', { name: /Edit Student/ });
      await dialog.waitFor();
      return dialog;
    };
    const change = async (dialog: ReturnType<Page['getByRole']>) => {
      await dialog.locator('input[name="first_name"]').fill('Renamed');
      await dialog.getByRole('combobox', { name: /Class/ }).click();
      await page.getByRole('option', { name: /2B/ }).click();
    };

    let dialog = await openEdit();
    await change(dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const discard = page.getByRole('dialog', { name: 'Discard changes?' });
    await discard.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await db.selectFrom('students').select(['first_name', 'class_id']).where('id', '=', student.id).executeTakeFirstOrThrow()).toEqual({ first_name: student.first_name, class_id: '2A' });
    expect(await updates()).toBe(auditBefore);
    await page.reload();
    await page.getByText(/^Total Number of Students: \d+/).waitFor();
    await page.getByRole('searchbox', { name: 'Search students' }).fill(student.id);
    await gridRow(student.id).getByRole('gridcell', { name: '2A', exact: true }).waitFor();
    await gridRow(student.id).getByText(`${student.last_name}, ${student.first_name}`).waitFor();
    dialog = await openEdit();
    expect(await dialog.locator('input[name="first_name"]').inputValue()).toBe(student.first_name);

    await change(dialog);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const move = page.getByRole('dialog', { name: 'Move to another class?' });
    await move.getByText(`Move Renamed ${student.last_name} from 2A to 2B?`).waitFor();
    await move.getByRole('button', { name: 'Move' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Updated Successfully.').waitFor();
    expect(await db.selectFrom('students').select(['first_name', 'class_id']).where('id', '=', student.id).executeTakeFirstOrThrow()).toEqual({ first_name: 'Renamed', class_id: '2B' });
    expect(await updates()).toBe(auditBefore + 2);
    await gridRow(student.id).getByRole('gridcell', { name: '2B', exact: true }).waitFor();
    await gridRow(student.id).getByText(`${student.last_name}, Renamed`).waitFor();
  });
});
