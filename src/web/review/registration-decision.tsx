import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { REGISTRATION_STATE_LABELS } from '../../shared/students.schemas.js';
import { REVIEW_STEPS, reviewStepLabel, unreviewedDocumentsText, type RegistrationDecisions, type RegistrationReview, type ReviewStep } from '../../shared/review.schemas.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage } from '../lib/api-client.js';
import { FamilyReach } from './family-reach.js';
import { ReRegistrationChanges } from './re-registration-changes.js';
import { useDecideRegistration, useRegistrationState, type RegistrationDecision as Decision } from './review.api.js';

type Asking = 'verify' | 'return' | null;

/**
 * Verify, return (with a note and steps) or reopen the student's registration record. Each button
 * is enabled exactly where the server would take the decision: the record's answer carries the
 * one rule's verdict and its reason, shown under a disabled button (docs/decisions.md D81).
 * Verify and Return, which tell the family, ask first: how many documents are not reviewed or
 * returned, and whom the message reaches; after a return, the printable notice.
 */
export function RegistrationDecision({ studentId, name, bare = false }: { studentId: string; name: string; bare?: boolean }) {
  const show = useSnackbar();
  const decide = useDecideRegistration(studentId);
  const [note, setNote] = useState('');
  const [steps, setSteps] = useState<ReviewStep[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const [returned, setReturned] = useState(false);
  const review = useRegistrationState(studentId);
  const run = (decision: Decision) =>
    decide.mutate(decision, {
      onSuccess: (answer) => {
        setError(null);
        setAsking(null);
        setReturned(decision.action === 'return');
        show(answer.message);
      },
      onError: (failure) => {
        setAsking(null);
        setError(errorMessage(failure));
      },
    });
  const decisions = review.data?.decisions;
  const closed = (action: keyof RegistrationDecisions) => decide.isPending || !decisions || !decisions[action].allowed;
  const refusals = decisions ? (['verify', 'return', 'reopen'] as const).filter((action) => !decisions[action].allowed) : [];
  const helpId = `registration-decision-help-${studentId}`;
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
        {returned && <FamilyReach studentId={studentId} />}
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button variant="contained" onClick={() => setAsking('verify')} disabled={closed('verify')} aria-describedby={helpId}>
            Verify registration
          </Button>
          <Button variant="outlined" color="warning" onClick={() => setAsking('return')} disabled={closed('return')} aria-describedby={helpId}>
            Return registration
          </Button>
          <Button onClick={() => run({ action: 'reopen' })} disabled={closed('reopen')} aria-describedby={helpId}>
            Reopen
          </Button>
        </Stack>
        {decisions && refusals.length > 0 && (
          <Stack id={helpId} component="ul" data-testid="registration-decision-help" sx={{ m: 0, pl: 2.5, color: 'text.secondary', typography: 'body2' }}>
            {refusals.map((action) => (
              <li key={action}>
                {ACTION_LABELS[action]}: {decisions[action].reason}
              </li>
            ))}
          </Stack>
        )}
      </Stack>
      <ReRegistrationChanges studentId={studentId} />
      {review.data && (
        <ConfirmDecision
          asking={asking}
          review={review.data}
          name={name}
          studentId={studentId}
          note={note}
          steps={steps}
          pending={decide.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() =>
            run(
              asking === 'return'
                ? { action: 'return', input: { note, steps } }
                : { action: 'verify', input: { confirm_unreviewed: review.data.documents_unreviewed + review.data.documents_returned > 0 } },
            )
          }
        />
      )}
    </Paper>
  );
}

const ACTION_LABELS = { verify: 'Verify', return: 'Return', reopen: 'Reopen' } as const;

interface ConfirmProps {
  asking: Asking;
  review: RegistrationReview;
  name: string;
  studentId: string;
  note: string;
  steps: readonly ReviewStep[];
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The question before a decision that tells the family: what is unreviewed, what is sent, to whom. */
function ConfirmDecision({ asking, review, name, studentId, note, steps, pending, onCancel, onConfirm }: ConfirmProps) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const pendingDocuments = review.documents_unreviewed + review.documents_returned;
  const verifying = asking === 'verify';
  return (
    <Dialog open={asking !== null} onClose={onCancel} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby="confirm-decision-title">
      <DialogTitle id="confirm-decision-title">
        {verifying ? 'Verify' : 'Return'} the registration of {name}?
      </DialogTitle>
      <DialogContent>
        <Stack spacing={1.5}>
          {verifying && pendingDocuments > 0 && (
            <Alert severity="warning" data-testid="unreviewed-warning">
              {unreviewedDocumentsText(review.documents_unreviewed, review.documents_returned)}. Verifying makes the record
              read-only to the family.
            </Alert>
          )}
          {verifying && pendingDocuments === 0 && <DialogContentText>Every document is accepted. Verifying makes the record read-only to the family.</DialogContentText>}
          {!verifying && (
            <DialogContentText>
              The family is asked to fix: {steps.length > 0 ? steps.map((key) => reviewStepLabel(key)).join(', ') : '—'}. Note: {note.trim() || '—'}
            </DialogContentText>
          )}
          <FamilyReach studentId={studentId} showNotice={false} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" color={verifying ? 'primary' : 'warning'} onClick={onConfirm} disabled={pending}>
          {verifying ? (pendingDocuments > 0 ? 'Verify anyway' : 'Verify') : 'Return to family'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
