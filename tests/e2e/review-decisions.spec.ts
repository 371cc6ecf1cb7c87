import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_STAFF } from '../../src/server/db/demo-data/demo-accounts.js';
import { REVIEW_MESSAGES } from '../../src/shared/review.schemas.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * The office's decisions in Chromium at 1280 px (docs/decisions.md D81): holding A down in
 * Document Review accepts one document, never the next one the queue brings; and the student
 * list's row actions, the last of them Review registration, sit inside the grid.
 */

const spec = browserSpec({ width: 1280, height: 900 });
spec.usePortal();
const db = () => spec.portal.database.db;

/** The 5A birth certificates waiting, in the queue's order (oldest upload first). */
const waiting = () =>
  db()
    .selectFrom('documents')
    .innerJoin('students', 'students.id', 'documents.student_id')
    .select(['documents.public_id', 'students.first_name', 'students.last_name'])
    .where('documents.review_state', '=', 'submitted')
    .where('documents.file_type', '=', 'birth_certificate')
    .where('students.class_id', '=', '5A')
    .orderBy('documents.updated_at')
    .orderBy('documents.id')
    .execute();

/** The student's name as the review panel writes it, once it is there and its Accept is enabled (the document is on the screen). */
async function documentShown(page: Page, student: { first_name: string | null; last_name: string | null }) {
  await page.getByTestId('review-student').getByText(`${student.last_name}, ${student.first_name}`).waitFor();
  const accept = page.getByRole('button', { name: 'Accept (A)' });
  await expect.poll(() => accept.isEnabled(), { timeout: 20_000 }).toBe(true);
}

describe('holding A in Document Review', () => {
  it('accepts exactly one document, audited once, and never the next one', async () => {
    const queue = await waiting();
    expect(queue.length).toBeGreaterThanOrEqual(3);
    const [first, second, third] = queue as [(typeof queue)[0], (typeof queue)[0], (typeof queue)[0]];
    const page = spec.page;
    await signIn(page, spec.portal, { username: DEMO_STAFF.office.username }, '/admin/dashboard?view=documentReview');
    // The screen first: the student list has a Class filter of its own.
    await page.getByRole('heading', { level: 1, name: 'Document Review' }).waitFor();
    await page.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: '5A', exact: true }).click();
    await page.getByRole('combobox', { name: 'Document type' }).click();
    await page.getByRole('option', { name: 'Birth Certificate', exact: true }).click();
    await documentShown(page, first);
    // Counts the decisions the page sends (the calls pass through unchanged).
    await page.evaluate(() => {
      const send = window.fetch.bind(window);
      const counted = window as unknown as { reviewPosts: number };
      counted.reviewPosts = 0;
      window.fetch = (input, init) => {
        if (init?.method === 'POST' && String(input instanceof Request ? input.url : input).includes('/api/review/documents/')) counted.reviewPosts += 1;
        return send(input, init);
      };
    });
    await page.getByTestId('review-student').click();

    // The key goes down and stays down: the first event, then repeats (repeat: true).
    for (let i = 0; i < 6; i++) await page.keyboard.down('a');
    await page.getByText(REVIEW_MESSAGES.accepted).waitFor();
    // The queue moves on; the key is still down and keeps repeating over the next document.
    await documentShown(page, second);
    for (let i = 0; i < 6; i++) await page.keyboard.down('a');
    await page.keyboard.up('a');
    // A fresh key after the repeats: once its effect shows, every earlier key was handled.
    await page.keyboard.press('n');
    await documentShown(page, third);
    await page.screenshot({ path: screenshotPath('review-hold-a-1280.png'), fullPage: true });

    expect(await page.evaluate(() => (window as unknown as { reviewPosts: number }).reviewPosts)).toBe(1);
    const states = await db().selectFrom('documents').select(['public_id', 'review_state']).where('public_id', 'in', [first.public_id, second.public_id, third.public_id]).execute();
    expect(Object.fromEntries(states.map((row) => [row.public_id, row.review_state]))).toEqual({
      [first.public_id]: 'accepted',
      [second.public_id]: 'submitted',
      [third.public_id]: 'submitted',
    });
    const audit = await db().selectFrom('audit_log').select(['action', 'old_value', 'new_value']).where('entity', '=', 'document').where('field', '=', 'birth_certificate').where('action', 'in', ['accept', 'change-decision']).execute();
    expect(audit).toEqual([{ action: 'accept', old_value: 'submitted', new_value: 'accepted' }]);
  }, 120_000);
});

describe("the student list's row actions", () => {
  it('at 1280 px every action of a row, Review registration last, is inside the grid', async () => {
    const page = spec.page;
    await signIn(page, spec.portal, { username: DEMO_STAFF.office.username }, '/admin/dashboard');
    const review = page.getByRole('button', { name: /^Review registration of / }).first();
    await review.waitFor();
    const name = (await review.getAttribute('aria-label'))!.replace('Review registration of ', '');
    await page.screenshot({ path: screenshotPath('student-row-actions-1280.png') });
    const grid = await page.getByRole('grid', { name: 'Students' }).boundingBox();
    for (const label of ['View registration form', 'Family', 'Review registration']) {
      const box = await page.getByRole('button', { name: `${label} of ${name}` }).boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(grid!.x);
      expect(box!.x + box!.width).toBeLessThanOrEqual(grid!.x + grid!.width);
    }
  }, 120_000);
});
