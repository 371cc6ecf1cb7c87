import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { MailedTokenSchema, NEW_PASSWORD_HINT, StudentForgotPasswordSchema, StudentResetPasswordSchema } from '../../shared/auth.schemas.js';
import { BirthDateField } from '../components/birth-date-field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { INCOMPLETE_LINK, NewPasswordFields, useNewPasswordForm } from '../components/new-password-fields.js';
import { OutlinedField } from '../components/outlined-field.js';
import { SignInFrame } from '../components/sign-in-frame.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
import { useForgotStudentPassword, useResetStudentPassword } from './auth.api.js';

/**
 * A student's forgotten password (docs/decisions.md D77): /forgot-password asks for the Student ID
 * and the date of birth, and a link goes to the family's e-mail; /reset-password?token=… (the
 * link) takes the new password. The family's own reset pages work the same way.
 */

export const FORGOT_PASSWORD_PATH = '/forgot-password';

/** /forgot-password: the answer is the same words whatever the school found. */
export function StudentForgotPasswordPage() {
  const [studentId, setStudentId] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const request = useForgotStudentPassword();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = StudentForgotPasswordSchema.safeParse({ student_id: studentId, date_of_birth: dateOfBirth });
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
          <Typography color="text.secondary">
            Enter your Student ID and date of birth. We send a link to choose a new password to your family's e-mail address that the school has.
          </Typography>
          <ErrorAlert message={request.isError ? errorMessage(request.error) : null} />
          <OutlinedField
            label="Student ID"
            name="student_id"
            autoComplete="username"
            value={studentId}
            onChange={(event) => setStudentId(event.target.value)}
            error={Boolean(fieldErrors['student_id'])}
            helperText={fieldErrors['student_id']}
            required
          />
          <BirthDateField value={dateOfBirth} onChange={setDateOfBirth} error={fieldErrors['date_of_birth']} autoComplete="bday" />
          <Button type="submit" variant="contained" size="large" fullWidth disabled={request.isPending} sx={{ mt: 2 }}>
            Send the link
          </Button>
        </Box>
      )}
      <Link component={RouterLink} to="/" sx={{ display: 'inline-block', mt: 3 }}>
        Back to the student sign-in
      </Link>
    </SignInFrame>
  );
}

/** /reset-password?token=…: the student's new password; every sign-in of the student ends, nobody is signed in. */
export function StudentResetPasswordPage() {
  const [params] = useSearchParams();
  const parsedToken = MailedTokenSchema.safeParse(params.get('token') ?? '');
  const token = parsedToken.success ? parsedToken.data : null;
  const form = useNewPasswordForm();
  const reset = useResetStudentPassword();
  const serverFieldErrors = isApiError(reset.error) && reset.error.errors !== undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.check(StudentResetPasswordSchema, (password) => ({ token: token ?? '', password }));
    if (body) reset.mutate(body, { onError: form.showRefusal });
  };

  if (token === null || isApiError(reset.error, 'link_invalid')) {
    return (
      <SignInFrame title="This link does not work">
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {token === null ? INCOMPLETE_LINK : errorMessage(reset.error)}
        </Alert>
        <Link component={RouterLink} to={FORGOT_PASSWORD_PATH} sx={{ display: 'inline-block', mt: 3 }}>
          Ask for a new link
        </Link>
      </SignInFrame>
    );
  }

  if (reset.isSuccess) {
    return (
      <SignInFrame title="New password saved">
        <Alert severity="success" role="status" sx={{ mt: 1 }}>
          {reset.data.message}
        </Alert>
        <Button component={RouterLink} to="/" variant="contained" size="large" fullWidth sx={{ mt: 3 }}>
          Go to the student sign-in
        </Button>
      </SignInFrame>
    );
  }

  return (
    <SignInFrame title="Choose a new password">
      <Typography color="text.secondary">Choose the student's new password. Every device signed in as the student is signed out.</Typography>
      <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Choose a new password">
        <ErrorAlert message={reset.isError && !serverFieldErrors ? errorMessage(reset.error) : null} />
        <NewPasswordFields hint={NEW_PASSWORD_HINT} {...form.fields} />
        <Button type="submit" variant="contained" size="large" fullWidth disabled={reset.isPending} sx={{ mt: 2 }}>
          Save new password
        </Button>
      </Box>
    </SignInFrame>
  );
}
