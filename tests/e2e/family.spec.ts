import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_FAMILY, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { FamilyCodeAnswerSchema, StudentFamilySchema } from '../../src/shared/family.schemas.js';
import { RegistrationStatusSchema, StudentRecordListSchema } from '../../src/shared/registration.schemas.js';
import { browserSpec, screenshotPath, useMailedPortal, signIn } from '../support/e2e.js';
import { HttpClient } from '../support/security/portal-process.js';
import { TEST_PUBLIC_URL } from '../support/test-config.js';

/**
 * Family accounts in Chromium, against the real server whose mail sender
 * delivers to a real SMTP server started here. At 390 px a parent registers from the login page,
 * opens the verification link read out of the delivered message, links one child with a code the
 * office issued and another with an invitation mailed to the parent (opened signed out: it comes
 * back after the sign-in), switches between them, saves a field for each, reads a home card per
 * child (registration and deadline, documents, today, report cards), and reaches no third child by
 * any route. At desktop width the office's Family dialog shows a link and asks before
 * removing it, and a class's code letters download as one PDF. A student invites a parent from the
 * dashboard, and the invitation opened in the student's own session says to sign out first. The office's side of the linking
 * goes through the API: its screens are tested on their own below.
 */

const spec = browserSpec(null);
const inbox = useMailedPortal(spec);

let page: Page;
const url = spec.url;

const PARENT = { name: 'Dana Baptiste-Lewis', email: 'dana.parent@example.com', password: 'lime-kite-harbour-27' };
/** Linked with the office's family code. */
const byCode = DEMO_STUDENTS.inProgress;
/** Linked with an invitation mailed to the parent. */
const byInvitation = DEMO_STUDENTS.passwordReset;
/** Never linked to this parent: has documents, posted report cards and attendance in the demo school. */
const third = DEMO_STUDENTS.registered;

const fullName = (student: { first_name: string; last_name: string }) => `${student.first_name} ${student.last_name}`;

/** The office, signed in over HTTP as the demo administrator (its screens are not what this test is about). */
async function officeClient(): Promise<{ call: (method: string, path: string, body?: unknown) => Promise<{ status: number; json: () => unknown }> }> {
  const client = new HttpClient();
  const base = spec.portal.baseUrl;
  const login = await client.request(base, 'POST', '/api/admin-login', { username: DEMO_ADMIN.username, password: DEMO_ADMIN.password });
  expect(login.status).toBe(200);
  return { call: (method, path, body) => client.request(base, method, path, body) };
}

/**
 * The link of the newest message to `to` whose link opens `path`, read from the delivered HTML as a
 * mail client shows it. It starts with PUBLIC_URL; the browser opens its path and query on the
 * test's portal, which listens on a port of its own.
 */
async function linkFrom(to: string, path: string, count = 1): Promise<string> {
  const links = () => inbox().messages.filter((mail) => mail.recipients.includes(to)).flatMap((mail) => mail.links.filter((link) => new URL(link).pathname === path));
  await expect.poll(() => links().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  const link = new URL(links().at(-1)!);
  expect(link.origin).toBe(new URL(TEST_PUBLIC_URL).origin);
  return url(`${link.pathname}${link.search}`);
}

/** An API call made from the page's own session, as its scripts would: the status and the body. */
async function fromPage(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = decodeURIComponent(document.cookie.split('; ').find((part) => part.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '');
      const response = await fetch(path, {
        method,
        headers: { Accept: 'application/json', ...(method === 'GET' ? {} : { 'X-XSRF-TOKEN': token }), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // A PDF or an empty body: the text stands.
      }
      return { status: response.status, body: parsed };
    },
    { method, path, body },
  );
}

async function expectNoSidewaysScroll(): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

async function expectNoSevereAxeViolation(): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const severe = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
  expect(severe).toEqual([]);
}

const switcher = () => page.getByRole('combobox', { name: 'Whose record' });

/** Chooses a child in the header's switcher and waits for the dashboard to name it. */
async function switchTo(student: { student_id: string; first_name: string; last_name: string }): Promise<void> {
  await switcher().click();
  await page.getByRole('listbox').getByRole('option', { name: new RegExp(`^${fullName(student)} · `) }).click();
  await page.waitForURL((address) => address.searchParams.get('student') === student.student_id);
  await expect.poll(() => switcher().textContent()).toMatch(new RegExp(`^${fullName(student)} · Form \\d \\d[A-D]$`));
}

describe('a parent on a phone (390 px)', () => {
  it('registers, confirms from the mail, links a child by code and one by invitation, switches, saves for each, and reaches no third child', async () => {
    page = await spec.open({ width: 390, height: 844 });
    const db = spec.portal.database.db;

    // The login page's second way in, and the registration with the shared rules on the fields.
    await page.goto(url('/'));
    await page.getByRole('link', { name: 'Parent or guardian? Sign in with your e-mail' }).click();
    await page.getByRole('heading', { level: 1, name: 'Parent or guardian sign in' }).waitFor();
    await page.getByRole('link', { name: 'Create a family account' }).click();
    // Name and e-mail only: the password is chosen by whoever opens the mailed link.
    const register = page.getByRole('form', { name: 'Create a family account' });
    expect(await register.locator('input[type="password"]').count()).toBe(0);
    await register.locator('input[name="name"]').fill(PARENT.name);
    await register.locator('input[name="email"]').fill('not-an-address');
    await register.getByRole('button', { name: 'Send the link' }).click();
    await register.getByText('Enter a valid e-mail address.', { exact: true }).waitFor();
    await expectNoSevereAxeViolation();
    await register.locator('input[name="email"]').fill(PARENT.email);
    await register.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your e-mail' }).waitFor();
    await page.getByRole('status').getByText(new RegExp(`We sent a message to ${PARENT.email}`)).waitFor();
    await expectNoSidewaysScroll();

    // The confirmation link from the delivered message asks for the password, with the shared rules
    // on the fields; the account is created with it and signed in, on the family's home with no child yet.
    await page.goto(await linkFrom(PARENT.email, '/family/verify'));
    const choose = page.getByRole('form', { name: 'Choose your password' });
    await page.getByRole('heading', { level: 1, name: 'Choose your password' }).waitFor();
    await choose.locator('input[name="new_password"]').fill('too-short');
    await choose.locator('input[name="confirm_password"]').fill('too-short');
    await choose.getByRole('button', { name: 'Create account' }).click();
    await choose.getByText('At least 12 characters.', { exact: true }).waitFor();
    await choose.locator('input[name="new_password"]').fill(PARENT.password);
    await choose.locator('input[name="confirm_password"]').fill(`${PARENT.password}x`);
    await choose.getByRole('button', { name: 'Create account' }).click();
    await choose.getByText(/do not match/i).waitFor();
    await expectNoSevereAxeViolation();
    await expectNoSidewaysScroll();
    expect(await db.selectFrom('users').select('id').where('email', '=', PARENT.email).executeTakeFirst()).toBeUndefined();
    await choose.locator('input[name="confirm_password"]').fill(PARENT.password);
    await choose.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((address) => address.pathname === '/dashboard');
    await page.getByRole('heading', { level: 1, name: `Welcome, ${PARENT.name}` }).waitFor();
    // Said once, on the page, with what to do; the family bar waits for a child.
    await page.getByText(/^No child is linked to your account yet\./).waitFor();
    expect(await page.getByText(/No child is linked/).count()).toBe(1);
    expect(await page.getByTestId('family-bar').count()).toBe(0);

    // Child one: the office issues a code; the parent types it without its dash, with the date of birth.
    const office = await officeClient();
    const issued = await office.call('POST', `/api/students/${byCode.student_id}/family-code`);
    expect(issued.status).toBe(200);
    const { code } = FamilyCodeAnswerSchema.parse(issued.json());
    const { date_of_birth: birthDate } = await db.selectFrom('students').select('date_of_birth').where('id', '=', byCode.student_id).executeTakeFirstOrThrow();
    await page.getByRole('link', { name: 'Add a child' }).click();
    await page.getByRole('heading', { level: 1, name: 'My children' }).waitFor();
    const addChild = page.getByRole('form', { name: 'Add a child' });
    await addChild.locator('input[name="code"]').fill(code.replace('-', '').toLowerCase());
    await addChild.locator('input[name="date_of_birth"]').fill('2001-01-01');
    await addChild.getByRole('button', { name: 'Add child' }).click();
    await addChild.getByText(/^That code and date of birth do not match a child/).waitFor();
    await addChild.locator('input[name="date_of_birth"]').fill(birthDate!);
    await addChild.getByRole('button', { name: 'Add child' }).click();
    await page.waitForURL((address) => address.pathname === '/dashboard' && address.searchParams.get('student') === byCode.student_id);
    await expect.poll(() => switcher().textContent()).toBe(`${fullName(byCode)} · Form 1 1A`);

    // Child two: an invitation the office mails to the parent, opened signed out from the message.
    const invited = await office.call('POST', `/api/students/${byInvitation.student_id}/family-invitations`, { email: PARENT.email });
    expect(invited.status).toBe(202);
    const invitation = await linkFrom(PARENT.email, '/family/accept');
    await page.goto(url('/logout'));
    await page.waitForURL(url('/'));
    await page.goto(invitation);
    await page.getByRole('heading', { level: 1, name: "Invitation to a child's record" }).waitFor();
    await expectNoSidewaysScroll();
    await page.getByRole('link', { name: 'Sign in to accept' }).click();
    const signInForm = page.getByRole('form', { name: 'Parent or guardian sign in' });
    await signInForm.locator('input[name="email"]').fill(PARENT.email);
    await signInForm.locator('input[name="password"]').fill(PARENT.password);
    await signInForm.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Invitation accepted' }).waitFor();
    await page.getByRole('link', { name: `Open ${fullName(byInvitation)}'s record` }).click();
    await page.waitForURL((address) => address.pathname === '/dashboard' && address.searchParams.get('student') === byInvitation.student_id);
    await page.getByRole('listitem', { name: fullName(byInvitation) }).waitFor();

    // My children: both, each with its class and who is linked.
    await page.getByTestId('family-bar').getByRole('link', { name: 'My children' }).click();
    const list = page.getByRole('list', { name: 'Your children' });
    await list.getByRole('listitem', { name: fullName(byCode) }).getByText('Form 1 1A', { exact: false }).waitFor();
    await list.getByRole('listitem', { name: fullName(byInvitation) }).getByText(/Linked to: You and Sandra Mohammed/).waitFor();
    await expectNoSevereAxeViolation();
    await expectNoSidewaysScroll();
    await page.screenshot({ path: screenshotPath('family-children-390.png'), fullPage: true });

    // Switch between them and save a field of each record, as the child would.
    await page.goto(url('/dashboard'));
    for (const [i, child] of [byCode, byInvitation].entries()) {
      await switchTo(child);
      await page.getByRole('listitem', { name: fullName(child) }).getByRole('link', { name: `Open ${fullName(child)}'s registration` }).click();
      await page.getByRole('heading', { level: 1, name: 'Student Data' }).waitFor();
      const box = page.locator('[data-field="home_address"]');
      const address = `${12 + i} Family Street, Arima`;
      await box.locator('input[name="home_address"]').fill(address);
      await box.locator('input[name="home_address"]').press('Tab');
      await expect.poll(() => box.locator('[data-save-state]').getAttribute('data-save-state'), { timeout: 10_000 }).toBe('saved');
      const [record] = StudentRecordListSchema.parse((await fromPage('GET', `/api/student-record/${child.student_id}`)).body);
      expect(record?.home_address).toBe(address);
      const stored = await db.selectFrom('students').select('home_address').where('id', '=', child.student_id).executeTakeFirstOrThrow();
      expect(stored.home_address).toBe(address);
      // The header still names the child whose record was saved.
      expect(await switcher().textContent()).toMatch(new RegExp(`^${fullName(child)} · `));
      if (i === 0) await expectNoSevereAxeViolation();
      await expectNoSidewaysScroll();
      await page.goto(url('/dashboard'));
    }
    await expect.poll(() => switcher().textContent()).toBe(`${fullName(byInvitation)} · Form 3 3A`);
    // Whose record is open is readable in full on a phone, not cut off by an ellipsis.
    expect(await switcher().evaluate((box) => box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight)).toBe(true);

    // The home: the parent greeted by name, a card per child one under another, each with its
    // registration and the school's deadline, documents, today and report cards, and its links.
    await page.getByRole('heading', { level: 1, name: `Welcome, ${PARENT.name}` }).waitFor();
    const cards = page.getByRole('list', { name: 'Your children' }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(2);
    expect((await cards.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).sort()).toEqual([fullName(byCode), fullName(byInvitation)].sort());
    for (const child of [byCode, byInvitation]) {
      const card = page.getByRole('listitem', { name: fullName(child) });
      const status = RegistrationStatusSchema.parse((await fromPage('GET', `/api/registration-status?student_id=${child.student_id}`)).body);
      await card.getByText(status.editable ? (status.deadline ? `Deadline: ${status.deadline}` : 'Open, with no deadline set.') : status.reason!).waitFor();
      for (const part of ['Registration', 'Documents', "Today's attendance", 'Report card']) await card.getByRole('heading', { level: 3, name: part }).waitFor();
      for (const link of ['registration', 'documents', 'attendance', 'report cards']) {
        expect(await card.getByRole('link', { name: `Open ${fullName(child)}'s ${link}` }).getAttribute('href')).toContain(`student=${child.student_id}`);
      }
    }
    const [first, second] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
    expect(second!.y).toBeGreaterThanOrEqual(first!.y + first!.height);
    expect(first!.width).toBeGreaterThan(300);
    await expectNoSidewaysScroll();
    await expectNoSevereAxeViolation();
    await page.screenshot({ path: screenshotPath('family-dashboard-390.png'), fullPage: true });
    // On a desktop the two cards share a row: CSS chooses the columns, so the page the server
    // renders is laid out for its width before any code runs.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(async () => ((await cards.nth(1).boundingBox())!.y === (await cards.nth(0).boundingBox())!.y)).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });

    // A third child, by every route that serves a student, from the page's own session: refused.
    const before = await db.selectFrom('students').select(['home_address', 'updated_at']).where('id', '=', third.student_id).executeTakeFirstOrThrow();
    const posted = await db.selectFrom('term_reports').select(['year', 'term']).where('posted', '=', 1).orderBy('year', 'desc').executeTakeFirstOrThrow();
    const document = await db.selectFrom('documents').select('public_id').where('student_id', '=', third.student_id).executeTakeFirstOrThrow();
    const id = third.student_id;
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/student-record/${id}`],
      ['POST', '/api/student', { id, home_address: 'Not my child' }],
      ['GET', `/api/registration-status?student_id=${id}`],
      ['GET', `/api/get-files/${id}`],
      ['GET', `/api/student-data-files/${id}`],
      ['GET', `/api/documents/${document.public_id}`],
      ['DELETE', `/api/file?id=${id}&fileName=x.pdf&fileType=birth_certificate`],
      ['GET', `/api/report-card-terms/${id}`],
      ['GET', `/api/report-card/${id}/${posted.year}/${posted.term}`],
      ['GET', `/api/student-attendance/${id}`],
      ['GET', `/api/student-attendance-report/${id}/2020-01-01/2030-12-31`],
      ['GET', `/api/registration-form/${id}`],
      ['GET', `/api/students/${id}/family`],
      ['POST', `/api/students/${id}/family-invitations`, { email: PARENT.email }],
      ['DELETE', `/api/family/children/${id}`],
    ];
    const answers = [];
    for (const [method, path, body] of routes) answers.push(`${(await fromPage(method, path, body)).status} ${method} ${path}`);
    // Removing a child that is not on the account is "not found" for the account; everything else is refused.
    expect(answers).toEqual(routes.map(([method, path]) => `${path.startsWith('/api/family/children/') ? 404 : 403} ${method} ${path}`));
    expect(await db.selectFrom('students').select(['home_address', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual(before);

    // Typed into the address bar, the screens show the refusal and no data.
    await page.goto(url(`/attendance?student=${id}`));
    await page.getByRole('alert').getByText('You can only see the records of the children linked to your account.').waitFor();
    expect(await page.getByText(fullName(third)).count()).toBe(0);
    await expect.poll(() => switcher().textContent()).toBe(`Student ${id} (not linked to you)`);
  });
});

describe("the office's Family dialog (1280 px)", () => {
  const student = DEMO_STUDENTS.registered;
  const listName = `${student.last_name}, ${student.first_name}`;

  it('shows who is linked and how, issues a code once, and asks before removing a link', async () => {
    page = await spec.open({ width: 1280, height: 1000 });
    const db = spec.portal.database.db;
    // A change the student made to a parent e-mail, as the registration save audits it (the API suite saves it for real).
    const at = new Date().toISOString();
    await db
      .insertInto('audit_log')
      .values({ actor_user_id: null, actor_label: `student:${student.student_id}`, action: 'update', entity: 'student', entity_id: student.student_id, field: 'email_mother', old_value: 'mother.before@example.com', new_value: 'mother.after@example.com', ip: null, request_id: null, created_at: at, updated_at: at })
      .execute();
    await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
    await page.getByRole('searchbox', { name: 'Search students' }).fill(student.student_id);
    await page.getByText('· 1 found').waitFor();
    await page.locator(`[role="row"][data-id="${student.student_id}"]`).getByRole('button', { name: `Family of ${listName}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Family — ${listName} (${student.student_id})` });
    const linked = dialog.getByRole('list', { name: 'Linked family accounts' });
    await linked.getByText(`${DEMO_FAMILY.name} · ${DEMO_FAMILY.email}`).waitFor();
    await linked.getByText(/^Demo school, \d{4}-\d{2}-\d{2}$/).waitFor();
    // The record's parent e-mails are offered for an invitation; the office may also type another.
    await dialog.getByRole('radiogroup', { name: 'Send the invitation to' }).getByRole('radio').first().waitFor();
    await dialog.getByRole('radiogroup', { name: 'Send the invitation to' }).getByRole('radio', { name: 'Another address' }).waitFor();
    // The student's own change of a parent e-mail is shown where the office reads the record's addresses.
    await dialog.getByRole('list', { name: 'Parent e-mails changed by the student' }).getByText("Mother's e-mail: mother.before@example.com → mother.after@example.com").waitFor();
    await expectNoSevereAxeViolation();

    await dialog.getByRole('button', { name: 'Print family code' }).click();
    await expect.poll(() => dialog.getByTestId('family-code').textContent()).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    await dialog.getByText(/works until \d{4}-\d{2}-\d{2}\./).waitFor();

    const linkOf = () => db.selectFrom('guardian_students').innerJoin('users', 'users.id', 'guardian_students.user_id').select('users.email').where('guardian_students.student_id', '=', student.student_id).execute();
    expect((await linkOf()).map((row) => row.email)).toContain(DEMO_FAMILY.email);
    // Remove asks first; Cancel leaves the link.
    await linked.getByRole('button', { name: `Remove ${DEMO_FAMILY.name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this family account?' });
    await confirm.getByText(new RegExp(`${DEMO_FAMILY.name} \\(${DEMO_FAMILY.email}\\) will no longer see`)).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await linkOf()).map((row) => row.email)).toContain(DEMO_FAMILY.email);
    await linked.getByRole('button', { name: `Remove ${DEMO_FAMILY.name}` }).click();
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await dialog.getByText('No family account is linked to this student yet.').waitFor();
    expect((await linkOf()).map((row) => row.email)).not.toContain(DEMO_FAMILY.email);
    const family = StudentFamilySchema.parse((await fromPage('GET', `/api/students/${student.student_id}/family`)).body);
    expect(family.guardians.map((guardian) => guardian.email)).not.toContain(DEMO_FAMILY.email);
    await page.screenshot({ path: screenshotPath('family-office-dialog-1280.png') });
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    // A class's code letters: asked first, then one PDF.
    await page.getByRole('searchbox', { name: 'Search students' }).fill('');
    await page.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '5A', exact: true }).click();
    await page.getByRole('button', { name: 'Family code letters (PDF)' }).click();
    const ask = page.getByRole('dialog', { name: 'Family code letters for 5A?' });
    await ask.getByText(/previous code stops working/).waitFor();
    const download = page.waitForEvent('download');
    await ask.getByRole('button', { name: 'Make the letters' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('Family Codes 5A.pdf');
  });
});

describe("a student's own invitation (390 px)", () => {
  const student = DEMO_STUDENTS.inProgress;

  it("offers only the record's parent e-mails; the link opened as the student says to sign out first, and as another family account names what to do", async () => {
    page = await spec.open({ width: 390, height: 844 });
    const db = spec.portal.database.db;
    const to = 'grandparent.e2e@example.com';
    await db.updateTable('students').set({ email_guardian: to }).where('id', '=', student.student_id).execute();
    await signIn(page, spec.portal, { studentId: student.student_id });
    const record = await db.selectFrom('students').select(['email_mother', 'email_father', 'email_guardian']).where('id', '=', student.student_id).executeTakeFirstOrThrow();
    const offered = [...new Set([record.email_mother, record.email_father, record.email_guardian].filter((email): email is string => Boolean(email?.trim())).map((email) => email.toLowerCase()))];
    await page.getByRole('button', { name: 'Invite a parent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a parent' });
    const choices = dialog.getByRole('radiogroup', { name: 'Send the invitation to' });
    await choices.getByRole('radio', { name: `Guardian: ${to}` }).waitFor();
    // The record's parent e-mails are the only choices, the first chosen: no address typed in.
    expect(await choices.getByRole('radio').evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value))).toEqual(offered);
    expect(await choices.getByRole('radio', { name: 'Another address' }).count()).toBe(0);
    await dialog.getByText('For another address, ask the school office.', { exact: false }).waitFor();
    await choices.getByRole('radio', { name: `Guardian: ${to}` }).check();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByRole('status').getByText(`Invitation sent to ${to}.`, { exact: false }).waitFor();
    await expectNoSevereAxeViolation();
    await expectNoSidewaysScroll();

    const link = await linkFrom(to, '/family/accept');
    await page.goto(link);
    await page.getByText(/You are signed in as .*sign out first/).waitFor();

    // Another family account (not the invited address) is refused, told what to do, and offered a sign-out.
    await page.goto(url('/logout'));
    await page.waitForURL(url('/'));
    await signIn(page, spec.portal, { email: DEMO_FAMILY.email });
    await page.goto(link);
    await page.getByRole('alert').getByText(`This invitation was sent to another e-mail address, and you are signed in as ${DEMO_FAMILY.email}.`, { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Sign out' }).waitFor();
    await expectNoSevereAxeViolation();
    await expectNoSidewaysScroll();
    // Nothing was accepted: the invitation still waits for the invited address's family account.
    const invitation = await db.selectFrom('family_tokens').select(['student_id', 'used_at']).where('purpose', '=', 'invitation').where('email', '=', to).executeTakeFirstOrThrow();
    expect(invitation).toEqual({ student_id: student.student_id, used_at: null });
  });
});
