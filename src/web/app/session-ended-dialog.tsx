import { useEffect, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { FamilyLoginSchema } from '../../shared/family.schemas.js';
import { StudentIdLoginForm } from '../auth/student-id-login-form.js';
import { ErrorAlert } from '../components/error-alert.js';
import { OutlinedField } from '../components/outlined-field.js';
import { PasswordField } from '../components/password-field.js';
import { RememberDeviceCheckbox } from '../components/remember-device-checkbox.js';
import { useFamilyLogin } from '../family/family.api.js';
import { errorMessage } from '../lib/api-client.js';
import { accountKeyOf } from '../lib/drafts.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
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

/** The family sign-in page's form (e-mail, password, keep me signed in), in the dialog. */
function FamilyAgain({ user }: { user: SessionUser }) {
  const [email, setEmail] = useState(user.email ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const login = useFamilyLogin();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = FamilyLoginSchema.safeParse({ email, password, remember });
    setFieldErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    if (parsed.success) login.mutate(parsed.data);
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Parent or guardian sign in">
      <ErrorAlert message={login.isError ? errorMessage(login.error) : null} />
      <OutlinedField
        label="E-mail"
        name="email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={Boolean(fieldErrors['email'])}
        helperText={fieldErrors['email']}
        required
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={Boolean(fieldErrors['password'])}
        helperText={fieldErrors['password']}
        required
      />
      <RememberDeviceCheckbox checked={remember} onChange={setRemember} />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={login.isPending} sx={{ mt: 1 }}>
        Sign in
      </Button>
    </Box>
  );
}
