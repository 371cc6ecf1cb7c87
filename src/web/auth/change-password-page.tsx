import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router';
import { ChangePasswordSchema, NEW_PASSWORD_HINT, PASSWORD_MIN_LENGTH, StudentLoginSchema } from '../../shared/auth.schemas.js';
import { PasswordField } from '../components/password-field.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import type { FieldErrors } from '../lib/form-errors.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useSession } from '../lib/session.js';
import { useChangePasswordStudent } from './auth.api.js';
import { PASSWORD_CHANGED_MESSAGE } from './auth.messages.js';
import { ErrorAlert } from '../components/error-alert.js';
import { checkNewPassword } from './new-password-form.js';
import { NewPasswordFields } from '../components/new-password-fields.js';

const AFTER_CHANGE_PATH = '/registration/student-data';

/** The voluntary password change (/registration/change-password); then back to Student Data (docs/requirements.md R2). */
export function ChangePasswordPage() {
  usePageTitle('Change password');
  const user = useSession().data?.user ?? null;
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const change = useChangePasswordStudent();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = checkNewPassword(password, confirmation);
    // The current password uses the sign-in form's rule (required, bounded).
    const currentRule = StudentLoginSchema.shape.password.safeParse(current);
    if (!currentRule.success) errors['current_password'] = currentRule.error.issues[0]?.message;
    setFieldErrors(errors);
    setFormError(null);
    if (Object.values(errors).some(Boolean)) return;
    const body = ChangePasswordSchema.safeParse({ student_id: user?.student_id ?? '', password, current_password: current });
    if (!body.success) {
      setFormError(body.error.issues[0]?.message ?? 'Only a student can change the password here.');
      return;
    }
    change.mutate(body.data, {
      onSuccess: () => {
        showSnackbar(PASSWORD_CHANGED_MESSAGE);
        void navigate(AFTER_CHANGE_PATH, { replace: true });
      },
    });
  };

  return (
    <Paper variant="outlined" sx={{ maxWidth: 480, mx: 'auto', p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h1">Change password</Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Your new password needs at least {PASSWORD_MIN_LENGTH} characters and must not be a common password.
      </Typography>
      <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Change password">
        <ErrorAlert message={formError ?? (change.isError ? errorMessage(change.error) : null)} />
        <PasswordField
          label="Current password"
          name="current_password"
          autoComplete="current-password"
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
          error={Boolean(fieldErrors['current_password'])}
          helperText={fieldErrors['current_password']}
          required
        />
        <NewPasswordFields
          password={password}
          confirmation={confirmation}
          onPassword={setPassword}
          onConfirmation={setConfirmation}
          errors={fieldErrors}
          hint={NEW_PASSWORD_HINT}
        />
        <Stack direction="row" spacing={2} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          <Button component={RouterLink} to={AFTER_CHANGE_PATH}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={change.isPending}>
            Change password
          </Button>
        </Stack>
      </Box>
    </Paper>
  );
}
