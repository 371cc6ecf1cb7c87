import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FamilyRegisterSchema } from '../../shared/family.schemas.js';
import { ErrorAlert } from '../components/error-alert.js';
import { OutlinedField } from '../components/outlined-field.js';
import { SignInFrame } from '../components/sign-in-frame.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { safeNextPath } from '../lib/session.js';
import { FAMILY_SIGN_IN_PATH, withNext } from './family-paths.js';
import { useFamilyRegister } from './family.api.js';

/**
 * /family/register: name and e-mail, checked with FamilyRegisterSchema on the fields; then the
 * server's answer, which says to open the link it mailed. The password is chosen on that link's
 * page (/family/verify), by whoever proves the mailbox (docs/decisions.md D66), and the account
 * exists from then on.
 */
export function FamilyRegisterPage() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const register = useFamilyRegister();
  const serverFieldErrors = isApiError(register.error) && register.error.errors !== undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = FamilyRegisterSchema.safeParse({ name, email });
    setFieldErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    if (!parsed.success) return;
    register.mutate(parsed.data, {
      onError: (cause) => {
        if (isApiError(cause) && cause.errors) setFieldErrors(firstFieldMessages(cause.errors));
      },
    });
  };

  if (register.isSuccess) {
    return (
      <SignInFrame title="Check your e-mail">
        <Alert severity="success" role="status" sx={{ mt: 1 }}>
          {register.data.message}
        </Alert>
        {next && (
          <Typography sx={{ mt: 2 }}>
            After you confirm your address and choose your password, open the invitation link again to add your child, unless it was sent to this
            address: then your child is added as soon as you confirm.
          </Typography>
        )}
        <Link component={RouterLink} to={withNext(FAMILY_SIGN_IN_PATH, next)} sx={{ display: 'inline-block', mt: 3 }}>
          Go to the parent sign-in
        </Link>
      </SignInFrame>
    );
  }

  return (
    <SignInFrame title="Create a family account">
      <Typography color="text.secondary">
        One sign-in for all your children at the school. We will send a link to your e-mail address: open it to choose your password.
      </Typography>
      <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Create a family account">
        <ErrorAlert message={register.isError && !serverFieldErrors ? errorMessage(register.error) : null} />
        <OutlinedField
          label="Your name"
          name="name"
          autoComplete="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={Boolean(fieldErrors['name'])}
          helperText={fieldErrors['name']}
          required
        />
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
        <Button type="submit" variant="contained" size="large" fullWidth disabled={register.isPending} sx={{ mt: 2 }}>
          Send the link
        </Button>
      </Box>
      <Stack spacing={1.5} sx={{ mt: 3, alignItems: 'flex-start' }}>
        <Link component={RouterLink} to={withNext(FAMILY_SIGN_IN_PATH, next)}>
          I already have a family account: sign in
        </Link>
        <Link component={RouterLink} to="/">
          Student sign in
        </Link>
      </Stack>
    </SignInFrame>
  );
}
