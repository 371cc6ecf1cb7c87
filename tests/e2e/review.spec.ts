import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_FAMILY, DEMO_STAFF, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { REVIEW_MESSAGES } from '../../src/shared/review.schemas.js';
import { browserSpec, screenshotPath, signIn, useMailedPortal } from '../support/e2e.js';
import type { DeliveredMail } from '../support/smtp-inbox.js';
import { TEST_PUBLIC_URL } from '../support/test-config.js';
import { tinyPdf } from '../support/test-files.js';

/**
 * The office's review in Chromium (part A): the office returns the demo
 * child's birth certificate with a reason at 1280 px; the parent, at 390 px, reads the reason on
 * the Documents step and uploads a new file; the office accepts it from the queue with the
 * keyboard and verifies the registration; the family then finds the record read-only. Each
 * message to the family is read back from the test's SMTP server, and the returned document's link
 * is the one the parent follows.
 */

const spec = browserSpec(null);
const inbox = useMailedPortal(spec);
const child = DEMO_STUDENTS.registered;
const db = () => spec.portal.database.db;
const REASON = 'Unreadable / blurred: the seal cannot be read.';

async function signInOffice(): Promise<Page> {
  const page = await spec.open({ width: 1280, height: 900 });
  await signIn(page, spec.portal, { username: DEMO_STAFF.office.username });
  await page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Document Review' }).click();
  await page.getByRole('heading', { level: 1, name: 'Document Review' }).waitFor();
  await page.getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: '5A', exact: true }).click();
  await page.getByRole('combobox', { name: 'Document type' }).click();
  await page.getByRole('option', { name: 'Birth Certificate', exact: true }).click();
  await page.getByTestId('review-student').getByText(`${child.last_name}, ${child.first_name}`).waitFor();
  // Focus leaves the filters, so the keys reach the queue.
  await page.getByTestId('review-student').click();
  return page;
}

/** The family's message whose subject has `subject`, once the SMTP server has it. */
async function familyMail(subject: string): Promise<DeliveredMail> {
  const find = () => inbox().messages.find((mail) => mail.recipients.includes(DEMO_FAMILY.email) && mail.subject.includes(subject));
  await expect.poll(() => find() !== undefined, { timeout: 15_000 }).toBe(true);
  return find()!;
}

/** A link of a message, on the running portal (the mail's links start with PUBLIC_URL). */
function onPortal(link: string): string {
  const address = new URL(link);
  expect(address.origin).toBe(new URL(TEST_PUBLIC_URL).origin);
  return `${address.pathname}${address.search}`;
}

async function signInParent(path: string): Promise<Page> {
  const page = await spec.open({ width: 390, height: 844 });
  await signIn(page, spec.portal, { email: DEMO_FAMILY.email }, path.includes('?') ? path : `${path}?student=${child.student_id}`);
  return page;
}

const birthCertificate = () =>
  db().selectFrom('documents').select(['review_state', 'review_reason', 'file_name']).where('student_id', '=', child.student_id).where('file_type', '=', 'birth_certificate').executeTakeFirstOrThrow();

const noSidewaysScroll = async (page: Page) => {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
};

describe('the office reviews, the family answers', () => {
  it('returns a document with a reason, the parent replaces it at 390 px, the office accepts it and verifies the record, which the family then only reads', async () => {
    // Arrange: the other birth certificates of 5A are reviewed already, so the child's is first in the queue.
    await db()
      .updateTable('documents')
      .set({ review_state: 'accepted' })
      .where('file_type', '=', 'birth_certificate')
      .where('student_id', '<>', child.student_id)
      .execute();

    // The office returns it with a reason, from the keyboard (R) and the reason list.
    let page = await signInOffice();
    await page.keyboard.press('r');
    await page.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Unreadable / blurred' }).click();
    await page.getByLabel('Words for the family').fill('the seal cannot be read.');
    await page.screenshot({ path: screenshotPath('review-return-1280.png'), fullPage: true });
    await page.getByRole('button', { name: 'Return to family' }).click();
    await page.getByText(REVIEW_MESSAGES.returned).waitFor();
    expect(await birthCertificate()).toMatchObject({ review_state: 'returned', review_reason: REASON });

    // The family is told by mail, with the reason and a link to this child's Documents step.
    const returned = await familyMail('Birth Certificate');
    expect(returned.text).toContain(REASON);
    const documentsLink = returned.links.find((link) => new URL(link).pathname === '/registration/documents');
    expect(documentsLink).toBeDefined();

    // The parent, on a phone, follows it and reads the reason; the old file is still there; a new one goes up.
    page = await signInParent(onPortal(documentsLink!));
    expect(new URL(page.url()).searchParams.get('student')).toBe(child.student_id);
    const slot = page.getByTestId('slot-birth_certificate');
    await slot.getByTestId('document-returned').getByText(REASON).waitFor();
    await slot.getByTestId('file-name').waitFor();
    await noSidewaysScroll(page);
    await page.screenshot({ path: screenshotPath('review-returned-390.png'), fullPage: true });
    await page.locator('input[name="file-birth_certificate"]').setInputFiles({ name: 'birth certificate clear.pdf', mimeType: 'application/pdf', buffer: await tinyPdf('A clear scan') });
    await slot.getByTestId('file-name').filter({ hasText: 'birth certificate clear.pdf' }).waitFor();
    await slot.getByTestId('document-returned').waitFor({ state: 'detached' });
    expect(await birthCertificate()).toMatchObject({ review_state: 'submitted', review_reason: null, file_name: 'birth certificate clear.pdf' });

    // The office accepts the new file (A) and verifies the registration.
    page = await signInOffice();
    await page.getByTestId('review-student').getByText('birth certificate clear.pdf', { exact: false }).waitFor();
    await page.keyboard.press('a');
    await page.getByText(REVIEW_MESSAGES.accepted).waitFor();
    expect((await birthCertificate()).review_state).toBe('accepted');
    // The queue is empty for this filter now; the child's registration stays at hand.
    await page.getByText('Nothing waiting for review here.').waitFor();
    await page.getByRole('heading', { name: `Registration of ${child.last_name}, ${child.first_name}` }).waitFor();
    await page.getByRole('button', { name: 'Verify registration' }).click();
    // The dialog says whom the family's message reaches before anything is sent.
    await page.getByRole('dialog').getByTestId('family-reach').getByText(DEMO_FAMILY.email, { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: /^Verify( anyway)?$/ }).click();
    await page.getByText(REVIEW_MESSAGES.verified).waitFor();
    expect(await db().selectFrom('registration_reviews').select('state').where('student_id', '=', child.student_id).executeTakeFirst()).toEqual({ state: 'verified' });
    const verified = await familyMail('registration is verified');
    expect(verified.text).toContain(child.first_name);
    // Accepting a document asks nothing of the family: the two messages are all it received.
    expect(inbox().messages.filter((mail) => mail.recipients.includes(DEMO_FAMILY.email)).map((mail) => mail.subject)).toEqual([returned.subject, verified.subject]);

    // The family now reads the record and cannot change it.
    page = await signInParent('/registration/student-data');
    await page.getByTestId('registration-read-only').getByText(REVIEW_MESSAGES.readOnly).waitFor();
    // Said once: the read-only notice names the verification, no second banner repeats it.
    expect(await page.getByTestId('registration-verified').count()).toBe(0);
    expect(await page.locator('input[name="home_address"]').getAttribute('readonly')).not.toBeNull();
    await noSidewaysScroll(page);
    await page.screenshot({ path: screenshotPath('review-verified-390.png'), fullPage: true });
  }, 240_000);
});

describe('the review queue on a phone', () => {
  it('the office returns a document from the queue at 390 px by tapping, with nothing off the side of the screen', async () => {
    const page = await spec.open({ width: 390, height: 844 });
    await signIn(page, spec.portal, { username: DEMO_STAFF.office.username }, '/admin/dashboard?view=documentReview');
    await page.getByRole('heading', { level: 1, name: 'Document Review' }).waitFor();
    await page.getByRole('combobox', { name: 'Document type' }).click();
    await page.getByRole('option', { name: 'Immunization Card', exact: true }).click();
    const first = await db()
      .selectFrom('documents')
      .innerJoin('students', 'students.id', 'documents.student_id')
      .select(['documents.public_id', 'students.first_name', 'students.last_name'])
      .where('documents.review_state', '=', 'submitted')
      .where('documents.file_type', '=', 'immunization_card')
      .orderBy('documents.updated_at')
      .orderBy('documents.id')
      .executeTakeFirstOrThrow();
    await page.getByTestId('review-student').getByText(`${first.last_name}, ${first.first_name}`).waitFor();
    // (The test before accepted every birth certificate; this one takes the immunization cards.)
    // A phone cannot show a PDF in a frame: the document's pages are drawn as images (D45).
    const pages = page.getByRole('region', { name: `Immunization Card of ${first.last_name}, ${first.first_name}` });
    await pages.getByRole('img', { name: /^Page 1 of \d+$/ }).waitFor();
    await noSidewaysScroll(page);
    await page.screenshot({ path: screenshotPath('review-queue-390.png'), fullPage: true });

    await page.getByRole('button', { name: 'Return (R)' }).click();
    await page.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Wrong document' }).click();
    await page.getByRole('button', { name: 'Return to family' }).click();
    await page.getByText(REVIEW_MESSAGES.returned).waitFor();
    const stored = await db().selectFrom('documents').select(['review_state', 'review_reason']).where('public_id', '=', first.public_id).executeTakeFirstOrThrow();
    expect(stored.review_state).toBe('returned');
    expect(stored.review_reason).toMatch(/^Wrong document/);
    await noSidewaysScroll(page);
  }, 120_000);
});
