import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { AdminStudentListSchema, matchesStudentFilter, type StudentListFilter } from '../../src/shared/students.schemas.js';
import { browserSpec, signIn } from '../support/e2e.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';

/**
 * The office's everyday tools in a real browser against the real server and the demo school:
 * settings that show what is stored and can be undone, the Edit Student dialog, adding a student,
 * chasing incomplete registrations. SQLite; the routes behind them run on both engines in the
 * server suites.
 */

const spec = browserSpec({ width: 1280, height: 1000 });
spec.usePortal();
let page: Page;
/** A student's own name takes no digits (D77): a name made per width says the width in words. */
const WIDTH_WORD: Record<number, string> = { 1280: 'Wide', 390: 'Narrow' };
beforeEach(() => {
  page = spec.page;
});

const button = (name: string) => page.getByRole('button', { name, exact: true });

async function openAdminScreen(view: string): Promise<void> {
  await signIn(page, spec.portal, { username: DEMO_ADMIN.username }, `/admin/dashboard?view=${view}`);
}

/**
 * Chooses a row action of the student list by its label: the row's button named "{label} …" (the
 * names say whose row it is), or on a phone the item of the row's "Actions for …" menu.
 */
async function rowAction(studentId: string, label: string): Promise<void> {
  const row = page.locator(`[role="row"][data-id="${studentId}"]`);
  await row.waitFor();
  const name = new RegExp(`^${label} `);
  const inline = row.getByRole('button', { name });
  if ((await inline.count()) > 0) return inline.click();
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menu').getByRole('menuitem', { name }).click();
}

async function storedDefaultWindow() {
  return spec.portal.database.db.selectFrom('registration_periods').select(['open', 'deadline']).where('form_level', 'is', null).executeTakeFirstOrThrow();
}

describe('Registration Settings', () => {
  for (const width of [1280, 390]) {
    it(`opens with the stored default, asks before changing it, and Undo restores it (${width}px)`, async () => {
      page = await spec.open({ width, height: 900 });
      const stored = await storedDefaultWindow();
      expect(stored.deadline).not.toBeNull();
      await openAdminScreen('registrationSettings');
      const deadline = page.getByLabel('Deadline');
      await expect.poll(() => deadline.inputValue()).toBe(stored.deadline);
      expect(await page.getByLabel('Registration open').isChecked()).toBe(Number(stored.open) === 1);

      await deadline.fill('2031-01-31');
      await button('Save settings').click();
      const confirm = page.getByRole('dialog', { name: 'Change the default registration window?' });
      await confirm.getByText(`Now: Open until ${stored.deadline}.`).waitFor();
      await confirm.getByText('After: Open until 2031-01-31.').waitFor();
      // Cancel leaves what is stored alone.
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'hidden' });
      expect((await storedDefaultWindow()).deadline).toBe(stored.deadline);

      await button('Save settings').click();
      await confirm.getByRole('button', { name: 'Change default' }).click();
      await page.getByText('All forms (default): registration settings saved.').waitFor();
      expect((await storedDefaultWindow()).deadline).toBe('2031-01-31');

      await button('Undo').click();
      await page.getByText('All forms (default): previous registration settings restored.').waitFor();
      expect(await storedDefaultWindow()).toEqual(stored);
      await expect.poll(() => deadline.inputValue()).toBe(stored.deadline);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  }

  it('asks before removing a school holiday, and Undo puts it back', async () => {
    const db = spec.portal.database.db;
    const holiday = await db.selectFrom('school_holidays').select(['id', 'date', 'name']).orderBy('date').executeTakeFirstOrThrow();
    await openAdminScreen('attendanceSettings');
    const removeButton = page.getByRole('button', { name: `Remove ${holiday.date} ${holiday.name}` });
    await removeButton.click();
    const confirm = page.getByRole('dialog', { name: 'Remove this holiday?' });
    await confirm.waitFor();
    expect(await db.selectFrom('school_holidays').select('id').where('id', '=', holiday.id).executeTakeFirst()).toBeDefined();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await removeButton.click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByText(`${holiday.date} ${holiday.name} removed`).waitFor();
    expect(await db.selectFrom('school_holidays').select('id').where('date', '=', holiday.date).executeTakeFirst()).toBeUndefined();

    await button('Undo').click();
    await page.getByText(`${holiday.date} ${holiday.name} restored`).waitFor();
    expect(await db.selectFrom('school_holidays').select(['date', 'name']).where('date', '=', holiday.date).executeTakeFirst()).toEqual({ date: holiday.date, name: holiday.name });
    await removeButton.waitFor();
  });
});

describe('Edit Student', () => {
  for (const [width, typed] of [
    [1280, '2013-05-06'],
    [390, '2012-04-03'],
  ] as const) {
    it(`sends a typed date and a name in one request, only on Save (${width}px)`, async () => {
      page = await spec.open({ width, height: 900 });
      const id = '20250004';
      await openAdminScreen('dashboard');
      await page.getByRole('searchbox', { name: 'Search students' }).fill(id);
      await rowAction(id, 'Edit');
      const dialog = page.getByRole('dialog', { name: /Edit Student/ });
      await dialog.waitFor();

      const saves: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/student') saves.push(request.postData() ?? '');
      });
      await dialog.getByRole('spinbutton', { name: 'Year' }).click();
      await page.keyboard.type(typed.replaceAll('-', ''), { delay: 60 });
      await page.keyboard.press('Tab');
      await dialog.locator('input[name="last_name"]').fill(`Renamed${WIDTH_WORD[width]}`);
      // Nothing leaves the page before Save, however the fields were left.
      expect(saves).toEqual([]);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText('Updated Successfully.').waitFor();
      expect(saves.map((body) => JSON.parse(body) as unknown)).toEqual([{ id, date_of_birth: typed, last_name: `Renamed${WIDTH_WORD[width]}` }]);
      const stored = await spec.portal.database.db.selectFrom('students').select(['date_of_birth', 'first_name']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(stored.date_of_birth).toBe(typed);
      await page.locator(`[role="row"][data-id="${id}"]`).getByText(`Renamed${WIDTH_WORD[width]}, ${stored.first_name}`).waitFor();
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  }
});

describe('Add Student and a change of class', () => {
  for (const [width, id] of [
    [1280, '20269601'],
    [390, '20269602'],
  ] as const) {
    it(`adds one student with the form: the rules, a taken pin, then the new student in the list, audited (${width}px)`, async () => {
      page = await spec.open({ width, height: 900 });
      const lastName = `Added${WIDTH_WORD[width]}`;
      const db = spec.portal.database.db;
      const other = await db.selectFrom('students').select(['id', 'birth_certificate_no']).where('birth_certificate_no', 'is not', null).orderBy('id').executeTakeFirstOrThrow();
      await openAdminScreen('dashboard');
      await button('Add student').click();
      const dialog = page.getByRole('dialog', { name: 'Add Student' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Add student' }).click();
      expect(await dialog.getByText('Required for a new student.').count()).toBe(4);
      await dialog.getByText('A new student needs a Birth Certificate Pin or an SEA Number for the first sign-in.').waitFor();

      await dialog.locator('input[name="id"]').fill(id);
      await dialog.getByRole('combobox', { name: /Class/ }).click();
      await page.getByRole('option', { name: 'Form 2 2B', exact: true }).click();
      await dialog.locator('input[name="first_name"]').fill('Nia');
      await dialog.locator('input[name="last_name"]').fill(lastName);
      await dialog.getByRole('spinbutton', { name: 'Year' }).click();
      await page.keyboard.type('20130615', { delay: 30 });
      await dialog.locator('input[name="birth_certificate_no"]').fill(other.birth_certificate_no!);
      await dialog.getByRole('button', { name: 'Add student' }).click();
      await dialog.getByText(`Student ${other.id} already has this Birth Certificate Pin.`).first().waitFor();
      expect(await db.selectFrom('students').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();

      await dialog.locator('input[name="birth_certificate_no"]').fill(`B13-96${width}`);
      await dialog.getByRole('button', { name: 'Add student' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText(`${lastName}, Nia (${id}) added.`).waitFor();
      await page.locator(`[role="row"][data-id="${id}"]`).getByText(`${lastName}, Nia`).waitFor();
      const stored = await db.selectFrom('students').select(['class_id', 'date_of_birth', 'birth_certificate_no']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(stored).toEqual({ class_id: '2B', date_of_birth: '2013-06-15', birth_certificate_no: `B13-96${width}` });
      const audit = await db.selectFrom('audit_log').select(['action', 'actor_label']).where('entity_id', '=', id).execute();
      expect(audit).toEqual([{ action: 'create', actor_label: expect.stringMatching(/^admin:/) as unknown }]);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  }

  it('moves a student to another class from the Edit dialog, audited', async () => {
    const db = spec.portal.database.db;
    const target = await db.selectFrom('students').select(['id', 'class_id']).where('class_id', '=', '3A').orderBy('id').executeTakeFirstOrThrow();
    await openAdminScreen('dashboard');
    await page.getByRole('searchbox', { name: 'Search students' }).fill(target.id);
    await rowAction(target.id, 'Edit');
    const dialog = page.getByRole('dialog', { name: /Edit Student/ });
    await dialog.getByRole('combobox', { name: /Class/ }).click();
    await page.getByRole('option', { name: 'Form 3 3C', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const move = page.getByRole('dialog', { name: 'Move to another class?' });
    await move.getByText(/ from 3A to 3C\?$/).waitFor();
    await move.getByRole('button', { name: 'Move' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await db.selectFrom('students').select('class_id').where('id', '=', target.id).executeTakeFirstOrThrow()).class_id).toBe('3C');
    const audit = await db.selectFrom('audit_log').select(['field', 'old_value', 'new_value']).where('entity_id', '=', target.id).where('field', '=', 'class_id').execute();
    expect(audit).toEqual([{ field: 'class_id', old_value: '3A', new_value: '3C' }]);
    await page.locator(`[role="row"][data-id="${target.id}"]`).getByRole('gridcell', { name: '3C', exact: true }).waitFor();
  });
});

describe('Chasing incomplete registrations', () => {
  /** The list as the server answers it, read through the signed-in page. */
  async function serverList() {
    return AdminStudentListSchema.parse(await page.evaluate(async (): Promise<unknown> => (await fetch('/api/students', { credentials: 'include' })).json()));
  }
  const found = (count: number) => page.getByText(new RegExp(`· ${count} found$`));

  for (const width of [1280, 390]) {
    it(`filters by class and registration stage, searches class and date of birth, and exports the call list (${width}px)`, async () => {
      page = await spec.open({ width, height: 900 });
      await openAdminScreen('dashboard');
      await page.getByText(/^Total Number of Students: \d+/).waitFor();
      const students = await serverList();
      const target = students.find((s) => s.registration === 'not_started' && s.class_id !== null)!;

      await page.getByRole('combobox', { name: 'Class' }).click();
      await page.getByRole('option', { name: target.class_id!, exact: true }).click();
      await page.getByRole('combobox', { name: 'Registration' }).click();
      await page.getByRole('option', { name: 'Not started', exact: true }).click();
      const filter: StudentListFilter = { class_id: target.class_id!, registration: 'not_started' };
      const expected = students.filter((s) => matchesStudentFilter(s, filter));
      await found(expected.length).waitFor();
      await page.locator(`[role="row"][data-id="${target.id}"]`).waitFor();

      const download = page.waitForEvent('download');
      await button('Export call list').click();
      const file = await download;
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(fs.readFileSync(await file.path()) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      const headers = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(String);
      expect(headers).toEqual(expect.arrayContaining(['Student ID', 'Registration', "Mother's Mobile Phone", "Mother's E-mail", "Father's Mobile Phone", "Father's E-mail"]));
      const ids: string[] = [];
      sheet.eachRow((row, number) => {
        if (number > 1) ids.push(row.getCell(1).text);
      });
      expect(ids.sort()).toEqual(expected.map((s) => s.id).sort());

      // The search also finds a class and a date of birth.
      await page.getByRole('combobox', { name: 'Class' }).click();
      await page.getByRole('option', { name: 'All classes' }).click();
      await page.getByRole('combobox', { name: 'Registration' }).click();
      await page.getByRole('option', { name: 'Any stage' }).click();
      await page.getByRole('searchbox', { name: 'Search students' }).fill(target.date_of_birth!);
      await found(students.filter((s) => matchesStudentFilter(s, { search: target.date_of_birth! })).length).waitFor();
      await page.locator(`[role="row"][data-id="${target.id}"]`).waitFor();
      await page.getByRole('searchbox', { name: 'Search students' }).fill(target.class_id!);
      await found(students.filter((s) => matchesStudentFilter(s, { search: target.class_id! })).length).waitFor();
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  }
});
