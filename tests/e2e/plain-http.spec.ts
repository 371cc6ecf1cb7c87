import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec } from '../support/e2e.js';

/**
 * Issue 14 item 6: on a school's own network the portal is reached over plain HTTP by a name
 * (http://portal.school.test:PORT/), with no TLS in front. Chromium treats localhost as
 * potentially trustworthy and never upgrades it, so this spec maps a real-looking name to the
 * test server (`--host-resolver-rules`): a page that told the browser to upgrade insecure
 * requests would fetch its scripts and calls over an https that is not there, and stay blank.
 */

const SCHOOL_HOST = 'portal.school.test';

const spec = browserSpec(null);
spec.usePortal();

/** The portal's address by the school's name instead of 127.0.0.1. */
const schoolUrl = () => {
  const url = new URL(spec.portal.baseUrl);
  url.hostname = SCHOOL_HOST;
  return url.toString();
};

async function openBySchoolName() {
  const page = await spec.open({ args: [`--host-resolver-rules=MAP ${SCHOOL_HOST} 127.0.0.1`] });
  const requested: string[] = [];
  const failed: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  // A call the page itself abandons (ERR_ABORTED, e.g. on navigating away) is not a failure here.
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    if (reason !== 'net::ERR_ABORTED') failed.push(`${request.url()} ${reason}`);
  });
  return { page, requested, failed };
}

/**
 * Signs in with the form at `signInPath`: here the form itself is the point (the session cookie
 * must come back without Secure over plain HTTP), so no session is made on the server.
 */
async function signInWithForm(page: Page, signInPath: string, fields: Record<string, string>, home: string): Promise<void> {
  await page.goto(new URL(signInPath, schoolUrl()).toString());
  for (const [name, value] of Object.entries(fields)) await page.locator(`input[name="${name}"]`).fill(value);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(new URL(home, schoolUrl()).toString());
}

describe('the portal over plain HTTP by a name on the school network', () => {
  it('loads every asset over http, signs a student in and shows the dashboard', async () => {
    const { page, requested, failed } = await openBySchoolName();
    const response = await page.goto(schoolUrl());
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).protocol).toBe('http:');
    await page.waitForLoadState('load');
    // Nothing was upgraded to an https the server does not speak.
    expect(requested.filter((url) => url.startsWith('https:'))).toEqual([]);
    expect(failed).toEqual([]);

    await signInWithForm(page, '/', { student_id: DEMO_STUDENTS.registered.student_id, password: DEMO_STUDENTS.registered.password }, '/dashboard');
    await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
    // The screens loaded on demand after sign-in came over http too.
    expect(requested.filter((url) => new URL(url).pathname.startsWith('/assets/')).length).toBeGreaterThan(1);
    expect(requested.filter((url) => !url.startsWith(`http://${SCHOOL_HOST}:`) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
    expect(failed).toEqual([]);
  });

  it('signs the administrator in and loads the student list', async () => {
    const { page, requested, failed } = await openBySchoolName();
    await signInWithForm(page, '/admin', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password }, '/admin/dashboard');
    await page.getByText(/Total Number of Students: \d+/).waitFor();
    expect(requested.filter((url) => url.startsWith('https:'))).toEqual([]);
    expect(failed).toEqual([]);
  });
});
