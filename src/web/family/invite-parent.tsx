import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router';
import { FamilyInviteSchema } from '../../shared/family.schemas.js';
import { ErrorAlert } from '../components/error-alert.js';
import { OutlinedField } from '../components/outlined-field.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { useInviteFamily, useParentEmails } from './family.api.js';

const TYPED = 'typed';

/**
 * "Invite a parent by e-mail": the parent e-mails of the student's registration record to choose
 * from (mother, father, guardian), or, for the office, another address typed in; the server mails
 * the invitation, whose link adds the child to that parent's family account. A student chooses
 * only among the record's addresses (`recordOnly`), the rule the server holds them to
 * (docs/decisions.md D66). The student's own dashboard and the office's Family dialog both use it.
 */
export function InviteParentForm({ studentId, recordOnly = false, onSent }: { studentId: string; recordOnly?: boolean; onSent?: (message: string) => void }) {
  const emails = useParentEmails(studentId);
  const invite = useInviteFamily(studentId);
  const [choice, setChoice] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const offered = emails.data ?? [];
  // The first address on the record is chosen until the person picks another (or there is none).
  const chosen = choice ?? (offered[0]?.email ?? (recordOnly ? null : TYPED));
  const serverFieldErrors = isApiError(invite.error) && invite.error.errors !== undefined;
  const legendId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === null) return;
    const parsed = FamilyInviteSchema.safeParse({ email: chosen === TYPED ? typed : chosen });
    setFieldErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    if (!parsed.success) return;
    invite.mutate(parsed.data.email, {
      onSuccess: (answer) => {
        setTyped('');
        onSent?.(answer.message);
      },
      onError: (cause) => {
        if (isApiError(cause) && cause.errors) setFieldErrors(firstFieldMessages(cause.errors));
      },
    });
  };

  if (recordOnly && emails.isSuccess && offered.length === 0) {
    return (
      <Alert severity="info" sx={{ mt: 1 }}>
        Your registration record has no parent e-mail yet. Add your mother's, father's or guardian's e-mail on the{' '}
        <Link component={RouterLink} to="/registration/family-data">
          Family Data
        </Link>{' '}
        step first, or ask the school office to send the invitation.
      </Alert>
    );
  }

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Invite a parent by e-mail">
      {invite.isSuccess && (
        <Alert severity="success" role="status" sx={{ mb: 1 }}>
          {invite.data.message}
        </Alert>
      )}
      <ErrorAlert message={invite.isError && !serverFieldErrors ? errorMessage(invite.error) : null} />
      {emails.isError && (
        <Typography color="text.secondary">
          {recordOnly ? "The record's e-mails could not be read. Close this and try again." : "The record's e-mails could not be read; type the address instead."}
        </Typography>
      )}
      <FormControl component="fieldset" sx={{ mt: 1, width: '100%' }}>
        <FormLabel component="legend" id={legendId}>
          Send the invitation to
        </FormLabel>
        <RadioGroup name="invite_to" aria-labelledby={legendId} value={chosen ?? ''} onChange={(event) => setChoice(event.target.value)}>
          {offered.map((parent) => (
            <FormControlLabel
              key={parent.email}
              value={parent.email}
              control={<Radio />}
              label={`${parent.who}: ${parent.email}`}
              sx={{ overflowWrap: 'anywhere' }}
            />
          ))}
          {!recordOnly && <FormControlLabel value={TYPED} control={<Radio />} label="Another address" />}
        </RadioGroup>
      </FormControl>
      {recordOnly && (
        <Typography color="text.secondary" variant="body2" sx={{ mt: 0.5 }}>
          You can invite the parent e-mails on your registration record. For another address, ask the school office.
        </Typography>
      )}
      {chosen === TYPED && (
        <OutlinedField
          label="Parent's e-mail"
          name="invite_email"
          type="email"
          autoComplete="off"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          error={Boolean(fieldErrors['email'])}
          helperText={fieldErrors['email']}
          required
        />
      )}
      {chosen !== TYPED && fieldErrors['email'] && (
        <Typography color="error" role="alert" variant="body2">
          {fieldErrors['email']}
        </Typography>
      )}
      <Button type="submit" variant="contained" disabled={invite.isPending || chosen === null} sx={{ mt: 1 }}>
        Send invitation
      </Button>
    </Box>
  );
}

/** A student's own "Invite a parent": the invitation form, the record's addresses only, in a dialog, full screen on a phone. */
export function InviteParentDialog({ studentId, open, onClose }: { studentId: string; open: boolean; onClose: () => void }) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={open} onClose={onClose} fullScreen={narrow} fullWidth maxWidth="sm" aria-labelledby="invite-parent-title">
      <DialogTitle id="invite-parent-title">Invite a parent</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary">
          Your parent or guardian gets an e-mail with a link. With it they see your registration, documents, term reports and attendance from
          their own family account. Your sign-in stays yours.
        </Typography>
        {open && <InviteParentForm studentId={studentId} recordOnly />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The student dashboard's button that opens the dialog (composed in app/ for students who may invite). */
export function InviteParentButton({ studentId }: { studentId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" onClick={() => setOpen(true)}>
        Invite a parent
      </Button>
      <InviteParentDialog studentId={studentId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
