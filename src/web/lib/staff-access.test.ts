import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { SCHOOL_ACTIONS, STUDENT_ACTIONS } from '../../shared/staff.js';
import { homePathFor, studentShownTo } from './session.js';
import { canTake, classChoicesFor, classListTitle, firstClassOf, reachesEveryClass } from './staff-access.js';

/**
 * Session answers as the server gives them for each role (src/server/auth/auth.routes.test.ts
 * checks the server's side of the same lists).
 */
const staff = (over: Partial<SessionUser>): SessionUser => ({
  role: 'staff',
  name: 'Someone',
  initials: 'S',
  student_id: null,
  username: 'someone',
  first_login: 0,
  password_reset: 0,
  staff_role: 'administrator',
  class_ids: [],
  permissions: [...SCHOOL_ACTIONS],
  student_permissions: [...STUDENT_ACTIONS],
  ...over,
});

const administrator = staff({});
const principal = staff({
  staff_role: 'principal',
  permissions: ['students.list', 'students.export', 'class.read', 'term-results.read', 'term-reports.read', 'term-reports.post', 'settings.read'],
  student_permissions: ['student.read'],
});
const teacher = staff({
  name: 'Mrs. J. Francis',
  staff_role: 'form_teacher',
  class_ids: ['5A'],
  permissions: ['students.list', 'class.read', 'term-reports.read', 'settings.read'],
  student_permissions: ['student.read'],
});
const student: SessionUser = {
  ...staff({}),
  role: 'student',
  student_id: '20220001',
  username: null,
  staff_role: null,
  permissions: [],
  student_permissions: ['student.read', 'student.edit'],
};

const CLASSES = [
  { id: '1A', form_level: 1 },
  { id: '4B', form_level: 4 },
  { id: '5A', form_level: 5 },
];

describe('canTake', () => {
  it('reads school-wide and per-student actions from the session', () => {
    expect(canTake(administrator, 'settings.manage')).toBe(true);
    expect(canTake(administrator, 'student.edit')).toBe(true);
    expect(canTake(principal, 'students.export')).toBe(true);
    expect(canTake(principal, 'students.add')).toBe(false);
    expect(canTake(principal, 'student.edit')).toBe(false);
    expect(canTake(principal, 'student.reset-password')).toBe(false);
    expect(canTake(teacher, 'student.read')).toBe(true);
    expect(canTake(teacher, 'students.export')).toBe(false);
    expect(canTake(student, 'student.edit')).toBe(true);
    expect(canTake(student, 'students.list')).toBe(false);
  });

  it('allows nothing without a session', () => {
    expect(canTake(null, 'student.read')).toBe(false);
    expect(canTake(undefined, 'students.list')).toBe(false);
  });
});

describe('class choices', () => {
  it('offer every class, opened on none, to those who reach every class', () => {
    expect(reachesEveryClass(principal)).toBe(true);
    expect(classChoicesFor(principal, CLASSES)).toEqual(CLASSES);
    expect(firstClassOf(principal)).toBe('');
  });

  it("offer a form teacher only their classes, opened on the first", () => {
    expect(reachesEveryClass(teacher)).toBe(false);
    expect(classChoicesFor(teacher, CLASSES)).toEqual([{ id: '5A', form_level: 5 }]);
    expect(firstClassOf(teacher)).toBe('5A');
    const two = { ...teacher, class_ids: ['4B', '5A'] };
    expect(classChoicesFor(two, CLASSES).map((formClass) => formClass.id)).toEqual(['4B', '5A']);
    expect(firstClassOf(two)).toBe('4B');
  });

  it('offer nothing to someone with no class and no reach', () => {
    const none = { ...teacher, class_ids: [] };
    expect(classChoicesFor(none, CLASSES)).toEqual([]);
    expect(firstClassOf(none)).toBe('');
    expect(classChoicesFor(null, CLASSES)).toEqual([]);
  });
});

describe('classListTitle', () => {
  it("names a form teacher's classes and the teacher", () => {
    expect(classListTitle(teacher, CLASSES)).toBe('Form 5 5A — Mrs. J. Francis');
    expect(classListTitle({ ...teacher, class_ids: ['4B', '5A'] }, CLASSES)).toBe('Form 4 4B, Form 5 5A — Mrs. J. Francis');
    expect(classListTitle({ ...teacher, class_ids: [] }, CLASSES)).toBe('No class assigned — Mrs. J. Francis');
  });

  it('is the bare class id until the classes have come, and none for those who see every class', () => {
    expect(classListTitle(teacher, [])).toBe('5A — Mrs. J. Francis');
    expect(classListTitle(administrator, CLASSES)).toBeNull();
    expect(classListTitle(principal, CLASSES)).toBeNull();
  });
});

describe('student screens opened by staff', () => {
  it('every staff role names the student with ?student= and belongs on the admin dashboard', () => {
    const search = new URLSearchParams('student=20230005');
    for (const user of [administrator, principal, teacher, staff({ staff_role: 'office' })]) {
      expect(studentShownTo(user, search)).toBe('20230005');
      expect(homePathFor(user)).toBe('/admin/dashboard');
    }
  });

  it('a student always sees their own', () => {
    expect(studentShownTo(student, new URLSearchParams('student=20230005'))).toBe('20220001');
    expect(homePathFor(student)).toBe('/dashboard');
  });
});
