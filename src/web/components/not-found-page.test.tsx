import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SessionAnswer, SessionUser } from '../../shared/auth.schemas.js';
import { createQueryClient, renderScreen } from '../../../tests/support/render-web.js';
import { sessionQueryKey } from '../lib/session.js';
import { NotFoundPage } from './not-found-page.js';

/**
 * "Page not found" names the address and links to where the person belongs: the sign-in screen
 * for a visitor, their dashboard for a student or a family, the admin dashboard for staff. The
 * session is put in the query cache, so the page makes no call.
 */

const someone = (role: SessionUser['role']): SessionUser => ({
  role,
  name: 'Someone',
  initials: 'S',
  student_id: role === 'student' ? '20220001' : null,
  username: role === 'staff' ? 'office' : null,
  first_login: 0,
  password_reset: 0,
  staff_role: role === 'staff' ? 'office' : null,
  class_ids: [],
  permissions: [],
  student_permissions: [],
});

function renderNotFound(user: SessionUser | null, path: string) {
  const queryClient = createQueryClient();
  queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user });
  renderScreen(<NotFoundPage />, { path, queryClient });
}

describe('Page not found', () => {
  it.each([
    ['a visitor', 'Go to sign in', '/', null],
    ['a student', 'Go to your dashboard', '/dashboard', someone('student')],
    ['a family', 'Go to your dashboard', '/dashboard', someone('guardian')],
    ['the office', 'Go to the admin dashboard', '/admin/dashboard', someone('staff')],
  ] as const)('for %s: %s, to %s', (_who, label, home, user) => {
    renderNotFound(user, '/no/such-page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText(/There is no page at \/no\/such-page\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: label }).getAttribute('href')).toBe(home);
  });
});
