import net from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { DEMO_STAFF } from '../../src/server/db/demo-data/demo-accounts.js';
import { SESSION_COOKIE } from '../../src/server/http/session.js';
import { SessionAnswerSchema } from '../../src/shared/auth.schemas.js';
import { browserSpec, startPortal } from '../support/e2e.js';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.js';

/**
 * A form teacher signs in with the school's own account (OpenID Connect, docs/decisions.md D96):
 * the staff sign-in page shows the provider's button first, the provider's own login page (a real
 * `oidc-provider` on 127.0.0.1, tests/support/oidc-provider.ts) takes the person's name and
 * password, and the portal lands on the teacher's class. Someone the school has not given an
 * account is sent back with the reason. Real server, demo school (SQLite), Chromium.
 */

const spec = browserSpec(null);
const teacher = DEMO_STAFF.formTeacher;
let idp: TestOidcProvider | undefined;

/** A port nobody listens on now: the portal's redirect URI is registered with the provider before the portal starts. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

spec.usePortal(async () => {
  idp = await startOidcProvider();
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  await idp.register(`${publicUrl}/api/oidc/school/callback`);
  const portal = await startPortal(
    {
      publicUrl,
      oidcProviders: [{ id: 'school', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, buttonLabel: 'Sign in with Microsoft 365', trustsMfa: false }],
    },
    { port },
  );
  await portal.database.db.updateTable('users').set({ sign_in_email: 'form.teacher.5a@school.test' }).where('username', '=', teacher.username).execute();
  idp.accounts.set('f.teacher', { email: 'Form.Teacher.5A@school.test', email_verified: true, name: 'Form Teacher' });
  idp.accounts.set('stranger', { email: 'stranger@school.test', email_verified: true });
  return portal;
});
afterAll(async () => {
  await idp?.close();
});

/** The provider's own login page: its fields, then its button. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.getByRole('heading', { name: 'Test school sign-in' }).waitFor();
  await page.getByLabel('Account').fill(login);
  await page.getByLabel('Password').fill('provider-password');
  await page.getByRole('button', { name: 'Sign in at the provider' }).click();
}

it("a form teacher signs in with the school's account and lands on their class (1280px)", async () => {
  const page = await spec.open({ width: 1280, height: 900 });
  await page.goto(spec.url('/admin'));
  const provider = page.getByRole('link', { name: 'Sign in with Microsoft 365' });
  await provider.waitFor();
  // The provider's button comes first, above the password form.
  const [buttonBox, usernameBox] = await Promise.all([provider.boundingBox(), page.getByLabel('Username').boundingBox()]);
  expect(buttonBox!.y).toBeLessThan(usernameBox!.y);
  await page.getByLabel('Keep me signed in on this device').check();
  await provider.click();
  await signInAtProvider(page, 'f.teacher');

  await page.waitForURL((url) => url.pathname === '/admin/dashboard');
  const inClass = await spec.portal.database.db.selectFrom('students').select((eb) => eb.fn.countAll<number>().as('count')).where('class_id', '=', teacher.classId).executeTakeFirstOrThrow();
  await page.getByText(`Total Number of Students: ${Number(inClass.count)}`).waitFor();
  const session = SessionAnswerSchema.parse(await page.evaluate(async () => (await (await fetch('/api/session')).json()) as unknown));
  expect(session.user).toMatchObject({ username: teacher.username, staff_role: 'form_teacher', class_ids: [teacher.classId] });
  // "Keep me signed in" went through the provider: the cookie outlives the browser.
  const cookie = (await page.context().cookies(spec.portal.baseUrl)).find((c) => c.name === SESSION_COOKIE)!;
  expect(cookie.expires).toBeGreaterThan(Date.now() / 1000);
});

it("someone without a staff account is sent back to the staff sign-in with the reason (390px)", async () => {
  const page = await spec.open({ width: 390, height: 844 });
  await page.goto(spec.url('/admin'));
  await page.getByRole('link', { name: 'Sign in with Microsoft 365' }).click();
  await signInAtProvider(page, 'stranger');
  await page.waitForURL((url) => url.pathname === '/admin');
  await page.getByRole('alert').getByText(/No staff account here has your school e-mail address/).waitFor();
  const session = SessionAnswerSchema.parse(await page.evaluate(async () => (await (await fetch('/api/session')).json()) as unknown));
  expect(session.user).toBeNull();
  // Nothing runs off a phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
