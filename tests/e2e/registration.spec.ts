import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_STUDENTS } from '../../src/server/db/demo-data/demo-accounts.js';
import {
  FIELD_MESSAGES,
  fieldsOfStep,
  isFieldVisible,
  type RegistrationField,
} from '../../src/shared/registration.fields.js';
import { WINDOW_MESSAGES } from '../../src/shared/registration.schemas.js';
import { browserSpec, screenshotPath, signIn } from '../support/e2e.js';

/**
 * The registration steps in a real browser (docs/requirements.md R4 the steps and save indicator,
 * R6 the editing window, R5 the rules): a student who has only their identity on file fills the
 * four data steps field by field on a desktop and on a phone, reloads, finds every value kept and
 * the progress flags on; a broken rule shows its message and sends nothing; a closed registration
 * shows read-only fields and says why.
 */

const STEPS = [
  { step: 'student', path: 'student-data', title: 'Student Data' },
  { step: 'family', path: 'family-data', title: 'Family Data' },
  { step: 'health', path: 'health-data', title: 'Health Data' },
  { step: 'other', path: 'other-data', title: 'Other Data' },
] as const;

const spec = browserSpec(null);
spec.usePortal();
let page: Page;

async function openBrowser(width: number): Promise<void> {
  page = await spec.open({ width, height: 900 });
}

const url = spec.url;
const fieldBox = (name: string) => page.locator(`[data-field="${name}"]`);

/** Students of the demo school who signed in before but have only their identity on file. */
async function freshStudents(): Promise<string[]> {
  const rows = await spec.portal.database.db
    .selectFrom('students')
    .innerJoin('users', 'users.student_id', 'students.id')
    .select('students.id')
    .where('students.home_address', 'is', null)
    .where('users.first_login', '=', 0)
    .where('users.password_reset', '=', 0)
    .where('users.password_hash', 'is not', null)
    .orderBy('students.id')
    .limit(4)
    .execute();
  return rows.map((row) => row.id);
}

async function setWindow(open: 0 | 1, deadline: string | null): Promise<void> {
  const db = spec.portal.database.db;
  await db.deleteFrom('registration_periods').execute();
  const at = new Date().toISOString();
  await db.insertInto('registration_periods').values({ form_level: null, open, deadline, created_at: at, updated_at: at }).execute();
}

async function signInStudent(studentId: string): Promise<void> {
  await signIn(page, spec.portal, { studentId });
}

/**
 * Opens a step by its address (a page load), or with `inApp` through the progress header's button,
 * as a family moves from step to step (the client's navigation, no page load).
 */
async function openStep(path: string, title: string, inApp = false): Promise<void> {
  if (inApp) await page.getByRole('navigation', { name: 'Registration progress' }).getByRole('button', { name: new RegExp(`^${title}: `) }).click();
  else await page.goto(url(`/registration/${path}`));
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

/** The header's flag of a step: '1' when done (R6 progress flags). */
function headerFlag(path: string): Promise<string | null> {
  return page.getByRole('navigation', { name: 'Registration progress' }).locator(`[data-step="${path}"]`).getAttribute('data-done');
}

/** A valid value for a field, by its catalogue rules; `choice` picks among a select's options. */
function valueFor(field: RegistrationField, choice: number): string {
  switch (field.control) {
    case 'phone':
      return `6${String(2000000 + field.name.length * 7919 + choice).slice(-6)}`;
    case 'email':
      return `e2e.${choice}@example.tt`;
    case 'number':
      // The place in family is at most the number in family (D77): first of them.
      return field.format === 'year' ? '1999' : field.name === 'place_in_family' ? '1' : String(2 + choice);
    case 'date':
      return field.allowFuture ? '2028-06-30' : '2012-03-04';
    case 'textarea':
      return choice === 0 ? 'None' : `Noted ${choice}`;
    default:
      // Letters only: a student's own name takes no digits (D77).
      return `${field.label.replace(/[^A-Za-z ]/g, '')} ${String.fromCharCode(65 + (choice % 26))}`.slice(0, field.maxLength ?? 20).trim();
  }
}

/** Chooses a select's option with the keyboard: focus, open with Enter, move to it, Enter. */
async function chooseOption(box: Locator, option: string | null): Promise<string> {
  const combobox = box.getByRole('combobox');
  await combobox.focus();
  await page.keyboard.press('Enter');
  const listbox = page.getByRole('listbox');
  await listbox.waitFor();
  const target = option === null ? listbox.getByRole('option').filter({ hasText: /\S/ }).filter({ hasNotText: 'Not given' }).first() : listbox.getByRole('option', { name: option, exact: true });
  const label = (await target.textContent()) ?? '';
  await target.focus();
  await page.keyboard.press('Enter');
  await listbox.waitFor({ state: 'detached' });
  return label;
}

/** Types a date into the picker's sections and leaves the field with the keyboard. */
async function typeDate(box: Locator, iso: string): Promise<void> {
  await box.locator('[role="spinbutton"]').first().click();
  await page.keyboard.type(iso.replaceAll('-', ''));
  await page.keyboard.press('Tab'); // the calendar button
  await page.keyboard.press('Tab'); // out of the field: the save starts
}

interface Filled {
  /** Text-like values typed, to read back after the reload. */
  typed: Map<string, string>;
}

/**
 * Fills a step's required fields that are shown and empty (plus the given switches and selects),
 * each saved on its own; waits until every indicator shows the check.
 */
async function fillStep(
  step: (typeof STEPS)[number]['step'],
  record: Record<string, unknown>,
  choices: { switches?: string[]; selects?: Record<string, string> },
  filled: Filled,
): Promise<void> {
  const values: Record<string, string | number | null> = { ...(record as Record<string, string | number | null>) };
  const answered: Locator[] = [];
  for (const field of fieldsOfStep(step)) {
    if (!isFieldVisible(field, values)) continue;
    const box = fieldBox(field.name);
    if (field.control === 'switch' || field.control === 'yesno') {
      if (!choices.switches?.includes(field.name)) continue;
      // Keyboard only: focus the switch (a yes/no question's Yes, D75) and press Space.
      await (field.control === 'yesno' ? box.getByRole('radio', { name: 'Yes' }) : box.getByRole('switch')).focus();
      await page.keyboard.press('Space');
      values[field.name] = 1;
    } else if (field.control === 'select') {
      const wanted = choices.selects?.[field.name];
      if (wanted === undefined && (!field.required || (values[field.name] ?? '') !== '')) continue;
      await chooseOption(box, wanted ?? null);
      values[field.name] = wanted ?? 'chosen';
    } else {
      if (!field.required || (values[field.name] ?? '') !== '') continue;
      const value = valueFor(field, filled.typed.size);
      if (field.control === 'date') {
        await typeDate(box, value);
      } else {
        const input = box.locator(field.control === 'textarea' ? `textarea[name="${field.name}"]` : `input[name="${field.name}"]`);
        // One input event with the whole value, as a paste or a phone's autofill sends it: typing
        // it key by key cost a DevTools round trip and a render per character.
        await input.fill(value);
        await page.keyboard.press('Tab');
      }
      filled.typed.set(field.name, value);
      values[field.name] = value;
    }
    answered.push(box);
  }
  // Every answer of the step is saved: the saves of one field and the typing of the next overlap,
  // as they do for a person moving on while the last field saves.
  for (const box of answered) await expect.poll(() => box.locator('[data-save-state]').getAttribute('data-save-state'), { timeout: 10_000 }).toBe('saved');
}

async function readBack(filled: Filled, step: (typeof STEPS)[number]['step']): Promise<void> {
  for (const field of fieldsOfStep(step)) {
    const expected = filled.typed.get(field.name);
    if (expected === undefined) continue;
    const box = fieldBox(field.name);
    if (field.control === 'date') {
      const shown = await box.locator(`input[name="${field.name}"]`).inputValue();
      expect(shown, field.name).toBe(expected);
    } else {
      const input = box.locator(field.control === 'textarea' ? `textarea[name="${field.name}"]` : `input[name="${field.name}"]`);
      expect(await input.inputValue(), field.name).toBe(expected);
    }
  }
}

type StepName = (typeof STEPS)[number]['step'];

/**
 * Fills the planned steps (every data step unless `only` names some) of a student who has only
 * their identity on file, reloads, and finds every value kept and exactly those steps done.
 */
async function fillSteps(studentId: string, width: number, plan: Partial<Record<StepName, { switches?: string[]; selects?: Record<string, string> }>>, only?: readonly StepName[]) {
  const steps = STEPS.filter(({ step }) => !only || only.includes(step));
  await openBrowser(width);
  await signInStudent(studentId);
  const filled: Filled = { typed: new Map() };
  for (const [index, { step, path, title }] of steps.entries()) {
    await openStep(path, title, index > 0);
    // Only the identity is on file: no data step is done yet.
    expect(await headerFlag(path)).toBe('0');
    const row = await spec.portal.database.db.selectFrom('students').selectAll().where('id', '=', studentId).executeTakeFirstOrThrow();
    await fillStep(step, row, plan[step] ?? {}, filled);
    await expect.poll(() => headerFlag(path), { timeout: 10_000 }).toBe('1');
    await page.getByTestId('step-missing').getByText('This step is complete.').waitFor();
  }
  await page.screenshot({ path: screenshotPath(`registration-filled-${width}.png`), fullPage: true });

  // Nothing typed is lost on reload, and the flags come from the server: one page load empties
  // the client's cache, so the record every step shows after it is the server's.
  for (const [index, { step, path, title }] of steps.entries()) {
    await openStep(path, title, index > 0);
    await readBack(filled, step);
    expect(await headerFlag(path)).toBe('1');
  }
  const progress = await spec.portal.database.db.selectFrom('registration_progress').selectAll().where('student_id', '=', studentId).executeTakeFirstOrThrow();
  const done = (step: StepName) => (steps.some((filledStep) => filledStep.step === step) ? 1 : 0);
  expect([progress.student_data, progress.family_data, progress.health_data, progress.other_data]).toEqual([done('student'), done('family'), done('health'), done('other')]);
}

describe('filling the registration record', () => {
  let students: string[];
  beforeEach(async () => {
    await setWindow(1, null);
    students ??= await freshStudents();
  });

  it('on a desktop: every step field by field, with the permit dates and both parents; kept after reload', async () => {
    await fillSteps(students[0]!, 1280, {
      student: { switches: ['immigration_permit'] },
      family: { selects: { living_status: 'Both Parents' } },
      health: { switches: ['asthma', 'polio'] },
      other: { switches: ['internet_access'], selects: { device_type: 'Laptop' } },
    });
    // The side menu (wide screens) shows every step done but Documents and Complete.
    const menu = page.getByRole('navigation', { name: 'Registration steps' });
    await menu.getByRole('link', { name: /Other Data/ }).waitFor();
    expect(await page.locator('.MuiBottomNavigation-root').isVisible()).toBe(false);
  }, 240_000);

  // The phone fills the two steps whose fields depend on earlier answers, the other way round from
  // the desktop; the Student and Health steps' fields are the desktop's, and their layout at phone
  // width is navigation.spec's.
  it('on a phone (375 px): with a guardian, a sibling and a parent who attended; kept after reload', async () => {
    await fillSteps(
      students[1]!,
      375,
      {
        family: { selects: { living_status: 'Guardian' } },
        other: { switches: ['sibling_attending', 'parent_attended'], selects: { device_type: 'Phone' } },
      },
      ['family', 'other'],
    );
    // Narrow screens: bottom navigation, no side menu; the page does not scroll sideways.
    await page.getByRole('navigation', { name: 'Registration steps' }).getByRole('link', { name: /Family Data: done/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Family Data' }).waitFor();
    // The step renders its sections one after another: wait for the guardian's before counting.
    await page.locator('[data-field="guardian_name"]').waitFor();
    expect(await page.locator('[data-field="mother_name"]').count()).toBe(0);
    expect(await page.locator('[data-field="guardian_name"]').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  }, 240_000);
});

describe('rules and the editing window', () => {
  beforeEach(async () => {
    await setWindow(1, null);
    await openBrowser(1280);
  });

  it("refuses another student's birth certificate pin under the field, keeping the stored one", async () => {
    const { inProgress, registered } = DEMO_STUDENTS;
    const db = spec.portal.database.db;
    const pinOf = async (id: string) => (await db.selectFrom('students').select('birth_certificate_no').where('id', '=', id).executeTakeFirstOrThrow()).birth_certificate_no;
    const own = await pinOf(inProgress.student_id);
    await signInStudent(inProgress.student_id);
    await openStep('student-data', 'Student Data');
    const pin = fieldBox('birth_certificate_no').locator('input[name="birth_certificate_no"]');
    await pin.fill((await pinOf(registered.student_id))!);
    await pin.press('Tab');
    await fieldBox('birth_certificate_no').getByRole('alert').getByText('Another student has this birth certificate pin.').waitFor();
    await expect.poll(() => fieldBox('birth_certificate_no').locator('[data-save-state]').getAttribute('data-save-state')).toBe('error');
    expect(await pinOf(inProgress.student_id)).toBe(own);
  });

  it('makes every field read-only with a banner when registration is closed or past its deadline', async () => {
    const { inProgress } = DEMO_STUDENTS;
    await setWindow(0, null);
    await signInStudent(inProgress.student_id);
    await openStep('student-data', 'Student Data');
    await page.getByTestId('registration-read-only').getByText(WINDOW_MESSAGES.closed).waitFor();
    expect(await page.locator('input[name="first_name"]').getAttribute('readonly')).not.toBeNull();
    expect(await fieldBox('immigration_permit').getByRole('radio', { name: 'Yes' }).isDisabled()).toBe(true);
    expect(await fieldBox('sex').getByRole('combobox').getAttribute('aria-disabled')).toBe('true');
    // Closed looks closed: no promise of saving, and every field of the step read-only.
    const line = page.getByTestId('step-missing');
    await line.getByText('Registration is closed, so nothing here can be changed.').waitFor();
    expect(await line.textContent()).not.toContain('saved as you go');
    const editable = await page.locator('[data-field]').evaluateAll((boxes) =>
      boxes
        .filter((box) => {
          const controls = [...box.querySelectorAll('input:not([type="hidden"]):not([aria-hidden="true"]), textarea, [role="combobox"], [role="spinbutton"]')];
          return controls.some(
            (control) =>
              !control.hasAttribute('readonly') &&
              !control.hasAttribute('disabled') &&
              control.getAttribute('aria-disabled') !== 'true' &&
              control.getAttribute('aria-readonly') !== 'true' &&
              !(control instanceof HTMLInputElement && control.readOnly),
          );
        })
        .map((box) => box.getAttribute('data-field')),
    );
    expect(editable).toEqual([]);
    // Read-only text looks it: a dashed outline.
    const outline = fieldBox('first_name').locator('fieldset').first();
    expect(await outline.evaluate((el) => getComputedStyle(el).borderStyle)).toBe('dashed');

    await setWindow(1, '2020-01-31');
    await page.reload();
    await openStep('family-data', 'Family Data');
    await page.getByTestId('registration-read-only').getByText(WINDOW_MESSAGES.deadlinePassed('2020-01-31')).waitFor();
    expect(await page.locator('input[name="emergency_contact"]').getAttribute('readonly')).not.toBeNull();
  });

  it('an administrator closes registration from the admin area, and the student sees it', async () => {
    await signIn(page, spec.portal, { username: DEMO_ADMIN.username });
    await page.getByRole('button', { name: 'Registration Settings' }).click();
    await page.getByRole('heading', { name: 'Registration Settings' }).waitFor();
    await page.getByRole('switch', { name: 'Registration open' }).uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    // Replacing the default window asks first.
    await page.getByRole('dialog', { name: 'Change the default registration window?' }).getByRole('button', { name: 'Change default' }).click();
    await page.getByRole('row', { name: /All forms \(default\).*Closed/ }).waitFor();
    const stored = await spec.portal.database.db.selectFrom('registration_periods').selectAll().where('form_level', 'is', null).executeTakeFirstOrThrow();
    expect(stored.open).toBe(0);

    await openBrowser(375);
    const { inProgress } = DEMO_STUDENTS;
    await signInStudent(inProgress.student_id);
    await openStep('health-data', 'Health Data');
    await page.getByTestId('registration-read-only').getByText(WINDOW_MESSAGES.closed).waitFor();
  });
});

describe('nothing typed is silently lost', () => {
  // A student whose every data step is complete, so a step that stops being complete shows.
  const { registered } = DEMO_STUDENTS;
  const db = () => spec.portal.database.db;
  const stateOf = (name: string) => fieldBox(name).locator('[data-save-state]').getAttribute('data-save-state');
  const stored = async (name: 'email') =>
    (await db().selectFrom('students').select(name).where('id', '=', registered.student_id).executeTakeFirstOrThrow())[name];

  beforeEach(async () => {
    await setWindow(1, null);
    await openBrowser(1280);
    await signInStudent(registered.student_id);
  });

  it('keeps an invalid value with its message when the student moves on, and the step is not called complete', async () => {
    await openStep('student-data', 'Student Data');
    expect(await headerFlag('student-data')).toBe('1');
    const email = fieldBox('email').locator('input[name="email"]');
    await email.fill('not-an-email');
    await email.press('Tab');
    await fieldBox('email').getByRole('alert').getByText(FIELD_MESSAGES.email).waitFor();
    await page.getByTestId('step-missing').getByText('Not complete: E-mail shows an error.').waitFor();
    expect(await page.getByTestId('step-missing').textContent()).not.toContain('This step is complete');
    expect(await headerFlag('student-data')).toBe('0');

    // To another step and back: the value and its message are still there.
    await page.getByRole('navigation', { name: 'Registration steps' }).getByRole('link', { name: /Family Data/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Family Data' }).waitFor();
    expect(await headerFlag('student-data')).toBe('0');
    await page.getByRole('navigation', { name: 'Registration steps' }).getByRole('link', { name: /Student Data/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Student Data' }).waitFor();
    expect(await email.inputValue()).toBe('not-an-email');
    await fieldBox('email').getByRole('alert').getByText(FIELD_MESSAGES.email).waitFor();

    // Fixed: saved, and the step is complete again.
    await email.fill('parent@example.tt');
    await email.press('Tab');
    await expect.poll(() => stateOf('email')).toBe('saved');
    await page.getByTestId('step-missing').getByText('This step is complete.').waitFor();
    expect(await headerFlag('student-data')).toBe('1');
    expect(await stored('email')).toBe('parent@example.tt');
  });

});

describe("a registration step's data", () => {
  it("comes with the page the server rendered, and the step shows it with every lookup in place", async () => {
    await openBrowser(375);
    const { registered } = DEMO_STUDENTS;
    await signInStudent(registered.student_id);
    const asked: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/')) asked.push(path);
    });
    await openStep('student-data', 'Student Data');
    const record = `/api/student-record/${registered.student_id}`;
    // The visit's first page was rendered on the server from the same reads; the browser hydrated
    // it with them and asked for none again.
    expect(asked.filter((path) => path === record || path === '/api/registration-status')).toEqual([]);
    // The selects show their stored choice at once.
    const stored = await spec.portal.database.db.selectFrom('students').select('religion_code').where('id', '=', registered.student_id).executeTakeFirstOrThrow();
    const religion = await spec.portal.database.db.selectFrom('religions').select('religion').where('code', '=', stored.religion_code!).executeTakeFirstOrThrow();
    expect(await fieldBox('religion_code').getByRole('combobox').textContent()).toBe(religion.religion);
    // Another step, in the browser, asks for its own lookups only; the record and the status are not asked again.
    await page.getByRole('navigation', { name: 'Registration steps' }).getByRole('link', { name: /Family/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Family Data' }).waitFor();
    expect(asked.filter((path) => path === record || path === '/api/registration-status')).toEqual([]);
  });
});
