import { describe, expect, it } from 'vitest';
import { SessionAnswerSchema } from '../../shared/auth.schemas.js';
import { SessionAnswerParser } from './session-answer.js';

/** The zod-free guard of GET /api/session must accept and reject exactly what the shared schema does. */

const student = {
  role: 'student',
  name: 'Ava Ramdial',
  initials: 'AR',
  student_id: '20220001',
  username: null,
  first_login: 0,
  password_reset: 1,
};
const admin = { ...student, role: 'admin', student_id: null, username: 'office' };

const answers: Array<[label: string, value: unknown]> = [
  ['a student', { user: student }],
  ['an administrator', { user: admin }],
  ['a visitor', { user: null }],
  ['extra keys, which are dropped', { user: { ...student, password_hash: 'x' }, extra: 1 }],
  ['no user key', {}],
  ['user undefined', { user: undefined }],
  ['an unknown role', { user: { ...student, role: 'teacher' } }],
  ['a missing field', { user: { ...student, initials: undefined } }],
  ['a number as name', { user: { ...student, name: 7 } }],
  ['a fraction as flag', { user: { ...student, first_login: 0.5 } }],
  ['a flag as text', { user: { ...student, first_login: '0' } }],
  ['an unsafe integer as flag', { user: { ...student, password_reset: 2 ** 60 } }],
  ['a number as student_id', { user: { ...student, student_id: 20220001 } }],
  ['a list', [{ user: null }]],
  ['null', null],
  ['text', 'user'],
  ['a list as user', { user: [student] }],
];

describe('SessionAnswerParser', () => {
  it.each(answers)('agrees with SessionAnswerSchema on %s', (_label, value) => {
    const expected = SessionAnswerSchema.safeParse(value);
    const actual = SessionAnswerParser.safeParse(value);
    expect(actual.success).toBe(expected.success);
    if (actual.success && expected.success) expect(actual.data).toEqual(expected.data);
  });
});
