import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_STAFF } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, signIn } from '../support/e2e.js';

/**
 * A student's enrolment in a real browser (docs/decisions.md D80): the office withdraws a student
 * to another school, the student leaves the list of current students and shows among the former
 * ones with the history and no Edit, then is readmitted into a class and is back on the roll.
 * The rules and refusals are proven on both engines by src/server/enrolment/enrolment.routes.test.ts.
 */

const spec = browserSpec({ width: 1280, height: 1000 });
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

const row = (studentId: string) => page.locator(`[role="row"][data-id="${studentId}"]`);

describe('Withdraw and Readmit', () => {
  it('withdraws a student to another school, shows them among former students with the history, and readmits them into a class', async () => {
    const db = spec.portal.database.db;
    const student = await db.selectFrom('students').select(['id', 'first_name', 'last_name']).where('class_id', '=', '3B').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await signIn(page, spec.portal, { username: DEMO_STAFF.office.username });
    await page.goto(spec.url('/admin/dashboard'));
    await page.getByRole('searchbox', { name: 'Search students' }).fill(student.id);
    await row(student.id).getByRole('button', { name: /^Enrolment history of / }).click();

    const dialog = page.getByRole('dialog', { name: new RegExp(`^Enrolment — .*\\(${student.id}\\)$`) });
    await dialog.getByText('On the roll in 3B.').waitFor();
    await dialog.getByRole('list', { name: 'Enrolment history' }).getByText(/Form 1 intake/).waitFor();
    await dialog.getByRole('button', { name: 'Withdraw…' }).click();
    const withdraw = page.getByRole('dialog', { name: /^Withdraw — / });
    await withdraw.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Transferred to another school' }).click();
    await withdraw.getByRole('textbox', { name: 'School moving to' }).fill('Queen’s Royal College');
    await withdraw.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await page.getByText(`Student ${student.id} is withdrawn as of`).waitFor();
    await withdraw.waitFor({ state: 'hidden' });

    // Out of the current students; among the former ones, with Readmit and the history, and no Edit or Reset password.
    await row(student.id).waitFor({ state: 'detached' });
    await page.getByRole('checkbox', { name: 'Include former students' }).check();
    const former = row(student.id);
    await former.getByText('Left 3B').waitFor();
    expect(await former.getByRole('button', { name: /^(Edit|Reset password of) / }).count()).toBe(0);
    await former.getByRole('button', { name: /^Enrolment history of / }).click();
    const history = page.getByRole('dialog', { name: new RegExp(`^Enrolment — .*\\(${student.id}\\)$`) });
    await history.getByText(/^Former student: left 3B on/).waitFor();
    await history.getByRole('list', { name: 'Enrolment history' }).getByText(/Transferred to another school: Queen’s Royal College/).waitFor();
    await history.getByText('Exit · from 3B').waitFor();

    await history.getByRole('button', { name: 'Readmit…' }).click();
    const readmit = page.getByRole('dialog', { name: /^Readmit — / });
    await readmit.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'Form 3 3C' }).click();
    await readmit.getByRole('button', { name: 'Readmit', exact: true }).click();
    await page.getByText(`Student ${student.id} is back on the roll in 3C`).waitFor();
    await readmit.waitFor({ state: 'hidden' });

    // Back on the roll: in the list of current students, in 3C, with Edit again.
    await page.getByRole('checkbox', { name: 'Include former students' }).uncheck();
    await row(student.id).getByRole('gridcell', { name: '3C', exact: true }).waitFor();
    await row(student.id).getByRole('button', { name: /^Edit / }).waitFor();
    expect(await db.selectFrom('students').select(['class_id', 'left_on']).where('id', '=', student.id).executeTakeFirstOrThrow()).toEqual({ class_id: '3C', left_on: null });
  });

  it('on a phone, a former student’s "Actions for …" menu offers Readmit and the history, not Edit, and the history fits the screen (390px)', async () => {
    page = await spec.open({ width: 390, height: 844 });
    const db = spec.portal.database.db;
    const student = await db.selectFrom('students').select('id').where('class_id', '=', '2D').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await signIn(page, spec.portal, { username: DEMO_STAFF.office.username });
    await page.goto(spec.url('/admin/dashboard'));
    // Withdrawn from the phone's menu: Enrolment history, then Withdraw….
    await page.getByRole('searchbox', { name: 'Search students' }).fill(student.id);
    await row(student.id).getByRole('button', { name: /^Actions for / }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: /^Enrolment history of / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Withdraw…' }).click();
    const withdraw = page.getByRole('dialog', { name: /^Withdraw — / });
    await withdraw.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Emigrated' }).click();
    await withdraw.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await page.getByText(`Student ${student.id} is withdrawn as of`).waitFor();

    await page.getByRole('checkbox', { name: 'Include former students' }).check();
    await row(student.id).getByRole('button', { name: /^Actions for / }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: /^Readmit / }).waitFor();
    expect(await menu.getByRole('menuitem', { name: /^(Edit|Reset password of) / }).count()).toBe(0);
    await menu.getByRole('menuitem', { name: /^Enrolment history of / }).click();
    const history = page.getByRole('dialog', { name: new RegExp(`\\(${student.id}\\)$`) });
    await history.getByRole('list', { name: 'Enrolment history' }).getByText(/Emigrated/).waitFor();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });
});
