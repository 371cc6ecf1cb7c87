import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SecondFactorLoginSchema } from '../../shared/staff-2fa.schemas.js';
import { ApiError, errorMessage } from '../lib/api-client.js';
import { firstIssueMessage } from '../lib/form-errors.js';
import { useAdminLoginSecondFactor } from './auth.api.js';
import { ErrorAlert } from '../components/error-alert.js';

/**
 * The second step of a staff sign-in: the 6-digit code from the authenticator app, or
 * one recovery code instead. The server keeps the half-done sign-in for 5 minutes.
 */
export function SecondFactorForm({ onSignedIn, onStartAgain }: { onSignedIn: () => void; onStartAgain: () => void }) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const complete = useAdminLoginSecondFactor();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = SecondFactorLoginSchema.safeParse(useRecovery ? { recovery_code: value } : { code: value });
    if (!parsed.success) {
      setInvalid(firstIssueMessage(parsed.error));
      complete.reset();
      return;
    }
    setInvalid(null);
    complete.mutate(parsed.data, { onSuccess: onSignedIn });
  };

  const expired = complete.error instanceof ApiError && complete.error.status === 401;
  const label = useRecovery ? 'Recovery code' : '6-digit code';
  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Second step of sign-in">
      <Typography sx={{ mb: 1 }}>
        {useRecovery
          ? 'Enter one of the recovery codes you saved when you set up your authenticator app. Each code works once.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </Typography>
      <ErrorAlert message={invalid ?? (complete.isError ? errorMessage(complete.error) : null)} />
      <TextField
        key={useRecovery ? 'recovery' : 'code'}
        label={label}
        name={useRecovery ? 'recovery_code' : 'code'}
        autoComplete={useRecovery ? 'off' : 'one-time-code'}
        slotProps={{ htmlInput: useRecovery ? { spellCheck: false, autoCapitalize: 'none' } : { inputMode: 'numeric', pattern: '[0-9 ]*', maxLength: 7 } }}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={Boolean(invalid)}
        autoFocus
        required
      />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={complete.isPending} sx={{ mt: 1 }}>
        Verify
      </Button>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1, mt: 2 }}>
        <Button
          variant="text"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue('');
            setInvalid(null);
            complete.reset();
          }}
        >
          {useRecovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}
        </Button>
        {expired && (
          <Button variant="text" onClick={onStartAgain}>
            Sign in again
          </Button>
        )}
      </Box>
    </Box>
  );
}
