import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, jsonResponse, renderScreen } from '../../../tests/support/render-web.js';
import type { SessionAnswer, SessionUser } from '../../shared/auth.schemas.js';
import { ADMIN_MESSAGES, type StudentListPage } from '../../shared/students.schemas.js';
import { sessionQueryKey } from '../lib/session.js';
import StudentList from './student-list.js';

/**
 * The student list's count (docs/decisions.md D82): while the list is loading it says so, never
 * "Total Number of Students: 0"; the count shows once the server has answered.
 */

afterEach(() => vi.unstubAllGlobals());

const OFFICE: SessionUser = {
  role: 'staff',
  name: 'Office',
  initials: 'O',
  student_id: null,
  username: 'office',
  first_login: 0,
  password_reset: 0,
  staff_role: 'office',
  class_ids: [],
  permissions: ['students.list'],
  student_permissions: ['student.read'],
};

const PAGE: StudentListPage = {
  rows: [
    { id: '20250001', first_name: 'Jane', last_name: 'Doe', middle_name: null, sex: 'Female', class_id: '3A', date_of_birth: '2012-01-01', birth_certificate_no: 'B1', updatedAt: '2026-11-01T00:00:00.000Z', registration: 'not_started' },
  ],
  total: 3,
  totalStudents: 3,
  serverMode: true,
};

describe('the student list', () => {
  it('says it is loading, not "Total Number of Students: 0", until the count is known', async () => {
    let answerList: (response: Response) => void = () => undefined;
    const listAnswered = new Promise<Response>((resolve) => {
      answerList = resolve;
    });
    vi.stubGlobal(
      'fetch',
      vi.fn((path: string) => (path.startsWith('/api/students') ? listAnswered : Promise.resolve(jsonResponse(200, [])))),
    );
    const queryClient = createQueryClient();
    queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: OFFICE });
    renderScreen(<StudentList documentsDialog={() => null} />, { queryClient });
    expect(await screen.findByText('Loading students…')).toBeTruthy();
    expect(screen.queryByText(ADMIN_MESSAGES.totalStudents(0))).toBeNull();
    answerList(jsonResponse(200, PAGE));
    expect(await screen.findByText(ADMIN_MESSAGES.totalStudents(3))).toBeTruthy();
    expect(screen.queryByText('Loading students…')).toBeNull();
  });
});
