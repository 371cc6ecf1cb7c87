import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FamilyLoginSchema } from '../../shared/family.schemas.js';
import { OutlinedField } from '../components/outlined-field.js';
import { PasswordField } from '../components/password-field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { RememberDeviceCheckbox } from '../components/remember-device-checkbox.js';
import { SignInFrame } from '../components/sign-in-frame.js';
import { errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
import { safeNextPath } from '../lib/session.js';
import { FAMILY_REGISTER_PATH, withNext } from './family-paths.js';
import { useFamilyLogin } from './family.api.js';

/**
 * A parent's or guardian's sign-in with e-mail and password (/family/sign-in): the
 * student form's "Keep me signed in on this device", its red alert for a refused sign-in, and the
 * ways on: create an account, a forgotten password. Opened with `?next=` (an invitation opened
 * before signing in), it goes back there once signed in.
 */
export function FamilySignInPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  return (
    <SignInFrame title="Parent or guardian sign in">
      {next?.startsWith('/family/accept') && (
        <Alert severity="info" sx={{ mb: 1 }}>
          Sign in to accept the invitation to your child's record.
        </Alert>
      )}
      <FamilySignInForm />
      <Stack spacing={1.5} sx={{ mt: 3, alignItems: 'flex-start' }}>
        <Link component={RouterLink} to={withNext(FAMILY_REGISTER_PATH, next)}>
          Create a family account
        </Link>
        <Link component={RouterLink} to="/family/forgot-password">
          Forgot your password?
        </Link>
        <Link component={RouterLink} to="/">
          Student sign in
        </Link>
      </Stack>
    </SignInFrame>
  );
}

/**
 * The family sign-in form (e-mail, password, "Keep me signed in on this device"): on the sign-in
 * page, and in the dialog that asks an ended session to sign in again (`email` filled in).
 * Signed in, whoever shows it goes on (the page's guard, the dialog's session).
 */
export function FamilySignInForm({ email: knownEmail = '' }: { email?: string }) {
  const [email, setEmail] = useState(knownEmail);
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
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Parent or guardian sign in">
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
