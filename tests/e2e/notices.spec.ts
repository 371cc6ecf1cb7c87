import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { notifyFamily } from '../../src/server/notices/notices.service.js';
import { schoolToday } from '../../src/shared/dates.js';
import { addDays } from '../../src/shared/school-days.js';
import { browserSpec, screenshotPath, signIn, useMailedPortal } from '../support/e2e.js';

/**
 * Messages to families in Chromium against the real server, whose mail sender delivers
 * to a real SMTP server started here: a parent at 390 px opens the notices list and turns off the
 * attendance digest; the office at 1280 px previews and sends the deadline reminders and sets the
 * digest time.
 */

const spec = browserSpec(null);
const inbox = useMailedPortal(spec);

let page: Page;

async function expectNoSidewaysScroll(width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe('messages to families', () => {
  it('a parent opens the notices list and turns off the attendance digest (390px)', async () => {
    const db = spec.portal.database.db;
    await db.transaction().execute((trx) =>
      notifyFamily(trx, { studentId: DEMO_STUDENTS.inProgress.student_id, kind: 'registration-returned', data: { note: 'The home address is missing its town.', steps: ['Student Data'] } }),
    );

    page = await spec.open({ width: 390, height: 844 });
    await signIn(page, spec.portal, { email: DEMO_FAMILY.email });

    await page.getByRole('link', { name: 'Notices' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notices' }).waitFor();
    const list = page.getByRole('list', { name: 'Messages from the school' });
    const item = list.getByRole('listitem').first();
    await item.getByText('New', { exact: true }).waitFor();
    await item.getByText(/The home address is missing its town\./).waitFor();
    await item.getByText('Steps to fix: Student Data.').waitFor();
    await expectNoSidewaysScroll(390);

    await item.getByRole('button', { name: 'Mark as read' }).click();
    await expect.poll(() => item.getByText('New', { exact: true }).count()).toBe(0);

    const digest = page.getByRole('switch', { name: "The day's absences and lates (attendance digest)" });
    expect(await digest.isChecked()).toBe(true);
    await digest.focus();
    await page.keyboard.press('Space');
    await page.getByText("The day's absences and lates (attendance digest): turned off").waitFor();
    expect(await digest.isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'Reminders before the registration deadline' }).isChecked()).toBe(true);
    const stored = await db.selectFrom('notice_preferences').select(['kind', 'enabled']).execute();
    expect(stored).toEqual([{ kind: 'attendance-digest', enabled: 0 }]);
    await page.screenshot({ path: screenshotPath('notices-390.png') });
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
  });

  it('the office previews and sends the deadline reminders and sets the digest time (1280px)', async () => {
    const db = spec.portal.database.db;
    const deadline = addDays(schoolToday(), 3);
    await db.updateTable('registration_periods').set({ open: 1, deadline }).execute();

    page = await spec.open({ width: 1280, height: 900 });
    await signIn(page, spec.portal, { username: DEMO_STAFF.office.username });
    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Family Messages' }).click();
    await page.getByRole('heading', { level: 1, name: 'Family Messages' }).waitFor();

    // The preview names the demo family, whose child's registration is in progress.
    const table = page.getByRole('table', { name: 'Families to be reminded' });
    const row = table.getByRole('row').filter({ hasText: DEMO_FAMILY.email });
    await row.waitFor();
    await row.getByText(deadline).waitFor();
    const families = (await table.getByRole('row').count()) - 1;
    await page.getByRole('button', { name: 'Send reminders' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send the reminders?' });
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText(families === 1 ? 'Reminder sent to 1 family' : `Reminders sent to ${families} families`).waitFor();
    await page.getByText(/^No family would be reminded now \(records not submitted, deadline within 7 days\)\./).waitFor();
    const reminders = () => inbox().messages.filter((mail) => mail.recipients.includes(DEMO_FAMILY.email) && mail.subject.startsWith(`Registration closes on ${deadline}`));
    await expect.poll(() => reminders().length, { timeout: 15_000 }).toBe(1);

    // The digest time.
    const time = page.locator('input[name="digest_time"]');
    await time.fill('09:30');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/Attendance digest at 09:30/).waitFor();
    const stored = await db.selectFrom('settings').select('value').where('key', '=', 'notices_digest_time').executeTakeFirst();
    expect(stored?.value).toBe('09:30');
    await page.screenshot({ path: screenshotPath('family-messages-1280.png') });
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
  });
});
