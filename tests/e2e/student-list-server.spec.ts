import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { AdminStudentListSchema, matchesStudentFilter, type AdminStudent, type StudentListFilter } from '../../src/shared/students.schemas.js';
import { browserSpec, startPortal, signIn } from '../support/e2e.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';

/**
 * The admin student list in server mode (D64): the threshold is lowered to 100, so the
 * demo school's 640 students are past it and the grid asks the server for each page, sort, search
 * and filter. At 1280 px: search, sort, page and filter by class, checked against what the whole
 * list and the shared search say; at 390 px the list is usable (the line, the rows, the search,
 * the pager) without sideways scrolling. SQLite; the route runs on both engines in the server suites.
 */

const spec = browserSpec({ width: 1280, height: 1000 });
spec.usePortal(() => startPortal({ studentListServerModeAbove: 100 }));
let page: Page;
/** Every /api/students call the page made, as path and query. */
let listCalls: string[];
beforeEach(() => {
  page = spec.page;
});

async function openList(): Promise<void> {
  listCalls = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/students' && request.method() === 'GET') listCalls.push(url.search);
  });
  await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
  await page.goto(spec.url('/admin/dashboard?view=dashboard'));
  await page.getByText('Total Number of Students: 640').waitFor();
}

/** The whole list as the server has it (the small school's answer), read in the signed-in page. */
async function wholeList(): Promise<AdminStudent[]> {
  return AdminStudentListSchema.parse(await page.evaluate(() => fetch('/api/students', { credentials: 'include' }).then((response) => response.json())));
}

const rowIds = () => page.locator('[role="row"][data-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id') ?? ''));
const firstRowId = () => rowIds().then((ids) => ids[0]);
const expected = (students: AdminStudent[], filter: StudentListFilter) => students.filter((student) => matchesStudentFilter(student, filter));

describe('the student list past the threshold', () => {
  it('searches, sorts, pages and filters by class on the server (1280px)', async () => {
    await openList();
    // Server mode: every call the list made asked for a page; the whole list was never loaded.
    expect(listCalls.length).toBeGreaterThan(0);
    for (const call of listCalls) expect(call).toMatch(/[?&]page=0\b/);
    const students = await wholeList();
    await expect.poll(firstRowId).toBe(students[0]!.id);
    const callsBefore = listCalls.length;

    // Search: a name fragment, as the shared search finds it.
    const sample = students.find((student) => student.class_id === '3C' && student.last_name)!;
    const needle = sample.last_name!.slice(0, 4).toLowerCase();
    const matching = expected(students, { search: needle });
    expect(matching.length).toBeGreaterThan(0);
    await page.getByRole('searchbox', { name: 'Search students' }).fill(needle);
    await page.getByText(`Total Number of Students: 640 · ${matching.length} found`).waitFor();
    await expect.poll(async () => (await rowIds()).every((id) => matching.some((student) => student.id === id))).toBe(true);
    expect(listCalls.slice(callsBefore).some((call) => call.includes(`search=${needle}`))).toBe(true);
    await page.getByRole('searchbox', { name: 'Search students' }).fill('');
    await page.getByText(/Total Number of Students: 640$/).waitFor();

    // Sort by ID, ascending then descending.
    const byId = students.map((student) => student.id).sort();
    const idHeader = page.locator('[role="columnheader"][data-field="id"]');
    await idHeader.click();
    await expect.poll(firstRowId).toBe(byId[0]);
    await idHeader.click();
    await expect.poll(firstRowId).toBe(byId.at(-1));
    expect(listCalls.some((call) => call.includes('sort=id') && call.includes('direction=desc'))).toBe(true);

    // The next page holds the next 25 in that order.
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect.poll(firstRowId).toBe(byId.at(-26));
    await page.getByText(/26–50 of 640/).waitFor();

    // Filter by class: back to the first page, 32 found, each row of that class.
    await page.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: '2B', exact: true }).click();
    await page.getByText('Total Number of Students: 640 · 32 found').waitFor();
    await page.getByText(/1–25 of 32/).waitFor();
    const inClass = new Set(expected(students, { class_id: '2B' }).map((student) => student.id));
    await expect.poll(async () => (await rowIds()).length > 0 && (await rowIds()).every((id) => inClass.has(id))).toBe(true);
    expect(listCalls.at(-1)).toContain('class_id=2B');
  });

  it('is usable on a phone (390px): the line, the rows, the search and the pager, no sideways scrolling', async () => {
    page = await spec.open({ width: 390, height: 844 });
    await openList();
    const students = await wholeList();
    await expect.poll(firstRowId).toBe(students[0]!.id);
    const sample = students[40]!;
    await page.getByRole('searchbox', { name: 'Search students' }).fill(sample.id);
    await page.getByText('Total Number of Students: 640 · 1 found').waitFor();
    await expect.poll(rowIds).toEqual([sample.id]);
    await page.getByRole('searchbox', { name: 'Search students' }).fill('');
    await expect.poll(firstRowId).toBe(students[0]!.id);
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect.poll(firstRowId).toBe(students[25]!.id);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });
});
