import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import { Link as RouterLink, useNavigate } from 'react-router';
import { AdminLoginSchema } from '../../shared/auth.schemas.js';
import { PasswordField } from '../components/password-field.js';
import { errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, firstIssueMessage, type FieldErrors } from '../lib/form-errors.js';
import { useAdminLogin } from './auth.api.js';
import { ErrorAlert } from './error-alert.js';
import { RememberDeviceCheckbox } from './remember-device-checkbox.js';
import { SecondFactorForm } from './second-factor-form.js';
import { SignInFrame } from './sign-in-frame.js';

/**
 * Admin login (/admin): username and password; problems show in the red alert (SPEC §2, §8). An
 * account with a second factor is asked for its code next (issue 16); one that must still set it
 * up goes to the enrolment screen.
 */
export function AdminLoginPage() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [invalid, setInvalid] = useState<{ message: string; fields: FieldErrors } | null>(null);
  const [codeStep, setCodeStep] = useState(false);
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
        if ('second_factor' in answer) setCodeStep(true);
        else if (answer.second_factor_setup) void navigate('/admin/two-factor', { replace: true });
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
    <SignInFrame title="Administrator sign in">
      <Box component="form" noValidate onSubmit={submit} aria-label="Administrator sign in">
        <ErrorAlert message={invalid?.message ?? (login.isError ? errorMessage(login.error) : null)} />
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
