import { lazy, Suspense, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AdminLoginSchema, type SessionAnswer, type SessionUser } from '../../shared/auth.schemas.js';
import { PasswordField } from '../components/password-field.js';
import { errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, firstIssueMessage, type FieldErrors } from '../lib/form-errors.js';
import { needsPasswordChange, sessionQueryKey, takeStaffSignInNotice, useSession } from '../lib/session.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { useAdminLogin, useStaffSignInOptions } from './auth.api.js';
import { providerSignInErrorMessage, providerStartPath } from '../../shared/staff-sign-in.js';
import { PASSWORD_CHANGED_MESSAGE } from './auth.messages.js';
import { ErrorAlert } from '../components/error-alert.js';
import { RememberDeviceCheckbox } from '../components/remember-device-checkbox.js';
import { SecondFactorForm } from './second-factor-form.js';
import { SignInFrame } from '../components/sign-in-frame.js';

// Only a new or reset staff account needs it: loaded when shown.
const StaffNewPasswordForm = lazy(async () => ({ default: (await import('./staff-new-password-form.js')).StaffNewPasswordForm }));

/**
 * Admin login (/admin): username and password; problems show in the red alert (docs/requirements.md R3, R16). An
 * account with a second factor is asked for its code next; one that must still set it up goes to
 * the enrolment screen (D51). A staff member signed in with a one-time password stays here to
 * choose their own first (D50). When the school's own provider is set up (D96) its button comes
 * first; the provider sends refusals back here with their reason (`?sign_in_error=`), and a
 * sign-in there that still needs the portal's code with `?step=code`.
 */
export function AdminLoginPage() {
  const user = useSession().data?.user ?? null;
  if (user !== null && needsPasswordChange(user)) return <StaffPasswordChange user={user} />;
  return <AdminSignIn />;
}

function StaffPasswordChange({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const onChanged = () => {
    showSnackbar(PASSWORD_CHANGED_MESSAGE);
    void navigate('/admin/dashboard', { replace: true });
  };
  return (
    <SignInFrame title="Choose a new password">
      <Suspense fallback={null}>
        <StaffNewPasswordForm user={user} onChanged={onChanged} />
      </Suspense>
      <Link component={RouterLink} to="/logout" sx={{ display: 'inline-block', mt: 2 }}>
        Cancel and sign out
      </Link>
    </SignInFrame>
  );
}

function AdminSignIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [invalid, setInvalid] = useState<{ message: string; fields: FieldErrors } | null>(null);
  const [searchParams] = useSearchParams();
  const [codeStep, setCodeStep] = useState(() => searchParams.get('step') === 'code');
  // Why the last sign-in ended, when the person must be told (their account was disabled, D84),
  // or why the school's provider did not sign them in.
  const [notice] = useState(() => providerSignInErrorMessage(searchParams.get('sign_in_error')) ?? takeStaffSignInNotice());
  const options = useStaffSignInOptions().data;
  const providers = options?.providers ?? [];
  const passwordsOff = options?.password_sign_in === false;
  const login = useAdminLogin();
  const toDashboard = () => void navigate('/admin/dashboard', { replace: true });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = AdminLoginSchema.safeParse({ username, password, remember });
    if (!parsed.success) {
      // A blank username shows 'Username field empty' (the shared schema's message) and calls nothing.
      setInvalid({ message: firstIssueMessage(parsed.error), fields: fieldErrorsOf(parsed.error) });
      login.reset();
      return;
    }
    setInvalid(null);
    login.mutate(parsed.data, {
      onSuccess: (answer) => {
        if ('second_factor' in answer) return setCodeStep(true);
        // A new or reset account stays: the refreshed session puts this page in its new-password mode.
        if (needsPasswordChange(queryClient.getQueryData<SessionAnswer>(sessionQueryKey)?.user)) return;
        if (answer.second_factor_setup) void navigate('/admin/two-factor', { replace: true });
        else toDashboard();
      },
    });
  };

  if (codeStep) {
    return (
      <SignInFrame title="Two-step sign-in">
        <SecondFactorForm
          onSignedIn={toDashboard}
          onStartAgain={() => {
            setCodeStep(false);
            setPassword('');
            login.reset();
          }}
        />
      </SignInFrame>
    );
  }

  return (
    <SignInFrame title={providers.length > 0 ? 'Staff sign in' : 'Administrator sign in'}>
      {providers.length > 0 && (
        <Box sx={{ mb: 2 }}>
          {/* A full page load to the provider, not a call: its own sign-in page comes next. */}
          {providers.map((provider) => (
            <Button key={provider.id} href={providerStartPath(provider.id, remember)} variant="contained" size="large" fullWidth sx={{ mt: 1 }}>
              {provider.label}
            </Button>
          ))}
          <Divider sx={{ mt: 3 }}>
            <Typography variant="body2" color="text.secondary">
              {passwordsOff ? 'Emergency administrator only' : 'or with username and password'}
            </Typography>
          </Divider>
        </Box>
      )}
      <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Administrator sign in">
        <ErrorAlert message={invalid?.message ?? (login.isError ? errorMessage(login.error) : login.isIdle ? notice : null)} />
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          error={Boolean(invalid?.fields['username'])}
          required
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={Boolean(invalid?.fields['password'])}
          required
        />
        <RememberDeviceCheckbox checked={remember} onChange={setRemember} />
        <Button type="submit" variant="contained" size="large" fullWidth disabled={login.isPending} sx={{ mt: 1 }}>
          Sign in
        </Button>
      </Box>
      <Link component={RouterLink} to="/" sx={{ display: 'inline-block', mt: 3 }}>
        Student sign in
      </Link>
    </SignInFrame>
  );
}
