import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, screenshotPath } from '../support/e2e.js';

/**
 * The sign-in screens in a real browser against the real server and the demo school
 * (docs/requirements.md R3: the student and staff sign-in, the forced password change).
 */

const NEW_PASSWORD = 'a-brand-new-password-7';

const spec = browserSpec();
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

const url = spec.url;
const input = (name: string) => page.locator(`input[name="${name}"]`);
const button = (name: string) => page.getByRole('button', { name, exact: true });

/** Paths of the POST calls the page makes from now on. */
function recordPosts(): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
  });
  return posts;
}

async function openLoginPage(): Promise<void> {
  await page.goto(url('/'));
  await page.getByRole('heading', { name: 'Student sign in' }).waitFor();
}

/** New-password mode: a mismatch sends nothing; a match changes it and lands on the dashboard. */
async function chooseNewPassword(): Promise<void> {
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  const posts = recordPosts();
  await input('new_password').fill(NEW_PASSWORD);
  await input('confirm_password').fill(`${NEW_PASSWORD}-typo`);
  await button('Save new password').click();
  await page.getByText('Passwords do not match.').waitFor();
  expect(posts).not.toContain('/api/change-password-student');

  await input('confirm_password').fill(NEW_PASSWORD);
  await button('Save new password').click();
  await page.waitForURL(url('/dashboard'));
  await page.getByText('Password Changed Successfully.').waitFor();
  expect(posts).toContain('/api/change-password-student');
}

async function expectDashboardCards(): Promise<void> {
  await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
  const cards = page.locator('main li');
  expect(await cards.count()).toBe(3);
  for (const [name, path] of [
    ['View Term Reports', '/term-reports'],
    ['Edit/View Registration', '/registration/student-data'],
    ['View Attendance', '/attendance'],
  ] as const) {
    const link = page.getByRole('link', { name: new RegExp(name.replace('/', '\\/')) });
    expect(await link.getAttribute('href')).toBe(path);
  }
}

describe('student login screen', () => {
  it('first login: SEA number and birth date, note the ID, forced change, dashboard, sign out', async () => {
    const student = DEMO_STUDENTS.firstLogin;
    await openLoginPage();
    await page.getByRole('button', { name: /First time here\?/ }).click();
    await page.getByRole('heading', { name: 'First-time sign in' }).waitFor();
    await input('identifier').fill(student.sea_no);
    await input('date_of_birth').click();
    await page.keyboard.type(student.date_of_birth);
    await button('Continue').click();

    const dialog = page.getByRole('dialog', { name: 'Note your Student ID' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(student.student_id);
    await dialog.getByRole('button', { name: 'I have noted it' }).click();

    await chooseNewPassword();
    await expectDashboardCards();

    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL(url('/'), { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Student sign in' }).waitFor();
    // Signed out for real: the dashboard sends a visitor back to the login screen.
    await page.goto(url('/dashboard'));
    await page.waitForURL(url('/'));
  });

  it('password reset: find the ID, the password field asks for the birth date, forced change', async () => {
    const student = DEMO_STUDENTS.passwordReset;
    await openLoginPage();
    await page.getByRole('button', { name: 'Forgot your Student ID?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Find your Student ID' });
    await dialog.locator('input[name="first_name"]').fill(student.first_name);
    await dialog.locator('input[name="last_name"]').fill(student.last_name);
    const birthDate = dialog.locator('input[name="date_of_birth"]');
    await birthDate.click();
    await page.keyboard.type(student.date_of_birth);
    expect(await birthDate.inputValue()).toBe(student.date_of_birth);
    await dialog.getByRole('button', { name: 'Find my ID' }).click();
    await dialog.getByText(student.student_id).waitFor();
    await dialog.getByRole('button', { name: 'Use this ID' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await input('student_id').inputValue()).toBe(student.student_id);

    // The server says the account was reset: the form now asks for the birth date.
    await expect.poll(() => input('password').getAttribute('placeholder')).toBe('Enter date of birth');

    await input('password').fill(student.date_of_birth.replaceAll('-', ''));
    await button('Sign in').click();
    await chooseNewPassword();
    await expectDashboardCards();
  });

  it('a wrong password shows the red alert and stays on the login screen', async () => {
    const student = DEMO_STUDENTS.registered;
    await openLoginPage();
    await input('student_id').fill(student.student_id);
    await input('password').fill('not-the-password');
    await button('Sign in').click();
    const alert = page.getByRole('alert').filter({ hasText: 'Student ID or password is incorrect.' });
    await alert.waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('fits a 375px phone screen without sideways scrolling', async () => {
    page = await spec.open({ width: 375, height: 812 });
    await openLoginPage();
    await page.screenshot({ path: screenshotPath('login-375.png'), fullPage: true });

    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    const form = await page.getByRole('form', { name: 'Student sign in' }).boundingBox();
    expect(form).not.toBeNull();
    expect(form!.x).toBeGreaterThanOrEqual(0);
    expect(form!.x + form!.width).toBeLessThanOrEqual(375);
  });
});

describe('admin login screen', () => {
  it('signs in to the admin area', async () => {
    await page.goto(url('/admin'));
    await page.getByRole('heading', { name: 'Administrator sign in' }).waitFor();
    await input('username').fill(DEMO_ADMIN.username);
    await input('password').fill(DEMO_ADMIN.password);
    await button('Sign in').click();
    await page.waitForURL(url('/admin/dashboard'));
    await page.getByRole('navigation', { name: 'Admin menu' }).waitFor();
  });
});

describe('"Keep me signed in on this device"', () => {
  const sessionCookie = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'portal_session');
  const keepSignedIn = () => page.getByRole('checkbox', { name: 'Keep me signed in on this device' });

  it('unticked by default on a 390px phone: the session cookie ends with the browser (expires -1)', async () => {
    page = await spec.open({ width: 390, height: 844 });
    const student = DEMO_STUDENTS.registered;
    await openLoginPage();
    expect(await keepSignedIn().isChecked()).toBe(false);
    const box = await keepSignedIn().boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await input('student_id').fill(student.student_id);
    await input('password').fill(student.password);
    await button('Sign in').click();
    await page.waitForURL(url('/dashboard'));
    expect((await sessionCookie())?.expires).toBe(-1);
  });

  it('ticked: the cookie lasts the session lifetime (student, then the administrator)', async () => {
    const student = DEMO_STUDENTS.registered;
    await openLoginPage();
    await input('student_id').fill(student.student_id);
    await input('password').fill(student.password);
    await keepSignedIn().check();
    await button('Sign in').click();
    await page.waitForURL(url('/dashboard'));
    const inAnHour = Date.now() / 1000 + 3600;
    expect((await sessionCookie())?.expires).toBeGreaterThan(inAnHour);

    await page.context().clearCookies();
    await page.goto(url('/admin'));
    await page.getByRole('heading', { name: 'Administrator sign in' }).waitFor();
    expect(await keepSignedIn().isChecked()).toBe(false);
    await input('username').fill(DEMO_ADMIN.username);
    await input('password').fill(DEMO_ADMIN.password);
    await keepSignedIn().check();
    await button('Sign in').click();
    await page.waitForURL(url('/admin/dashboard'));
    expect((await sessionCookie())?.expires).toBeGreaterThan(inAnHour);
  });

  it('the first-time sign in offers it too, unticked', async () => {
    await openLoginPage();
    await page.getByRole('button', { name: /First time here\?/ }).click();
    await page.getByRole('heading', { name: 'First-time sign in' }).waitFor();
    expect(await keepSignedIn().isChecked()).toBe(false);
  });
});

describe('accessibility', () => {
  it.each(['/', '/admin'])('axe finds no serious or critical violation on %s', async (path) => {
    await page.goto(url(path));
    await page.getByRole('heading', { level: 1 }).waitFor();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const severe = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
    expect(severe).toEqual([]);
  });
});
