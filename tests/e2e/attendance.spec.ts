import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { StudentAttendanceSchema, type StudentAttendance } from '../../src/shared/attendance.schemas.js';
import { attendancePercent } from '../../src/shared/attendance.stats.js';
import { schoolToday } from '../../src/shared/dates.js';
import { hashDeviceKey } from '../../src/server/attendance/scanner-devices.service.js';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { findDemoAttendanceTerm } from '../../src/server/db/demo-data/demo-calendar.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * The attendance screen (docs/requirements.md R10) and the admin's attendance screens in a real browser against
 * the real server and the demo school: charts and table render, the date search narrows the
 * table, the report opens, scans from a gate reach the screen, and it all fits a phone.
 */

const student = DEMO_STUDENTS.registered;
const today = schoolToday();
const term = findDemoAttendanceTerm(today)!;
const lastCounted = today < term.end_date ? today : term.end_date;

const spec = browserSpec();
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

const url = spec.url;
const input = (name: string) => page.locator(`input[name="${name}"]`);
const button = (name: string) => page.getByRole('button', { name, exact: true });

const signInStudent = () => signIn(page, spec.portal, { studentId: student.student_id });

/** The attendance answer as the signed-in page gets it. */
async function attendanceJson(): Promise<StudentAttendance> {
  const json = await page.evaluate(async (id): Promise<unknown> => (await fetch(`/api/student-attendance/${id}`)).json(), student.student_id);
  return StudentAttendanceSchema.parse(json);
}

async function openAttendance(): Promise<void> {
  await page.goto(url('/attendance'));
  await page.getByRole('heading', { level: 1, name: 'Student Attendance Records' }).waitFor();
}

const tableRows = () => page.getByRole('table', { name: 'Attendance records' }).locator('tbody tr');

/** Types a date into an MUI X date field, section by section, as a keyboard user would. */
async function typeDate(label: string, isoDate: string): Promise<void> {
  const field = page.getByRole('group', { name: label });
  await field.getByRole('spinbutton').first().click();
  await page.keyboard.type(isoDate.replaceAll('-', ''));
}

describe('attendance screen', () => {
  it('never loads the charts on the sign-in page', async () => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(url('/'));
    await page.getByRole('heading', { name: 'Student sign in' }).waitFor();
    // The attendance screen's own chunk, which holds Chart.js. (A small shared module such as the
    // attendance words may be merged into a chunk the sign-in page loads and name it: D102.)
    expect(scripts.filter((path) => /chart|attendance-page/i.test(path))).toEqual([]);
  });

  it('shows the student, both doughnuts and the table; search narrows it; the report opens and closes', async () => {
    await signInStudent();
    await openAttendance();
    const data = await attendanceJson();

    for (const text of [`${student.first_name} ${student.last_name}`, student.student_id, '5A', `Term ${term.term}`]) {
      await page.getByText(text, { exact: false }).first().waitFor();
    }
    const percent = attendancePercent(data.attendance, data.possible_attendance);
    const attendanceChart = page.getByRole('img', { name: new RegExp(`^Attendance ${percent}%`) });
    await attendanceChart.waitFor();
    expect(await page.locator('canvas[role="img"]').count()).toBe(2);
    await page.getByRole('img', { name: /^Punctuality \d+%/ }).waitFor();
    await page.getByText(`Sessions present: ${data.attendance}`, { exact: true }).waitFor();
    // Absent split by what accepted absence notes excuse (D93).
    expect(data.absent_excused + data.absent_unexcused).toBe(data.possible_attendance - data.attendance);
    await page.getByText(`Sessions absent (excused): ${data.absent_excused}`, { exact: true }).waitFor();
    await page.getByText(`Sessions absent (unexcused): ${data.absent_unexcused}`, { exact: true }).waitFor();
    await page.getByText(`Late: ${data.lates} ${data.lates === 1 ? 'day' : 'days'}`, { exact: true }).waitFor();
    const chartBox = await page.getByTestId('attendance-chart').locator('canvas').boundingBox();
    expect(chartBox!.width).toBeGreaterThan(50);

    // The table: one row per school day (and any day scanned while closed), newest first, 'Y' in red for a late day.
    const days = new Set([...data.school_days, ...data.attendance_records.map((record) => record.date_scanned)]);
    expect(await tableRows().count()).toBe(days.size);
    expect(await tableRows().first().locator('th').textContent()).toBe([...days].sort().at(-1));
    const late = data.attendance_records.find((record) => record.late === 1);
    if (late) {
      const cell = tableRows().filter({ hasText: late.date_scanned }).locator('td').nth(2);
      expect(await cell.textContent()).toBe('Y');
      expect(await cell.locator('span').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(179, 38, 30)');
    }
    const containerHeight = await page.locator('.MuiTableContainer-root').first().evaluate((el) => el.getBoundingClientRect().height);
    expect(Math.round(containerHeight)).toBe(Math.round(800 * 0.6));

    // Search by date narrows the table.
    const oldest = [...days].sort()[0]!;
    await input('date_search').fill(oldest);
    await expect.poll(() => tableRows().count()).toBe(1);
    expect(await tableRows().first().locator('th').textContent()).toBe(oldest);
    await input('date_search').fill('1999-');
    await page.getByText('No records match this date.').waitFor();
    await input('date_search').fill(oldest.slice(0, 7));
    await expect.poll(() => tableRows().count()).toBe([...days].filter((day) => day.startsWith(oldest.slice(0, 7))).length);

    // Generate Report: a start after the end is refused in the dialog, then the term so far is shown.
    await button('Generate Report').click();
    const dialog = page.getByRole('dialog', { name: 'Generate Report' });
    await dialog.waitFor();
    expect(await input('startDate').inputValue()).toBe(data.start_date);
    expect(await input('endDate').inputValue()).toBe(data.counted_until);
    await typeDate('Start date', data.counted_until!);
    await typeDate('End date', data.start_date!);
    await dialog.getByRole('button', { name: 'Display Report' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The end date cannot be before the start date.' }).waitFor();
    await typeDate('Start date', data.start_date!);
    await typeDate('End date', data.counted_until!);

    const pdfResponse = page.waitForResponse((response) => response.url().includes('/api/student-attendance-report/'));
    await dialog.getByRole('button', { name: 'Display Report' }).click();
    const response = await pdfResponse;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    expect(new URL(response.url()).pathname).toBe(`/api/student-attendance-report/${student.student_id}/${data.start_date}/${data.counted_until}`);
    const viewer = page.getByRole('dialog', { name: 'Attendance Report' });
    await viewer.locator('iframe[title="Attendance report PDF"]').waitFor();
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'hidden' });
  });

  it("shows a gate's scans on the student's screen", async () => {
    // A scanner the administrator made (made here straight in the table; the admin screen is tested below).
    const key = 'gsk_e2e-main-gate-key';
    const now = new Date().toISOString();
    await spec.portal.database.db
      .insertInto('scanner_devices')
      .values({ name: 'E2E gate', key_hash: hashDeviceKey(key), created_at: now, updated_at: now })
      .execute();
    await spec.portal.database.db.deleteFrom('attendance_records').where('student_id', '=', student.student_id).where('date_scanned', '=', lastCounted).execute();
    const response = await fetch(url('/api/attendance/scans'), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      // The afternoon scan arrives first: order does not matter.
      body: JSON.stringify({ scans: [{ student_id: student.student_id, date: lastCounted, time: '16:12:40' }, { card_serial: student.student_id, date: lastCounted, time: '06:58:02' }] }),
    });
    expect(response.status).toBe(200);

    await signInStudent();
    await openAttendance();
    await input('date_search').fill(lastCounted);
    await expect.poll(() => tableRows().count()).toBe(1);
    const row = tableRows().first();
    expect(await row.locator('th').textContent()).toBe(lastCounted);
    expect(await row.getByRole('img', { name: 'Present' }).count()).toBe(2); // AM and PM checks
    expect(await row.locator('td').nth(2).locator('[aria-hidden]').textContent()).toBe('--'); // not late
    expect(await row.locator('td').nth(3).textContent()).toBe('06:58');
    expect(await row.locator('td').nth(4).textContent()).toBe('16:12');
  });

  it('shows a whole-day absence as a row of the table', async () => {
    await signInStudent();
    const absentDay = (await attendanceJson()).school_days.at(-2)!;
    await spec.portal.database.db.deleteFrom('attendance_records').where('student_id', '=', student.student_id).where('date_scanned', '=', absentDay).execute();
    await openAttendance();
    const data = await attendanceJson();
    expect(data.school_days).toContain(absentDay);
    const row = tableRows().filter({ has: page.locator('th', { hasText: absentDay }) });
    expect(await row.count()).toBe(1);
    expect(await row.locator('td').first().textContent()).toBe('Absent all day');
    await input('date_search').fill(absentDay);
    await expect.poll(() => tableRows().count()).toBe(1);
  });

  it('says a term without records was not recorded: no doughnuts of zeros, the class of that term', async () => {
    await signInStudent();
    await openAttendance();
    const data = await attendanceJson();
    const past = data.terms.find((choice) => choice.start_date < data.start_date!)!;
    const pastClass = await spec.portal.database.db
      .selectFrom('term_summaries')
      .innerJoin('form_classes', 'form_classes.id', 'term_summaries.class_id')
      .select(['class_id', 'form_level'])
      .where('student_id', '=', student.student_id)
      .where('year', '=', past.year)
      .where('term', '=', past.term)
      .executeTakeFirstOrThrow();
    await page.getByRole('combobox', { name: 'Term' }).click();
    await page.getByRole('option', { name: new RegExp(`^Term ${past.term} .* ${past.year}-${past.year + 1}$`) }).click();
    await page.getByText('No attendance was recorded for this term.').waitFor();
    expect(await page.locator('canvas').count()).toBe(0);
    expect(await page.getByText(/^Sessions (absent|present): \d+$/).count()).toBe(0);
    expect(await page.getByRole('table', { name: 'Attendance records' }).count()).toBe(0);
    const classCell = page.locator('dt', { hasText: 'Class' }).locator('xpath=following-sibling::dd[1]');
    // Written as the term report list writes a class (docs/requirements.md R9): 'Form 4 4A'.
    expect(await classCell.textContent()).toBe(`Form ${pastClass.form_level} ${pastClass.class_id}`);
    expect(pastClass.class_id).not.toBe('5A');
  });

  for (const width of [1280, 390]) {
    it(`ends where its content ends at ${width}px; on a phone the table is part of the page`, async () => {
      page = await spec.open({ width, height: width > 600 ? 800 : 844 });
      await signInStudent();
      await openAttendance();
      await tableRows().first().waitFor();
      const { scrollHeight, contentBottom } = await page.evaluate(() => {
        const main = document.querySelector('main')!;
        const last = main.lastElementChild!;
        return { scrollHeight: document.documentElement.scrollHeight, contentBottom: last.getBoundingClientRect().bottom + window.scrollY };
      });
      // The page's own bottom padding (32 px) and nothing more.
      expect(scrollHeight - contentBottom).toBeLessThan(64);
      const box = await page.locator('.MuiTableContainer-root').first().evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
      if (width < 600) expect(box.scroll).toBeLessThanOrEqual(box.client + 1); // no box of its own to scroll
      else expect(box.client).toBe(Math.round(800 * 0.6));
    });
  }

  it('fits a 375px phone: no sideways scrolling, charts and table visible, the report opens', async () => {
    page = await spec.open({ width: 375, height: 812 });
    await signInStudent();
    await openAttendance();
    await page.getByRole('img', { name: /^Attendance \d+%/ }).waitFor();
    await tableRows().first().waitFor();
    await page.screenshot({ path: screenshotPath('attendance-375.png'), fullPage: true });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);

    await button('Generate Report').click();
    const pdfResponse = page.waitForResponse((response) => response.url().includes('/api/student-attendance-report/'));
    await page.getByRole('dialog', { name: 'Generate Report' }).getByRole('button', { name: 'Display Report' }).click();
    expect((await pdfResponse).status()).toBe(200);
    const viewer = page.getByRole('dialog', { name: 'Attendance Report' });
    await viewer.getByRole('img', { name: /^Page 1 of \d+$/ }).waitFor();
    await viewer.getByRole('link', { name: 'Download PDF' }).waitFor();
  });

  it('axe finds no serious or critical violation on /attendance', async () => {
    await signInStudent();
    await openAttendance();
    await page.getByRole('img', { name: /^Attendance \d+%/ }).waitFor();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const severe = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
    expect(severe).toEqual([]);
  });
});

describe('admin attendance screens', () => {
  const signInAdmin = () => signIn(page, spec.portal, { username: DEMO_ADMIN.username });
  const menu = (label: string) => page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: label });

  it("asks which student on the attendance and term report screens, refusing a malformed ID", async () => {
    await signInAdmin();
    for (const [path, title, submit] of [
      ['/attendance', 'Student Attendance Records', 'Show attendance'],
      ['/term-reports', 'Select Term Report', 'Show term reports'],
    ] as const) {
      await page.goto(url(path));
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await button(submit).click();
      await page.getByRole('alert').filter({ hasText: 'Student ID is required.' }).waitFor();
      expect(new URL(page.url()).search).toBe('');
      await input('student_id').fill(student.student_id);
      await button(submit).click();
      await page.waitForURL((address) => address.searchParams.get('student') === student.student_id);
      // The route's loader brings the student's data; then the screen replaces the chooser.
      await input('student_id').waitFor({ state: 'detached' });
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
    }
  });

  it('adds a scanner device, shows its key once, and revokes it', async () => {
    await signInAdmin();
    await menu('Scanner Devices').click();
    await page.getByRole('heading', { name: 'Scanner Devices' }).waitFor();
    await button('Add Device').click();
    await page.getByRole('alert').filter({ hasText: 'This field is required.' }).waitFor();
    await input('device_name').fill('Front gate');
    await button('Add Device').click();
    const keyDialog = page.getByRole('dialog', { name: 'Key for Front gate' });
    await keyDialog.waitFor();
    expect(await keyDialog.locator('input[name="device_key"]').inputValue()).toMatch(/^gsk_/);
    await keyDialog.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Front gate' });
    await row.getByText('Active').waitFor();
    await row.getByRole('button', { name: 'Revoke Front gate' }).click();
    await page.getByRole('dialog', { name: 'Revoke Front gate?' }).getByRole('button', { name: 'Revoke' }).click();
    await row.getByText(/^Revoked/).waitFor();
  });

  it('checks an import file, shows its problems, then imports a clean one', async () => {
    await signInAdmin();
    await menu('Import Attendance').click();
    await page.getByRole('heading', { name: 'Import Attendance' }).waitFor();
    const fileInput = page.locator('input[type="file"]');
    await fileInput.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(`student_id,date,time\n19990001,${lastCounted},07:00\n`) });
    await button('Check File').click();
    await page.getByRole('alert').filter({ hasText: '1 problem found in 1 row.' }).waitFor();
    await page.getByRole('cell', { name: 'No student has this ID.' }).waitFor();
    expect(await button('Import').isDisabled()).toBe(true);

    const csv = `student_id,date,time\n${DEMO_STUDENTS.inProgress.student_id},${lastCounted},06:45\n`;
    await fileInput.setInputFiles({ name: 'gate.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await button('Check File').click();
    await page.getByText(/1 scan of 1 student \(.*\) ready to import/).waitFor();
    await button('Import').click();
    await page.getByText(/Imported: \d+ new scans/).waitFor();
  });

  it('sets the bell time and lists the school holidays', async () => {
    await signInAdmin();
    await menu('Attendance Settings').click();
    await page.getByRole('heading', { name: 'Attendance Settings' }).waitFor();
    await expect.poll(() => input('bell_time').inputValue()).toBe('08:00');
    await page.getByRole('cell', { name: 'Republic Day' }).first().waitFor();
    await input('bell_time').fill('07:45');
    await button('Save').click();
    await page.getByText('Bell time set to 07:45').waitFor();
    await input('holiday_date').fill('2027-06-30');
    await input('holiday_name').fill('Sports day');
    await button('Add Holiday').click();
    await page.getByRole('cell', { name: 'Sports day', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Remove 2027-06-30 Sports day' }).click();
    await page.getByRole('cell', { name: 'Sports day', exact: true }).waitFor({ state: 'detached' });
  });
});
