import { createHash } from 'node:crypto';
import {
  ABSENCE_ATTACHMENT,
  ABSENCE_NOTE_MAX_SCHOOL_DAYS,
  ABSENCE_NOTE_MESSAGES,
  ABSENCE_NOTE_STATE_LABELS,
  ABSENCE_PART_LABELS,
  ABSENCE_QUEUE_PAGE,
  absenceNoteAttachmentUrl,
  absenceReasonLabel,
  decisionReasonText,
  type AbsenceDecisionReason,
  type AbsenceNote,
  type AbsenceNoteAnswer,
  type AbsenceNoteDetail,
  type AbsenceNoteList,
  type AbsenceNoteQueue,
  type AbsenceNoteQueueQuery,
  type AbsenceNoteState,
  type AbsenceReason,
  type DecideAbsenceNoteInput,
  type SendAbsenceNoteFields,
} from '../../shared/absence-notes.schemas.js';
import type { AbsencePart } from '../../shared/attendance.stats.js';
import { schoolToday, toDayFirstDate } from '../../shared/dates.js';
import { cleanFileName, DOCUMENT_KINDS } from '../../shared/documents.schemas.js';
import { listSchoolDays } from '../../shared/school-days.js';
import { isGuardianCaller, requireCan, visibleClassIds, type Caller } from '../access/roles.js';
import { authorizeAbsenceNoteOwner, authorizeAbsenceNoteReader, maySendAbsenceNoteFor, requireOnRoll } from '../access/scopes.js';
import * as attendance from '../attendance/attendance.service.js';
import { writeAudit } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import { checkUploadedFile } from '../documents/documents.service.js';
import { latestEnrolmentEventsOf } from '../enrolment/enrolment.service.js';
import { conflict, fieldError, notFound } from '../http/errors.js';
import type { Actor } from '../http/request-context.js';
import { notifyFamilies } from '../notices/notices.service.js';
import * as repo from './absence-notes.repository.js';

/**
 * Absence notes (docs/decisions.md D93). A family account (or a student with none linked) sends a
 * note for a day or a range of one term, whole day, a session or a late arrival; withdraws it
 * while it waits. The class's form teacher, the office and the principal decide it; the family is
 * told once per decision (a notice and its mail, in the decision's transaction). Every step is an
 * audit row under the student, so it is in the student's history and goes with the student's
 * data on deletion. Whether an absence is excused is derived from the accepted notes by the
 * attendance figures, never written on the records.
 */

/** A school day range a note may cover, checked against the terms, the holidays and the student's enrolment. */
async function requireValidRange(db: Db, studentId: string, from: string, to: string, today: string): Promise<number> {
  const terms = await attendance.listTermsCovering(db, from, to);
  const termOf = (date: string) => terms.find((term) => term.start_date <= date && date <= term.end_date);
  const first = termOf(from);
  const last = termOf(to);
  if (!first && !last) throw fieldError('date_from', ABSENCE_NOTE_MESSAGES.noTerm);
  if (!first || !last || first !== last) throw fieldError('date_to', ABSENCE_NOTE_MESSAGES.acrossTerms);
  const screen = await attendance.findScreenTerm(db, today);
  if (!screen || screen.year !== first.year || screen.term !== first.term) throw fieldError('date_from', ABSENCE_NOTE_MESSAGES.otherTerm);
  const schoolDays = (await attendance.listSchoolDaysBetween(db, from, to)).length;
  if (schoolDays === 0) throw fieldError('date_from', ABSENCE_NOTE_MESSAGES.noSchoolDay);
  if (schoolDays > ABSENCE_NOTE_MAX_SCHOOL_DAYS) throw fieldError('date_to', ABSENCE_NOTE_MESSAGES.tooManyDays);
  const enrolledOn = (await latestEnrolmentEventsOf(db, [studentId])).get(studentId)?.entry?.on;
  if (enrolledOn && from < enrolledOn) throw fieldError('date_from', ABSENCE_NOTE_MESSAGES.beforeEnrolment(toDayFirstDate(enrolledOn)));
  return schoolDays;
}

/** Two parts of one day overlap unless they are different sessions or a session and a late arrival. */
function partsOverlap(a: AbsencePart, b: AbsencePart): boolean {
  return a === 'whole_day' || b === 'whole_day' || a === b;
}

/** What the audit row says of a note: its days, part and reason, never the family's words. */
function describeNote(note: { id: number; date_from: string; date_to: string; part: AbsencePart; reason: string }, state: AbsenceNoteState): string {
  const days = note.date_from === note.date_to ? note.date_from : `${note.date_from} to ${note.date_to}`;
  return `Note ${note.id}: ${days}, ${ABSENCE_PART_LABELS[note.part].toLowerCase()}, ${absenceReasonLabel(note.reason)}: ${ABSENCE_NOTE_STATE_LABELS[state].toLowerCase()}`;
}

async function auditNote(trx: Db, actor: Actor, note: repo.NoteRow | (repo.NewNote & { id: number }), action: string, from: AbsenceNoteState | null, to: AbsenceNoteState): Promise<void> {
  await writeAudit(trx, {
    ...actor,
    action,
    entity: 'student',
    entity_id: note.student_id,
    field: 'absence_note',
    old_value: from === null ? null : describeNote(note, from),
    new_value: describeNote(note, to),
  });
}

/** The number of school days of each note, with one read of the holidays across them all. */
async function schoolDayCounter(db: Db, rows: readonly repo.NoteRow[]): Promise<(row: repo.NoteRow) => number> {
  if (rows.length === 0) return () => 0;
  const from = rows.reduce((min, row) => (row.date_from < min ? row.date_from : min), rows[0]!.date_from);
  const to = rows.reduce((max, row) => (row.date_to > max ? row.date_to : max), rows[0]!.date_to);
  const open = new Set(await attendance.listSchoolDaysBetween(db, from, to));
  return (row) => listSchoolDays(row.date_from, row.date_to).filter((day) => open.has(day)).length;
}

function toNote(row: repo.NoteRow, schoolDays: number): AbsenceNote {
  return {
    id: row.id,
    student_id: row.student_id,
    sender: row.sender,
    sent_by: row.sent_by_name,
    date_from: row.date_from,
    date_to: row.date_to,
    part: row.part,
    reason: row.reason as AbsenceReason,
    text: row.text,
    attachment: row.file_name === null ? null : { url: absenceNoteAttachmentUrl(row.id), file_name: row.file_name, mime: row.mime ?? '', size: Number(row.size ?? 0) },
    state: row.state,
    school_days: schoolDays,
    decision:
      row.decided_at === null || row.decision_reason === null
        ? null
        : { reason: row.decision_reason as AbsenceDecisionReason, text: row.decision_text ?? '', decided_by: row.decided_by_name, decided_at: row.decided_at },
    created_at: row.created_at,
    withdrawn_at: row.withdrawn_at,
  };
}

async function toNotes(db: Db, rows: readonly repo.NoteRow[]): Promise<AbsenceNote[]> {
  const count = await schoolDayCounter(db, rows);
  return rows.map((row) => toNote(row, count(row)));
}

async function requireNote(db: Db, id: number): Promise<repo.NoteRow> {
  const note = await repo.findNote(db, id);
  if (!note) throw notFound('No absence note has this id.');
  return note;
}

/** The attachment as given: its original name and bytes (checked here like a document's). */
export interface NoteFile {
  name: string;
  bytes: Buffer;
}

/**
 * Sends a note (the route has checked that the caller may send for this student). The range's
 * rules first (one term, this term, at most 30 school days, a school day in it, not before the
 * student joined), then the attachment's checks (the documents' own), then in one transaction the
 * overlap check, the note, its attachment and the audit row: a double submit or a second tab
 * finds the first note and is refused (409).
 */
export async function sendNote(db: Db, caller: Caller, actor: Actor, fields: SendAbsenceNoteFields, file: NoteFile | undefined, today = schoolToday()): Promise<AbsenceNoteAnswer> {
  const student = await repo.findStudent(db, fields.student_id);
  if (!student) throw notFound('No student has this ID.');
  await requireOnRoll(db, student.id);
  const from = fields.date_from;
  const to = fields.date_to ?? fields.date_from;
  const schoolDays = await requireValidRange(db, student.id, from, to, today);
  const checked = file ? await checkUploadedFile(file.bytes, ABSENCE_ATTACHMENT) : undefined;
  const note: repo.NewNote = {
    student_id: student.id,
    sender: isGuardianCaller(caller) ? 'family' : 'student',
    sent_by_user_id: caller.userId,
    date_from: from,
    date_to: to,
    part: fields.part,
    reason: fields.reason,
    text: fields.text?.trim() ?? '',
  };
  const id = await db.transaction().execute(async (trx) => {
    await repo.lockStudent(trx, student.id);
    const waiting = await repo.listWaitingOverlapping(trx, student.id, from, to);
    if (waiting.some((other) => partsOverlap(other.part, fields.part))) {
      throw conflict(ABSENCE_NOTE_MESSAGES.overlapsWaiting, { date_from: [ABSENCE_NOTE_MESSAGES.overlapsWaiting] });
    }
    const at = nowIso();
    const noteId = await repo.insertNote(trx, note, at);
    if (file && checked) {
      await repo.insertAttachment(
        trx,
        noteId,
        {
          file_name: cleanFileName(file.name, checked.kind, 'doctors-note'),
          mime: DOCUMENT_KINDS[checked.kind].mime,
          size: checked.bytes.length,
          sha256: createHash('sha256').update(checked.bytes).digest('hex'),
          bytes: checked.bytes,
        },
        at,
      );
    }
    await auditNote(trx, actor, { ...note, id: noteId }, 'absence-note-sent', null, 'waiting');
    return noteId;
  });
  return { message: ABSENCE_NOTE_MESSAGES.sent, note: toNote(await requireNote(db, id), schoolDays) };
}

/** A student's notes, newest days first: every note for the family and staff, a student's own for a student (D93). */
export async function listNotes(db: Db, caller: Caller, studentId: string): Promise<AbsenceNoteList> {
  if (!(await repo.findStudent(db, studentId))) throw notFound('No student has this ID.');
  const rows = await repo.listNotesOf(db, studentId, caller.kind === 'student' ? 'student' : null);
  return { can_send: await maySendAbsenceNoteFor(db, caller, studentId), notes: await toNotes(db, rows) };
}

/** One note with its student and the student's attendance on its school days; 404 unknown, 403 not the caller's to read. */
export async function readNote(db: Db, caller: Caller, id: number): Promise<AbsenceNoteDetail> {
  const row = await requireNote(db, id);
  await authorizeAbsenceNoteReader(db, caller, row);
  const [student, days] = await Promise.all([repo.findStudent(db, row.student_id), attendance.listNoteDays(db, row.student_id, row.date_from, row.date_to)]);
  return {
    note: toNote(row, days.length),
    student: { id: row.student_id, first_name: student?.first_name ?? null, last_name: student?.last_name ?? null, class_id: student?.class_id ?? null },
    days: days.map((day) => ({ date: day.date, status: day.status, time_in: day.timeIn, excused: day.excused })),
  };
}

/** A note's attachment, to whoever may read the note; 404 when it has none. */
export async function openAttachment(db: Db, caller: Caller, id: number): Promise<{ file_name: string; mime: string; bytes: Buffer }> {
  const row = await requireNote(db, id);
  await authorizeAbsenceNoteReader(db, caller, row);
  const attachment = await repo.findAttachment(db, id);
  if (!attachment) throw notFound('This note has no attachment.');
  return attachment;
}

/** The family (or the student who sent it) withdraws a note while it waits; 409 once it is decided or withdrawn. */
export async function withdrawNote(db: Db, caller: Caller, actor: Actor, id: number): Promise<AbsenceNoteAnswer> {
  const before = await requireNote(db, id);
  await authorizeAbsenceNoteOwner(db, caller, before);
  await db.transaction().execute(async (trx) => {
    if (!(await repo.leaveWaiting(trx, id, { state: 'withdrawn', withdrawn_at: nowIso() }))) {
      const now = await requireNote(trx, id);
      throw conflict(ABSENCE_NOTE_MESSAGES.notWaiting(now.state));
    }
    await auditNote(trx, actor, before, 'absence-note-withdrawn', 'waiting', 'withdrawn');
  });
  const [note] = await toNotes(db, [await requireNote(db, id)]);
  return { message: ABSENCE_NOTE_MESSAGES.withdrawn, note: note! };
}

/**
 * The queue (the route allows the review action): waiting first; a form teacher's narrowed to
 * their classes, and a class of another's refused (403).
 */
export async function listQueue(db: Db, caller: Caller, query: AbsenceNoteQueueQuery): Promise<AbsenceNoteQueue> {
  if (query.class_id) requireCan(caller, 'absence-notes.review', { classId: query.class_id });
  const classIds = visibleClassIds(caller);
  if (classIds !== null && classIds.length === 0) return { total: 0, waiting: 0, items: [] };
  const { rows, total, waiting } = await repo.listQueue(db, query, classIds, ABSENCE_QUEUE_PAGE);
  const count = await schoolDayCounter(db, rows);
  return {
    total,
    waiting,
    items: rows.map((row) => ({ ...toNote(row, count(row)), student: { first_name: row.first_name, last_name: row.last_name, class_id: row.class_id } })),
  };
}

/**
 * Accepts or declines a waiting note: the class's form teacher, the office, the principal. One transaction stores the decision, its audit row and the family's notice and
 * mail, keyed by the note so a decision is told once; a second decision (two tabs, two teachers)
 * finds the note decided and is refused (409) without telling anyone again.
 */
export async function decideNote(db: Db, caller: Caller, actor: Actor, id: number, input: DecideAbsenceNoteInput): Promise<AbsenceNoteAnswer> {
  const before = await requireNote(db, id);
  const student = await repo.findStudent(db, before.student_id);
  requireCan(caller, 'absence-notes.review', { studentId: before.student_id, classId: student?.class_id ?? null });
  await requireOnRoll(db, before.student_id);
  const state: 'accepted' | 'declined' = input.decision === 'accept' ? 'accepted' : 'declined';
  const reason: AbsenceDecisionReason = input.reason ?? 'as_explained';
  const text = decisionReasonText(reason, input.details);
  await db.transaction().execute(async (trx) => {
    const stored = await repo.leaveWaiting(trx, id, { state, decision_reason: reason, decision_text: text, decided_by_user_id: caller.userId, decided_at: nowIso() });
    if (!stored) {
      const now = await requireNote(trx, id);
      throw conflict(ABSENCE_NOTE_MESSAGES.notWaiting(now.state));
    }
    await auditNote(trx, actor, before, state === 'accepted' ? 'absence-note-accepted' : 'absence-note-declined', 'waiting', state);
    await notifyFamilies(trx, {
      studentIds: [before.student_id],
      kind: 'absence-note-decided',
      data: () => ({ decision: state, dateFrom: before.date_from, dateTo: before.date_to, partLabel: ABSENCE_PART_LABELS[before.part], reason: text }),
      noticeKey: (recipient) => `absence-note:${id}:${recipient.key}`,
    });
  });
  const [note] = await toNotes(db, [await requireNote(db, id)]);
  return { message: state === 'accepted' ? ABSENCE_NOTE_MESSAGES.accepted : ABSENCE_NOTE_MESSAGES.declined, note: note! };
}
