import { findScreenTerm, listSchoolDaysBetween } from '../../src/server/attendance/attendance.service.js';
import { nowIso, type Db } from '../../src/server/db/database.js';
import type { AbsenceNoteState } from '../../src/shared/absence-notes.schemas.js';
import type { AbsencePart } from '../../src/shared/attendance.stats.js';
import { schoolToday } from '../../src/shared/dates.js';
import { addDays } from '../../src/shared/school-days.js';

/**
 * Absence notes for the tests (docs/decisions.md D93): the school days a note may cover on the demo
 * school (this term's, up to today), and notes written directly as the service writes them, for
 * the calls that need one to exist.
 */

/** This term's school days up to today, oldest first: the days a family explains after the fact. */
export async function pastSchoolDaysOfTerm(db: Db, today = schoolToday()): Promise<string[]> {
  const term = await findScreenTerm(db, today);
  if (!term) throw new Error('the demo school has no term that has started');
  const until = term.end_date < today ? term.end_date : today;
  return listSchoolDaysBetween(db, term.start_date, until);
}

/** This term's school days after today, oldest first: the days a family plans an absence for. */
export async function futureSchoolDaysOfTerm(db: Db, today = schoolToday()): Promise<string[]> {
  const term = await findScreenTerm(db, today);
  if (!term || term.end_date <= today) return [];
  return listSchoolDaysBetween(db, addDays(today, 1), term.end_date);
}

/** The family account linked to a student (the first), or null. */
export async function familyOf(db: Db, studentId: string): Promise<number | null> {
  const row = await db.selectFrom('guardian_students').select('user_id').where('student_id', '=', studentId).orderBy('user_id').executeTakeFirst();
  return row?.user_id ?? null;
}

/** A note written directly: from the student's family (its first linked account) unless told otherwise, waiting, for the whole of one day unless told otherwise. */
export async function insertAbsenceNote(
  db: Db,
  note: { studentId: string; date: string; dateTo?: string; part?: AbsencePart; sender?: 'family' | 'student'; state?: AbsenceNoteState; attachment?: Buffer },
): Promise<number> {
  const sender = note.sender ?? 'family';
  const userId =
    sender === 'family'
      ? await familyOf(db, note.studentId)
      : ((await db.selectFrom('users').select('id').where('student_id', '=', note.studentId).executeTakeFirst())?.id ?? null);
  const at = nowIso();
  const { id } = await db
    .insertInto('absence_notes')
    .values({
      student_id: note.studentId,
      sender,
      sent_by_user_id: userId,
      date_from: note.date,
      date_to: note.dateTo ?? note.date,
      part: note.part ?? 'whole_day',
      reason: 'illness',
      text: 'A fever since the night before.',
      state: note.state ?? 'waiting',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (note.attachment) {
    await db
      .insertInto('absence_note_attachments')
      .values({ note_id: id, file_name: 'doctors-note.png', mime: 'image/png', size: note.attachment.length, sha256: 'sample', bytes: note.attachment, created_at: at, updated_at: at })
      .execute();
  }
  return id;
}
