import { SCHOOL_ACTIONS, STUDENT_ACTIONS, type SchoolAction, type StaffRole, type StudentAction } from '../../shared/staff.js';
import { forbidden } from '../http/errors.js';
import type { SessionAccount } from './session-account.js';

/**
 * Who may do what (docs/decisions.md D49, D86): the role table, `can`, and every rule that
 * depends on who is asking. Routes declare an action in their access config (http/access.ts);
 * the checks that need a student's class or record are in access/scopes.ts. Nothing else in the
 * server compares roles: a rule about the caller is a named function here.
 */

/**
 * The person making a request, as every rule about who is asking sees them (D86). Built once from
 * the session's account (`callerOf`); the audit log's `Actor` (http/request-context.ts) is where an
 * audit row says the request came from, not a second view of the caller.
 */
export type Caller =
  | { kind: 'student'; userId: number; studentId: string }
  /** A family account: its linked children, as the session read them on this request. */
  | { kind: 'guardian'; userId: number; studentIds: readonly string[] }
  | { kind: 'staff'; userId: number; role: StaffRole; classIds: readonly string[] };

export type Action = SchoolAction | StudentAction;

/**
 * Absence notes are health data (D93): the class's form teacher, the office and the principal read
 * and decide them; no other staff role, the administrator's included.
 */
const ABSENCE_NOTE_STAFF: readonly Action[] = ['absence-notes.review', 'absence-notes.read'];

const READ_ANY_STUDENT: readonly Action[] = ['student.read', 'student.history', 'students.list', 'class.read', 'term-reports.read', 'settings.read'];

/**
 * The student actions an administrator does not hold (D93): an absence note is the family's word,
 * sent and withdrawn by the family alone, and health data, read and decided by the people of
 * ABSENCE_NOTE_STAFF only.
 */
const NOT_ADMINISTRATOR: ReadonlySet<Action> = new Set<Action>(['absence-notes.send', ...ABSENCE_NOTE_STAFF]);

/** What each staff role may do (D49's table). A form teacher's actions reach their classes only. */
const STAFF_MAY: Record<StaffRole, ReadonlySet<Action>> = {
  administrator: new Set<Action>([...SCHOOL_ACTIONS, ...STUDENT_ACTIONS].filter((action) => !NOT_ADMINISTRATOR.has(action))),
  office: new Set<Action>([
    ...READ_ANY_STUDENT,
    'student.edit',
    'student.reset-password',
    'student.family',
    'student.invite-family',
    'students.add',
    'students.export',
    'term-results.read',
    'term-results.import',
    'term-reports.post',
    'attendance.import',
    'families.manage',
    'notices.manage',
    // Whether mail to families went out, and sending it again (D84): the office sees these
    // families' addresses anyway.
    'outbox.manage',
    'documents.review',
    'registrations.review',
    'intake.manage',
    'student.enrolment',
    ...ABSENCE_NOTE_STAFF,
  ]),
  principal: new Set<Action>([...READ_ANY_STUDENT, 'students.export', 'term-results.read', 'term-reports.post', ...ABSENCE_NOTE_STAFF]),
  form_teacher: new Set<Action>([...READ_ANY_STUDENT, ...ABSENCE_NOTE_STAFF]),
};

/**
 * A student reads and edits their own record, and nothing else of anyone's; they may invite a
 * parent to it; they send absence notes only while no family account is linked, and read only the
 * notes they sent (`maySendOwnAbsenceNotes`, `readsAbsenceNote`).
 */
const STUDENT_MAY: ReadonlySet<Action> = new Set<Action>(['student.read', 'student.edit', 'student.invite-family', 'absence-notes.send', 'absence-notes.read']);
/** A family account reads and edits each linked child's record (under the same window rules as the child), and sends and reads the child's absence notes. */
const GUARDIAN_MAY: ReadonlySet<Action> = new Set<Action>(['student.read', 'student.edit', 'absence-notes.send', 'absence-notes.read']);

/** The student actions whose refusal to a student or a family says "not yours" rather than "staff only". */
const OWN_RECORD_ACTIONS: ReadonlySet<Action> = new Set<Action>(['student.read', 'student.edit', 'absence-notes.send', 'absence-notes.read']);

/** The student or class an action is aimed at; `classId` null for a student in no class. */
export type Target = { studentId: string; classId: string | null } | { classId: string };

/**
 * Whether the caller may take the action, on the target when one is named. Without a target a
 * form teacher's school-wide read (the list) is allowed and narrowed by `visibleClassIds`.
 */
export function can(who: Caller, action: Action, target?: Target): boolean {
  if (!mayEver(who, action)) return false;
  if (who.kind === 'student') return target !== undefined && 'studentId' in target && target.studentId === who.studentId;
  if (who.kind === 'guardian') return target !== undefined && 'studentId' in target && who.studentIds.includes(target.studentId);
  if (!reachesByClass(who.role) || target === undefined) return true;
  return target.classId !== null && who.classIds.includes(target.classId);
}

/**
 * Whether the caller may take the action on some target: checked as soon as a request arrives,
 * before the target is known (a student may read a record, their own; an office clerk may never
 * manage staff).
 */
export function mayEver(who: Caller, action: Action): boolean {
  if (who.kind === 'student') return STUDENT_MAY.has(action);
  if (who.kind === 'guardian') return GUARDIAN_MAY.has(action);
  return STAFF_MAY[who.role].has(action);
}

/** The school-wide actions the caller may take: the session answer's `permissions`. */
export function permissionsOf(who: Caller): SchoolAction[] {
  return SCHOOL_ACTIONS.filter((action) => can(who, action));
}

/**
 * The actions the caller may take on each student they reach (a student: their own record; a
 * form teacher: their classes' students): the session answer's `student_permissions`, so the admin
 * area shows Edit or Reset password only where the server would allow them. Exact for every
 * student the caller can see, since a role's reach is by class and its actions are not.
 */
export function studentPermissionsOf(who: Caller): StudentAction[] {
  return STUDENT_ACTIONS.filter((action) => mayEver(who, action));
}

const REFUSALS: Record<Action, string> = {
  'students.list': 'Your role does not include the student list.',
  'students.add': 'Only the office and administrators may add students or reset their passwords.',
  'students.export': 'Your role does not include school-wide exports.',
  'class.read': 'You can only see the classes assigned to you.',
  'term-results.read': 'Your role does not include term results.',
  'term-results.import': 'Only the office and administrators may import term results.',
  'term-reports.read': 'Your role does not include term reports.',
  'term-reports.post': 'Only the office, the principal and administrators may post term reports.',
  'attendance.import': 'Only the office and administrators may import attendance.',
  'settings.read': 'Your role does not include the school settings.',
  'settings.manage': 'Only administrators may change the school settings.',
  'scanners.manage': 'Only administrators may manage scanner devices.',
  'privacy.manage': 'Only administrators may use the privacy tools.',
  'staff.manage': 'Only administrators may manage staff accounts.',
  'outbox.manage': "Only the office and administrators may see and resend the portal's e-mail.",
  'families.manage': 'Only the office and administrators may print family codes.',
  'notices.manage': 'Only the office and administrators may manage messages to families.',
  'documents.review': 'Only the office and administrators may review documents.',
  'registrations.review': 'Only the office and administrators may verify, return or reopen a registration.',
  'year.rollover': 'Only administrators may roll the school over to a new year.',
  'intake.manage': 'Only the office and administrators may import and allocate the new Form 1.',
  'student.read': 'You can only see the students you are responsible for.',
  'student.edit': 'Your role does not allow changing this record.',
  'student.reset-password': "Only the office and administrators may reset a student's password.",
  'student.family': "Only the office and administrators may manage a student's family accounts.",
  'student.invite-family': 'Only the student, the office and administrators may invite a parent to this record.',
  'student.history': "Only staff may see a student's history (enrolment and changes), and a form teacher only their classes'.",
  'student.enrolment': 'Only the office and administrators may withdraw or readmit a student.',
  'absence-notes.review': "Only the class's form teacher, the office and the principal may see and decide absence notes.",
  'absence-notes.send': 'Absence notes are sent by the family (or by a student with no family account).',
  'absence-notes.read': "Only the family, the class's form teacher, the office and the principal may read absence notes.",
};

/** Throws 403 with a reason unless `can` allows it. */
export function requireCan(who: Caller, action: Action, target?: Target): void {
  if (can(who, action, target)) return;
  if (who.kind === 'student') throw forbidden(OWN_RECORD_ACTIONS.has(action) ? 'You can only see your own records.' : 'Only staff may do that.');
  if (who.kind === 'guardian') throw forbidden(OWN_RECORD_ACTIONS.has(action) ? 'You can only see the records of the children linked to your account.' : 'Only staff may do that.');
  throw forbidden(REFUSALS[action]);
}

// ---------------------------------------------------------------------------------------------
// The rules about who is asking, each named once

/** The caller behind a session's account. */
export function callerOf(account: SessionAccount): Caller {
  if (account.role === 'student') return { kind: 'student', userId: account.id, studentId: account.studentId ?? '' };
  if (account.role === 'guardian') return { kind: 'guardian', userId: account.id, studentIds: account.childIds };
  return { kind: 'staff', userId: account.id, role: account.staffRole ?? 'administrator', classIds: account.classIds };
}

/**
 * A student or a family account: held to the registration window and to the fields only the
 * office may change; staff correct records at any time.
 */
export function isFamilyCaller(who: Caller): who is Extract<Caller, { kind: 'student' | 'guardian' }> {
  return who.kind !== 'staff';
}

/** A student signed in to their own record. */
export function isStudentCaller(who: Caller): who is Extract<Caller, { kind: 'student' }> {
  return who.kind === 'student';
}

/** A family account (a parent or guardian signed in with e-mail). */
export function isGuardianCaller(who: Caller): who is Extract<Caller, { kind: 'guardian' }> {
  return who.kind === 'guardian';
}

/** A staff account, whatever its role. */
export function isStaffCaller(who: Caller): who is Extract<Caller, { kind: 'staff' }> {
  return who.kind === 'staff';
}

/** The refusal of a call only a family account may make. */
export const GUARDIAN_ONLY_MESSAGE = 'Only a family account (a parent or guardian signed in with e-mail) may do that.';

/** Throws 403 unless the caller is a family account; answers it narrowed. */
export function requireGuardianCaller(who: Caller): Extract<Caller, { kind: 'guardian' }> {
  if (!isGuardianCaller(who)) throw forbidden(GUARDIAN_ONLY_MESSAGE);
  return who;
}

/**
 * The declaration is the parent's (D75): only a family account linked to the child agrees to it or
 * withdraws it online; a student or staff member is refused.
 */
export function mayAgreeToDeclaration(who: Caller): boolean {
  return isGuardianCaller(who);
}

/**
 * A student sends their own absence notes only while no family account is linked to them (D93):
 * once a parent is, the note is the parent's word, as the declaration is (D75).
 */
export function maySendOwnAbsenceNotes(hasLinkedFamily: boolean): boolean {
  return !hasLinkedFamily;
}

/**
 * Who reads one absence note, among those who may read the student's notes at all (D93): a
 * student only the notes they sent themself (a parent's note about them is the parent's); the
 * family, the class's form teacher, the office, the principal and an administrator every note.
 */
export function readsAbsenceNote(who: Caller, note: { sender: 'family' | 'student' }): boolean {
  return !isStudentCaller(who) || note.sender === 'student';
}

/** Staff see a term's report cards before the term is posted; a student and a family only once it is. */
export function seesUnpostedReportCards(who: Caller): boolean {
  return isStaffCaller(who);
}

/**
 * Whether the caller's invitations go only to a parent e-mail the student's record holds
 * (D66): a student's do, so a student cannot send the school's invitation to a
 * mailbox of their choosing; staff with `student.invite-family` invite any address.
 */
export function invitesOnlyRecordAddresses(who: Caller): boolean {
  return !isStaffCaller(who);
}

/** A staff role whose reach is its classes (`staff_classes`), not the whole school: a form teacher's. */
export function reachesByClass(role: StaffRole): boolean {
  return role === 'form_teacher';
}

/** The classes whose students a list may show: null for every class. */
export function visibleClassIds(who: Caller): readonly string[] | null {
  if (isStaffCaller(who) && reachesByClass(who.role)) return who.classIds;
  return null;
}

/**
 * The role that runs the staff accounts and the settings: the school always keeps one enabled
 * (the last one may be neither disabled nor given another role).
 */
export function isAdministrator(role: StaffRole): boolean {
  return role === 'administrator';
}

/**
 * Whether a staff role needs the second factor when STAFF_2FA leaves it to the default:
 * administrators run the staff accounts and the office every child's record, so a guessed or
 * reused password alone must not open them.
 */
export function needsSecondFactorByDefault(role: StaffRole): boolean {
  return isAdministrator(role) || role === 'office';
}

/**
 * Whether the account must choose a new password before anything else: after a reset, and a
 * student also after their first sign-in with the school's initial password (staff D50).
 */
export function mustChangePasswordFirst(account: SessionAccount): boolean {
  return account.passwordReset || (account.firstLogin && isStudentCaller(callerOf(account)));
}
