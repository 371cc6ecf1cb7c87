import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { ChangePasswordSchema, NEW_PASSWORD_HINT, NewPasswordSchema, type SessionUser } from '../../shared/auth.schemas.js';
import { errorMessage } from '../lib/api-client.js';
import type { FieldErrors } from '../lib/form-errors.js';
import { useChangePasswordStudent } from './auth.api.js';
import { NewPasswordFields, PASSWORDS_DO_NOT_MATCH } from '../components/new-password-fields.js';
import { ErrorAlert } from '../components/error-alert.js';

/** New and confirm fields checked with the shared rule; a mismatch sends nothing (docs/requirements.md R3). */
export function checkNewPassword(password: string, confirmation: string): FieldErrors {
  const errors: FieldErrors = {};
  const rule = NewPasswordSchema.safeParse(password);
  if (!rule.success) errors['password'] = rule.error.issues[0]?.message ?? 'Choose another password.';
  if (confirmation !== password) errors['confirmation'] = PASSWORDS_DO_NOT_MATCH;
  return errors;
}

/** New-password mode: the forced change after a first login or an office reset (R3). */
export function NewPasswordForm({ user, onChanged }: { user: SessionUser; onChanged: () => void }) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const change = useChangePasswordStudent();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = checkNewPassword(password, confirmation);
    setFieldErrors(errors);
    setFormError(null);
    if (Object.keys(errors).length > 0) return;
    const body = ChangePasswordSchema.safeParse({ student_id: user.student_id ?? '', reset_password: password });
    if (!body.success) {
      setFormError(body.error.issues[0]?.message ?? 'This account cannot change its password here.');
      return;
    }
    change.mutate(body.data, { onSuccess: onChanged });
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Choose a new password">
      <Typography color="text.secondary">
        Welcome, {user.name}. Before you continue, choose a new password for Student ID {user.student_id}.
      </Typography>
      <ErrorAlert message={formError ?? (change.isError ? errorMessage(change.error) : null)} />
      <NewPasswordFields
        password={password}
        confirmation={confirmation}
        onPassword={setPassword}
        onConfirmation={setConfirmation}
        errors={fieldErrors}
        hint={NEW_PASSWORD_HINT}
      />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={change.isPending} sx={{ mt: 2 }}>
        Save new password
      </Button>
    </Box>
  );
}
