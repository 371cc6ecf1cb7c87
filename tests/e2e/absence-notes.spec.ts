import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FAMILY, DEMO_STUDENTS, demoTeacherUsername } from '../../src/server/db/demo-data/demo-accounts.js';
import { runAttendanceDigest } from '../../src/server/notices/notices.service.js';
import { ABSENCE_NOTE_MESSAGES as NOTE_MESSAGES, ABSENCE_NOTE_STATE_LABELS } from '../../src/shared/absence-notes.schemas.js';
import { schoolToday } from '../../src/shared/dates.js';
import { ClassAttendanceSchema } from '../../src/shared/attendance.schemas.js';
import { ATTENDANCE_WORDS } from '../../src/shared/attendance.stats.js';
import { pastSchoolDaysOfTerm } from '../support/absence-notes.js';
import { browserSpec, signIn, useMailedPortal } from '../support/e2e.js';
import { readPdf } from '../support/pdf-text.js';

/**
 * A family explains an absence and the school decides (docs/decisions.md D93), in a real browser
 * against the real server and the demo school: the parent opens the "Explain this absence" link of
 * the digest the test's SMTP server received, on a phone, and explains two days with a photo; the
 * class's form teacher accepts it at desk width, while another class's form teacher cannot see it;
 * the parent reads the answer, and the two days count as excused.
 */

const child = DEMO_STUDENTS.registered; // 5A, linked to the demo family
const childName = `${child.last_name}, ${child.first_name}`;
const PHONE = { width: 390, height: 844, hasTouch: true } as const;
const DESK = { width: 1280, height: 800 } as const;

const spec = browserSpec(null);
const inbox = useMailedPortal(spec);

/** The two school days before today the child is made absent on, oldest first. */
let days: [string, string];

beforeAll(async () => {
  const db = spec.portal.database.db;
  const today = schoolToday();
  const past = (await pastSchoolDaysOfTerm(db)).filter((day) => day < today);
  const [first, second] = past.slice(-2);
  if (!first || !second) throw new Error('the demo term has fewer than two school days before today');
  days = [first, second];
  // Absent is a school day without a gate record (docs/requirements.md R10).
  await db.deleteFrom('attendance_records').where('student_id', '=', child.student_id).where('date_scanned', 'in', days).execute();
  const { sent } = await runAttendanceDigest(db, { date: second });
  expect(sent).toBeGreaterThan(0);
});

/** Text as a literal in a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Types a date into an MUI X date field, section by section, as a keyboard user would. */
async function typeDate(page: Page, label: string, isoDate: string): Promise<void> {
  await page.getByRole('group', { name: label }).getByRole('spinbutton').first().click();
  await page.keyboard.type(isoDate.replaceAll('-', ''));
}

async function storedNote() {
  return spec.portal.database.db.selectFrom('absence_notes').selectAll().where('student_id', '=', child.student_id).executeTakeFirstOrThrow();
}

describe('absence notes', () => {
  it('a parent opens the digest mail’s link on a phone, explains two days with a photo, and sees it waiting (390px)', async () => {
    // The digest the family received for the second day links to the form on that day and child.
    const digestOf = () =>
      inbox().messages.find((mail) => mail.recipients.includes(DEMO_FAMILY.email) && mail.subject.startsWith(`Attendance on ${days[1]}`));
    await expect.poll(digestOf, { timeout: 30_000 }).toBeDefined();
    const link = digestOf()!.links.find((href) => new URL(href).pathname === '/absence-notes' && new URL(href).searchParams.get('student') === child.student_id);
    expect(link).toBeDefined();
    const opened = new URL(link!);
    expect(opened.searchParams.get('date')).toBe(days[1]);

    const page = await spec.open(PHONE);
    await signIn(page, spec.portal, { email: DEMO_FAMILY.email }, `${opened.pathname}${opened.search}`);
    await page.getByRole('heading', { name: 'Explain an absence' }).waitFor();
    // The form opened on the digest's day; the parent makes it the two days.
    expect(await page.getByRole('group', { name: 'First day' }).textContent()).toContain(days[1].slice(0, 4));
    await typeDate(page, 'First day', days[0]);
    await typeDate(page, 'Last day', days[1]);
    await page.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Illness', exact: true }).click();
    await page.getByRole('textbox', { name: 'More about it (optional)' }).fill('Fever from Sunday night; the doctor’s note is attached.');
    const photo = await sharp({ create: { width: 2400, height: 3200, channels: 3, background: '#fff', noise: { type: 'gaussian', mean: 200, sigma: 30 } } })
      .jpeg({ quality: 85 })
      .toBuffer();
    await page.locator('input[name="file"]').setInputFiles({ name: 'IMG_0417.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByTestId('absence-note-file').filter({ hasText: 'IMG_0417.jpg' }).waitFor();
    // The button fits the phone's width and is reachable.
    const send = page.getByRole('button', { name: 'Send to the school' });
    const box = await send.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await send.dblclick(); // a double tap sends one note
    await page.getByText(NOTE_MESSAGES.sent).waitFor();
    const note = page.getByTestId('absence-note').first();
    await note.getByText(ABSENCE_NOTE_STATE_LABELS.waiting).waitFor();

    const stored = await storedNote();
    expect([stored.date_from, stored.date_to, stored.part, stored.reason, stored.state, stored.sender]).toEqual([days[0], days[1], 'whole_day', 'illness', 'waiting', 'family']);
    const notes = await spec.portal.database.db.selectFrom('absence_notes').select('id').where('student_id', '=', child.student_id).execute();
    expect(notes).toHaveLength(1);
    const attachment = await spec.portal.database.db.selectFrom('absence_note_attachments').select(['mime', 'bytes']).where('note_id', '=', stored.id).executeTakeFirstOrThrow();
    expect(attachment.mime).toBe('image/jpeg');
    // Made small on the phone before it was sent, as a document's photo is.
    const { width, height } = await sharp(Buffer.from(attachment.bytes)).metadata();
    expect(Math.max(width, height)).toBeLessThan(3200);
  });

  it('another class’s form teacher cannot see the note (1280px)', async () => {
    const page = await spec.open(DESK);
    await signIn(page, spec.portal, { username: demoTeacherUsername('1A') }, '/admin/dashboard?view=absenceNotes');
    await page.getByRole('heading', { name: 'Absence Notes' }).waitFor();
    await page.getByText('No absence notes here.').waitFor();
    expect(await page.getByRole('button', { name: new RegExp(`^Open the note of ${childName}`) }).count()).toBe(0);
    const { id } = await storedNote();
    const status = await page.evaluate(async (noteId) => (await fetch(`/api/absence-notes/${noteId}`)).status, id);
    expect(status).toBe(403);
  });

  it('the office finds the waiting note on a phone, every part of its row on the screen (390px)', async () => {
    const page = await spec.open(PHONE);
    await signIn(page, spec.portal, { username: 'office' }, '/admin/dashboard?view=absenceNotes');
    const open = page.getByRole('button', { name: new RegExp(`^Open the note of ${childName}`) });
    await open.waitFor();
    const row = page.getByRole('row').filter({ has: open });
    expect(await row.innerText()).toContain(`${days[0]} to ${days[1]}`);
    await row.getByText(ABSENCE_NOTE_STATE_LABELS.waiting).waitFor();
    const box = (await open.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });

  it('the class’s form teacher reads the note beside the two days and accepts it (1280px)', async () => {
    const page = await spec.open(DESK);
    await signIn(page, spec.portal, { username: demoTeacherUsername('5A') }, '/admin/dashboard?view=absenceNotes');
    await page.getByRole('button', { name: new RegExp(`^Open the note of ${childName}`) }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Illness: Fever from Sunday night').waitFor();
    await dialog.getByRole('link', { name: 'Open the attachment (IMG_0417.jpg)' }).waitFor();
    const rows = dialog.getByRole('table', { name: 'Attendance on these days' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    expect(await rows.first().textContent()).toContain(days[0]);
    expect(await rows.last().textContent()).toContain(days[1]);

    await dialog.getByRole('radio', { name: 'Accept' }).check();
    await dialog.getByRole('combobox', { name: 'Reason (optional)' }).click();
    await page.getByRole('option', { name: "A doctor's note or other evidence was seen" }).click();
    await dialog.getByRole('textbox', { name: 'Words for the family (optional)' }).fill('Get well soon.');
    await dialog.getByRole('button', { name: 'Accept note' }).click();
    await page.getByText(NOTE_MESSAGES.accepted).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect((await storedNote()).state).toBe('accepted');
  });

  it('the parent reads the school’s answer on the phone, and the days count as excused on the attendance screen and its PDF (390px)', async () => {
    const page = await spec.open(PHONE);
    await signIn(page, spec.portal, { email: DEMO_FAMILY.email }, `/absence-notes?student=${child.student_id}`);
    const note = page.getByTestId('absence-note').first();
    await note.getByText(ABSENCE_NOTE_STATE_LABELS.accepted, { exact: true }).waitFor();
    await note.getByText(/Get well soon\./).waitFor();
    expect(await note.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);
    // Told once: the decision's mail reached the family.
    const decided = () => inbox().messages.filter((mail) => mail.recipients.includes(DEMO_FAMILY.email) && mail.subject.startsWith('Absence note for ') && mail.subject.endsWith(': accepted'));
    await expect.poll(() => decided().length, { timeout: 30_000 }).toBe(1);
  
    // The attendance screen: each day of the note is absent all day, excused; none unexcused.
    const { school_days: schoolDays } = await storedNote().then(async (note) => ({
      school_days: (await page.evaluate(async (id) => (await (await fetch(`/api/absence-notes/${id}`)).json()) as { note: { school_days: number } }, note.id)).note.school_days,
    }));
    expect(schoolDays).toBeGreaterThanOrEqual(2);
    await page.goto(spec.url(`/attendance?student=${child.student_id}`));
    const records = page.getByRole('table', { name: 'Attendance records' });
    for (const day of days) {
      await records.getByRole('row', { name: new RegExp(day) }).getByText(ATTENDANCE_WORDS.absentAllDayExcused, { exact: true }).waitFor();
    }
    // The range's PDF says so too.
    const pdfBytes = await page.evaluate(async ([id, from, to]) => {
      const response = await fetch(`/api/student-attendance-report/${id}/${from}/${to}`);
      return response.ok ? [...new Uint8Array(await response.arrayBuffer())] : response.status;
    }, [child.student_id, days[0], days[1]] as const);
    expect(Array.isArray(pdfBytes)).toBe(true);
    const pdf = await readPdf(Buffer.from(pdfBytes as number[]));
    const compact = (text: string) => text.replace(/\s+/g, '');
    for (const day of days) expect(pdf.compact).toMatch(new RegExp(`${day}[A-Za-z]{3}${literal(compact(ATTENDANCE_WORDS.absentExcused)).repeat(2)}`));
    expect(pdf.compact).toContain(`${compact(ATTENDANCE_WORDS.sessionsAbsentExcused)}${2 * schoolDays}`);
    expect(pdf.compact).toContain(`${compact(ATTENDANCE_WORDS.sessionsAbsentUnexcused)}0`);
  });

  it('Class Attendance shows the two days as excused to the class’s form teacher (1280px)', async () => {
    const page = await spec.open(DESK);
    await signIn(page, spec.portal, { username: demoTeacherUsername('5A') }, '/admin/dashboard?view=classAttendance');
    await page.getByRole('combobox', { name: 'Class' }).click();
    await page.getByRole('option', { name: 'Form 5 5A' }).click();
    await typeDate(page, 'Start date', days[0]);
    await typeDate(page, 'End date', days[1]);
    const answer = ClassAttendanceSchema.parse(
      await page.evaluate(async ([from, to]): Promise<unknown> => (await fetch(`/api/class-attendance?class_id=5A&from=${from}&to=${to}`)).json(), [days[0], days[1]] as const),
    );
    const mine = answer.students.find((row) => row.id === child.student_id)!;
    expect([mine.absent_excused, mine.absent_unexcused, mine.absent]).toEqual([mine.absent, 0, mine.absent]);
    expect(mine.absent).toBeGreaterThanOrEqual(4);
    const table = page.getByRole('table', { name: `Form 5 5A · ${days[0]} to ${days[1]}` });
    await table.waitFor();
    const headers = await table.locator('thead th').allInnerTexts();
    const cell = (header: string) => table.getByRole('row', { name: new RegExp(childName) }).locator('th, td').nth(headers.indexOf(header));
    expect(headers).toContain(ATTENDANCE_WORDS.sessionsAbsentExcused);
    await expect.poll(() => cell(ATTENDANCE_WORDS.sessionsAbsentExcused).innerText()).toBe(String(mine.absent));
    expect(await cell(ATTENDANCE_WORDS.sessionsAbsentUnexcused).innerText()).toBe('0');
  });
});
