import { lazy, Suspense, useState } from 'react';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { LoginAnswer } from '../../shared/auth.schemas.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { needsPasswordChange, useSession } from '../lib/session.js';
import { PASSWORD_CHANGED_MESSAGE } from './auth.messages.js';
import { SignInFrame } from '../components/sign-in-frame.js';
import { StudentIdLoginForm } from './student-id-login-form.js';

// Most visitors only sign in with their Student ID: the other modes and the dialogs (with MUI's
// Modal) load when first shown, which keeps the login page's first load small (D32).
const FindStudentIdDialog = lazy(async () => ({ default: (await import('./find-student-id-dialog.js')).FindStudentIdDialog }));
const FirstLoginForm = lazy(async () => ({ default: (await import('./first-login-form.js')).FirstLoginForm }));
const NewPasswordForm = lazy(async () => ({ default: (await import('./new-password-form.js')).NewPasswordForm }));
const NoteStudentIdDialog = lazy(async () => ({ default: (await import('./note-student-id-dialog.js')).NoteStudentIdDialog }));

/**
 * The student login screen (/) and its three modes (docs/requirements.md R3): normal, first login, and new
 * password. New-password mode follows the session, so a reload keeps a student in it until the
 * password is changed. Parents with a family account sign in on their own page, the
 * first link under the form.
 */
export function StudentLoginPage() {
  const user = useSession().data?.user ?? null;
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const [mode, setMode] = useState<'normal' | 'first-login'>('normal');
  const [studentId, setStudentId] = useState('');
  const [idToNote, setIdToNote] = useState<string | null>(null);
  const [finding, setFinding] = useState(false);
  // Once opened, the dialog stays mounted so that closing it animates.
  const [findOpened, setFindOpened] = useState(false);

  if (user !== null && needsPasswordChange(user) && idToNote === null) {
    const onChanged = () => {
      showSnackbar(PASSWORD_CHANGED_MESSAGE);
      void navigate('/dashboard', { replace: true });
    };
    return (
      <SignInFrame title="Choose a new password">
        <Suspense fallback={null}>
          <NewPasswordForm user={user} onChanged={onChanged} />
        </Suspense>
        <Link component={RouterLink} to="/logout" sx={{ display: 'inline-block', mt: 2 }}>
          Cancel and sign out
        </Link>
      </SignInFrame>
    );
  }

  const onSignedIn = (answer: LoginAnswer) => {
    // An account that must change its password stays here: the session now puts it in
    // New-password mode (above). Everyone else goes to the dashboard.
    if (answer.first_login !== 1 && answer.password_reset !== 1) void navigate('/dashboard', { replace: true });
  };
  const onFirstSignedIn = (answer: LoginAnswer) => {
    setStudentId(answer.student_id);
    setMode('normal');
    setIdToNote(answer.student_id);
  };

  return (
    <SignInFrame title={mode === 'normal' ? 'Student sign in' : 'First-time sign in'}>
      {mode === 'normal' ? (
        <StudentIdLoginForm studentId={studentId} onStudentIdChange={setStudentId} onSignedIn={onSignedIn} />
      ) : (
        <Suspense fallback={null}>
          <FirstLoginForm onSignedIn={onFirstSignedIn} />
        </Suspense>
      )}
      <Stack spacing={1.5} sx={{ mt: 3, alignItems: 'flex-start' }}>
        <Link component={RouterLink} to="/family/sign-in" sx={{ fontWeight: 600 }}>
          Parent or guardian? Sign in with your e-mail
        </Link>
        {mode === 'normal' ? (
          <Link component="button" type="button" onClick={() => setMode('first-login')} sx={{ textAlign: 'left' }}>
            First time here? Sign in with your birth certificate pin or SEA number
          </Link>
        ) : (
          <Link component="button" type="button" onClick={() => setMode('normal')} sx={{ textAlign: 'left' }}>
            Sign in with your Student ID instead
          </Link>
        )}
        {mode === 'normal' && (
          <Link component={RouterLink} to="/forgot-password">
            Forgot your password?
          </Link>
        )}
        <Link component="button" type="button" onClick={() => (setFinding(true), setFindOpened(true))}>
          Forgot your Student ID?
        </Link>
        <Link component={RouterLink} to="/admin">
          Staff: administrator sign in
        </Link>
      </Stack>
      <Suspense fallback={null}>
        {findOpened && (
          <FindStudentIdDialog
            open={finding}
            onClose={() => setFinding(false)}
            onUseId={(id) => {
              setStudentId(id);
              setMode('normal');
              setFinding(false);
            }}
          />
        )}
        {idToNote !== null && <NoteStudentIdDialog studentId={idToNote} onClose={() => setIdToNote(null)} />}
      </Suspense>
    </SignInFrame>
  );
}
