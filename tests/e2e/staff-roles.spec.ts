import type { Page, Response } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_STAFF, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { AdminStudentListSchema } from '../../src/shared/students.schemas.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * Each staff role's admin area in a real browser: signed in through the admin sign-in
 * page as the demo office clerk, principal and form teacher of 5A, each sees exactly its menu and
 * its students, only the buttons its permissions allow, and a form teacher who types the address
 * of another class's student gets the portal's refusal, not the data. The API side of every
 * refusal is the access matrix (tests/security/access-matrix*.test.ts). Real server, demo school (SQLite), Chromium.
 */

const spec = browserSpec({ width: 1280, height: 1000 });
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

interface Account {
  username: string;
}

/** Signs the account in (a session made on the server) and waits for the student list's total. */
async function signInAs(account: Account): Promise<void> {
  await signIn(page, spec.portal, { username: account.username });
  await page.getByText(/^Total Number of Students: \d+/).waitFor();
}

/** The API calls the page made that were refused (4xx), as "403 GET /api/…". */
function watchRefusals(): string[] {
  const refused: string[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && response.status() >= 400) refused.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
  });
  return refused;
}

const adminMenu = () => page.getByRole('navigation', { name: 'Admin menu' });
const menuLabels = async () => (await adminMenu().getByRole('button').allInnerTexts()).map((label) => label.trim());
const button = (name: string) => page.getByRole('button', { name, exact: true });
const rows = () => page.locator('[role="row"][data-id]');
const REFUSAL = 'You can only see the students you are responsible for.';

const REPORTS = ['Registration Report', 'Parents Contact', 'Class Attendance'];
const MENUS = {
  office: ['Dashboard', 'Export Data', ...REPORTS, 'Absence Notes', 'Document Review', 'Import Students', 'New Form 1', 'Post Term Reports', 'Report Cards', 'Import Term Results', 'Import Attendance', 'Family Messages', 'Outbox'],
  principal: ['Dashboard', 'Export Data', ...REPORTS, 'Absence Notes', 'Post Term Reports', 'Report Cards'],
  formTeacher: ['Dashboard', ...REPORTS, 'Absence Notes', 'Report Cards'],
};
/** What only an administrator may use (the office sees everything else). */
const ADMINISTRATOR_ONLY = ['Registration Settings', 'Scanner Devices', 'Attendance Settings', 'New School Year', 'Outbox', 'Privacy'];

async function countStudents(classId?: string): Promise<number> {
  let query = spec.portal.database.db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('count'));
  if (classId) query = query.where('class_id', '=', classId);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

/** A student of another class than the form teacher's, with attendance and term results in the demo school. */
async function studentOutside(classId: string): Promise<string> {
  const row = await spec.portal.database.db.selectFrom('students').select('id').where('class_id', '<>', classId).where('class_id', 'is not', null).orderBy('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The accessible names of the first row's action buttons, without the student's name. */
async function firstRowActions(): Promise<string[]> {
  const first = rows().first();
  await first.waitFor();
  const name = (await first.locator('[data-field="name"]').innerText()).trim();
  const labels = await first.locator('[data-field="actions"]').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''));
  return labels.map((label) => label.replace(` ${name}`, '').replace(/ of$/, ''));
}

describe('the menu of each role', () => {
  it('the office sees everything but staff, settings, scanners and privacy; adds, edits and resets', async () => {
    const refused = watchRefusals();
    await signInAs(DEMO_STAFF.office);
    expect(await menuLabels()).toEqual(MENUS.office);
    await page.getByText(`Total Number of Students: ${await countStudents()}`).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Students' }).waitFor();
    await button('Add student').waitFor();
    await button('Export call list').waitFor();
    expect(await firstRowActions()).toEqual(['View registration form', 'Edit', 'History', 'Reset password', 'Documents', 'Term reports', 'Attendance', 'Family', 'Review registration', 'Enrolment history']);
    expect(refused).toEqual([]);
  });

  it('the principal reads every record: no Add student, Edit or Reset password', async () => {
    const refused = watchRefusals();
    await signInAs(DEMO_STAFF.principal);
    expect(await menuLabels()).toEqual(MENUS.principal);
    await page.getByText(`Total Number of Students: ${await countStudents()}`).waitFor();
    await button('Export call list').waitFor();
    expect(await button('Add student').count()).toBe(0);
    expect(await firstRowActions()).toEqual(['View registration form', 'History', 'Documents', 'Term reports', 'Attendance', 'Enrolment history']);
    expect(await page.getByRole('button', { name: /^(Edit|Reset password) / }).count()).toBe(0);

    // Reports offer every class and All classes.
    await adminMenu().getByRole('button', { name: 'Registration Report' }).click();
    await page.getByRole('heading', { level: 1, name: 'Registration Report' }).waitFor();
    await page.getByRole('combobox', { name: 'Class' }).click();
    const options = await page.getByRole('listbox').getByRole('option').allInnerTexts();
    expect(options[0]).toBe('All classes');
    expect(options).toContain('Form 1 1A');
    expect(options).toContain('Form 5 5A');
    await page.keyboard.press('Escape');
    expect(refused).toEqual([]);
  });

  it("the administrator still sees every entry but the absence notes (health data: the class's staff only, D93)", async () => {
    await signInAs(DEMO_ADMIN);
    const labels = await menuLabels();
    for (const label of [...MENUS.office.filter((entry) => entry !== 'Absence Notes'), ...ADMINISTRATOR_ONLY]) expect(labels).toContain(label);
    expect(labels).not.toContain('Absence Notes');
    await button('Add student').waitFor();
  });
});

describe('a form teacher', () => {
  const teacher = DEMO_STAFF.formTeacher;

  async function teacherName(): Promise<string> {
    const row = await spec.portal.database.db.selectFrom('users').select('display_name').where('username', '=', teacher.username).executeTakeFirstOrThrow();
    return row.display_name ?? '';
  }

  it('lands on their class: its students only, its total, its title, and reading actions only', async () => {
    const refused = watchRefusals();
    // The whole list: the first page the grid asks for (D64) tells it the class is under the threshold.
    const list = page.waitForResponse((response) => { const address = new URL(response.url()); return address.pathname === '/api/students' && address.search === '' && response.request().method() === 'GET'; });
    await signInAs(teacher);
    expect(await menuLabels()).toEqual(MENUS.formTeacher);
    // What the page was given is the class's students only (the grid draws only the rows in view).
    const given = AdminStudentListSchema.parse(await (await list).json());
    const inClass = await countStudents(teacher.classId);
    expect(inClass).toBeGreaterThan(0);
    expect(inClass).toBeLessThan(await countStudents());
    await page.getByRole('heading', { level: 1, name: `Form 5 ${teacher.classId} — ${await teacherName()}` }).waitFor();
    await page.getByText(`Total Number of Students: ${inClass}`, { exact: true }).waitFor();
    expect(given).toHaveLength(inClass);
    expect(new Set(given.map((student) => student.class_id))).toEqual(new Set([teacher.classId]));
    await rows().first().waitFor();
    const classes = await page.locator('[role="row"][data-id] [data-field="class_id"]').allInnerTexts();
    expect(new Set(classes.map((text) => text.trim()))).toEqual(new Set([teacher.classId]));
    // One class: no class choice to make, and nothing to add, export, edit or reset.
    expect(await page.getByRole('combobox', { name: 'Class' }).count()).toBe(0);
    expect(await button('Add student').count()).toBe(0);
    expect(await button('Export call list').count()).toBe(0);
    expect(await firstRowActions()).toEqual(['View registration form', 'History', 'Documents', 'Term reports', 'Attendance', 'Enrolment history']);
    expect(refused).toEqual([]);
  });

  it('chooses among their own classes in the reports, without All classes', async () => {
    const refused = watchRefusals();
    await signInAs(teacher);
    for (const report of ['Registration Report', 'Parents Contact']) {
      await adminMenu().getByRole('button', { name: report }).click();
      await page.getByRole('heading', { level: 1, name: report }).waitFor();
      const choice = page.getByRole('combobox', { name: 'Class' });
      await expect.poll(() => choice.innerText()).toBe('Form 5 5A');
      await choice.click();
      expect(await page.getByRole('listbox').getByRole('option').allInnerTexts()).toEqual(['Form 5 5A']);
      await page.keyboard.press('Escape');
    }
    await adminMenu().getByRole('button', { name: 'Class Attendance' }).click();
    await page.getByRole('heading', { level: 2, name: /^Form 5 5A · / }).waitFor();
    await page.getByRole('combobox', { name: 'Class' }).click();
    expect(await page.getByRole('listbox').getByRole('option').allInnerTexts()).toEqual(['Form 5 5A']);
    await page.keyboard.press('Escape');
    expect(refused).toEqual([]);
  });

  it("gets the portal's refusal, not the data, for another class's student typed into the address", async () => {
    const other = await studentOutside(teacher.classId);
    const { first_name: firstName, last_name: lastName } = await spec.portal.database.db.selectFrom('students').select(['first_name', 'last_name']).where('id', '=', other).executeTakeFirstOrThrow();
    await signInAs(teacher);

    await page.goto(spec.url(`/attendance?student=${other}`));
    await page.getByRole('alert').getByText(REFUSAL).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Student Attendance Records' }).waitFor();
    expect(await page.getByText(`${firstName} ${lastName}`).count()).toBe(0);

    await page.goto(spec.url(`/term-reports?student=${other}`));
    await page.getByRole('alert').getByText(REFUSAL).waitFor();
    expect(await page.getByRole('list', { name: 'Term reports' }).count()).toBe(0);

    // The registration form (the record as a PDF) answers the refusal as the API's error body.
    const form = await page.goto(spec.url(`/api/registration-form/${other}`));
    expect(form?.status()).toBe(403);
    expect(await form?.json()).toMatchObject({ message: REFUSAL });

    // Their own class's student opens as before.
    const own = DEMO_STUDENTS.registered;
    await page.goto(spec.url(`/attendance?student=${own.student_id}`));
    await page.getByText(`${own.first_name} ${own.last_name}`).first().waitFor();
    expect(await page.getByText(REFUSAL).count()).toBe(0);
  });

  it('at 390 px: the same menu in the drawer and the reading actions in the row menu', async () => {
    page = await spec.open({ width: 390, height: 844 });
    await signInAs(teacher);
    await button('Menu: Dashboard').click();
    await adminMenu().waitFor();
    expect(await menuLabels()).toEqual(MENUS.formTeacher);
    await page.keyboard.press('Escape');
    await adminMenu().waitFor({ state: 'hidden' });

    const first = rows().first();
    await first.getByRole('button', { name: /^Actions for / }).click();
    const items = await page.getByRole('menu').getByRole('menuitem').allInnerTexts();
    expect(items.map((item) => item.trim())).toEqual(['View registration form', 'History', 'Documents', 'Term reports', 'Attendance', 'Enrolment history']);
    await page.keyboard.press('Escape');
    await page.screenshot({ path: screenshotPath('staff-roles-form-teacher-390.png'), fullPage: true });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });
});
