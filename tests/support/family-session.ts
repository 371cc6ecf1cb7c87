import type { SessionUser } from '../../src/shared/auth.schemas.js';

/** A family account's session as GET /api/session answers it, for component tests that need someone signed in. */
export function familySession(email: string, childIds: string[]): SessionUser {
  return {
    role: 'guardian',
    name: 'Sandra Mohammed',
    initials: 'SM',
    student_id: null,
    username: null,
    first_login: 0,
    password_reset: 0,
    staff_role: null,
    class_ids: [],
    child_ids: childIds,
    email,
    permissions: [],
    student_permissions: [],
  };
}
