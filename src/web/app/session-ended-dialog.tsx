import { useEffect, useState } from 'react';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { StudentIdLoginForm } from '../auth/student-id-login-form.js';
import { FamilySignInForm } from '../family/family-sign-in-page.js';
import { accountKeyOf } from '../lib/drafts.js';
import { homePathFor, sessionQueryKey, useEndedSession, useSession } from '../lib/session.js';

/**
 * The sign-in again, in place, when a student's or family account's session ended while the
 * screen kept its place (lib/session.ts, D73): over an opaque backdrop (the record behind is not
 * shown to whoever sits at the computer now), the same sign-in form as the login page, the account
 * filled in. Signed in again, the dialog goes, the screen's data is asked for again and the
 * drafts waiting on this device are sent; someone else signing in here goes to their own
 * dashboard, and the first account's drafts stay theirs (never shown or sent for another).
 */
export function SessionEndedDialog() {
  const ended = useEndedSession();
  const user = useSession().data?.user ?? null;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [endedFor, setEndedFor] = useState<SessionUser | null>(null);

  useEffect(() => {
    if (ended !== null) {
      setEndedFor(ended);
      return;
    }
    if (endedFor === null || user === null) return;
    setEndedFor(null);
    const others = { predicate: (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== sessionQueryKey[0] };
    if (accountKeyOf(user) === accountKeyOf(endedFor)) {
      void queryClient.invalidateQueries(others);
    } else {
      queryClient.removeQueries(others);
      void navigate(homePathFor(user), { replace: true });
    }
  }, [ended, endedFor, user, queryClient, navigate]);

  if (ended === null) return null;
  return (
    <Dialog
      open
      aria-labelledby="session-ended-title"
      disableEscapeKeyDown
      slotProps={{ backdrop: { sx: { bgcolor: 'background.default' } } }}
    >
      <DialogTitle id="session-ended-title">Your sign-in has ended</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 1 }}>
          Sign in again to carry on here. Nothing you typed is lost: it is kept on this device and saved once you are signed in.
        </Typography>
        {ended.role === 'student' ? <StudentAgain user={ended} /> : <FamilyAgain user={ended} />}
        <Link component={RouterLink} to="/logout" sx={{ display: 'inline-block', mt: 2 }}>
          Not you? Sign out (changes not yet saved are removed from this device)
        </Link>
      </DialogContent>
    </Dialog>
  );
}

function StudentAgain({ user }: { user: SessionUser }) {
  const [studentId, setStudentId] = useState(user.student_id ?? '');
  return <StudentIdLoginForm studentId={studentId} onStudentIdChange={setStudentId} onSignedIn={() => undefined} />;
}

/** The family sign-in page's form, in the dialog, the account's e-mail filled in. */
function FamilyAgain({ user }: { user: SessionUser }) {
  return <FamilySignInForm email={user.email ?? ''} />;
}
