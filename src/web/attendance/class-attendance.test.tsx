import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import type { ClassAttendance as ClassAttendanceData } from '../../shared/attendance.schemas.js';
import type { SessionAnswer, SessionUser } from '../../shared/auth.schemas.js';
import { sessionQueryKey } from '../lib/session.js';
import { ClassAttendance } from './class-attendance.js';

/**
 * Class Attendance's table (D93): the excused and unexcused absent sessions and the excused late
 * days of each student and of the class, as columns, and under the absent and late figures where
 * those columns do not fit (which of the two shows is the stylesheet's, at the `lg` width).
 */

afterEach(() => vi.unstubAllGlobals());

const TEACHER: SessionUser = {
  role: 'staff',
  name: 'Mrs. J. Francis',
  initials: 'JF',
  student_id: null,
  username: 'teacher.5a',
  first_login: 0,
  password_reset: 0,
  staff_role: 'form_teacher',
  class_ids: ['5A'],
  permissions: ['class.read'],
  student_permissions: ['student.read'],
};

const row = (id: string, last: string, figures: Partial<ClassAttendanceData['students'][number]>) => ({
  id,
  first_name: 'Pupil',
  last_name: last,
  present: 100,
  absent: 0,
  lates: 0,
  absent_excused: 0,
  absent_unexcused: 0,
  lates_excused: 0,
  attendance_percent: 100,
  punctuality_percent: 100,
  ...figures,
});

const ANSWER: ClassAttendanceData = {
  class_id: '5A',
  class_name: 'Form 5 5A',
  form_teacher: 'Mrs. J. Francis',
  from: '2026-09-07',
  to: '2026-10-30',
  school_days: 50,
  possible: 100,
  recorded: true,
  students: [
    row('20220001', 'Ali', { present: 94, absent: 6, absent_excused: 4, absent_unexcused: 2, lates: 3, lates_excused: 1, attendance_percent: 94, punctuality_percent: 94 }),
    row('20220002', 'Baptiste', {}),
  ],
  totals: { present: 194, absent: 6, lates: 3, absent_excused: 4, absent_unexcused: 2, lates_excused: 1, attendance_percent: 97 },
};

describe('Class Attendance', () => {
  it('shows the excused and unexcused absences and the excused late days of each student and the class', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new Error('no call expected'))));
    const queryClient = createQueryClient();
    queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: TEACHER });
    queryClient.setQueryData(['admin', 'form-classes'], [{ id: '5A', form_level: 5 }]);
    queryClient.setQueryData(['class-attendance', { class_id: '5A' }], ANSWER);
    renderScreen(<ClassAttendance />, { queryClient });

    const table = await screen.findByRole('table', { name: 'Form 5 5A · 2026-09-07 to 2026-10-30' });
    const headings = within(table).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headings).toEqual([
      'Student ID',
      'Name',
      'Sessions present',
      'Sessions absent',
      'Sessions absent (excused)',
      'Sessions absent (unexcused)',
      'Days late',
      'Days late (excused)',
      'Attendance',
      'Punctuality',
    ]);
    const cells = (name: RegExp) => within(within(table).getByRole('row', { name })).getAllByRole('cell').map((cell) => cell.textContent);
    // Student ID, present, absent (with its excused part for narrow screens), excused, unexcused, late (likewise), late excused, %.
    expect(cells(/Ali, Pupil/)).toEqual(['20220001', '94', '64 excused', '4', '2', '31 excused', '1', '94%', '94%']);
    // Nothing excused: no line under the figures.
    expect(cells(/Baptiste, Pupil/)).toEqual(['20220002', '100', '0', '0', '0', '0', '0', '100%', '100%']);
    expect(cells(/Class total/)).toEqual(['', '194', '64 excused', '4', '2', '31 excused', '1', '97%', '']);
  });
});
