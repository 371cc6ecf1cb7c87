import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import type { UserRole } from '../db/schema.js';
import { SCHOOL_ACTIONS, STUDENT_ACTIONS, type SchoolAction, type StaffRole, type StudentAction } from '../../shared/staff.js';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import { FORMER_STUDENT_MESSAGE } from '../../shared/rollover.schemas.js';
import { AppError, forbidden, unauthenticated } from './errors.js';
import type { SessionUser } from './session.js';

/**
 * The one place that decides who may do what to which student (docs/decisions.md D49).
 * Every route declares an action in its access config (http/access.ts), and the few routes that
 * learn the student from a body or a stored document ask `authorizeStudent` themselves; list
 * routes narrow to `visibleClassIds`. Nothing else in the server compares roles.
 */

export type Requester =
  | { kind: 'student'; userId: number; studentId: string }
  /** A family account: its linked children, as the session read them on this request. */
  | { kind: 'guardian'; userId: number; studentIds: readonly string[] }
  | { kind: 'staff'; userId: number; role: StaffRole; classIds: readonly string[] };

export type Action = SchoolAction | StudentAction;

const READ_ANY_STUDENT: readonly Action[] = ['student.read', 'student.history', 'students.list', 'class.read', 'term-reports.read', 'settings.read'];

/** What each staff role may do (the table). A form teacher's actions reach their classes only. */
const STAFF_MAY: Record<StaffRole, ReadonlySet<Action>> = {
  administrator: new Set<Action>([...SCHOOL_ACTIONS, ...STUDENT_ACTIONS]),
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
  ]),
  principal: new Set<Action>([...READ_ANY_STUDENT, 'students.export', 'term-results.read', 'term-reports.post']),
  form_teacher: new Set<Action>(READ_ANY_STUDENT),
};

/** A student reads and edits their own record, and nothing else of anyone's; they may invite a parent to it. */
const STUDENT_MAY: ReadonlySet<Action> = new Set<Action>(['student.read', 'student.edit', 'student.invite-family']);
/** A family account reads and edits each linked child's record (under the same window rules as the child). */
const GUARDIAN_MAY: ReadonlySet<Action> = new Set<Action>(['student.read', 'student.edit']);

/** The student or class an action is aimed at; `classId` null for a student in no class. */
export type Target = { studentId: string; classId: string | null } | { classId: string };

/**
 * Whether the requester may take the action, on the target when one is named. Without a target a
 * form teacher's school-wide read (the list) is allowed and narrowed by `visibleClassIds`.
 */
export function can(who: Requester, action: Action, target?: Target): boolean {
  if (!mayEver(who, action)) return false;
  if (who.kind === 'student') return target !== undefined && 'studentId' in target && target.studentId === who.studentId;
  if (who.kind === 'guardian') return target !== undefined && 'studentId' in target && who.studentIds.includes(target.studentId);
  if (who.role !== 'form_teacher' || target === undefined) return true;
  return target.classId !== null && who.classIds.includes(target.classId);
}

/**
 * Whether the requester may take the action on some target: checked as soon as a request arrives,
 * before the target is known (a student may read a record, their own; an office clerk may never
 * manage staff).
 */
export function mayEver(who: Requester, action: Action): boolean {
  if (who.kind === 'student') return STUDENT_MAY.has(action);
  if (who.kind === 'guardian') return GUARDIAN_MAY.has(action);
  return STAFF_MAY[who.role].has(action);
}

/** The school-wide actions the requester may take: the session answer's `permissions`. */
export function permissionsOf(who: Requester): SchoolAction[] {
  return SCHOOL_ACTIONS.filter((action) => can(who, action));
}

/**
 * The actions the requester may take on each student they reach (a student: their own record; a
 * form teacher: their classes' students): the session answer's `student_permissions`, so the admin
 * area shows Edit or Reset password only where the server would allow them. Exact for every
 * student the requester can see, since a role's reach is by class and its actions are not.
 */
export function studentPermissionsOf(who: Requester): StudentAction[] {
  return STUDENT_ACTIONS.filter((action) => mayEver(who, action));
}

/**
 * Whether the requester's invitations go only to a parent e-mail the student's record holds
 * (docs/decisions.md D66): a student's do, so a student cannot send the school's invitation to a
 * mailbox of their choosing; staff with `student.invite-family` invite any address.
 */
export function invitesOnlyRecordAddresses(who: Requester): boolean {
  return who.kind !== 'staff';
}

/** The classes whose students a list may show: null for every class. */
export function visibleClassIds(who: Requester): readonly string[] | null {
  if (who.kind === 'staff' && who.role === 'form_teacher') return who.classIds;
  return null;
}

/**
 * Whether a staff role needs the second factor when STAFF_2FA leaves it to the default:
 * administrators run the staff accounts and the office every child's record, so a guessed or
 * reused password alone must not open them.
 */
export function needsSecondFactorByDefault(role: StaffRole): boolean {
  return role === 'administrator' || role === 'office';
}

/**
 * Students and their families are held to the registration window and to the fields only the
 * office may change (docs/requirements.md R4, R6); staff correct records at any time.
 */
export function isFamilyRole(role: UserRole): boolean {
  return role === 'student' || role === 'guardian';
}

/** The requester behind a session. */
export function requesterOf(user: SessionUser): Requester {
  if (user.role === 'student') return { kind: 'student', userId: user.id, studentId: user.studentId ?? '' };
  if (user.role === 'guardian') return { kind: 'guardian', userId: user.id, studentIds: user.childIds };
  return { kind: 'staff', userId: user.id, role: user.staffRole ?? 'administrator', classIds: user.classIds };
}

/** The signed-in family account (its own calls, declared `family` in http/access.ts), or 401/403. */
export function requireGuardian(request: FastifyRequest): { userId: number; email: string | null } {
  const user = request.user;
  if (!user) throw unauthenticated();
  if (user.role !== 'guardian') throw forbidden('Only a family account (a parent or guardian signed in with e-mail) may do that.');
  return { userId: user.id, email: user.email };
}

/** The signed-in requester, or 401. */
export function requireRequester(request: FastifyRequest): Requester {
  if (!request.user) throw unauthenticated();
  return requesterOf(request.user);
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
};

/** Throws 403 with a reason unless `can` allows it. */
export function requireCan(who: Requester, action: Action, target?: Target): void {
  if (can(who, action, target)) return;
  if (who.kind === 'student') throw forbidden(action === 'student.read' || action === 'student.edit' ? 'You can only see your own records.' : 'Only staff may do that.');
  if (who.kind === 'guardian') throw forbidden(action === 'student.read' || action === 'student.edit' ? 'You can only see the records of the children linked to your account.' : 'Only staff may do that.');
  throw forbidden(REFUSALS[action]);
}

/** The student actions that change a record or its account: refused on a former student's record. */
const EDITS: ReadonlySet<StudentAction> = new Set<StudentAction>(['student.edit', 'student.reset-password', 'student.invite-family']);

/**
 * Throws 403 unless the requester may take the action on this student, then 422 when the action
 * edits a former student's record. The student's row is read only when it matters (a form
 * teacher's reach, an edit); a student that does not exist is refused to a form teacher like any
 * other outside their classes, and left to the route's own 404 for everyone else.
 */
export async function authorizeStudent(db: Db, who: Requester, action: StudentAction, studentId: string): Promise<void> {
  const edits = EDITS.has(action);
  let row: { class_id: string | null; left_on: string | null } | undefined;
  // An id that cannot be a student's (a NUL, say, which PostgreSQL refuses in text) is looked up
  // nowhere: it reaches no record, and the route's own schema answers it 400.
  if (((who.kind === 'staff' && who.role === 'form_teacher') || edits) && couldBeStudentId(studentId)) {
    row = await db.selectFrom('students').select(['class_id', 'left_on']).where('id', '=', studentId).executeTakeFirst();
  }
  requireCan(who, action, { studentId, classId: row?.class_id ?? null });
  if (edits && row?.left_on) throw formerStudentRefusal();
}

/**
 * The one rule that keeps a former student's record read-only (D60), whoever asks: every
 * per-student edit reaches it through `authorizeStudent`; the office's review decisions, which
 * name the student under a school action, call it themselves.
 */
export async function requireOnRoll(db: Db, studentId: string): Promise<void> {
  if (!couldBeStudentId(studentId)) return;
  const row = await db.selectFrom('students').select('left_on').where('id', '=', studentId).executeTakeFirst();
  if (row?.left_on) throw formerStudentRefusal();
}

function couldBeStudentId(id: string): boolean {
  return StudentIdSchema.safeParse(id).success;
}

function formerStudentRefusal(): AppError {
  return new AppError(422, 'former_student', FORMER_STUDENT_MESSAGE);
}
