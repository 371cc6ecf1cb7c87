import { writeAudit } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import type { ParentEmailField } from '../db/schema.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { isGuardianCaller, isStudentCaller, type Caller } from '../access/roles.js';
import type { Actor } from '../http/request-context.js';
import { readServerSecret } from '../http/server-secret.repository.js';
import { readSignedValue, signedValue } from '../http/signing.js';
import { queueMessage } from '../mail/outbox.service.js';
import { NOTICE_CONTENT, type MailContent, type MailContext, type MailTemplateData, type NoticeTemplateName } from '../mail/templates/index.js';
import type { DigestLine } from '../mail/templates/notice-attendance-digest.js';
import { registrationStateOf } from '../../shared/students.schemas.js';
import { schoolClock, schoolToday } from '../../shared/dates.js';
import {
  DEFAULT_NOTICE_SETTINGS,
  OPTIONAL_NOTICE_KINDS,
  OPTIONAL_NOTICE_LABELS,
  PARENT_EMAIL_FIELDS,
  isOptionalNoticeKind,
  type Notice,
  type NoticeKind,
  type NoticeList,
  type NoticePreferences,
  type NoticeSettings,
  type OptionalNoticeKind,
  type ParentEmailList,
  type ReminderPreview,
  type ReminderRecipient,
  type UnsubscribeAnswer,
} from '../../shared/notices.schemas.js';
import { addDays, isWeekday } from '../../shared/school-days.js';
import { termTitle } from '../../shared/term-reports.schemas.js';
import * as repo from './notices.repository.js';

/**
 * Messages to families (docs/decisions.md D57). A notice is written for each recipient
 * of a child, in the transaction of what causes it, and its mail is queued through the outbox in
 * the same transaction: the portal's notices list and the mail never disagree.
 *
 * A child's recipients are the family accounts linked to it and the record's parent e-mails the
 * office marked as verified (one message where the two are the same mailbox). A "family" in the
 * rules (one digest a day, one reminder a week, preferences) is one recipient.
 */

type Trx = Db;

/** A recipient and the children of `studentIds` it receives notices for. */
export interface Recipient {
  key: string;
  userId: number | null;
  email: string;
  name: string | null;
  studentIds: string[];
}

const normalEmail = (email: string | null) => (email ?? '').trim().toLowerCase();
const fullName = (student: { first_name: string | null; last_name: string | null; id: string }) =>
  [student.first_name, student.last_name].filter(Boolean).join(' ') || student.id;
const parentEmailOf = (student: repo.NoticeStudent, parent: ParentEmailField) =>
  normalEmail(parent === 'mother' ? student.email_mother : parent === 'father' ? student.email_father : student.email_guardian);

/** Who receives notices about these students: the linked family accounts and the verified parent e-mails. */
export async function recipientsOf(db: Db, studentIds: readonly string[]): Promise<{ recipients: Recipient[]; unreachable: string[] }> {
  const [students, accounts, marks] = await Promise.all([repo.findStudents(db, studentIds), repo.listLinkedAccounts(db, studentIds), repo.listEmailVerifications(db, studentIds)]);
  const byKey = new Map<string, Recipient>();
  const add = (key: string, userId: number | null, email: string, name: string | null, studentId: string) => {
    const found = byKey.get(key);
    if (found) {
      if (!found.studentIds.includes(studentId)) found.studentIds.push(studentId);
    } else byKey.set(key, { key, userId, email, name, studentIds: [studentId] });
  };
  const unreachable: string[] = [];
  for (const student of students) {
    const linked = accounts.filter((account) => account.student_id === student.id && account.email);
    for (const account of linked) add(`user:${account.user_id}`, account.user_id, normalEmail(account.email), account.display_name, student.id);
    // The parents the office verified hear too, whoever else is linked: a linked account (which a
    // student can make for an address of their own) never takes the school's messages away from
    // them. A verified address that is a linked account's sign-in gets one message, as the account.
    const linkedEmails = new Set(linked.map((account) => normalEmail(account.email)));
    const verified = marks.filter((mark) => mark.student_id === student.id && mark.email === parentEmailOf(student, mark.parent) && !linkedEmails.has(mark.email));
    if (linked.length === 0 && verified.length === 0) unreachable.push(student.id);
    for (const mark of verified) add(`email:${mark.email}`, null, mark.email, null, student.id);
  }
  return { recipients: [...byKey.values()], unreachable };
}

// ---- unsubscribe tokens ------------------------------------------------------------------------

/** Signed into every link, so a token made for anything else is refused here. */
const UNSUBSCRIBE_PURPOSE = 'notice-unsubscribe';

/** A link's token: which recipient, which kind, signed with the server's secret (no expiry: old mails keep working). */
export async function unsubscribeToken(db: Db, recipientKey: string, kind: OptionalNoticeKind): Promise<string> {
  return signedValue(await readServerSecret(db), UNSUBSCRIBE_PURPOSE, { r: recipientKey, k: kind });
}

async function readToken(db: Db, token: string): Promise<{ recipientKey: string; kind: OptionalNoticeKind } | null> {
  const value = readSignedValue(await readServerSecret(db), UNSUBSCRIBE_PURPOSE, token) as { r?: unknown; k?: unknown } | null | undefined;
  if (typeof value?.r !== 'string' || typeof value.k !== 'string' || !isOptionalNoticeKind(value.k)) return null;
  return { recipientKey: value.r, kind: value.k };
}

// ---- sending -----------------------------------------------------------------------------------

/** What a caller gives for a kind: the template's data without the parts this module adds. */
export type NoticeInput<K extends NoticeKind> = Omit<MailTemplateData<K>, 'studentNames' | 'studentIds' | 'unsubscribeToken'>;

async function isTurnedOff(db: Db, recipientKey: string, kind: NoticeKind): Promise<boolean> {
  if (!isOptionalNoticeKind(kind)) return false;
  const rows = await repo.listPreferences(db, [recipientKey]);
  return rows.some((row) => row.kind === kind && row.enabled === 0);
}

/**
 * Writes one recipient's notice and queues its mail, in `trx`. Answers false when nothing was sent:
 * the kind is turned off for the recipient, or `noticeKey` is taken (sent already).
 */
async function sendToRecipient<K extends NoticeKind>(
  trx: Trx,
  recipient: Recipient,
  kind: K,
  data: NoticeInput<K>,
  names: Map<string, string>,
  noticeKey: string | null,
): Promise<boolean> {
  if (await isTurnedOff(trx, recipient.key, kind)) return false;
  const shown = { ...data, studentNames: recipient.studentIds.map((id) => names.get(id) ?? id), studentIds: recipient.studentIds };
  // The unsubscribe link is the mail's alone: the portal's copy is read by the children too, and a
  // link that turns a parent's messages off is meant for that parent only (docs/security.md).
  const full = {
    ...shown,
    ...(isOptionalNoticeKind(kind) ? { unsubscribeToken: await unsubscribeToken(trx, recipient.key, kind) } : {}),
  } as unknown as MailTemplateData<K>;
  const noticeId = await repo.insertNotice(trx, {
    recipientKey: recipient.key,
    userId: recipient.userId,
    email: recipient.email,
    kind,
    data: JSON.stringify(shown),
    noticeKey,
    studentIds: recipient.studentIds,
    at: nowIso(),
  });
  if (noticeId === null) return false;
  const { id } = await queueMessage(trx, { to: recipient.email, template: kind, data: full });
  await repo.setOutboxId(trx, noticeId, id);
  return true;
}

async function namesOf(db: Db, studentIds: readonly string[]): Promise<Map<string, string>> {
  return new Map((await repo.findStudents(db, studentIds)).map((student) => [student.id, fullName(student)]));
}

/**
 * Tells a child's family, inside the caller's transaction: a notice for each recipient (linked
 * accounts, else verified parent e-mails) and its mail queued. Answers how many were sent. The
 * caller wakes the mail sender after its commit.
 */
export async function notifyFamily<K extends NoticeKind>(trx: Trx, notice: { studentId: string; kind: K; data: NoticeInput<K> }): Promise<number> {
  return notifyFamilies(trx, { studentIds: [notice.studentId], kind: notice.kind, data: () => notice.data });
}

/**
 * The batch form: one notice per recipient for all its children among `studentIds` (a family with
 * three children gets one message). `data` writes each recipient's part; `noticeKey`, when given,
 * makes a second send for the same key a no-op.
 */
export async function notifyFamilies<K extends NoticeKind>(
  trx: Trx,
  batch: { studentIds: readonly string[]; kind: K; data: (recipient: Recipient) => NoticeInput<K> | null; noticeKey?: (recipient: Recipient) => string },
): Promise<number> {
  const { recipients } = await recipientsOf(trx, batch.studentIds);
  const names = await namesOf(trx, batch.studentIds);
  let sent = 0;
  for (const recipient of recipients) {
    const data = batch.data(recipient);
    if (data === null) continue;
    if (await sendToRecipient(trx, recipient, batch.kind, data, names, batch.noticeKey?.(recipient) ?? null)) sent += 1;
  }
  return sent;
}

/** Term reports posted: one notice per family of the students with results, not one per child. */
export async function notifyTermReportsPosted(trx: Trx, year: number, term: number): Promise<number> {
  const studentIds = await repo.listStudentsWithResults(trx, year, term);
  const termLabel = termTitle(year, term);
  return notifyFamilies(trx, { studentIds, kind: 'term-reports-posted', data: () => ({ termLabel }) });
}

// ---- settings ----------------------------------------------------------------------------------

const SETTING_KEYS = { digest_enabled: 'notices_digest_enabled', digest_time: 'notices_digest_time', reminder_days: 'notices_reminder_days' } as const;
const DIGEST_LAST_RUN_KEY = 'notices_digest_last_date';

export async function getNoticeSettings(db: Db): Promise<NoticeSettings> {
  const [enabled, time, days] = await Promise.all([
    repo.getSetting(db, SETTING_KEYS.digest_enabled),
    repo.getSetting(db, SETTING_KEYS.digest_time),
    repo.getSetting(db, SETTING_KEYS.reminder_days),
  ]);
  return {
    digest_enabled: enabled === undefined ? DEFAULT_NOTICE_SETTINGS.digest_enabled : enabled === '1',
    digest_time: time ?? DEFAULT_NOTICE_SETTINGS.digest_time,
    reminder_days: days === undefined ? DEFAULT_NOTICE_SETTINGS.reminder_days : Number(days),
  };
}

/** Changes the settings; one audit row per changed setting. */
export async function updateNoticeSettings(db: Db, settings: NoticeSettings, actor: Actor): Promise<NoticeSettings> {
  return db.transaction().execute(async (trx) => {
    const old = await getNoticeSettings(trx);
    const at = nowIso();
    const text = (name: keyof NoticeSettings, value: NoticeSettings[keyof NoticeSettings]) => (name === 'digest_enabled' ? (value ? '1' : '0') : String(value));
    for (const name of Object.keys(SETTING_KEYS) as (keyof NoticeSettings)[]) {
      if (old[name] === settings[name]) continue;
      await repo.putSetting(trx, SETTING_KEYS[name], text(name, settings[name]), at);
      await writeAudit(trx, { ...actor, action: 'update', entity: 'settings', entity_id: SETTING_KEYS[name], field: 'value', old_value: text(name, old[name]), new_value: text(name, settings[name]) });
    }
    return getNoticeSettings(trx);
  });
}

// ---- the attendance digest ---------------------------------------------------------------------

/**
 * The day's absences and lates of the students on the roll (in a class). Nothing on a weekend, a
 * school holiday, or a day the school recorded no one's attendance (D41: then nothing counts as
 * an absence).
 */
async function dayLines(db: Db, date: string): Promise<Map<string, Omit<DigestLine, 'studentName'>>> {
  const lines = new Map<string, Omit<DigestLine, 'studentName'>>();
  if (!isWeekday(date)) return lines;
  if (await repo.isSchoolHoliday(db, date)) return lines;
  const roll = await repo.listRollWithDay(db, date);
  if (!roll.some((row) => row.record_id !== null)) return lines;
  for (const row of roll) {
    if (row.record_id === null) lines.set(row.id, { status: 'absent', timeIn: null });
    else if (row.attendance_am === 0) lines.set(row.id, { status: 'absent-am', timeIn: row.time_in });
    else if (row.late === 1) lines.set(row.id, { status: 'late', timeIn: row.time_in });
    else if (row.attendance_pm === 0) lines.set(row.id, { status: 'absent-pm', timeIn: row.time_in });
  }
  return lines;
}

/**
 * Sends the attendance digest of `date` (yyyy-MM-dd): one message per family listing only that
 * day's absences and lates of its children; nothing to a family with nothing to report, or one
 * that turned it off; nothing at all when the school turned it off. Idempotent: each family's
 * notice has the key `digest:<recipient>:<date>`, unique in the database, so a rerun or a second
 * process sends nothing more. Answers how many families were written to.
 */
export async function runAttendanceDigest(db: Db, options: { date: string }): Promise<{ sent: number }> {
  const settings = await getNoticeSettings(db);
  if (!settings.digest_enabled) return { sent: 0 };
  const lines = await dayLines(db, options.date);
  if (lines.size === 0) return { sent: 0 };
  const { recipients } = await recipientsOf(db, [...lines.keys()]);
  const names = await namesOf(db, [...lines.keys()]);
  let sent = 0;
  for (const recipient of recipients) {
    // One transaction per family: a family's failure does not hold the others back.
    const done = await db.transaction().execute((trx) =>
      sendToRecipient(
        trx,
        recipient,
        'attendance-digest',
        {
          date: options.date,
          lines: recipient.studentIds.map((id) => ({ studentName: names.get(id) ?? id, studentId: id, ...lines.get(id)! })),
        },
        names,
        `digest:${recipient.key}:${options.date}`,
      ),
    );
    if (done) sent += 1;
  }
  return { sent };
}

/**
 * The timer's question, every minute: has the school's digest time come today, and has this
 * database not yet finished today's run? The run itself is idempotent, so two processes asking
 * at once only both look.
 */
export async function runDueAttendanceDigest(db: Db, now: Date = new Date()): Promise<{ sent: number } | null> {
  const settings = await getNoticeSettings(db);
  if (!settings.digest_enabled) return null;
  const clock = schoolClock(now);
  const today = schoolToday(now);
  if (`${clock.hour}:${clock.minute}` < settings.digest_time) return null;
  if ((await repo.getSetting(db, DIGEST_LAST_RUN_KEY)) === today) return null;
  const result = await runAttendanceDigest(db, { date: today });
  await repo.putSetting(db, DIGEST_LAST_RUN_KEY, today, nowIso());
  return result;
}

// ---- deadline reminders ------------------------------------------------------------------------

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** The week a reminder counts in, for its unique key: the Monday of the school's week. */
function weekOf(today: string): string {
  const day = new Date(`${today}T12:00:00Z`).getUTCDay();
  return addDays(today, -((day + 6) % 7));
}

interface ReminderPlan {
  recipients: (Recipient & { deadlines: Map<string, string> })[];
  unreachable: number;
  skipped: number;
  settings: NoticeSettings;
  today: string;
}

/**
 * Who the reminders would go to today: families of students whose form level's window is open
 * with a deadline within the school's N days, whose record waits on the family (not started, in
 * progress, or returned by the office: neither submitted nor verified, D56), who had no reminder
 * in the last 7 days and did not turn them off.
 */
async function planReminders(db: Db, now: Date): Promise<ReminderPlan> {
  const settings = await getNoticeSettings(db);
  const today = schoolToday(now);
  const last = addDays(today, settings.reminder_days);
  const deadlines = new Map<string, string>();
  for (const row of await repo.listStudentsForReminders(db)) {
    const open = row.own_open !== null ? row.own_open : row.default_open;
    const deadline = row.own_open !== null ? row.own_deadline : row.default_deadline;
    if (open !== 1 || !deadline || deadline < today || deadline > last) continue;
    // A record waits on the family unless it is submitted or verified (D56); a returned one does too.
    const flags = row.student_data === null ? null : { studentData: row.student_data, familyData: row.family_data ?? 0, healthData: row.health_data ?? 0, otherData: row.other_data ?? 0, documents: row.documents ?? 0, submit: row.submit ?? 0 };
    const state = registrationStateOf(flags, row.review_state);
    if (state !== 'submitted' && state !== 'verified') deadlines.set(row.id, deadline);
  }
  const { recipients, unreachable } = await recipientsOf(db, [...deadlines.keys()]);
  const keys = recipients.map((recipient) => recipient.key);
  const recent = await repo.recipientsNotifiedSince(db, 'deadline-reminder', keys, new Date(now.getTime() - WEEK_MS).toISOString());
  const off = new Set((await repo.listPreferences(db, keys)).filter((row) => row.kind === 'deadline-reminder' && row.enabled === 0).map((row) => row.recipient_key));
  const chosen = recipients.filter((recipient) => !recent.has(recipient.key) && !off.has(recipient.key));
  return {
    recipients: chosen.map((recipient) => ({ ...recipient, deadlines: new Map(recipient.studentIds.map((id) => [id, deadlines.get(id)!])) })),
    unreachable: unreachable.length,
    skipped: recipients.length - chosen.length,
    settings,
    today,
  };
}

/** The office's preview: exactly who a send now would remind, and about which children. */
export async function previewReminders(db: Db, now: Date = new Date()): Promise<ReminderPreview> {
  const plan = await planReminders(db, now);
  const names = await namesOf(db, plan.recipients.flatMap((recipient) => recipient.studentIds));
  const recipients: ReminderRecipient[] = plan.recipients.map((recipient) => ({
    email: recipient.email,
    name: recipient.name,
    account: recipient.userId !== null,
    students: recipient.studentIds.map((id) => ({ id, name: names.get(id) ?? id, deadline: recipient.deadlines.get(id)! })),
  }));
  return { reminder_days: plan.settings.reminder_days, today: plan.today, recipients, unreachable_students: plan.unreachable, skipped: plan.skipped };
}

/**
 * Sends the reminders the preview lists. Each family's notice has the key
 * `reminder:<recipient>:<week>`, unique in the database: two sends in one week (two clicks, two
 * processes) cannot both write; the 7-day look-back of the plan keeps a Sunday and the next
 * Monday apart too. Audited as one row with the count.
 */
export async function sendReminders(db: Db, actor: Actor, now: Date = new Date()): Promise<{ sent: number }> {
  const plan = await planReminders(db, now);
  const names = await namesOf(db, plan.recipients.flatMap((recipient) => recipient.studentIds));
  const week = weekOf(plan.today);
  let sent = 0;
  for (const recipient of plan.recipients) {
    const deadline = [...recipient.deadlines.values()].sort()[0]!;
    const done = await db.transaction().execute((trx) => sendToRecipient(trx, recipient, 'deadline-reminder', { deadline }, names, `reminder:${recipient.key}:${week}`));
    if (done) sent += 1;
  }
  await writeAudit(db, { ...actor, action: 'deadline-reminders-sent', entity: 'notices', entity_id: 'deadline-reminder', field: 'sent', old_value: null, new_value: String(sent) });
  return { sent };
}

// ---- the notices list, preferences, unsubscribe ------------------------------------------------

const LIST_LIMIT = 200;

/** A stored notice's data as its template reads it; null when it is not an object. */
function parseNoticeData(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * What the portal shows of a stored notice: never its unsubscribe token. The portal's copy is read
 * by the child as well as the parent, and the link turns a parent's messages off; notices written
 * before the portal's copy left the token out still hold one.
 */
function shownData(data: Record<string, unknown>): Record<string, unknown> {
  const { unsubscribeToken: _token, ...shown } = data;
  return shown;
}

function toNotice(row: repo.NoticeRow, studentIds: string[], context: MailContext): Notice {
  const render = Object.hasOwn(NOTICE_CONTENT, row.kind) ? (NOTICE_CONTENT[row.kind as NoticeTemplateName] as (data: unknown, c: MailContext) => MailContent) : null;
  let content: MailContent = { subject: 'A message from the school', heading: 'A message from the school', blocks: [] };
  const data = parseNoticeData(row.data);
  try {
    if (render && data) content = render(shownData(data), context);
  } catch {
    // A notice this version cannot write (D53's rule for stored data) still shows as a notice.
  }
  return { id: row.id, kind: row.kind, subject: content.subject, heading: content.heading, blocks: [...content.blocks], student_ids: studentIds, created_at: row.created_at, read: row.read_at !== null };
}

/**
 * The signed-in person's notices, newest first: a family account's own; a student's about them
 * alone. Staff have no notices list.
 */
export async function listNotices(db: Db, who: Caller, context: MailContext): Promise<NoticeList> {
  let rows: repo.NoticeRow[];
  if (isGuardianCaller(who)) rows = await repo.listNoticesOfUser(db, who.userId, LIST_LIMIT);
  else if (isStudentCaller(who)) rows = dedupe(await repo.listNoticesOfStudent(db, who.studentId, LIST_LIMIT * 4));
  else throw forbidden('Notices are for families and students.');
  const links = await repo.listNoticeStudents(db, rows.map((row) => row.id));
  const notices = rows.slice(0, LIST_LIMIT).map((row) => toNotice(row, links.filter((link) => link.notice_id === row.id).map((link) => link.student_id), context));
  return { notices, unread: isGuardianCaller(who) ? notices.filter((notice) => !notice.read).length : 0 };
}

/** A family with two recipients has two copies of each message; a student sees it once (read marks are the family's). */
function dedupe(rows: repo.NoticeRow[]): repo.NoticeRow[] {
  const seen = new Set<string>();
  return rows
    .filter((row) => {
      const key = `${row.kind}\u0000${JSON.stringify(shownData(parseNoticeData(row.data) ?? {}))}\u0000${row.created_at.slice(0, 16)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((row) => ({ ...row, read_at: row.created_at }));
}

/** Marks a family account's notice read; another account's notice is 404 (not revealed). */
export async function markNoticeRead(db: Db, userId: number, id: number): Promise<void> {
  const notice = await repo.findNoticeOfUser(db, id, userId);
  if (!notice) throw notFound('No notice of yours has this id.');
  await repo.markRead(db, id, nowIso());
}

export async function getPreferences(db: Db, userId: number): Promise<NoticePreferences> {
  const rows = await repo.listPreferences(db, [`user:${userId}`]);
  const on = (kind: OptionalNoticeKind) => !rows.some((row) => row.kind === kind && row.enabled === 0);
  return { 'attendance-digest': on('attendance-digest'), 'deadline-reminder': on('deadline-reminder') };
}

/** A family account changes its choices; each change audited. */
export async function updatePreferences(db: Db, userId: number, preferences: NoticePreferences, actor: Actor): Promise<NoticePreferences> {
  return db.transaction().execute(async (trx) => {
    const old = await getPreferences(trx, userId);
    const at = nowIso();
    for (const kind of OPTIONAL_NOTICE_KINDS) {
      if (old[kind] === preferences[kind]) continue;
      await repo.putPreference(trx, `user:${userId}`, kind, preferences[kind], at);
      await writeAudit(trx, { ...actor, action: 'notice-preference', entity: 'notices', entity_id: `user:${userId}`, field: kind, old_value: String(old[kind]), new_value: String(preferences[kind]) });
    }
    return getPreferences(trx, userId);
  });
}

/**
 * An unsubscribe link (no sign-in): turns off the one kind for the one recipient the token names,
 * nothing else; answers what was turned off. A token that does not verify is 400.
 */
export async function unsubscribe(db: Db, token: string, actor: Actor): Promise<UnsubscribeAnswer> {
  const read = await readToken(db, token);
  if (!read) throw badRequest('This link is not valid; open it again from the message.', { token: ['This link is not valid; open it again from the message.'] });
  const email = read.recipientKey.startsWith('user:')
    ? await repo.findUserEmail(db, Number(read.recipientKey.slice(5)))
    : read.recipientKey.slice(6);
  await db.transaction().execute(async (trx) => {
    await repo.putPreference(trx, read.recipientKey, read.kind, false, nowIso());
    await writeAudit(trx, { ...actor, action: 'notice-unsubscribe', entity: 'notices', entity_id: read.recipientKey, field: read.kind, old_value: null, new_value: 'false' });
  });
  return { kind: read.kind, label: OPTIONAL_NOTICE_LABELS[read.kind], email };
}

// ---- verified parent e-mails (the office) ------------------------------------------------------

/**
 * An invitation mailed to `email` was opened by the family account of that address (D83): each
 * parent e-mail of the record that is this address counts as verified, as if the office had
 * checked it, by that account. Audited under the student like the office's mark.
 */
export async function markRecordEmailVerified(trx: Db, studentId: string, email: string, userId: number, actor: Actor): Promise<void> {
  const [student] = await repo.findStudents(trx, [studentId]);
  const marks = await repo.listEmailVerifications(trx, [studentId]);
  const address = normalEmail(email);
  if (!student || address === '') return;
  for (const parent of PARENT_EMAIL_FIELDS) {
    if (parentEmailOf(student, parent) !== address) continue;
    if (marks.some((mark) => mark.parent === parent && mark.email === address)) continue;
    await repo.upsertEmailVerification(trx, { studentId, parent, email: address, userId, at: nowIso() });
    await writeAudit(trx, { ...actor, action: 'parent-email-verified', entity: 'students', entity_id: studentId, field: `email_${parent}`, old_value: null, new_value: `${address} (invitation opened)` });
  }
}

export async function listParentEmails(db: Db, studentId: string): Promise<ParentEmailList> {
  const [student] = await repo.findStudents(db, [studentId]);
  if (!student) throw notFound('No student has this ID.');
  const marks = await repo.listEmailVerifications(db, [studentId]);
  return {
    emails: PARENT_EMAIL_FIELDS.map((parent) => {
      const email = parentEmailOf(student, parent);
      const mark = marks.find((row) => row.parent === parent && row.email === email && email !== '');
      return { parent, email: email || null, verified: mark !== undefined, verified_at: mark?.created_at ?? null };
    }),
  };
}

/**
 * The office marks a record's parent e-mail as verified (it spoke to the parent), or takes the
 * mark away. The body repeats the address the office checked: if the record changed meanwhile the
 * answer is 409 instead of marking an address nobody checked. Audited under the student.
 */
export async function setParentEmailVerified(db: Db, studentId: string, parent: ParentEmailField, input: { email: string; verified: boolean }, actor: Actor): Promise<ParentEmailList> {
  await db.transaction().execute(async (trx) => {
    const [student] = await repo.findStudents(trx, [studentId]);
    if (!student) throw notFound('No student has this ID.');
    const current = parentEmailOf(student, parent);
    if (input.verified) {
      if (current === '' || current !== input.email) {
        throw badRequest("The record's e-mail is not this address any more; reload and check it again.", { email: ["The record's e-mail is not this address."] });
      }
      await repo.upsertEmailVerification(trx, { studentId, parent, email: current, userId: actor.actor_user_id, at: nowIso() });
    } else if (!(await repo.deleteEmailVerification(trx, studentId, parent))) {
      return;
    }
    await writeAudit(trx, { ...actor, action: input.verified ? 'parent-email-verified' : 'parent-email-unverified', entity: 'students', entity_id: studentId, field: `email_${parent}`, old_value: null, new_value: input.email });
  });
  return listParentEmails(db, studentId);
}
