import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { academicYearLabel } from '../../shared/school.constants.js';
import type { ReRegistrationStep } from '../../shared/re-registration.schemas.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { RE_REGISTRATION_MESSAGES } from '../../shared/re-registration.schemas.js';
import { useConfirmStep, useStudentReRegistration } from './re-registration.api.js';

/** The re-registration step each registration page is (the Complete page has none). */
const STEP_OF_PATH: Partial<Record<string, ReRegistrationStep>> = {
  'student-data': 'student',
  'family-data': 'family',
  'health-data': 'health',
  'other-data': 'other',
  documents: 'documents',
};

/**
 * Re-registration (D62) above every registration step: the steps still to confirm this
 * year and, on a step not yet confirmed, "Nothing changed", which confirms it as it is. A change
 * saved on the step confirms it too (the server does that with the save).
 */
export function ReRegistrationNotice({ studentId, activePath, editable }: { studentId: string; activePath: string; editable: boolean }) {
  const state = useStudentReRegistration(studentId);
  const confirm = useConfirmStep(studentId);
  const show = useSnackbar();
  const data = state.data;
  if (!data || data.year === null || data.steps.length === 0) return null;
  const year = academicYearLabel(data.year);
  if (data.pending === 0) {
    return (
      <Alert severity="success" sx={{ mb: 2 }} data-testid="re-registration-done">
        Re-registration {year}: every step is confirmed. Thank you.
      </Alert>
    );
  }
  const current = data.steps.find((step) => step.step === STEP_OF_PATH[activePath]);
  return (
    <Alert severity="info" sx={{ mb: 2, '& .MuiAlert-message': { minWidth: 0, width: '100%' } }} data-testid="re-registration">
      <AlertTitle>Re-registration for {year}</AlertTitle>
      <Typography variant="body2">
        Please check each step of the record. If a step is still right, press “Nothing changed”; if not, correct it (a saved change confirms the step too).{' '}
        {data.pending === 1 ? '1 step still needs confirming.' : `${data.pending} steps still need confirming.`}
      </Typography>
      <Box component="ul" aria-label="Steps to confirm" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0, mt: 1 }}>
        {data.steps.map((step) => {
          const done = step.confirmed_at !== null;
          return (
            <li key={step.step} data-testid={`re-registration-step-${step.step}`} data-confirmed={done ? '1' : '0'}>
              <Chip
                size="small"
                variant={done ? 'filled' : 'outlined'}
                color={done ? 'success' : 'default'}
                icon={done ? <CheckCircleIcon /> : <RadioButtonUncheckedIcon />}
                label={`${step.label}: ${done ? 'confirmed' : 'to confirm'}`}
              />
            </li>
          );
        })}
      </Box>
      {current && current.confirmed_at === null && editable && (
        <Box sx={{ mt: 1.5, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Button
            variant="contained"
            size="small"
            disabled={confirm.isPending}
            onClick={() => confirm.mutate(current.step, { onSuccess: () => show(RE_REGISTRATION_MESSAGES.confirmed(current.label)) })}
          >
            Nothing changed
          </Button>
          <Typography variant="body2">on {current.label}</Typography>
        </Box>
      )}
      {current && current.confirmed_at !== null && (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="re-registration-current">
          {current.label} is confirmed{current.how === 'changed' ? ' with your changes' : ', nothing changed'}.
        </Typography>
      )}
      {confirm.isError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorMessage(confirm.error)}
        </Alert>
      )}
    </Alert>
  );
}
