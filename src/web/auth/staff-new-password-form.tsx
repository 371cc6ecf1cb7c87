import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { ChangeStaffPasswordSchema, STAFF_PASSWORD_MIN_LENGTH } from '../../shared/staff.schemas.js';
import { PasswordField } from '../components/password-field.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
import { useChangePasswordStaff } from './auth.api.js';
import { PASSWORDS_DO_NOT_MATCH } from './auth.messages.js';
import { ErrorAlert } from '../components/error-alert.js';
import { NewPasswordFields } from '../components/new-password-fields.js';

/**
 * A staff member's forced change (D50): after a new account or a reset, the one-time password
 * they signed in with, then their own, at least 12 characters and not a common password (the
 * length is checked here with the shared rule, the list by the server, which says which).
 */
export function StaffNewPasswordForm({ user, onChanged }: { user: SessionUser; onChanged: () => void }) {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const change = useChangePasswordStaff();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ChangeStaffPasswordSchema.safeParse({ current_password: current, password });
    const errors = parsed.success ? {} : fieldErrorsOf(parsed.error);
    if (confirmation !== password) errors['confirmation'] = PASSWORDS_DO_NOT_MATCH;
    setFieldErrors(errors);
    if (!parsed.success || Object.keys(errors).length > 0) return;
    change.mutate(parsed.data, {
      onSuccess: onChanged,
      onError: (cause) => {
        if (isApiError(cause) && cause.errors) setFieldErrors(Object.fromEntries(Object.entries(cause.errors).map(([field, messages]) => [field, messages[0]])));
      },
    });
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Choose a new password">
      <Typography color="text.secondary">
        Welcome, {user.name}. Before you continue, choose your own password for {user.username}. It needs at least{' '}
        {STAFF_PASSWORD_MIN_LENGTH} characters and must not be a common password.
      </Typography>
      <ErrorAlert message={change.isError && !(isApiError(change.error) && change.error.errors) ? errorMessage(change.error) : null} />
      <PasswordField
        label="One-time or current password"
        name="current_password"
        autoComplete="current-password"
        value={current}
        onChange={(event) => setCurrent(event.target.value)}
        error={Boolean(fieldErrors['current_password'])}
        helperText={fieldErrors['current_password']}
        required
      />
      <NewPasswordFields password={password} confirmation={confirmation} onPassword={setPassword} onConfirmation={setConfirmation} errors={fieldErrors} />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={change.isPending} sx={{ mt: 2 }}>
        Save new password
      </Button>
    </Box>
  );
}
