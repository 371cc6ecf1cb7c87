import { generateSecret } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN, demoTeacherUsername } from '../../src/server/db/demo-data/demo-accounts.js';
import { STAFF_PASSWORD_TOO_COMMON, STAFF_PASSWORD_TOO_SHORT } from '../../src/shared/staff.schemas.js';
import { serverSecret } from '../../src/server/http/server-secret.repository.js';
import { sealTotpSecret, totpSealingKey } from '../../src/server/staff-2fa/totp-secret.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * Staff accounts in a real browser against the real server and the demo school: the
 * administrator adds a form teacher and sees the one-time password once; the teacher signs in
 * with it, must choose a password of 12+ characters that is not a common one, then works in the
 * admin area; an account is disabled from a phone, and another's two-step sign-in reset from one.
 */

const spec = browserSpec(null);
spec.usePortal();
let page: Page;

const button = (name: string) => page.getByRole('button', { name, exact: true });
const input = (name: string) => page.locator(`input[name="${name}"]`);

async function openStaffAccounts(width: number): Promise<void> {
  page = await spec.open({ width, height: 900 });
  await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
  await page.goto(spec.url('/admin/dashboard?view=staffAccounts'));
  await page.getByRole('heading', { level: 1, name: 'Staff Accounts' }).waitFor();
  await page.getByRole('table', { name: 'Staff accounts' }).getByRole('row').nth(3).waitFor();
}

describe('staff accounts', () => {
  it('the administrator adds a form teacher, who signs in with the one-time password and must choose their own (1280px)', async () => {
    await openStaffAccounts(1280);
    await button('Add staff').click();
    const dialog = page.getByRole('dialog', { name: 'Add staff' });
    await dialog.waitFor();
    // Nothing sent until the shared rules pass: a form teacher needs a class.
    await input('username').fill('s.baptiste');
    await input('name').fill('Simone Baptiste');
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Form teacher' }).click();
    await dialog.getByRole('button', { name: 'Add staff' }).click();
    await dialog.getByText('Choose at least one class for a form teacher.').waitFor();
    await dialog.getByRole('combobox', { name: 'Classes' }).click();
    await page.getByRole('option', { name: 'Form 3 3A' }).click();
    await page.getByRole('option', { name: 'Form 3 3B' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Add staff' }).click();

    const shown = page.getByRole('dialog', { name: 'One-time password for Simone Baptiste' });
    await shown.waitFor();
    const oneTimePassword = await shown.locator('input[name="one_time_password"]').inputValue();
    expect(oneTimePassword).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    await shown.getByRole('button', { name: 'Copy password' }).waitFor();
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 's.baptiste' });
    await row.getByText('New password due').filter({ visible: true }).waitFor();
    await row.getByRole('cell', { name: 'Form 3 3A, Form 3 3B' }).waitFor();

    // The teacher, on a browser of their own.
    page = await spec.open({ width: 1280, height: 900 });
    await page.goto(spec.url('/admin'));
    await input('username').fill('s.baptiste');
    await input('password').fill(oneTimePassword);
    await button('Sign in').click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // Anywhere else in the admin area brings them back here first.
    await page.goto(spec.url('/admin/dashboard'));
    await page.waitForURL(spec.url('/admin'));
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();

    await input('current_password').fill(oneTimePassword);
    await input('new_password').fill('short-pw');
    await input('confirm_password').fill('short-pw');
    await button('Save new password').click();
    await page.getByText(STAFF_PASSWORD_TOO_SHORT).waitFor();
    await input('new_password').fill('password1234');
    await input('confirm_password').fill('password1234');
    await button('Save new password').click();
    await page.getByText(STAFF_PASSWORD_TOO_COMMON).waitFor();
    await input('new_password').fill('Simone-marks-3A-2026');
    await input('confirm_password').fill('Simone-marks-3A-2026');
    await button('Save new password').click();
    await page.waitForURL(spec.url('/admin/dashboard'));
    await page.getByText('Password Changed Successfully.').waitFor();
    // A form teacher's admin area: their students, no staff screen.
    const menu = page.getByRole('navigation', { name: 'Admin menu' });
    await menu.getByRole('button', { name: 'Dashboard' }).waitFor();
    expect(await menu.getByRole('button', { name: 'Staff Accounts' }).count()).toBe(0);
    await page.getByText(/^Total Number of Students: \d+/).waitFor();
  });

  it('disables a teacher from a phone, asking first, without sideways scrolling (390px)', async () => {
    const username = demoTeacherUsername('1A');
    const teacher = await spec.portal.database.db.selectFrom('users').select(['id', 'display_name']).where('username', '=', username).executeTakeFirstOrThrow();
    const name = teacher.display_name!;
    await openStaffAccounts(390);
    const actions = page.getByRole('button', { name: `Actions for ${name}` });
    const box = await actions.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await actions.click();
    await page.getByRole('menu', { name: `Actions for ${name}` }).getByRole('menuitem', { name: 'Disable' }).click();
    const confirm = page.getByRole('dialog', { name: `Disable ${name}?` });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Disable' }).click();
    await page.getByText(`${name} disabled.`).waitFor();
    // On a phone the status sits under the name (the Status column is the desktop's).
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('Disabled', { exact: true }).filter({ visible: true }).waitFor();
    await page.screenshot({ path: screenshotPath('staff-accounts-390.png') });
    const stored = await spec.portal.database.db.selectFrom('users').select('disabled').where('id', '=', teacher.id).executeTakeFirstOrThrow();
    expect(stored.disabled).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("resets another teacher's two-step sign-in from a phone, asking first; the owner is mailed (390px)", async () => {
    const { db } = spec.portal.database;
    const username = demoTeacherUsername('2A');
    const teacher = await db.selectFrom('users').select(['id', 'display_name']).where('username', '=', username).executeTakeFirstOrThrow();
    const name = teacher.display_name!;
    const email = 'teacher.2a@school.example';
    // Their factor is on (written as the server would) and they have an address for the notice.
    const sealed = sealTotpSecret(totpSealingKey(await serverSecret(db)()), teacher.id, generateSecret());
    await db.updateTable('users').set({ email, totp_secret: sealed, totp_enabled_at: new Date().toISOString() }).where('id', '=', teacher.id).execute();

    await openStaffAccounts(390);
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menu', { name: `Actions for ${name}` }).getByRole('menuitem', { name: 'Reset two-step sign-in' }).click();
    const confirm = page.getByRole('dialog', { name: `Reset two-step sign-in of ${name}?` });
    await confirm.waitFor();
    await confirm.getByText(`They are told by e-mail at ${email}.`).waitFor();
    const box = await confirm.getByRole('button', { name: 'Reset two-step sign-in' }).boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('staff-accounts-reset-2fa-390.png'), animations: 'disabled' });
    await confirm.getByRole('button', { name: 'Reset two-step sign-in' }).click();
    await page.getByText(`${name}'s two-step sign-in was reset. They were told at ${email}.`).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const stored = await db.selectFrom('users').select(['totp_secret', 'totp_enabled_at']).where('id', '=', teacher.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ totp_secret: null, totp_enabled_at: null });
    const mail = await db.selectFrom('outbox').select('template').where('to_address', '=', email).execute();
    expect(mail).toEqual([{ template: 'staff-second-factor-reset' }]);
    // Nothing left to reset: the menu says so.
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    const item = page.getByRole('menu', { name: `Actions for ${name}` }).getByRole('menuitem', { name: /Reset two-step sign-in/ });
    expect(await item.getAttribute('aria-disabled')).toBe('true');
  });
});
