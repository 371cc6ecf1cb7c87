import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { browserSpec, signInAsAdmin } from '../support/e2e.js';

/**
 * The office's everyday tools in a real browser against the real server and the demo school:
 * settings that show what is stored and can be undone, the Edit Student dialog, adding a student,
 * chasing incomplete registrations. SQLite; the routes behind them run on both engines in the
 * server suites.
 */

const spec = browserSpec({ width: 1280, height: 1000 });
spec.usePortal();
let page: Page;
beforeEach(() => {
  page = spec.page;
});

const button = (name: string) => page.getByRole('button', { name, exact: true });

async function openAdminScreen(view: string): Promise<void> {
  await signInAsAdmin(page, spec.portal.baseUrl);
  await page.goto(spec.url(`/admin/dashboard?view=${view}`));
}

/** Chooses a row action of the student list: shown in the row, or folded into the row's menu on a phone. */
async function rowAction(studentId: string, name: string): Promise<void> {
  const row = page.locator(`[role="row"][data-id="${studentId}"]`);
  await row.waitFor();
  const inline = row.getByRole('menuitem', { name, exact: true });
  if ((await inline.count()) > 0) return inline.click();
  await row.getByRole('menuitem', { name: /^(more|Actions for)/i }).click();
  await page.getByRole('menu').getByRole('menuitem', { name, exact: true }).click();
}

async function storedDefaultWindow() {
  return spec.portal.database.db.selectFrom('registration_periods').select(['open', 'deadline']).where('form_level', 'is', null).executeTakeFirstOrThrow();
}

describe('Registration Settings', () => {
  for (const width of [1280, 390]) {
    it(`opens with the stored default, asks before changing it, and Undo restores it (${width}px)`, async () => {
      page = await spec.open({ width, height: 900 });
      const stored = await storedDefaultWindow();
      expect(stored.deadline).not.toBeNull();
      await openAdminScreen('registrationSettings');
      const deadline = page.getByLabel('Deadline');
      await expect.poll(() => deadline.inputValue()).toBe(stored.deadline);
      expect(await page.getByLabel('Registration open').isChecked()).toBe(Number(stored.open) === 1);

      await deadline.fill('2031-01-31');
      await button('Save settings').click();
      const confirm = page.getByRole('dialog', { name: 'Change the default registration window?' });
      await confirm.getByText(`Now: Open until ${stored.deadline}.`).waitFor();
      await confirm.getByText('After: Open until 2031-01-31.').waitFor();
      // Cancel leaves what is stored alone.
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'hidden' });
      expect((await storedDefaultWindow()).deadline).toBe(stored.deadline);

      await button('Save settings').click();
      await confirm.getByRole('button', { name: 'Change default' }).click();
      await page.getByText('All forms (default): registration settings saved.').waitFor();
      expect((await storedDefaultWindow()).deadline).toBe('2031-01-31');

      await button('Undo').click();
      await page.getByText('All forms (default): previous registration settings restored.').waitFor();
      expect(await storedDefaultWindow()).toEqual(stored);
      await expect.poll(() => deadline.inputValue()).toBe(stored.deadline);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  }

  it('asks before removing a school holiday, and Undo puts it back', async () => {
    const db = spec.portal.database.db;
    const holiday = await db.selectFrom('school_holidays').select(['id', 'date', 'name']).orderBy('date').executeTakeFirstOrThrow();
    await openAdminScreen('attendanceSettings');
    const removeButton = page.getByRole('button', { name: `Remove ${holiday.date} ${holiday.name}` });
    await removeButton.click();
    const confirm = page.getByRole('dialog', { name: 'Remove this holiday?' });
    await confirm.waitFor();
    expect(await db.selectFrom('school_holidays').select('id').where('id', '=', holiday.id).executeTakeFirst()).toBeDefined();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await removeButton.click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByText(`${holiday.date} ${holiday.name} removed`).waitFor();
    expect(await db.selectFrom('school_holidays').select('id').where('date', '=', holiday.date).executeTakeFirst()).toBeUndefined();

    await button('Undo').click();
    await page.getByText(`${holiday.date} ${holiday.name} restored`).waitFor();
    expect(await db.selectFrom('school_holidays').select(['date', 'name']).where('date', '=', holiday.date).executeTakeFirst()).toEqual({ date: holiday.date, name: holiday.name });
    await removeButton.waitFor();
  });
});

describe('Edit Student', () => {
  for (const [width, typed] of [
    [1280, '2013-05-06'],
    [390, '2012-04-03'],
  ] as const) {
    it(`saves a typed date once, when the field is left, and the title follows the saved name (${width}px)`, async () => {
      page = await spec.open({ width, height: 900 });
      const id = '20250004';
      await openAdminScreen('dashboard');
      await page.getByRole('searchbox', { name: 'Search students' }).fill(id);
      await rowAction(id, 'Edit');
      const dialog = page.getByRole('dialog', { name: /Edit Student/ });
      await dialog.waitFor();

      const saves: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/student') saves.push(request.postData() ?? '');
      });
      await dialog.getByRole('spinbutton', { name: 'Year' }).click();
      await page.keyboard.type(typed.replaceAll('-', ''), { delay: 60 });
      // Every digit made another whole date; none of them is sent while the person is typing.
      await page.waitForTimeout(800);
      expect(saves).toEqual([]);
      await page.keyboard.press('Tab');
      await dialog.getByText('Updated Successfully.').waitFor();
      await page.waitForTimeout(500);
      expect(saves.map((body) => JSON.parse(body) as unknown)).toEqual([{ id, date_of_birth: typed }]);
      const stored = await spec.portal.database.db.selectFrom('students').select(['date_of_birth', 'first_name']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(stored.date_of_birth).toBe(typed);

      await dialog.locator('input[name="last_name"]').fill(`Renamed${width}`);
      await dialog.locator('input[name="last_name"]').press('Tab');
      await dialog.getByRole('heading').getByText(`Renamed${width}, ${stored.first_name} · ${id}`).waitFor();
    });
  }
});
