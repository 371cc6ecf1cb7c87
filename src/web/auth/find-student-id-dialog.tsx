import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { FindStudentIdSchema } from '../../shared/auth.schemas.js';
import { OutlinedField } from '../components/outlined-field.js';
import { errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../lib/form-errors.js';
import { useFindStudentId } from './auth.api.js';
import { BirthDateField } from '../components/birth-date-field.js';
import { ErrorAlert } from '../components/error-alert.js';

interface FindStudentIdDialogProps {
  open: boolean;
  onClose: () => void;
  /** Fills the found ID into the login form. */
  onUseId: (studentId: string) => void;
}

/** 'Forgot your Student ID?': name and date of birth give back the one matching ID (docs/requirements.md R3). */
export function FindStudentIdDialog({ open, onClose, onUseId }: FindStudentIdDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Find your Student ID</DialogTitle>
      {/* The form lives inside the dialog so it starts empty each time the dialog opens. */}
      <FindStudentIdForm onClose={onClose} onUseId={onUseId} />
    </Dialog>
  );
}

function FindStudentIdForm({ onClose, onUseId }: Omit<FindStudentIdDialogProps, 'open'>) {
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const find = useFindStudentId();
  const foundId = find.data?.student_id ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The schema reads the typed date (dd/MM/yyyy, yyyy-MM-dd or the digits): the call carries yyyy-MM-dd.
    const parsed = FindStudentIdSchema.safeParse({ first_name: firstName, last_name: lastName, date_of_birth: dateOfBirth });
    setFieldErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    if (parsed.success) find.mutate(parsed.data);
    else find.reset();
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-label="Find your Student ID">
      <DialogContent sx={{ pt: 0 }}>
        <DialogContentText>Enter the student’s name and date of birth as the school has them.</DialogContentText>
        <ErrorAlert message={find.isError ? errorMessage(find.error) : null} />
        <OutlinedField
          label="First name"
          name="first_name"
          autoComplete="given-name"
          value={firstName}
          onChange={(event) => setFirstName(event.target.value)}
          error={Boolean(fieldErrors['first_name'])}
          helperText={fieldErrors['first_name']}
          required
        />
        <OutlinedField
          label="Last name"
          name="last_name"
          autoComplete="family-name"
          value={lastName}
          onChange={(event) => setLastName(event.target.value)}
          error={Boolean(fieldErrors['last_name'])}
          helperText={fieldErrors['last_name']}
          required
        />
        <BirthDateField value={dateOfBirth} onChange={setDateOfBirth} error={fieldErrors['date_of_birth']} autoComplete="bday" />
        {foundId !== null && (
          <Alert
            severity="success"
            sx={{ mt: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => onUseId(foundId)}>
                Use this ID
              </Button>
            }
          >
            Your Student ID is <strong>{foundId}</strong>
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button type="submit" variant="contained" disabled={find.isPending}>
          Find my ID
        </Button>
      </DialogActions>
    </Box>
  );
}
