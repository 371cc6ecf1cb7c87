import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES, PHOTO_MAX_SIDE_PX } from '../../src/shared/documents.schemas.js';
import { DEMO_FAMILY, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { DECLARATION_MESSAGES } from '../../src/shared/registration.schemas.js';
import { HTML_PAGE, ONE_PIXEL_PNG, pdfOfSize, tinyPdf } from '../support/test-files.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * The Documents and Complete steps in a real browser against the real server and the
 * demo school: upload as soon as a file is chosen with a progress bar, preview, remove, the fixed
 * messages, agree to the terms, and the registration form in its frame; and a phone's camera shot
 * at a phone's width, made smaller in the browser (D74).
 */

const student = DEMO_STUDENTS.inProgress;

const spec = browserSpec();
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

const url = spec.url;
const input = (name: string) => page.locator(`input[name="${name}"]`);
const slot = (type: string) => page.getByTestId(`slot-${type}`);

const signInStudent = () => signIn(page, spec.portal, { studentId: student.student_id });

async function openDocuments(): Promise<void> {
  await page.goto(url('/registration/documents'));
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  await slot('birth_certificate').waitFor();
}

/** Chooses a file for a slot: it goes up at once (D74). */
async function choose(type: string, name: string, mimeType: string, buffer: Buffer): Promise<void> {
  await input(`file-${type}`).setInputFiles({ name, mimeType, buffer });
}

const storedTypes = async () =>
  (await spec.portal.database.db.selectFrom('documents').select('file_type').where('student_id', '=', student.student_id).execute()).map((row) => row.file_type).sort();

describe('documents step', () => {
  it('uploads on choosing with a progress bar, previews, refuses an impostor, removes, and keeps the fixed messages', async () => {
    await signInStudent();
    await openDocuments();
    expect(await page.getByRole('button', { name: 'Upload' }).count()).toBe(0);

    // A slow connection, so the progress bar is there to see.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 200 * 1024 });
    await choose('birth_certificate', 'birth certificate.pdf', 'application/pdf', await pdfOfSize(600 * 1024));
    const bar = slot('birth_certificate').getByRole('progressbar', { name: 'Uploading Birth Certificate' });
    await bar.waitFor();
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(0);
    // The screen's uploading state, for a warning before leaving the page.
    expect(await page.locator('section[aria-labelledby="documents-title"]').getAttribute('data-uploading')).toBe('true');
    await slot('birth_certificate').getByTestId('file-name').filter({ hasText: 'birth certificate.pdf' }).waitFor({ timeout: 30_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(await bar.count()).toBe(0);

    // The PDF opens in a dialog, in a frame.
    await slot('birth_certificate').getByRole('button', { name: 'View Birth Certificate: birth certificate.pdf' }).click();
    const pdfDialog = page.getByRole('dialog', { name: /Birth Certificate: birth certificate\.pdf/ });
    await pdfDialog.waitFor();
    const src = await pdfDialog.locator('iframe').getAttribute('src');
    expect(src).toMatch(/^\/api\/documents\/[\w-]{22}$/);
    expect(await pdfDialog.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(`${src}?download=1`);
    await pdfDialog.getByRole('button', { name: 'Close' }).last().click();
    await pdfDialog.waitFor({ state: 'hidden' });

    // A picture: the card draws the server's thumbnail, the dialog the picture itself.
    await choose('picture', 'face.png', 'image/png', ONE_PIXEL_PNG);
    await slot('picture').getByTestId('file-name').filter({ hasText: 'face.png' }).waitFor();
    const thumbnail = slot('picture').getByTestId('thumbnail');
    expect(await thumbnail.getAttribute('src')).toMatch(/^\/api\/documents\/[\w-]{22}\/thumbnail$/);
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await slot('picture').getByRole('button', { name: 'View Picture: face.png' }).click();
    const imageDialog = page.getByRole('dialog', { name: /Picture: face\.png/ });
    const image = imageDialog.getByRole('img', { name: 'Picture: face.png' });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await page.keyboard.press('Escape');
    await imageDialog.waitFor({ state: 'hidden' });

    // An HTML page named .png is refused with the fixed message (docs/requirements.md R7).
    await choose('passport', 'passport.png', 'image/png', HTML_PAGE);
    const refused = slot('passport').getByRole('alert').filter({ hasText: DOCUMENT_MESSAGES.uploadFailed });
    await refused.waitFor();
    // The same file would be refused again: the way on is another file, not Try again.
    expect(await refused.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(await storedTypes()).toEqual(['birth_certificate', 'picture']);

    // Resubmit is one step: the file chosen replaces the stored one, no Upload to press.
    const chooser = page.waitForEvent('filechooser');
    await slot('birth_certificate').getByRole('button', { name: 'Resubmit' }).click();
    await (await chooser).setFiles({ name: 'second scan.pdf', mimeType: 'application/pdf', buffer: await tinyPdf('Second scan') });
    await slot('birth_certificate').getByTestId('file-name').filter({ hasText: 'second scan.pdf' }).waitFor();
    expect(await slot('birth_certificate').getByRole('button', { name: 'Upload' }).count()).toBe(0);
    const certificate = await spec.portal.database.db
      .selectFrom('documents')
      .select('file_name')
      .where('student_id', '=', student.student_id)
      .where('file_type', '=', 'birth_certificate')
      .executeTakeFirstOrThrow();
    expect(certificate.file_name).toBe('second scan.pdf');

    // Remove asks first: Cancel keeps the file; Remove in the dialog empties the slot.
    await slot('picture').getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Picture?' });
    await confirm.getByText('face.png will be deleted').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await storedTypes()).toEqual(['birth_certificate', 'picture']);
    await slot('picture').getByRole('button', { name: 'Remove' }).click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await slot('picture').getByRole('button', { name: 'Choose a file', exact: true }).waitFor();
    expect(await storedTypes()).toEqual(['birth_certificate']);
    await page.screenshot({ path: screenshotPath('documents-1280.png'), fullPage: true });
  });

  it('at 390 px a camera shot of the birth certificate goes up as soon as it is taken, made smaller in the browser', async () => {
    // The slot is empty (the test before filled it), and the phone has a touch screen: the slot offers the camera.
    await spec.portal.database.db.deleteFrom('documents').where('student_id', '=', student.student_id).where('file_type', '=', 'birth_certificate').execute();
    page = await spec.open({ width: 390, height: 844, hasTouch: true });
    await signInStudent();
    await openDocuments();
    await slot('birth_certificate').getByRole('button', { name: 'Take a photo', exact: true }).waitFor();
    const camera = input('camera-birth_certificate');
    expect([await camera.getAttribute('accept'), await camera.getAttribute('capture')]).toEqual(['image/*', 'environment']);
    expect(await input('file-birth_certificate').getAttribute('accept')).toBe('application/pdf,.pdf,image/jpeg,.jpg,.jpeg,image/png,.png');

    // What a phone's camera hands over: 3,000 × 4,000 pixels.
    const shot = await sharp({ create: { width: 3000, height: 4000, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 90 }).toBuffer();
    // What leaves the page: the file part of each upload the page sends (the request's body is a blob Chromium does not hand over).
    await page.evaluate(() => {
      const sent: File[] = [];
      Object.assign(window, { sentFiles: sent });
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the request as `this`
      const send = XMLHttpRequest.prototype.send;
      XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
        if (body instanceof FormData) sent.push(body.get('file') as File);
        send.call(this, body);
      };
    });
    await camera.setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: shot });
    await slot('birth_certificate').getByTestId('file-name').filter({ hasText: 'IMG_0001.jpg' }).waitFor({ timeout: 30_000 });
    await slot('birth_certificate').getByRole('img', { name: 'uploaded' }).waitFor();
    expect(await slot('birth_certificate').getByTestId('thumbnail').getAttribute('src')).toMatch(/\/thumbnail$/);

    // The browser sent a 2,000-pixel photo, not the camera's; the server stored it at that size.
    const sent = await page.evaluate(() =>
      Promise.all(
        (window as unknown as { sentFiles: File[] }).sentFiles.map(async (file) => {
          const bitmap = await createImageBitmap(file);
          return { name: file.name, type: file.type, size: file.size, width: bitmap.width, height: bitmap.height };
        }),
      ),
    );
    expect(sent.map((file) => [file.name, file.type, file.width, file.height])).toEqual([['IMG_0001.jpg', 'image/jpeg', 1500, PHOTO_MAX_SIDE_PX]]);
    expect(sent[0]!.size).toBeLessThan(shot.length);
    const row = await spec.portal.database.db
      .selectFrom('documents')
      .select(['bytes', 'mime'])
      .where('student_id', '=', student.student_id)
      .where('file_type', '=', 'birth_certificate')
      .executeTakeFirstOrThrow();
    const stored = await sharp(Buffer.from(row.bytes)).metadata();
    expect([row.mime, stored.width, stored.height]).toEqual(['image/jpeg', 1500, PHOTO_MAX_SIDE_PX]);

    // The other empty slots offer the camera too, ready to use.
    expect(await slot('sea_slip').getByRole('button', { name: 'Take a photo', exact: true }).isEnabled()).toBe(true);
    await slot('sea_slip').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('documents-390.png') });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });

  it('axe finds no serious or critical violation on the Documents step', async () => {
    await signInStudent();
    await openDocuments();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const severe = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
    expect(severe).toEqual([]);
  });
});

describe('complete step', () => {
  it('the student is told the parent agrees; the family account agrees, and the form in the frame names them', async () => {
    // The declaration is the parent's (D75): the student has nothing to tick.
    await signInStudent();
    await page.goto(url('/registration/complete'));
    await page.getByTestId('agreed-on').filter({ hasText: `Not agreed yet. ${DECLARATION_MESSAGES.studentWithFamily}` }).waitFor();
    expect(await page.getByLabel('I Agree to the Terms and Conditions').count()).toBe(0);

    await signIn(page, spec.portal, { email: DEMO_FAMILY.email }, `/registration/complete?student=${student.student_id}`);
    await page.getByRole('heading', { level: 1, name: 'Terms and Conditions of Registration' }).waitFor();
    await page.getByTestId('agreed-on').filter({ hasText: /^Not agreed yet\.$/ }).waitFor();

    const frame = page.locator('iframe[title="Registration form"]');
    const before = await frame.getAttribute('src');
    expect(before).toMatch(new RegExp(`^/api/registration-form/${student.student_id}\\?v=`));

    await page.getByLabel('I Agree to the Terms and Conditions').check();
    await page.getByTestId('agreed-on').filter({ hasText: new RegExp(`^Agreed online by ${DEMO_FAMILY.name} \\(parent or guardian\\) on \\d{4}-\\d{2}-\\d{2}\\.$`) }).waitFor();
    const row = await spec.portal.database.db.selectFrom('students').select(['agree_terms_conditions', 'agree_terms_date']).where('id', '=', student.student_id).executeTakeFirstOrThrow();
    expect(row.agree_terms_conditions).toBe(1);
    expect(row.agree_terms_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // The frame reloads with the new record and serves the PDF.
    await expect.poll(() => frame.getAttribute('src')).not.toBe(before);
    const src = (await frame.getAttribute('src'))!;
    const served = await page.evaluate(async (path) => {
      const response = await fetch(path);
      return { status: response.status, type: response.headers.get('content-type'), head: new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5)) };
    }, src);
    expect(served).toEqual({ status: 200, type: 'application/pdf', head: '%PDF-' });
    await page.getByRole('button', { name: 'Print' }).waitFor();
    await page.screenshot({ path: screenshotPath('complete-1280.png'), fullPage: true });
  });
});
