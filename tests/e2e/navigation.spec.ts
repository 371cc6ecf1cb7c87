import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * What a person finds their way with: a focus ring they can see when they move
 * by keyboard, a "Page not found" page for a wrong address, classes written as the term report list writes
 * them ('Form 4 4A'), and the registration's bottom navigation on a 360 px phone.
 */

const student = DEMO_STUDENTS.registered;
const spec = browserSpec();
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});
const url = spec.url;

// ---- keyboard focus ------------------------------------------------------------------------------

/** The ring's colours in the theme: navy on the page, gold on the navy top bar. */
const NAVY = [0x1b, 0x4a, 0x72] as const;
const GOLD = [0xf6, 0xc4, 0x53] as const;
/** Room around an element for a ring drawn outside its edge. */
const MARGIN_PX = 8;

/** Presses Tab until the element has the focus (at most 40 presses). */
async function tabTo(target: Locator): Promise<void> {
  for (let presses = 0; presses < 40; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the element');
}

/** A screenshot of the element and a margin around it, so a ring outside its edge is in it too. */
async function shotAround(target: Locator, name: string): Promise<Buffer> {
  const box = (await target.boundingBox())!;
  const clip = { x: Math.max(0, box.x - MARGIN_PX), y: Math.max(0, box.y - MARGIN_PX), width: box.width + 2 * MARGIN_PX, height: box.height + 2 * MARGIN_PX };
  return page.screenshot({ clip, path: screenshotPath(name), animations: 'disabled', caret: 'hide' });
}

/**
 * How many pixels turned the ring's colour between the two screenshots. A ring a person sees runs
 * all round the element: at least its perimeter, i.e. one pixel thick everywhere, and in fact 3.
 */
function newRingPixels(before: Buffer, after: Buffer, colour: readonly [number, number, number]): number {
  const a = PNG.sync.read(before);
  const b = PNG.sync.read(after);
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  const near = (data: Buffer, i: number) => colour.every((value, c) => Math.abs(data[i + c]! - value) <= 24);
  let count = 0;
  for (let i = 0; i < b.data.length; i += 4) if (near(b.data, i) && !near(a.data, i)) count++;
  return count;
}

/** The ring seen by keyboard: screenshots without and with focus, saved for eyes, compared. */
async function expectVisibleRing(target: Locator, name: string, colour: readonly [number, number, number]): Promise<void> {
  await page.locator('body').evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const before = await shotAround(target, `focus-${name}-before.png`);
  await tabTo(target);
  const after = await shotAround(target, `focus-${name}-keyboard.png`);
  const box = (await target.boundingBox())!;
  const perimeter = 2 * (box.width + box.height);
  expect(newRingPixels(before, after, colour), name).toBeGreaterThan(2 * perimeter);
  const outline = await target.evaluate((element) => getComputedStyle(element).outlineWidth);
  expect(parseFloat(outline), name).toBeGreaterThanOrEqual(2);
}

describe('keyboard focus shows a ring a person can see (WCAG 2.4.7)', () => {
  it('on the dashboard cards and the Sign out button (1280px)', async () => {
    await signIn(page, spec.portal, { studentId: student.student_id });
    await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
    await expectVisibleRing(page.getByRole('link', { name: /View Attendance/ }), 'dashboard-card', NAVY);
    await expectVisibleRing(page.getByRole('link', { name: 'Sign out' }), 'sign-out', GOLD);
  });

  it('on a button and an admin menu entry at 390px, and not after a mouse click', async () => {
    page = await spec.open({ width: 390, height: 844 });
    await page.goto(url('/admin'));
    const signInButton = page.getByRole('button', { name: 'Sign in', exact: true });
    await signInButton.waitFor();
    // A mouse click: the alert appears and the button shows no ring.
    await signInButton.click();
    await page.getByRole('alert').filter({ hasText: 'Username field empty' }).waitFor();
    expect(await signInButton.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await signInButton.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('none');
    await expectVisibleRing(signInButton, 'sign-in-button', NAVY);

    await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
    await page.getByRole('button', { name: /^Menu:/ }).click();
    const entry = page.getByRole('navigation', { name: 'Admin menu' }).getByRole('button', { name: 'Post Term Reports' });
    await entry.waitFor();
    await expectVisibleRing(entry, 'admin-menu-entry', NAVY);
  });
});

// ---- Page not found ------------------------------------------------------------------------------

async function expectNotFound(path: string, link: string, home: string): Promise<void> {
  await page.goto(url(path));
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  expect(new URL(page.url()).pathname).toBe(path);
  expect(await page.title()).toMatch(/^Page not found · \S/);
  await page.getByRole('link', { name: link }).click();
  await page.waitForURL(url(home));
}

// Which home the page links to for each kind of account is a component test (not-found-page.test.tsx).
describe('an unknown address says "Page not found" and links home', () => {
  it('for a visitor (to sign in), on a 390px phone; an unknown API path stays a JSON 404', async () => {
    page = await spec.open({ width: 390, height: 844 });
    await expectNotFound('/no/such-page', 'Go to sign in', '/');
    await page.getByRole('heading', { name: 'Student sign in' }).waitFor();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    const api = await page.request.get(url('/api/no-such-call'));
    expect(api.status()).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'not_found' });
  });
});

// ---- classes as the term report list writes them ------------------------------------------------

describe("a class reads 'Form 5 5A', as the term report list writes it", () => {
  for (const width of [1280, 390]) {
    it(`on the attendance page and the registration record (${width}px)`, async () => {
      page = await spec.open({ width, height: 844 });
      await signIn(page, spec.portal, { studentId: student.student_id }, '/attendance');
      const classCell = page.locator('dt', { hasText: 'Class' }).locator('xpath=following-sibling::dd[1]');
      await classCell.waitFor();
      expect(await classCell.textContent()).toBe('Form 5 5A');

      await page.goto(url('/registration/student-data'));
      const classField = page.getByRole('combobox', { name: 'Class' });
      await classField.waitFor();
      expect(await classField.textContent()).toBe('Form 5 5A');
    });
  }
});

// ---- the bottom navigation at 360 px ------------------------------------------------------------

describe('the registration bottom navigation fits a 360px phone', () => {
  it('on every step: each step button inside the screen, no label cut off, no sideways scrolling', async () => {
    page = await spec.open({ width: 360, height: 740 });
    await signIn(page, spec.portal, { studentId: student.student_id });
    // The side menu is in the page too, hidden by CSS at this width: only the shown navigation counts.
    const nav = page.getByRole('navigation', { name: 'Registration steps' });
    const steps = nav.getByRole('link');
    // The step in view has the larger, bold label: each one is checked while it is the current one.
    for (const path of ['student-data', 'family-data', 'health-data', 'other-data', 'documents', 'complete']) {
      await page.goto(url(`/registration/${path}`));
      await nav.locator('[aria-current="page"]').waitFor();
      expect(await steps.count()).toBe(6);
      await page.screenshot({ path: screenshotPath(`bottom-navigation-360-${path}.png`) });
      for (const step of await steps.all()) {
        const box = (await step.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(360);
        const label = step.locator('.MuiBottomNavigationAction-label');
        const fits = await label.evaluate((element) => {
          const own = element.getBoundingClientRect();
          const button = element.closest('a')!.getBoundingClientRect();
          return element.scrollWidth <= element.clientWidth && own.left >= button.left && own.right <= button.right;
        });
        expect(fits, `${path}: ${(await label.textContent()) ?? ''}`).toBe(true);
      }
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth, path).toBeLessThanOrEqual(innerWidth);
    }
  });
});
