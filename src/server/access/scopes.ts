import { ABSENCE_NOTE_MESSAGES } from '../../shared/absence-notes.schemas.js';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { FORMER_STUDENT_MESSAGE } from '../../shared/rollover.schemas.js';
import type { StudentAction } from '../../shared/staff.js';
import type { Db } from '../db/database.js';
import { AppError, forbidden } from '../http/errors.js';
import * as repo from './access.repository.js';
import { isStaffCaller, isStudentCaller, maySendOwnAbsenceNotes, reachesByClass, readsAbsenceNote, requireCan, type Caller } from './roles.js';

/**
 * May this caller reach this student (D49, D60)? The role table (access/roles.ts) answers with
 * the student's class; here that class, and whether the student has left, are read. Routes that
 * name the student in a parameter or the body are checked by the access plugin (http/access.ts);
 * the few that learn the student from stored data call `authorizeStudent` themselves, and a
 * service that reads the student's row anyway judges that row with `authorizeStudentRow`.
 */

/** The student actions that change a record or its account: refused on a former student's record. */
const EDITS: ReadonlySet<StudentAction> = new Set<StudentAction>(['student.edit', 'student.reset-password', 'student.invite-family']);

/** Whether the check needs the student's row: for a caller whose reach is by class, or an edit. */
function needsRow(who: Caller, action: StudentAction): boolean {
  return (isStaffCaller(who) && reachesByClass(who.role)) || EDITS.has(action);
}

/**
 * Throws 403 unless the caller may take the action on this student, then 422 when the action
 * edits a former student's record. The student's row is read only when it matters (a form
 * teacher's reach, an edit); a student that does not exist is refused to a form teacher like any
 * other outside their classes, and left to the route's own 404 for everyone else.
 */
export async function authorizeStudent(db: Db, who: Caller, action: StudentAction, studentId: string): Promise<void> {
  // An id that cannot be a student's (a NUL, say, which PostgreSQL refuses in text) is looked up
  // nowhere: it reaches no record, and the route's own schema answers it 400.
  const row = needsRow(who, action) && couldBeStudentId(studentId) ? await repo.findStudentScope(db, studentId) : undefined;
  authorizeStudentRow(who, action, studentId, row);
}

/**
 * `authorizeStudent` on a row the caller has read already (undefined: no such student), so a
 * service that reads the student anyway reads them once.
 */
export function authorizeStudentRow(who: Caller, action: StudentAction, studentId: string, row: repo.StudentScope | undefined): void {
  requireCan(who, action, { studentId, classId: row?.class_id ?? null });
  if (EDITS.has(action) && row?.left_on) throw formerStudentRefusal();
}

/**
 * The one rule that keeps a former student's record read-only (D60), whoever asks: every
 * per-student edit reaches it through `authorizeStudent`; the office's review decisions, which
 * name the student under a school action, call it themselves.
 */
export async function requireOnRoll(db: Db, studentId: string): Promise<void> {
  if (!couldBeStudentId(studentId)) return;
  const row = await repo.findStudentLeftOn(db, studentId);
  if (row?.left_on) throw formerStudentRefusal();
}

/**
 * Throws 403 unless the caller may send (or withdraw) an absence note for this student (D93): a
 * family account linked to the child, or the student themself while no family account is linked.
 */
export async function authorizeAbsenceNoteSender(db: Db, who: Caller, studentId: string): Promise<void> {
  await authorizeStudent(db, who, 'absence-notes.send', studentId);
  if (isStudentCaller(who) && !maySendOwnAbsenceNotes(await repo.hasLinkedFamily(db, studentId))) throw forbidden(ABSENCE_NOTE_MESSAGES.studentHasFamily);
}

/** Whether the caller may send an absence note for this student now (the notes screen shows its form only then). */
export async function maySendAbsenceNoteFor(db: Db, who: Caller, studentId: string): Promise<boolean> {
  try {
    await authorizeAbsenceNoteSender(db, who, studentId);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 403) return false;
    throw error;
  }
}

/**
 * Throws 403 unless the caller may read this absence note, its text and its attachment (D93):
 * whoever reads the student's notes, a student only the notes they sent.
 */
export async function authorizeAbsenceNoteReader(db: Db, who: Caller, note: { student_id: string; sender: 'family' | 'student' }): Promise<void> {
  await authorizeStudent(db, who, 'absence-notes.read', note.student_id);
  if (!readsAbsenceNote(who, note)) throw forbidden(ABSENCE_NOTE_MESSAGES.notYours);
}

/**
 * Throws 403 unless the caller may withdraw this note (D93): one who may send notes for the
 * student (a linked family account, or the student), and a student only a note they sent.
 */
export async function authorizeAbsenceNoteOwner(db: Db, who: Caller, note: { student_id: string; sender: 'family' | 'student' }): Promise<void> {
  await authorizeStudent(db, who, 'absence-notes.send', note.student_id);
  if (!readsAbsenceNote(who, note)) throw forbidden(ABSENCE_NOTE_MESSAGES.notYours);
}

function couldBeStudentId(id: string): boolean {
  return StudentIdSchema.safeParse(id).success;
}

function formerStudentRefusal(): AppError {
  return new AppError(422, 'former_student', FORMER_STUDENT_MESSAGE);
}
