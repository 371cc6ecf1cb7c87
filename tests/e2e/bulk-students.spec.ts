import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { browserSpec, signIn, useMailedPortal } from '../support/e2e.js';
import { DEMO_STAFF } from '../../src/server/db/demo-data/demo-accounts.js';
import { RECORD_PARENT_EMAIL_FIELDS } from '../../src/shared/family.schemas.js';

/**
 * The student list's bulk actions in a real browser (docs/decisions.md D83), as the office uses
 * them at a desk: filter the list to a class, select the whole filtered list, move it to another
 * class; filter again and send the family invitations, which arrive in a real SMTP inbox. SQLite;
 * the routes, their refusals and both engines are the server suite's (students/bulk.routes.test.ts).
 */

const spec = browserSpec({ width: 1280, height: 1000 });
const inbox = useMailedPortal(spec);
let page: Page;
beforeEach(() => {
  page = spec.page;
});

const db = () => spec.portal.database.db;

async function onRollIn(classId: string) {
  return db().selectFrom('students').select(['id', ...RECORD_PARENT_EMAIL_FIELDS]).where('class_id', '=', classId).where('left_on', 'is', null).execute();
}

/** Signs in as the office, opens the student list and filters it to one class. */
async function listOfClass(classId: string): Promise<void> {
  await signIn(page, spec.portal, { username: DEMO_STAFF.office.username }, '/admin/dashboard');
  await page.getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: classId, exact: true }).click();
}

describe('bulk actions on the filtered student list (1280 px)', () => {
  it('selects the whole filtered class and moves it to another class after asking', async () => {
    const moving = await onRollIn('3D');
    expect(moving.length).toBeGreaterThan(1);
    await listOfClass('3D');
    const toolbar = page.getByRole('toolbar', { name: 'Bulk actions' });
    await toolbar.getByRole('button', { name: `Select all ${moving.length} matching` }).click();
    await toolbar.getByText(`All ${moving.length} matching selected`).waitFor();

    await toolbar.getByRole('button', { name: 'Change class' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change class' });
    await dialog.getByText(`${moving.length} students selected. Choose their new class.`).waitFor();
    await dialog.getByRole('combobox', { name: 'New class' }).click();
    await page.getByRole('option', { name: '3C', exact: true }).click();
    await dialog.getByText(`Move ${moving.length} students to 3C?`).waitFor();
    await dialog.getByRole('button', { name: 'Move' }).click();
    await page.getByText(`${moving.length} students moved to 3C.`).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const classes = await db().selectFrom('students').select('class_id').where('id', 'in', moving.map((student) => student.id)).execute();
    expect(classes.map((row) => row.class_id)).toEqual(moving.map(() => '3C'));
    // The list, still filtered to 3D, has asked again and is empty; the selection went with the rows.
    await page.getByText('No student matches the search.').waitFor();
    await toolbar.getByText('Tick rows to act on them').waitFor();
  });

  it('sends the family invitation to every parent e-mail on the filtered records, and the mails arrive', async () => {
    const students = await onRollIn('4A');
    const addresses = new Set(students.flatMap((student) => RECORD_PARENT_EMAIL_FIELDS.map((field) => student[field]?.trim().toLowerCase() ?? '').filter(Boolean).map((email) => `${student.id} ${email}`)));
    const withoutEmail = students.filter((student) => RECORD_PARENT_EMAIL_FIELDS.every((field) => !student[field]?.trim())).length;
    expect(addresses.size).toBeGreaterThan(0);
    const before = inbox().messages.length;

    await listOfClass('4A');
    const toolbar = page.getByRole('toolbar', { name: 'Bulk actions' });
    await toolbar.getByRole('button', { name: `Select all ${students.length} matching` }).click();
    await toolbar.getByRole('button', { name: 'Send invitations' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send invitations' });
    await dialog.getByText(`Send ${addresses.size} invitations to the parent e-mails on ${students.length} students' records?`).waitFor();
    if (withoutEmail > 0) await dialog.getByText(/no parent e-mail: nobody can be reached/).waitFor();
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.getByText(new RegExp(`^${addresses.size} invitations sent\\.`)).waitFor();

    const delivered = (await inbox().waitForMessages(before + addresses.size)).slice(before);
    const expected = [...addresses].map((pair) => pair.split(' ')[1]).sort();
    expect(delivered.map((mail) => mail.recipients[0]).sort()).toEqual(expected);
    expect(delivered.every((mail) => mail.subject.startsWith('Follow ') && mail.links.some((href) => href.includes('/family/accept?token=')))).toBe(true);
  });
});
