import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import { ADMIN_MESSAGES, listName, type AdminStudent } from '../../shared/students.schemas.js';
import { errorMessage } from '../lib/api-client.js';
import { useResetStudentPassword } from './students.api.js';

type Step = 'confirm' | 'progress' | 'done' | 'error';

interface ResetPasswordDialogProps {
  student: AdminStudent | null;
  onClose: () => void;
}

/**
 * The password-reset dialog (docs/requirements.md R11): confirm, then in progress (Cancel and Ok hidden), then
 * 'password reset successfully' with a single Ok. The new password is the date of birth
 * (yyyymmdd) and the student must choose another at the next sign-in (R3). A failure
 * shows the server's message (rather than leaving the dialog spinning; docs/decisions.md D19).
 */
export function ResetPasswordDialog({ student, onClose }: ResetPasswordDialogProps) {
  return (
    <Dialog open={student !== null} onClose={(_event, reason) => reason !== 'backdropClick' && onClose()} aria-labelledby="reset-password-title" fullWidth maxWidth="xs">
      {student && <ResetPasswordSteps key={student.id} student={student} onClose={onClose} />}
    </Dialog>
  );
}

function ResetPasswordSteps({ student, onClose }: { student: AdminStudent; onClose: () => void }) {
  const [step, setStep] = useState<Step>('confirm');
  const reset = useResetStudentPassword();
  const confirm = () => {
    setStep('progress');
    reset.mutate(student.id, { onSuccess: () => setStep('done'), onError: () => setStep('error') });
  };
  return (
    <>
      <DialogTitle id="reset-password-title">Reset password</DialogTitle>
      <DialogContent>
        {step === 'confirm' && (
          <DialogContentText>
            Reset the password of {listName(student)} ({student.id})? The student will then sign in with the date of birth as the
            password (yyyymmdd{student.date_of_birth ? `: ${student.date_of_birth.replaceAll('-', '')}` : ''}) and must choose a new one.
          </DialogContentText>
        )}
        {step === 'progress' && (
          <Box role="status" aria-live="polite">
            <DialogContentText>Resetting the password…</DialogContentText>
            <LinearProgress sx={{ mt: 2 }} aria-label="Resetting the password" />
          </Box>
        )}
        {step === 'done' && (
          <DialogContentText role="status" aria-live="polite">
            {ADMIN_MESSAGES.passwordReset}
          </DialogContentText>
        )}
        {step === 'error' && (
          <Alert severity="error" role="alert">
            {errorMessage(reset.error)}
          </Alert>
        )}
      </DialogContent>
      {step === 'confirm' && (
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button onClick={confirm} variant="contained">
            Ok
          </Button>
        </DialogActions>
      )}
      {(step === 'done' || step === 'error') && (
        <DialogActions>
          <Button onClick={onClose} variant="contained" autoFocus>
            {step === 'done' ? 'Ok' : 'Close'}
          </Button>
        </DialogActions>
      )}
    </>
  );
}
