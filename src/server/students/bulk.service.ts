import { matchesStudentFilter, type StudentListFilter } from '../../shared/students.schemas.js';
import {
  BULK_INVITE_REPEAT_HOURS,
  studentsWord,
  type BulkAnswer,
  type BulkChangeClassInput,
  type BulkInviteInput,
  type BulkPaperDocumentInput,
  type BulkSelection,
  type BulkSummary,
} from '../../shared/bulk.schemas.js';
import { findSlot } from '../../shared/documents.slots.js';
import { RECORD_PARENT_EMAIL_FIELDS } from '../../shared/family.schemas.js';
import { FORMER_STUDENT_MESSAGE } from '../../shared/rollover.schemas.js';
import { writeAudit, type AuditEntry } from '../audit/audit.repository.js';
import { nowIso, type Db } from '../db/database.js';
import { inviteRecordParents, type RecordInvitation } from '../family/family.service.js';
import { AppError, badRequest, conflict, fieldError, notFound } from '../http/errors.js';
import { requireCan, visibleClassIds, type Caller } from '../access/roles.js';
import type { Actor } from '../http/request-context.js';
import type { StudentAction } from '../../shared/staff.js';
import * as adminRepo from './students.repository.js';
import { listStudents } from './students.service.js';
import * as repo from './bulk.repository.js';

/**
 * The student list's bulk actions (docs/decisions.md D83). A selection is the rows ticked or the
 * list's filter, applied here to the caller's own list (a form teacher's classes), never a list of
 * ids the browser gathered from a page it may have loaded long ago. Each action is one
 * transaction, all or nothing, with an audit row per student; each student must be one the
 * single-student action allows (`requireCan`), and none may be a former student.
 */

/** The students a selection names: those on the roll, and how many former students it leaves out. */
interface Resolved {
  students: repo.BulkStudentRow[];
  formerLeftOut: number;
  /** The selection named former students row by row (not through the filter): an action refuses it. */
  namesFormer: boolean;
}

/** The ids the list shows for this filter, to this caller, former students included: the list's own rule. */
async function idsMatching(db: Db, who: Caller, filter: StudentListFilter): Promise<string[]> {
  const classIds = visibleClassIds(who);
  if (filter.registration !== undefined) {
    // The registration stage is computed from each record, not stored: the list's own computation.
    const students = await listStudents(db, classIds, new Date(), true);
    return students.filter((student) => matchesStudentFilter(student, filter)).map((student) => student.id);
  }
  const scope: adminRepo.StudentListScope = {
    classIds,
    filter: { ...(filter.search !== undefined ? { search: filter.search } : {}), ...(filter.class_id !== undefined ? { class_id: filter.class_id } : {}), former: 'include' },
  };
  return adminRepo.listStudentIdsInOrder(db, scope, 'id', 'asc');
}

async function resolveSelection(db: Db, who: Caller, selection: BulkSelection): Promise<Resolved> {
  if (selection.kind === 'ids') {
    const ids = [...new Set(selection.ids)];
    const rows = await repo.findBulkStudents(db, ids);
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw notFound(`No student has the ID ${missing}.`);
    const students = rows.filter((row) => row.left_on === null);
    return { students, formerLeftOut: rows.length - students.length, namesFormer: students.length < rows.length };
  }
  const filter = selection.filter;
  const ids = await idsMatching(db, who, filter);
  const rows = await repo.findBulkStudents(db, ids);
  // "Include former students" shows them in the list, but a selection never changes them (D60).
  const students = rows.filter((row) => row.left_on === null);
  const formerLeftOut = filter.former === 'include' ? rows.length - students.length : 0;
  return { students, formerLeftOut, namesFormer: false };
}

/**
 * The students an action will change: the selection on the roll, each one the caller may take
 * `action` on (403 naming the reason otherwise), as many as the dialog counted (409 otherwise).
 */
async function requireSelection(db: Db, who: Caller, selection: BulkSelection, action: StudentAction, expected: number | undefined): Promise<repo.BulkStudentRow[]> {
  const { students, namesFormer } = await resolveSelection(db, who, selection);
  for (const student of students) requireCan(who, action, { studentId: student.id, classId: student.class_id });
  if (namesFormer) throw new AppError(422, 'former_student', `${FORMER_STUDENT_MESSAGE} Leave former students out of the selection.`);
  if (students.length === 0) throw badRequest('No student on the roll is in the selection.');
  if (expected !== undefined && expected !== students.length) {
    throw conflict(`The selection now holds ${studentsWord(students.length)}, not ${expected}: the list changed. Check it and try again.`);
  }
  return students;
}

const nameOf = (student: repo.BulkStudentRow) => [student.first_name, student.last_name].filter(Boolean).join(' ') || student.id;

/** Each parent e-mail of a record once (lower-case), in the record's order: mother, father, guardian. */
function recordAddresses(student: repo.BulkStudentRow): string[] {
  const addresses = RECORD_PARENT_EMAIL_FIELDS.map((field) => student[field]?.trim().toLowerCase() ?? '').filter((address) => address !== '');
  return [...new Set(addresses)];
}

const repeatSince = (now: Date) => new Date(now.getTime() - BULK_INVITE_REPEAT_HOURS * 3_600_000).toISOString();

/** The invitations a send would make now: every record address not invited to that record recently. */
async function plannedInvitations(db: Db, students: readonly repo.BulkStudentRow[], now: Date) {
  const recent = await repo.listInvitationsSince(db, students.map((student) => student.id), repeatSince(now));
  const sentRecently = new Set(recent.map((row) => `${row.student_id} ${row.email}`));
  const invitations: RecordInvitation[] = [];
  let recentlyInvited = 0;
  let withoutParentEmail = 0;
  for (const student of students) {
    const addresses = recordAddresses(student);
    if (addresses.length === 0) withoutParentEmail++;
    for (const email of addresses) {
      if (sentRecently.has(`${student.id} ${email}`)) recentlyInvited++;
      else invitations.push({ studentId: student.id, studentName: nameOf(student), email });
    }
  }
  return { invitations, recentlyInvited, withoutParentEmail };
}

/** What the dialogs say before anything is done: who is selected, who can be invited. */
export async function summarize(db: Db, who: Caller, selection: BulkSelection, now = new Date()): Promise<BulkSummary> {
  const { students, formerLeftOut } = await resolveSelection(db, who, selection);
  const planned = await plannedInvitations(db, students, now);
  return {
    students: students.length,
    former_left_out: formerLeftOut,
    invitations: planned.invitations.length,
    without_parent_email: planned.withoutParentEmail,
    recently_invited: planned.recentlyInvited,
  };
}

/** The form class of this year with this id (any case), or 400 naming the field. */
async function requireThisYearsClass(db: Db, classId: string): Promise<adminRepo.FormClassRow> {
  const found = (await adminRepo.listFormClasses(db)).find((formClass) => formClass.id.toLowerCase() === classId.toLowerCase());
  if (!found) throw fieldError('class_id', `The school has no form class ${classId} this year. Choose one of this year's classes.`);
  return found;
}

const auditOf = (actor: Actor, entry: Omit<AuditEntry, keyof Actor>): AuditEntry => ({ ...actor, ...entry });

/** Change class: every selected student into one class of this year, in one transaction, a row of the audit log each. */
export async function changeClass(db: Db, who: Caller, input: BulkChangeClassInput, actor: Actor): Promise<BulkAnswer> {
  const formClass = await requireThisYearsClass(db, input.class_id);
  const students = await requireSelection(db, who, input.selection, 'student.edit', input.expected);
  const moving = students.filter((student) => student.class_id !== formClass.id);
  if (moving.length > 0) {
    await db.transaction().execute(async (trx) => {
      const at = nowIso();
      await repo.moveToClass(trx, moving.map((student) => student.id), formClass.id, at);
      await writeAudit(
        trx,
        moving.map((student) =>
          auditOf(actor, { action: 'update', entity: 'student', entity_id: student.id, field: 'class_id', old_value: student.class_id, new_value: formClass.id }),
        ),
      );
    });
  }
  const already = students.length - moving.length;
  return {
    changed: moving.length,
    unchanged: already,
    message: `${studentsWord(moving.length)} moved to ${formClass.id}.${already > 0 ? ` ${studentsWord(already)} already in it.` : ''}`,
  };
}

/** Send invitations: the family invitation to each parent e-mail on each selected record, through the outbox, one transaction. */
export async function inviteParents(db: Db, who: Caller, input: BulkInviteInput, actor: Actor, now = new Date()): Promise<BulkAnswer> {
  const students = await requireSelection(db, who, input.selection, 'student.invite-family', input.expected);
  const planned = await plannedInvitations(db, students, now);
  if (planned.invitations.length > 0) await db.transaction().execute((trx) => inviteRecordParents(trx, planned.invitations, actor));
  const parts = [`${planned.invitations.length} ${planned.invitations.length === 1 ? 'invitation' : 'invitations'} sent.`];
  if (planned.recentlyInvited > 0) parts.push(`${planned.recentlyInvited} already invited in the last ${BULK_INVITE_REPEAT_HOURS} hours.`);
  if (planned.withoutParentEmail > 0) parts.push(`${studentsWord(planned.withoutParentEmail)} with no parent e-mail.`);
  return { changed: planned.invitations.length, unchanged: planned.recentlyInvited, message: parts.join(' ') };
}

/** Mark a document received on paper for every selected student (those already marked are left as they were). */
export async function markPaperDocuments(db: Db, who: Caller, input: BulkPaperDocumentInput, actor: Actor): Promise<BulkAnswer> {
  const students = await requireSelection(db, who, input.selection, 'student.edit', input.expected);
  const label = findSlot(input.file_type)?.label ?? input.file_type;
  const ids = students.map((student) => student.id);
  let marked = 0;
  await db.transaction().execute(async (trx) => {
    const holders = await repo.listPaperDocumentHolders(trx, ids, input.file_type);
    const fresh = ids.filter((id) => !holders.has(id));
    marked = fresh.length;
    if (fresh.length === 0) return;
    const at = nowIso();
    await repo.insertPaperDocuments(trx, fresh, input.file_type, actor.actor_user_id, at);
    await writeAudit(
      trx,
      fresh.map((studentId) => auditOf(actor, { action: 'document-paper-received', entity: 'student', entity_id: studentId, field: input.file_type, old_value: null, new_value: 'received on paper' })),
    );
  });
  const already = ids.length - marked;
  return {
    changed: marked,
    unchanged: already,
    message: `${label} marked received on paper for ${studentsWord(marked)}.${already > 0 ? ` ${studentsWord(already)} already marked.` : ''}`,
  };
}
