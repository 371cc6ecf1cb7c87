import { lazy, Suspense } from 'react';
import { DashboardPage } from '../dashboard/dashboard-page.js';
import { useSession } from '../lib/session.js';
import { canTake } from '../lib/staff-access.js';

// Loaded only for a student who may invite a parent.
const InviteParentButton = lazy(async () => ({ default: (await import('../family/invite-parent.js')).InviteParentButton }));

/** /dashboard: the dashboard feature's page, with the family feature's "Invite a parent" for a student (features meet in app/). */
export function DashboardRoute() {
  const user = useSession().data?.user ?? null;
  const studentId = user?.role === 'student' && canTake(user, 'student.invite-family') ? user.student_id : null;
  return (
    <DashboardPage
      actions={
        studentId ? (
          <Suspense fallback={null}>
            <InviteParentButton studentId={studentId} />
          </Suspense>
        ) : undefined
      }
    />
  );
}
