import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { browserSpec, screenshotPath, useMailedPortal, signIn } from '../support/e2e.js';
import { DEMO_ADMIN } from '../../src/server/db/demo-data/demo-accounts.js';

/**
 * The Outbox in a real browser against the real server, whose mail sender delivers to a
 * real SMTP server started here: the administrator sends a test message and sees it sent (and it
 * arrives); on a phone, a message the server refuses shows as failed with the server's reason and
 * is delivered once resent.
 */

const spec = browserSpec(null);
// Test speed: look for due mail often, two tries a little apart before a message fails.
const inbox = useMailedPortal(spec, { pollIntervalMs: 100, retryBaseMs: 100, retryMaxMs: 200, maxTries: 2 });

let page: Page;

async function openOutbox(width: number): Promise<void> {
  page = await spec.open({ width, height: 900 });
  await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
  if (width >= 900) {
    await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Outbox' }).click();
  } else {
    await page.goto(spec.url('/admin/dashboard?view=outbox'));
  }
  await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
}

async function sendTestMessage(to: string): Promise<void> {
  await page.getByRole('button', { name: 'Send a test message' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send a test message' });
  await dialog.waitFor();
  await dialog.locator('input[name="to"]').fill(to);
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByText(`Test message to ${to} queued.`).waitFor();
  await dialog.waitFor({ state: 'detached' });
}

const rowOf = (to: string) => page.getByRole('table', { name: 'Outbox messages' }).getByRole('row').filter({ hasText: to });

describe('the Outbox', () => {
  it('the administrator sends a test message and sees it sent; it reaches the SMTP server (1280px)', async () => {
    await openOutbox(1280);
    // A mail server is set up: no "messages wait here" notice.
    expect(await page.getByText('No mail server is set up').count()).toBe(0);

    // The shared schema checks the address before anything is sent.
    await page.getByRole('button', { name: 'Send a test message' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test message' });
    await dialog.locator('input[name="to"]').fill('not an address');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await dialog.getByText('Enter a valid e-mail address.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await sendTestMessage('office.check@example.com');
    const row = rowOf('office.check@example.com');
    await row.getByText('Sent', { exact: true }).filter({ visible: true }).waitFor();
    await row.getByRole('cell', { name: 'Test message from St. Andrew’s Secondary School' }).waitFor();
    const delivered = inbox().messages.filter((mail) => mail.recipients.includes('office.check@example.com'));
    expect(delivered.map((mail) => mail.subject)).toEqual(['Test message from St. Andrew’s Secondary School']);
    expect(await row.getByRole('button', { name: /Resend/ }).count()).toBe(0);

    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
  });

  it('on a phone, a refused message shows as failed with the reason, and Resend delivers it (390px)', async () => {
    inbox().refuseRecipients({ code: 550, text: 'No such user here' });
    await openOutbox(390);
    await sendTestMessage('no.such.parent@example.com');
    const row = rowOf('no.such.parent@example.com');
    // On a phone the status and the reason sit under the address (the Status column is the desktop's).
    await row.getByText('Failed', { exact: true }).filter({ visible: true }).waitFor();
    await row.getByText(/550.*No such user here/).filter({ visible: true }).waitFor();
    const resend = row.getByRole('button', { name: 'Resend the message to no.such.parent@example.com' });
    const box = await resend.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('outbox-failed-390.png') });
    expect(inbox().messages.filter((mail) => mail.recipients.includes('no.such.parent@example.com'))).toEqual([]);

    inbox().refuseRecipients(null);
    await resend.click();
    await page.getByText('The message to no.such.parent@example.com will be sent again.').waitFor();
    await row.getByText('Sent', { exact: true }).filter({ visible: true }).waitFor();
    expect(inbox().messages.filter((mail) => mail.recipients.includes('no.such.parent@example.com'))).toHaveLength(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
