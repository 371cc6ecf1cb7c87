import { isParentCaller, isStaffCaller, type CallerKind, type RouteRow, type StaffCaller } from './harness.js';
import type { RouteSample } from './route-samples.js';

/** What one cell of the access matrix expects: a status, and for refusals the error code. */
export interface Expectation {
  status: number;
  code?: 'unauthenticated' | 'forbidden';
}

function okFor(sample: RouteSample, caller: CallerKind): number {
  if (typeof sample.ok === 'number') return sample.ok;
  if (isParentCaller(caller) && sample.ok.guardian !== undefined) return sample.ok.guardian;
  const group = caller === 'visitor' ? 'visitor' : isStaffCaller(caller) ? 'admin' : 'student';
  const status = sample.ok[group];
  if (status === undefined) throw new Error(`the sample gives no ok status for ${group}`);
  return status;
}

const UNAUTHENTICATED: Expectation = { status: 401, code: 'unauthenticated' };
const FORBIDDEN: Expectation = { status: 403, code: 'forbidden' };

/**
 * What each staff role may do, written from issue 16's table (not read from the policy module,
 * which this suite checks): the office runs students, registration, documents, exports, reports,
 * term results and posting; the principal reads what the office reads and posts term reports; a
 * form teacher reads their classes' students, reports and term reports; the administrator does
 * everything. A student reads and edits their own record only.
 */
const OFFICE_READS = ['student.read', 'students.list', 'class.read', 'term-reports.read', 'settings.read', 'students.export', 'term-results.read'];
const ROLE_MAY: Record<Exclude<StaffCaller, 'admin' | 'teacher-other'>, readonly string[]> = {
  office: [
    ...OFFICE_READS,
    'student.edit',
    'student.reset-password',
    'students.add',
    'term-results.import',
    'term-reports.post',
    'attendance.import',
    'student.family',
    'student.invite-family',
    'families.manage',
    'notices.manage',
    'documents.review',
    'registrations.review',
    'intake.manage',
  ],
  principal: [...OFFICE_READS, 'term-reports.post'],
  teacher: ['student.read', 'students.list', 'class.read', 'term-reports.read', 'settings.read'],
};
const STUDENT_MAY = ['student.read', 'student.edit', 'student.invite-family'];
/** A parent reads and edits their linked children's records (issue 17), under the students' rules. */
const PARENT_MAY = ['student.read', 'student.edit'];

/**
 * The expected answer of a caller on a route, from the route's declared access alone (DESIGN §5,
 * docs/decisions.md D3 and D49): visitors reach public and visitor routes; students reach
 * signed-in routes and their own records, never another student's (403) or staff routes (403);
 * each staff role reaches what its row of the table allows, a form teacher only for the class it
 * teaches (the samples name 5A's students and 5A); a gate scanner route needs its device key (401).
 * A parent reaches the family's own routes and their linked child's record (read, edit), never
 * another child's (403) or a staff route (403); the family routes refuse everyone else (403).
 */
export function expectedFor(row: RouteRow, sample: RouteSample, caller: CallerKind): Expectation {
  const access = row.access;
  if (access === undefined) throw new Error(`${row.key} declares no access`);
  if (access === 'public' || access === 'visitor') return { status: okFor(sample, caller) };
  if (access === 'device') return UNAUTHENTICATED;
  if (caller === 'visitor') return UNAUTHENTICATED;
  if (access === 'family') return isParentCaller(caller) ? { status: okFor(sample, caller) } : FORBIDDEN;
  if (access === 'signed-in') {
    if (caller !== 'other' && caller !== 'parent-other') return { status: okFor(sample, caller) };
    const names = caller === 'parent-other' ? (sample.guardianNames ?? sample.names) : sample.names;
    if (!names) throw new Error(`${row.key} is signed-in: its sample must say where it names the student (names)`);
    return names === 'none' ? { status: okFor(sample, caller) } : FORBIDDEN;
  }
  const aimed = 'student' in access || access.class !== undefined;
  if (isParentCaller(caller)) {
    if (!('student' in access) || !PARENT_MAY.includes(access.can)) return FORBIDDEN;
    return caller === 'parent' ? { status: okFor(sample, caller) } : FORBIDDEN;
  }
  if (!isStaffCaller(caller)) {
    if (!('student' in access) || !STUDENT_MAY.includes(access.can)) return FORBIDDEN;
    return caller === 'own' ? { status: okFor(sample, caller) } : FORBIDDEN;
  }
  if (caller === 'admin') return { status: okFor(sample, caller) };
  const role = caller === 'teacher-other' ? 'teacher' : caller;
  if (!ROLE_MAY[role].includes(access.can)) return FORBIDDEN;
  if (caller === 'teacher-other' && aimed) return FORBIDDEN;
  return { status: okFor(sample, caller) };
}
