import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { FirstLoginSchema, type LoginAnswer } from '../../shared/auth.schemas.js';
import { OutlinedField } from '../components/outlined-field.js';
import { errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
import { useFirstLogin } from './auth.api.js';
import { BirthDateField } from '../components/birth-date-field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { RememberDeviceCheckbox } from '../components/remember-device-checkbox.js';

/** First-login mode: birth certificate pin or SEA number plus date of birth (docs/requirements.md R3). */
export function FirstLoginForm({ onSignedIn }: { onSignedIn: (answer: LoginAnswer) => void }) {
  const [identifier, setIdentifier] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [remember, setRemember] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const firstLogin = useFirstLogin();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = FirstLoginSchema.safeParse({ identifier, date_of_birth: dateOfBirth, remember });
    setFieldErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    if (!parsed.success) return;
    firstLogin.mutate(parsed.data, { onSuccess: onSignedIn });
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="First-time sign in">
      <ErrorAlert message={firstLogin.isError ? errorMessage(firstLogin.error) : null} />
      <OutlinedField
        label="Birth certificate pin or SEA number"
        name="identifier"
        autoComplete="off"
        value={identifier}
        onChange={(event) => setIdentifier(event.target.value)}
        error={Boolean(fieldErrors['identifier'])}
        helperText={fieldErrors['identifier']}
        required
      />
      <BirthDateField value={dateOfBirth} onChange={setDateOfBirth} error={fieldErrors['date_of_birth']} autoComplete="off" />
      <RememberDeviceCheckbox checked={remember} onChange={setRemember} />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={firstLogin.isPending} sx={{ mt: 1 }}>
        Continue
      </Button>
    </Box>
  );
}
