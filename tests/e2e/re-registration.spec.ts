import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * Re-registration in Chromium (D62): the administrator opens the year's
 * re-registration from Registration Settings; the demo parent, at 390 px, confirms Health Data
 * with "Nothing changed" and corrects the emergency contact on Family Data; the office, at
 * 1280 px, opens the child's Review registration from the student list and reads the changed field
 * with its old and new value and the step confirmed unchanged.
 */

const spec = browserSpec(null);
spec.usePortal();
const url = spec.url;
const child = DEMO_STUDENTS.registered;
const listName = `${child.last_name}, ${child.first_name}`;
const db = () => spec.portal.database.db;
const NEW_CONTACT = 'Ravi Mohammed';

const noSidewaysScroll = async (page: Page) => {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
};

async function signInParent(): Promise<Page> {
  const page = await spec.open({ width: 390, height: 844 });
  await signIn(page, spec.portal, { email: DEMO_FAMILY.email });
  return page;
}

const stepOf = (page: Page, step: string) => page.getByTestId(`re-registration-step-${step}`);

describe('re-registration', () => {
  it('the administrator opens it, the family confirms one step unchanged and changes another at 390 px, the office sees both at 1280 px', async () => {
    const before = await db().selectFrom('students').select('emergency_contact').where('id', '=', child.student_id).executeTakeFirstOrThrow();
    expect(before.emergency_contact).not.toBe(NEW_CONTACT);

    // The administrator opens the year's re-registration on the demo school, without a rollover.
    let page = await spec.open({ width: 1280, height: 900 });
    await signIn(page, spec.portal, { username: DEMO_ADMIN.username }, '/admin/dashboard?view=registrationSettings');
    await page.getByRole('heading', { level: 2, name: 'Re-registration' }).waitFor();
    await expect.poll(() => page.getByLabel('Academic year starting').inputValue()).toBe('2026');
    await page.getByRole('button', { name: 'Open re-registration' }).click();
    await page.getByRole('dialog', { name: 'Open re-registration for 2026-2027?' }).getByRole('button', { name: 'Open re-registration' }).click();
    await page.getByText(/Re-registration for 2026-2027 is open: \d+ returning students/).waitFor();
    await page.getByTestId('re-registration-year-2026').getByText(/^0 of \d+ students$/).waitFor();
    expect(await db().selectFrom('re_registration_steps').select('step').where('student_id', '=', child.student_id).execute()).toHaveLength(5);

    // The parent, on a phone: Health Data is right as it is.
    page = await signInParent();
    await page.goto(url(`/registration/health-data?student=${child.student_id}`));
    const notice = page.getByTestId('re-registration');
    await notice.getByText('Re-registration for 2026-2027').waitFor();
    await notice.getByText('5 steps still need confirming.').waitFor();
    expect(await stepOf(page, 'health').getAttribute('data-confirmed')).toBe('0');
    await noSidewaysScroll(page);
    await page.screenshot({ path: screenshotPath('re-registration-family-390.png'), fullPage: true });
    await notice.getByRole('button', { name: 'Nothing changed' }).click();
    await page.getByText('Health Data: confirmed, nothing changed.').waitFor();
    await expect.poll(() => stepOf(page, 'health').getAttribute('data-confirmed')).toBe('1');
    await notice.getByTestId('re-registration-current').getByText('Health Data is confirmed, nothing changed.').waitFor();

    // Family Data: the emergency contact changed; saving it confirms the step.
    await page.goto(url(`/registration/family-data?student=${child.student_id}`));
    await notice.getByText('4 steps still need confirming.').waitFor();
    const contact = page.locator('input[name="emergency_contact"]');
    await contact.fill(NEW_CONTACT);
    await contact.blur();
    await expect.poll(async () => (await db().selectFrom('students').select('emergency_contact').where('id', '=', child.student_id).executeTakeFirstOrThrow()).emergency_contact).toBe(NEW_CONTACT);
    await expect.poll(() => stepOf(page, 'family').getAttribute('data-confirmed')).toBe('1');
    await notice.getByText('3 steps still need confirming.').waitFor();
    await noSidewaysScroll(page);
    await page.screenshot({ path: screenshotPath('re-registration-family-changed-390.png'), fullPage: true });

    // The office, at 1280 px, opens Review registration from the student list.
    page = await spec.open({ width: 1280, height: 900 });
    await signIn(page, spec.portal, { username: DEMO_STAFF.office.username });
    await page.getByRole('searchbox', { name: 'Search students' }).fill(child.student_id);
    await page.getByText('· 1 found').waitFor();
    await page.locator(`[role="row"][data-id="${child.student_id}"]`).getByRole('button', { name: `Review registration of ${listName}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Review registration — ${listName}` });
    const changes = dialog.getByTestId('re-registration-changes');
    await changes.getByText('Re-registration 2026-2027').waitFor();
    await changes
      .getByTestId('re-registration-change-emergency_contact')
      .getByText(`Emergency Contact (Family Data): ${before.emergency_contact ?? '(empty)'} → ${NEW_CONTACT}`)
      .waitFor();
    await changes.getByTestId('re-registration-change-emergency_contact').getByText(`${DEMO_FAMILY.email} (family)`, { exact: false }).waitFor();
    await changes.getByTestId('re-registration-office-step-health').getByText('Health Data: confirmed, nothing changed').waitFor();
    await changes.getByTestId('re-registration-office-step-family').getByText('Family Data: confirmed with changes').waitFor();
    await changes.getByTestId('re-registration-office-step-student').getByText('Student Data: to confirm').waitFor();
    await changes.getByText('3 of 5 steps still to confirm.').waitFor();
    await page.screenshot({ path: screenshotPath('re-registration-office-1280.png'), fullPage: true });
  }, 240_000);
});
