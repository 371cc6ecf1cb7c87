import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { StudentAttendanceSchema } from '../../src/shared/attendance.schemas.js';
import { attendancePercent } from '../../src/shared/attendance.stats.js';
import { UploadedFileListSchema } from '../../src/shared/documents.schemas.js';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * The office's view of one student from the admin student list (points 15 and 19, D46):
 * the Documents dialog with previews, the student's attendance without typing an address and the
 * way back to the list, the row actions' tooltips and names, and every admin table at 390 px with
 * its action column on the screen. Real server, demo school, real Chromium.
 */

const student = DEMO_STUDENTS.registered;
const listName = `${student.last_name}, ${student.first_name}`;

const spec = browserSpec({ width: 1280, height: 1000 });
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

async function openStudentList(width: number): Promise<void> {
  if (width !== 1280) page = await spec.open({ width, height: 844 });
  await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
  await page.getByText(/^Total Number of Students: \d+/).waitFor();
}

const row = (studentId: string) => page.locator(`[role="row"][data-id="${studentId}"]`);

/** A row action by its accessible name: a button in the row, or in the row's menu on a phone. */
async function rowAction(studentId: string, name: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search students' }).fill(studentId);
  await page.getByText('· 1 found').waitFor();
  const inline = row(studentId).getByRole('button', { name, exact: true });
  const menu = row(studentId).getByRole('button', { name: `Actions for ${listName}`, exact: true });
  // The total and the count paint before the grid's code has loaded: wait for the row's actions,
  // in either form, before choosing.
  await inline.or(menu).first().waitFor();
  if (await inline.isVisible()) return inline.click();
  await menu.click();
  await page.getByRole('menu', { name: `Actions for ${listName}` }).getByRole('menuitem', { name, exact: true }).click();
}

/** The page does not scroll sideways; when it does, the elements that stick out are named. */
async function noSidewaysScroll(): Promise<void> {
  const outside = await page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return [];
    return [...document.body.querySelectorAll('*')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .filter((element) => ![...element.children].some((child) => child.getBoundingClientRect().right > window.innerWidth + 0.5))
      .map((element) => `${element.tagName} ${element.className}: right ${Math.round(element.getBoundingClientRect().right)}`);
  });
  expect(outside).toEqual([]);
}

/** Waits until the image has loaded and is drawn with a size (a broken preview has none). */
async function expectImageShown(image: Locator): Promise<void> {
  await image.waitFor();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
}

describe("a student's documents from the list", () => {
  for (const width of [1280, 390]) {
    it(`lists every slot with its file, and previews a picture and a PDF (${width}px)`, async () => {
      await openStudentList(width);
      const files = UploadedFileListSchema.parse(
        await page.evaluate(async (id): Promise<unknown> => (await fetch(`/api/get-files/${id}`)).json(), student.student_id),
      );
      const picture = files.find((file) => file.mime.startsWith('image/'))!;
      const pdf = files.find((file) => file.mime === 'application/pdf')!;
      expect(picture && pdf).toBeTruthy();

      await rowAction(student.student_id, `Documents of ${listName}`);
      const dialog = page.getByRole('dialog', { name: `Documents — ${listName} (${student.student_id})` });
      await dialog.waitFor();
      const list = dialog.getByRole('list', { name: 'Documents' });
      await list.getByText('Birth Certificate').waitFor();
      for (const file of files) await list.getByText(file.name, { exact: true }).waitFor();
      await page.screenshot({ path: screenshotPath(`admin-student-documents-${width}.png`) });
      // The demo's national student has no passport or permit.
      expect(await list.getByText('Not uploaded').count()).toBe(6 - files.length);
      await list.getByText(new RegExp(`uploaded ${picture.uploaded_at.slice(0, 10)}`)).first().waitFor();
      if (width === 390) {
        const box = await dialog.boundingBox();
        expect(box).toMatchObject({ x: 0, y: 0, width: 390 });
      }

      await dialog.getByRole('button', { name: `View Picture: ${picture.name}` }).click();
      const preview = page.getByRole('dialog', { name: `Picture: ${picture.name}` });
      await expectImageShown(preview.getByRole('img', { name: `Picture: ${picture.name}` }));
      await preview.getByRole('button', { name: 'Close' }).last().click();
      await preview.waitFor({ state: 'hidden' });

      const pdfLoaded = page.waitForResponse((response) => response.url().endsWith(pdf.url));
      await dialog.getByRole('button', { name: new RegExp(`^View .*: ${pdf.name}$`) }).click();
      const pdfPreview = page.getByRole('dialog', { name: `: ${pdf.name}` });
      await pdfPreview.waitFor();
      const response = await pdfLoaded;
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('application/pdf');
      await pdfPreview.getByRole('button', { name: 'Close' }).last().click();
      await pdfPreview.waitFor({ state: 'hidden' });
      await noSidewaysScroll();
      await dialog.getByRole('button', { name: 'Close' }).last().click();
      await dialog.waitFor({ state: 'hidden' });
    });
  }
});

describe("a student's attendance from the list", () => {
  for (const width of [1280, 390]) {
    it(`opens the student's attendance with the name and figures, and goes back to the list as it was (${width}px)`, async () => {
      await openStudentList(width);
      await rowAction(student.student_id, `Attendance of ${listName}`);
      await page.waitForURL((address) => address.pathname === '/attendance' && address.searchParams.get('student') === student.student_id);
      await page.getByRole('heading', { level: 1, name: 'Student Attendance Records' }).waitFor();
      const data = StudentAttendanceSchema.parse(
        await page.evaluate(async (id): Promise<unknown> => (await fetch(`/api/student-attendance/${id}`)).json(), student.student_id),
      );
      await page.getByText(`${student.first_name} ${student.last_name}`, { exact: true }).waitFor();
      await page.getByText(student.student_id, { exact: true }).first().waitFor();
      await page.getByRole('img', { name: new RegExp(`^Attendance ${attendancePercent(data.attendance, data.possible_attendance)}%`) }).waitFor();
      await page.getByText(`Sessions present: ${data.attendance}`, { exact: true }).waitFor();
      await page.getByText(`Late: ${data.lates} ${data.lates === 1 ? 'day' : 'days'}`, { exact: true }).waitFor();
      expect(await page.title()).toMatch(new RegExp(`^Student Attendance Records — ${student.first_name} ${student.last_name} \\(${student.student_id}\\) · `));
      await noSidewaysScroll();

      // Back: the list as it was left, with its search.
      await page.getByRole('button', { name: 'Back to students' }).click();
      await page.waitForURL((address) => address.pathname === '/admin/dashboard');
      await row(student.student_id).waitFor();
      expect(await page.getByRole('searchbox', { name: 'Search students' }).inputValue()).toBe(student.student_id);
      await page.getByText('· 1 found').waitFor();
    });
  }

  it('opened from an address, the way back opens the list', async () => {
    await openStudentList(1280);
    await page.goto(spec.url(`/attendance?student=${student.student_id}`));
    await page.getByRole('button', { name: 'Back to students' }).click();
    await page.waitForURL((address) => address.pathname === '/admin/dashboard');
    await page.getByRole('grid', { name: 'Students' }).waitFor();
  });
});

describe('row actions', () => {
  const actions = [
    ['View registration form', `View registration form of ${listName}`],
    ['Edit', `Edit ${listName}`],
    ['History', `History of ${listName}`],
    ['Reset password', `Reset password of ${listName}`],
    ['Documents', `Documents of ${listName}`],
    ['Term reports', `Term reports of ${listName}`],
    ['Attendance', `Attendance of ${listName}`],
    ['Family', `Family of ${listName}`],
    ['Review registration', `Review registration of ${listName}`],
    ['Enrolment history', `Enrolment history of ${listName}`],
  ] as const;

  it('each has a tooltip on hover and a name that names the student (1280px)', async () => {
    await openStudentList(1280);
    await page.getByRole('searchbox', { name: 'Search students' }).fill(student.student_id);
    await page.getByText('· 1 found').waitFor();
    for (const [tooltip, name] of actions) {
      const action = row(student.student_id).getByRole('button', { name, exact: true });
      await action.hover();
      await page.getByRole('tooltip').filter({ hasText: new RegExp(`^${tooltip}$`) }).waitFor();
      await page.mouse.move(0, 0);
      await page.getByRole('tooltip').waitFor({ state: 'detached' });
    }
    const box = await row(student.student_id).getByRole('button', { name: `Attendance of ${listName}` }).boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(1280);
  });

  it('fold into a menu named for the student on a phone, every action in it (390px)', async () => {
    await openStudentList(390);
    await page.getByRole('searchbox', { name: 'Search students' }).fill(student.student_id);
    await page.getByText('· 1 found').waitFor();
    const menuButton = row(student.student_id).getByRole('button', { name: `Actions for ${listName}`, exact: true });
    const box = await menuButton.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await row(student.student_id).getByRole('button', { name: /^more$/i }).count()).toBe(0);
    await menuButton.click();
    const menu = page.getByRole('menu', { name: `Actions for ${listName}` });
    await menu.getByRole('menuitem').last().waitFor();
    await page.screenshot({ path: screenshotPath('admin-row-actions-390.png') });
    expect(await menu.getByRole('menuitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual(actions.map(([, name]) => name));
    expect((await menu.getByRole('menuitem').allInnerTexts()).map((text) => text.trim())).toEqual(actions.map(([label]) => label));
    await menu.getByRole('menuitem', { name: `Edit ${listName}` }).click();
    await page.getByRole('dialog', { name: /Edit Student/ }).waitFor();
  });
});

describe('admin tables at 390px', () => {
  /** Each admin screen with a table, what fills it, and its table's name and action column. */
  const screens: { view: string; table: string; action: string; fill?: () => Promise<void> }[] = [
    { view: 'dashboard', table: 'Students', action: 'Actions' },
    { view: 'postReports', table: 'Term reports', action: 'Edit' },
    { view: 'registrationSettings', table: 'Registration windows', action: 'Actions' },
    { view: 'attendanceSettings', table: 'School holidays', action: 'Remove' },
    {
      view: 'scannerDevices',
      table: 'Scanner devices',
      action: 'Actions',
      fill: async () => {
        await page.locator('input[name="device_name"]').fill('North gate reader, by the car park');
        await page.getByRole('button', { name: 'Add Device' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      },
    },
    {
      view: 'importStudents',
      table: 'Rows of the file',
      action: 'Action',
      fill: async () => {
        const header = 'Student ID,First Name,Last Name,Date of Birth,Birth Certificate Pin,Class\n';
        await page.locator('input[type="file"][name="file"]').setInputFiles({ name: 'check.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}20279011,Zara,,2014-04-04,B27-0000011,1A\n`) });
        await page.getByRole('button', { name: 'Check file' }).click();
      },
    },
    {
      view: 'importTermResults',
      table: 'Rows of the file',
      action: 'Grade',
      fill: async () => {
        await page.getByRole('combobox', { name: 'Academic Year' }).click();
        await page.getByRole('option').first().click();
        const header = 'Student ID,Subject,Coursework,Exam,Comment';
        await page.locator('input[type="file"][name="file"]').setInputFiles({ name: 'check.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}\n${student.student_id},MATH,80,=1+1,Good\n`) });
        await page.getByRole('button', { name: 'Check file' }).click();
      },
    },
    {
      view: 'importAttendance',
      table: 'Problems in the file',
      action: 'Problem',
      fill: async () => {
        await page.locator('input[type="file"]').setInputFiles({ name: 'check.csv', mimeType: 'text/csv', buffer: Buffer.from('student_id,date,time\n19990001,2026-01-05,07:00\n') });
        await page.getByRole('button', { name: 'Check File' }).click();
      },
    },
    { view: 'privacy', table: 'Audit log', action: 'What' },
  ];

  for (const screen of screens) {
    it(`${screen.view}: the ${screen.action} column is on the screen and nothing scrolls sideways`, async () => {
      page = await spec.open({ width: 390, height: 844 });
      await signIn(page, spec.portal, { username: DEMO_ADMIN.username }, `/admin/dashboard${screen.view === 'dashboard' ? '' : `?view=${screen.view}`}`);
      const table = page.getByRole(screen.view === 'dashboard' ? 'grid' : 'table', { name: screen.table });
      if (screen.fill) {
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await screen.fill();
      }
      await table.waitFor();
      const header = table.getByRole('columnheader', { name: screen.action, exact: true });
      await header.waitFor();
      const box = await header.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      // Nor does the table's own box (the grid's scroller inside it, or the container around it).
      const scrolling = await table.evaluate((element) => {
        const boxes: Element[] = [...element.querySelectorAll('*'), element];
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) boxes.push(up);
        return boxes
          .filter((box) => ['auto', 'scroll'].includes(getComputedStyle(box).overflowX) && box.scrollWidth > box.clientWidth + 1)
          .map((box) => `${box.className}: ${box.scrollWidth} > ${box.clientWidth}`);
      });
      expect(scrolling).toEqual([]);
      await noSidewaysScroll();
    });
  }
});
