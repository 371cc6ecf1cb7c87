import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_STAFF } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, screenshotPath, startPortal } from '../support/e2e.js';

/**
 * The staff second factor in a real browser on a portal that requires it: a staff
 * member is sent to set it up, types their password again, reads the secret off the screen, types a real code computed here
 * by the same library the server uses, keeps the recovery codes, signs out, and signs in again
 * with the password and a fresh code (or a recovery code).
 */

const spec = browserSpec(null);
spec.usePortal(() => startPortal({ staff2fa: 'required' }));
const url = spec.url;

/** The code an app shows `stepsAhead` steps from now: the next step's code is fresh after the one just used. */
const codeFor = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

async function signInWithPassword(page: Page, account: { username: string; password: string }): Promise<void> {
  await page.goto(url('/admin'));
  await page.locator('input[name="username"]').fill(account.username);
  await page.locator('input[name="password"]').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Nothing on the page is wider than the window (no sideways scrolling at 390 px). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

/**
 * The enrolment screen: the current password (a wrong one is refused on its field), the QR code,
 * the secret read off the screen, a real code; answers the secret and the recovery codes.
 */
async function enrol(page: Page, width: number, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.waitForURL(url('/admin/two-factor'));
  await page.getByText('This portal asks staff for a code from an authenticator app at every sign-in.').waitFor();
  // Required: the admin area is out of reach until it is set up.
  await page.goto(url('/admin/dashboard'));
  await page.waitForURL(url('/admin/two-factor'));

  const start = page.getByRole('button', { name: 'Set up authenticator app' });
  // Labelled, and filled by a password manager as the account's password.
  const current = page.getByLabel('Current password');
  expect(await current.getAttribute('name')).toBe('current_password');
  expect(await current.getAttribute('autocomplete')).toBe('current-password');
  await start.click();
  await page.getByText('Enter your current password.').waitFor();
  await current.fill(`${password}-wrong`);
  await start.click();
  await page.getByText('Current password is incorrect.').waitFor();
  expect(await current.getAttribute('aria-invalid')).toBe('true');
  await current.fill(password);
  await start.click();
  const qr = page.getByRole('img', { name: /QR code to add .* to your authenticator app/ });
  await qr.waitFor();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const secret = (await page.getByLabel('Secret key').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  if (width < 600) await expectNoSidewaysScroll(page);
  await page.screenshot({ path: screenshotPath(`staff-2fa-enrol-${width}.png`), fullPage: true });

  const code = page.locator('input[name="code"]');
  expect(await code.getAttribute('inputmode')).toBe('numeric');
  expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
  await code.fill('000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('alert').filter({ hasText: /not right|used already/ }).waitFor();
  await code.fill(await codeFor(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();

  const list = page.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((text) => text.trim());
  expect(recoveryCodes).toHaveLength(10);
  expect(await page.getByRole('link', { name: 'Download' }).getAttribute('download')).toBe('recovery-codes.txt');
  if (width < 600) await expectNoSidewaysScroll(page);
  await page.screenshot({ path: screenshotPath(`staff-2fa-recovery-codes-${width}.png`), fullPage: true });
  const proceed = page.getByRole('button', { name: 'Continue' });
  expect(await proceed.isDisabled()).toBe(true);
  await page.getByLabel('I have saved them').check();
  await proceed.click();
  await page.waitForURL(url('/admin/dashboard'));
  return { secret, recoveryCodes };
}

async function signOut(page: Page): Promise<void> {
  await page.goto(url('/logout'));
  await page.waitForURL(url('/'));
}

describe('two-step sign-in for staff', () => {
  it('enrols by QR code and secret, then signs in with the password and a fresh code (1280 px)', async () => {
    const page = await spec.open({ width: 1280, height: 900 });
    await signInWithPassword(page, DEMO_STAFF.office);
    const { secret } = await enrol(page, 1280, DEMO_STAFF.office.password);
    await signOut(page);

    await signInWithPassword(page, DEMO_STAFF.office);
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    const code = page.locator('input[name="code"]');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await code.fill('12');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter the 6-digit code from your authenticator app.' }).waitFor();
    await code.fill(await codeFor(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(url('/admin/dashboard'));
  });

  it('works on a phone, and a recovery code signs in instead of the app (390 px)', async () => {
    const page = await spec.open({ width: 390, height: 844 });
    await signInWithPassword(page, DEMO_STAFF.principal);
    const { recoveryCodes } = await enrol(page, 390, DEMO_STAFF.principal.password);
    await signOut(page);

    await signInWithPassword(page, DEMO_STAFF.principal);
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.locator('input[name="recovery_code"]').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(url('/admin/dashboard'));
  });
});
