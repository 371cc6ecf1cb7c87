import { describe, expect, it } from 'vitest';
import { SCHOOL_ACTIONS, STUDENT_ACTIONS, type StaffRole } from '../../shared/staff.js';
import { AppError } from '../http/errors.js';
import { can, mayEver, maySendOwnAbsenceNotes, readsAbsenceNote, requireCan, type Action, type Caller, type Target } from './roles.js';

/**
 * The policy's decisions, role by action, with no HTTP: the expectations are written out below as
 * the school's rules, not read from the role table, so a wrong entry in its role table fails here
 * before any route is called. The access matrix (tests/security) checks the routes use it.
 */

const OWN = '20220001';
const OTHER = '20220002';

const student: Caller = { kind: 'student', userId: 1, studentId: OWN };
const guardian: Caller = { kind: 'guardian', userId: 2, studentIds: [OWN] };
const staff = (role: StaffRole, classIds: readonly string[] = []): Caller => ({ kind: 'staff', userId: 3, role, classIds });
const teacherOf5A = staff('form_teacher', ['5A']);
const teacherOf1A = staff('form_teacher', ['1A']);

const isStudentAction = (action: Action) => (STUDENT_ACTIONS as readonly string[]).includes(action);
/** The target of a cell: a 5A student (the caller's own for S and P) or, for a school action, class 5A. */
const targetFor = (action: Action, studentId: string): Target => (isStudentAction(action) ? { studentId, classId: '5A' } : { classId: '5A' });

/**
 * `can(who, action, target)`, one column per caller, the target a student in 5A (or class 5A
 * for a school action). A column's letter means allowed, `-` refused:
 *   S  the student, on their own record        s  the student, on another student's
 *   P  a parent, on their linked child         p  a parent, on a child not linked to them
 *   T  the form teacher of 5A                  t  the form teacher of 1A
 *   O  the office     Pr  the principal        A  an administrator
 */
const COLUMNS: readonly { letter: string; who: Caller; student: string }[] = [
  { letter: 'S', who: student, student: OWN },
  { letter: 's', who: student, student: OTHER },
  { letter: 'P', who: guardian, student: OWN },
  { letter: 'p', who: guardian, student: OTHER },
  { letter: 'T', who: teacherOf5A, student: OWN },
  { letter: 't', who: teacherOf1A, student: OWN },
  { letter: 'O', who: staff('office'), student: OWN },
  { letter: 'Pr', who: staff('principal'), student: OWN },
  { letter: 'A', who: staff('administrator'), student: OWN },
];

// prettier-ignore
const CAN: Record<Action, string> = {
  //                         S  s  P  p  T  t  O  Pr A
  'students.list':          '-  -  -  -  T  -  O  Pr A',
  'students.add':           '-  -  -  -  -  -  O  -  A',
  'students.export':        '-  -  -  -  -  -  O  Pr A',
  'class.read':             '-  -  -  -  T  -  O  Pr A',
  'term-results.read':      '-  -  -  -  -  -  O  Pr A',
  'term-results.import':    '-  -  -  -  -  -  O  -  A',
  'term-reports.read':      '-  -  -  -  T  -  O  Pr A',
  'term-reports.post':      '-  -  -  -  -  -  O  Pr A',
  'attendance.import':      '-  -  -  -  -  -  O  -  A',
  'settings.read':          '-  -  -  -  T  -  O  Pr A',
  'settings.manage':        '-  -  -  -  -  -  -  -  A',
  'scanners.manage':        '-  -  -  -  -  -  -  -  A',
  'privacy.manage':         '-  -  -  -  -  -  -  -  A',
  'staff.manage':           '-  -  -  -  -  -  -  -  A',
  'outbox.manage':          '-  -  -  -  -  -  O  -  A',
  'families.manage':        '-  -  -  -  -  -  O  -  A',
  'notices.manage':         '-  -  -  -  -  -  O  -  A',
  'documents.review':       '-  -  -  -  -  -  O  -  A',
  'registrations.review':   '-  -  -  -  -  -  O  -  A',
  'year.rollover':          '-  -  -  -  -  -  -  -  A',
  'intake.manage':          '-  -  -  -  -  -  O  -  A',
  'absence-notes.review':   '-  -  -  -  T  -  O  Pr -',
  'student.read':           'S  -  P  -  T  -  O  Pr A',
  'student.edit':           'S  -  P  -  -  -  O  -  A',
  'student.reset-password': '-  -  -  -  -  -  O  -  A',
  'student.family':         '-  -  -  -  -  -  O  -  A',
  'student.invite-family':  'S  -  -  -  -  -  O  -  A',
  'student.history': '-  -  -  -  T  -  O  Pr A',
  'student.enrolment':      '-  -  -  -  -  -  O  -  A',
  'absence-notes.send':     'S  -  P  -  -  -  -  -  -',
  'absence-notes.read':     'S  -  P  -  T  -  O  Pr -',
};

/**
 * `mayEver(who, action)`: whether a role may take the action on anything at all, checked as a
 * request arrives, before its target is known (a student may read a record: their own).
 *   S  a student   P  a parent   T  a form teacher   O  the office   Pr  the principal   A  an administrator
 */
const EVER_COLUMNS: readonly { letter: string; who: Caller }[] = [
  { letter: 'S', who: student },
  { letter: 'P', who: guardian },
  { letter: 'T', who: teacherOf5A },
  { letter: 'O', who: staff('office') },
  { letter: 'Pr', who: staff('principal') },
  { letter: 'A', who: staff('administrator') },
];

// prettier-ignore
const MAY_EVER: Record<Action, string> = {
  //                         S  P  T  O  Pr A
  'students.list':          '-  -  T  O  Pr A',
  'students.add':           '-  -  -  O  -  A',
  'students.export':        '-  -  -  O  Pr A',
  'class.read':             '-  -  T  O  Pr A',
  'term-results.read':      '-  -  -  O  Pr A',
  'term-results.import':    '-  -  -  O  -  A',
  'term-reports.read':      '-  -  T  O  Pr A',
  'term-reports.post':      '-  -  -  O  Pr A',
  'attendance.import':      '-  -  -  O  -  A',
  'settings.read':          '-  -  T  O  Pr A',
  'settings.manage':        '-  -  -  -  -  A',
  'scanners.manage':        '-  -  -  -  -  A',
  'privacy.manage':         '-  -  -  -  -  A',
  'staff.manage':           '-  -  -  -  -  A',
  'outbox.manage':          '-  -  -  O  -  A',
  'families.manage':        '-  -  -  O  -  A',
  'notices.manage':         '-  -  -  O  -  A',
  'documents.review':       '-  -  -  O  -  A',
  'registrations.review':   '-  -  -  O  -  A',
  'year.rollover':          '-  -  -  -  -  A',
  'intake.manage':          '-  -  -  O  -  A',
  'absence-notes.review':   '-  -  T  O  Pr -',
  'student.read':           'S  P  T  O  Pr A',
  'student.edit':           'S  P  -  O  -  A',
  'student.reset-password': '-  -  -  O  -  A',
  'student.family':         '-  -  -  O  -  A',
  'student.invite-family':  'S  -  -  O  -  A',
  'student.history': '-  -  T  O  Pr A',
  'student.enrolment':      '-  -  -  O  -  A',
  'absence-notes.send':     'S  P  -  -  -  -',
  'absence-notes.read':     'S  P  T  O  Pr -',
};

/** Reads a row's cells into allowed (true) / refused (false), checking each letter sits in its own column. */
function cells(row: string, letters: readonly string[]): boolean[] {
  const tokens = row.trim().split(/\s+/);
  expect(tokens, `'${row}' needs ${letters.length} cells`).toHaveLength(letters.length);
  return tokens.map((token, i) => {
    if (token === '-') return false;
    expect(token, `cell ${i + 1} of '${row}'`).toBe(letters[i]);
    return true;
  });
}

const ACTIONS: readonly Action[] = [...SCHOOL_ACTIONS, ...STUDENT_ACTIONS];

describe('the tables name every action', () => {
  it('has a row for each school and student action, and no other', () => {
    expect(Object.keys(CAN).sort()).toEqual([...ACTIONS].sort());
    expect(Object.keys(MAY_EVER).sort()).toEqual([...ACTIONS].sort());
  });
});

describe('can: each caller on a student or class of 5A', () => {
  it.each(ACTIONS)('%s', (action) => {
    const expected = cells(CAN[action], COLUMNS.map((column) => column.letter));
    const actual = COLUMNS.map(({ who, student: id }) => can(who, action, targetFor(action, id)));
    const row = (answers: boolean[]) => answers.map((allowed, i) => (allowed ? COLUMNS[i]!.letter : '-').padEnd(2)).join(' ');
    expect(row(actual), action).toBe(row(expected));
  });
});

describe('mayEver: each role, before the target is known', () => {
  it.each(ACTIONS)('%s', (action) => {
    const expected = cells(MAY_EVER[action], EVER_COLUMNS.map((column) => column.letter));
    const actual = EVER_COLUMNS.map(({ who }) => mayEver(who, action));
    const row = (answers: boolean[]) => answers.map((allowed, i) => (allowed ? EVER_COLUMNS[i]!.letter : '-').padEnd(2)).join(' ');
    expect(row(actual), action).toBe(row(expected));
  });
});

describe('can: targets that are not a student of the caller', () => {
  it('refuses a student and a parent every action without a named student, their own reads included', () => {
    for (const who of [student, guardian]) {
      for (const action of ['student.read', 'student.edit', 'students.list', 'class.read'] as const) {
        expect(can(who, action), `${who.kind} ${action}`).toBe(false);
        expect(can(who, action, { classId: '5A' }), `${who.kind} ${action} on 5A`).toBe(false);
      }
    }
  });

  it("lets a form teacher's school-wide reads through without a target (the list is narrowed to their classes)", () => {
    expect(can(teacherOf1A, 'students.list')).toBe(true);
    expect(can(teacherOf1A, 'settings.read')).toBe(true);
    expect(can(teacherOf1A, 'term-reports.read')).toBe(true);
    expect(can(teacherOf1A, 'students.export')).toBe(false);
  });

  it('refuses a form teacher a student in no class, and the other class by id', () => {
    expect(can(teacherOf5A, 'student.read', { studentId: OWN, classId: null })).toBe(false);
    expect(can(teacherOf5A, 'class.read', { classId: '1A' })).toBe(false);
    expect(can(teacherOf1A, 'class.read', { classId: '1A' })).toBe(true);
  });

  it('lets a parent reach each linked child, and only those', () => {
    const twoChildren: Caller = { kind: 'guardian', userId: 2, studentIds: [OWN, OTHER] };
    expect(can(twoChildren, 'student.read', { studentId: OTHER, classId: '1A' })).toBe(true);
    expect(can(twoChildren, 'student.read', { studentId: '20220003', classId: '5A' })).toBe(false);
  });
});

describe('absence notes (D93)', () => {
  it('lets a student send their own notes only while no family account is linked to them', () => {
    expect(maySendOwnAbsenceNotes(false)).toBe(true);
    expect(maySendOwnAbsenceNotes(true)).toBe(false);
  });

  it("lets a student read only the notes they sent; the family and staff read the family's notes too", () => {
    expect(readsAbsenceNote(student, { sender: 'student' })).toBe(true);
    expect(readsAbsenceNote(student, { sender: 'family' })).toBe(false);
    for (const who of [guardian, teacherOf5A, staff('office'), staff('principal')]) {
      expect(readsAbsenceNote(who, { sender: 'family' }), who.kind).toBe(true);
      expect(readsAbsenceNote(who, { sender: 'student' }), who.kind).toBe(true);
    }
  });
});

describe('requireCan', () => {
  it('throws 403 forbidden exactly where can refuses', () => {
    for (const action of ACTIONS) {
      for (const { who, student: id, letter } of COLUMNS) {
        const target = targetFor(action, id);
        const attempt = () => requireCan(who, action, target);
        if (can(who, action, target)) expect(attempt, `${letter} ${action}`).not.toThrow();
        else expect(attempt, `${letter} ${action}`).toThrow(expect.objectContaining({ statusCode: 403, code: 'forbidden' }) as AppError);
      }
    }
  });
});
