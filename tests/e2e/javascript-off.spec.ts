import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, signIn } from '../support/e2e.js';

/**
 * The first screen of a visit arrives rendered (docs/decisions.md D99): with JavaScript off, each
 * screen the server renders shows its content; with JavaScript on, the same page hydrates and
 * works, and what a person typed before the code arrived is taken as typed.
 */

const spec = browserSpec({ width: 390, height: 844 });
spec.usePortal();

/** Turns the page's scripts off or on (Chromium's own switch), for the next load. */
async function scripts(page: Page, on: boolean): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setScriptExecutionDisabled', { value: !on });
  await cdp.detach();
}

/** The first screens the server renders, with what each shows first. */
const SIGN_IN_SCREENS = [
  { path: '/', heading: 'Student sign in' },
  { path: '/admin', heading: /^(Staff|Administrator) sign in$/ },
  { path: '/family/sign-in', heading: 'Parent or guardian sign in' },
];
const STUDENT_SCREENS = [
  { path: '/dashboard', heading: `Welcome, ${DEMO_STUDENTS.inProgress.first_name} ${DEMO_STUDENTS.inProgress.last_name}` },
  { path: '/registration/student-data', heading: 'Student Data' },
  { path: '/registration/family-data', heading: 'Family Data' },
  { path: '/registration/health-data', heading: 'Health Data' },
  { path: '/registration/other-data', heading: 'Other Data' },
];

describe('with JavaScript off', () => {
  it('the sign-in pages show their forms, and with it on the student signs in from the same page', async () => {
    const page = spec.page;
    await scripts(page, false);
    for (const screen of SIGN_IN_SCREENS) {
      // As it arrives: the page never hydrates with its scripts off.
      await page.goto(spec.url(screen.path), { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { level: 1, name: screen.heading }).waitFor();
    }
    await page.goto(spec.url('/'), { waitUntil: 'domcontentloaded' });
    expect(await page.locator('input[name="student_id"]').count()).toBe(1);

    await scripts(page, true);
    await page.goto(spec.url('/'));
    const { registered } = DEMO_STUDENTS;
    await page.locator('input[name="student_id"]').fill(registered.student_id);
    await page.locator('input[name="password"]').fill(registered.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((address) => address.pathname === '/dashboard');
  });

  it("a student's dashboard and registration steps show their content, with the student's own values", async () => {
    const page = spec.page;
    const { inProgress } = DEMO_STUDENTS;
    await signIn(page, spec.portal, { studentId: inProgress.student_id });
    await scripts(page, false);
    for (const screen of STUDENT_SCREENS) {
      await page.goto(spec.url(screen.path), { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { level: 1, name: screen.heading }).waitFor();
    }
    await page.goto(spec.url('/registration/student-data'), { waitUntil: 'domcontentloaded' });
    expect(await page.locator('[data-field="first_name"] input').inputValue()).toBe(inProgress.first_name);
    // Each section is a part hydrated on its own (D104), and still in its place in the page: not
    // moved to a hidden part at the end for a script to put back.
    for (const field of ['first_name', 'phone_home', 'place_of_birth']) expect(await page.locator(`[data-field="${field}"]`).isVisible()).toBe(true);
    // A phone has the phone's navigation from the server already (D103): the bottom bar, not the side menu.
    const stepsNavigation = page.getByRole('navigation', { name: 'Registration steps' });
    expect(await stepsNavigation.count()).toBe(1);
    expect(await stepsNavigation.locator('.MuiBottomNavigation-root').count()).toBe(1);
    // The Complete step: on a phone the registration form is a page of its content, the student's own.
    await page.goto(spec.url('/registration/complete'), { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { level: 1, name: 'Terms and Conditions of Registration' }).waitFor();
    const form = page.getByRole('region', { name: 'Registration Form', exact: true });
    await form.getByText(inProgress.last_name).first().waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
  });

  it("the office's first screen has the wide screen's side menu from the server at 1280 px", async () => {
    await signIn(spec.page, spec.portal, { username: 'admin' });
    // A context of its own with Playwright's switch: the page is the server's HTML, nothing more.
    const off = await spec.page.context().browser()!.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    try {
      await off.addCookies(await spec.page.context().cookies());
      const page = await off.newPage();
      await page.goto(spec.url('/admin/dashboard'), { waitUntil: 'domcontentloaded' });
      // The menu beside the list, not the phone's Menu button (D103): nothing moves once the code runs.
      await page.getByRole('button', { name: 'Export Data' }).waitFor();
      expect(await page.getByRole('button', { name: /^Menu: / }).count()).toBe(0);
    } finally {
      await off.close();
    }
  });
});

describe('typed before the code arrived', () => {
  it('is kept and saved once the page hydrates, in a field left and in the field still being typed in', async () => {
    const page = spec.page;
    const { inProgress } = DEMO_STUDENTS;
    await signIn(page, spec.portal, { studentId: inProgress.student_id });
    // The client's code is held back until the student has typed.
    const held: Route[] = [];
    let released = false;
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      if (released) await route.continue();
      else held.push(route);
    });
    // Module scripts run before DOMContentLoaded: the page is used as soon as it has arrived.
    await page.goto(spec.url('/registration/student-data'), { waitUntil: 'commit' });
    const middle = page.locator('[data-field="middle_name"] input');
    const place = page.locator('[data-field="place_of_birth"] input');
    await middle.waitFor();
    await middle.fill('Typed Early');
    await place.click();
    await place.fill('Arima Early');
    released = true;
    for (const route of held) await route.continue();

    // The field left is saved as it would have been; the one still focused when the page woke is saved when left.
    const stored = (name: 'middle_name' | 'place_of_birth') =>
      spec.portal.database.db.selectFrom('students').select(name).where('id', '=', inProgress.student_id).executeTakeFirstOrThrow();
    await expect.poll(async () => (await stored('middle_name')).middle_name, { timeout: 30_000 }).toBe('Typed Early');
    expect(await place.inputValue()).toBe('Arima Early');
    await place.press('Tab');
    await expect.poll(async () => (await stored('place_of_birth')).place_of_birth, { timeout: 30_000 }).toBe('Arima Early');
  });
});

describe('while the page hydrates', () => {
  it("the office's list keeps the bulk bar the server rendered: nothing above the grid goes and comes back (1280 px)", async () => {
    await signIn(spec.page, spec.portal, { username: 'admin' });
    const page = await spec.page.context().newPage();
    try {
      await page.setViewportSize({ width: 1280, height: 900 });
      // Records every node taken out of the page that held the bar (a part React gave up hydrating).
      await page.addInitScript(() => {
        const removed: string[] = [];
        Object.assign(window, { removedBars: removed });
        new MutationObserver((records) => {
          for (const record of records) for (const node of record.removedNodes) if (node.textContent?.includes('Tick rows to act on them')) removed.push(node.nodeName);
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(spec.url('/admin/dashboard'));
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await page.getByText(/^Total Number of Students: \d+/).waitFor();
      await page.getByRole('grid').waitFor();
      expect(await page.evaluate(() => (window as unknown as { removedBars: string[] }).removedBars)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
