import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { FamilyForgotPasswordSchema, FamilyResetPasswordSchema, FamilyTokenSchema, FamilyVerifySchema } from '../../shared/family.schemas.js';
import { ErrorAlert } from '../components/error-alert.js';
import { OutlinedField } from '../components/outlined-field.js';
import { SignInFrame } from '../components/sign-in-frame.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
import { INCOMPLETE_LINK, NewPasswordFields, useNewPasswordForm } from '../components/new-password-fields.js';
import { FAMILY_PASSWORD_HINT } from './family-password-fields.js';
import { FAMILY_REGISTER_PATH, FAMILY_SIGN_IN_PATH } from './family-paths.js';
import { useFamilyForgotPassword, useFamilyResetPassword, useFamilyVerify } from './family.api.js';

/**
 * The pages the family's mailed links open: the address check after registering, where the
 * account's password is chosen (/family/verify?token=…), and the password reset (/family/forgot-password asks for the link,
 * /family/reset-password?token=… takes the new password). A link that expired, was used or is cut
 * short says so and offers the way forward.
 */

/** The link's token when it is well formed, else null (the page then says the link is incomplete). */
function tokenOf(params: URLSearchParams): string | null {
  const parsed = FamilyTokenSchema.safeParse({ token: params.get('token') ?? '' });
  return parsed.success ? parsed.data.token : null;
}

/**
 * /family/verify?token=…: the person who opened the mailed link chooses the account's password
 * (docs/decisions.md D66), which creates the account and signs in; then the family's home. The
 * registration took no password, so nobody who merely typed this address chose it.
 */
export function FamilyVerifyPage() {
  const [params] = useSearchParams();
  const token = tokenOf(params);
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const form = useNewPasswordForm();
  const verify = useFamilyVerify();
  const serverFieldErrors = isApiError(verify.error) && verify.error.errors !== undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.check(FamilyVerifySchema, (password) => ({ token: token ?? '', password }));
    if (!body) return;
    verify.mutate(body, {
      onSuccess: (answer) => {
        showSnackbar(`Welcome, ${answer.name}. Your family account is ready.`);
        void navigate('/dashboard', { replace: true });
      },
      onError: form.showRefusal,
    });
  };

  if (token === null || isApiError(verify.error, 'link_invalid')) {
    return (
      <SignInFrame title="This link does not work">
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {token === null ? INCOMPLETE_LINK : errorMessage(verify.error)}
        </Alert>
        <Stack spacing={1.5} sx={{ mt: 3, alignItems: 'flex-start' }}>
          <Link component={RouterLink} to={FAMILY_SIGN_IN_PATH}>
            Sign in with your e-mail and password
          </Link>
          <Link component={RouterLink} to={FAMILY_REGISTER_PATH}>
            Register again to get a new link
          </Link>
        </Stack>
      </SignInFrame>
    );
  }

  return (
    <SignInFrame title="Choose your password">
      <Typography color="text.secondary">
        Your e-mail address is confirmed by this link. Choose the password for your family account to finish creating it.
      </Typography>
      <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Choose your password">
        <ErrorAlert message={verify.isError && !serverFieldErrors ? errorMessage(verify.error) : null} />
        <NewPasswordFields label="Password" hint={FAMILY_PASSWORD_HINT} {...form.fields} />
        <Button type="submit" variant="contained" size="large" fullWidth disabled={verify.isPending} sx={{ mt: 2 }}>
          Create account
        </Button>
      </Box>
    </SignInFrame>
  );
}

/** /family/forgot-password: the address; the answer is the same whether it has an account or not. */
export function FamilyForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const request = useFamilyForgotPassword();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = FamilyForgotPasswordSchema.safeParse({ email });
    setFieldErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    if (parsed.success) request.mutate(parsed.data);
  };

  return (
    <SignInFrame title="Forgot your password?">
      {request.isSuccess ? (
        <Alert severity="success" role="status" sx={{ mt: 1 }}>
          {request.data.message}
        </Alert>
      ) : (
        <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Ask for a password reset link">
          <Typography color="text.secondary">Enter your family account's e-mail address. We will send you a link to choose a new password.</Typography>
          <ErrorAlert message={request.isError ? errorMessage(request.error) : null} />
          <OutlinedField
            label="E-mail"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={Boolean(fieldErrors['email'])}
            helperText={fieldErrors['email']}
            required
          />
          <Button type="submit" variant="contained" size="large" fullWidth disabled={request.isPending} sx={{ mt: 2 }}>
            Send the link
          </Button>
        </Box>
      )}
      <Link component={RouterLink} to={FAMILY_SIGN_IN_PATH} sx={{ display: 'inline-block', mt: 3 }}>
        Back to the parent sign-in
      </Link>
    </SignInFrame>
  );
}

/** /family/reset-password?token=…: the new password; the account is then signed in (and its other sign-ins end). */
export function FamilyResetPasswordPage() {
  const [params] = useSearchParams();
  const token = tokenOf(params);
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const form = useNewPasswordForm();
  const reset = useFamilyResetPassword();
  const serverFieldErrors = isApiError(reset.error) && reset.error.errors !== undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.check(FamilyResetPasswordSchema, (password) => ({ token: token ?? '', password }));
    if (!body) return;
    reset.mutate(body, {
      onSuccess: () => {
        showSnackbar('Your new password is saved.');
        void navigate('/dashboard', { replace: true });
      },
      onError: form.showRefusal,
    });
  };

  if (token === null || isApiError(reset.error, 'link_invalid')) {
    return (
      <SignInFrame title="This link does not work">
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {token === null ? INCOMPLETE_LINK : errorMessage(reset.error)}
        </Alert>
        <Link component={RouterLink} to="/family/forgot-password" sx={{ display: 'inline-block', mt: 3 }}>
          Ask for a new link
        </Link>
      </SignInFrame>
    );
  }

  return (
    <SignInFrame title="Choose a new password">
      <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Choose a new password">
        <ErrorAlert message={reset.isError && !serverFieldErrors ? errorMessage(reset.error) : null} />
        <NewPasswordFields label="Password" hint={FAMILY_PASSWORD_HINT} {...form.fields} />
        <Button type="submit" variant="contained" size="large" fullWidth disabled={reset.isPending} sx={{ mt: 2 }}>
          Save new password
        </Button>
      </Box>
    </SignInFrame>
  );
}
