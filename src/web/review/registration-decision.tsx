import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REGISTRATION_STATE_LABELS } from '../../shared/admin.schemas.js';
import { REVIEW_STEPS, type ReviewStep } from '../../shared/review.schemas.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { ReRegistrationChanges } from './re-registration-changes.js';
import { useDecideRegistration, useRegistrationState } from './review.api.js';

/** Verify, return (with a note and steps) or reopen the student's registration record. */
export function RegistrationDecision({ studentId, name, bare = false }: { studentId: string; name: string; bare?: boolean }) {
  const show = useSnackbar();
  const decide = useDecideRegistration(studentId);
  const [note, setNote] = useState('');
  const [steps, setSteps] = useState<ReviewStep[]>([]);
  const [error, setError] = useState<string | null>(null);
  const run = (decision: Parameters<typeof decide.mutate>[0]) =>
    decide.mutate(decision, { onSuccess: (answer) => (setError(null), show(answer.message)), onError: (failure) => setError(errorMessage(failure)) });
  const review = useRegistrationState(studentId);
  return (
    <Paper variant={bare ? 'elevation' : 'outlined'} elevation={0} sx={{ p: bare ? 0 : 2 }}>
      {!bare && (
        <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
          Registration of {name}
        </Typography>
      )}
      {review.data && (
        <Typography variant="body2" sx={{ mb: 1.5 }} data-testid="registration-state">
          Now: {REGISTRATION_STATE_LABELS[review.data.state]}
          {review.data.note ? ` — ${review.data.note}` : ''}
        </Typography>
      )}
      <Stack spacing={1.5}>
        <TextField label="Note to the family" value={note} onChange={(event) => setNote(event.target.value)} multiline minRows={2} slotProps={{ htmlInput: { maxLength: 500 } }} />
        <TextField
          select
          label="Steps to fix"
          value={steps}
          onChange={(event) => setSteps(event.target.value as unknown as ReviewStep[])}
          slotProps={{ select: { multiple: true } }}
        >
          {REVIEW_STEPS.map((step) => (
            <MenuItem key={step.key} value={step.key}>
              {step.label}
            </MenuItem>
          ))}
        </TextField>
        {error && <Alert severity="error">{error}</Alert>}
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button variant="contained" onClick={() => run({ action: 'verify' })} disabled={decide.isPending}>
            Verify registration
          </Button>
          <Button variant="outlined" color="warning" onClick={() => run({ action: 'return', input: { note, steps } })} disabled={decide.isPending}>
            Return registration
          </Button>
          <Button onClick={() => run({ action: 'reopen' })} disabled={decide.isPending}>
            Reopen
          </Button>
        </Stack>
      </Stack>
      <ReRegistrationChanges studentId={studentId} />
    </Paper>
  );
}
