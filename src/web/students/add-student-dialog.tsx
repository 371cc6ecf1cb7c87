import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { AddStudentSchema, listName, type AddStudentField, type AdminStudent } from '../../shared/students.schemas.js';
import { formClassName } from '../../shared/form-class.js';
import { findField } from '../../shared/registration.fields.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, fieldHelper, type FieldErrors } from '../lib/form-errors.js';
import { useFormClasses } from '../lib/form-classes.js';
import { BirthDatePicker } from './birth-date-picker.js';
import { useAddStudent } from './students.api.js';

type Values = Record<'id' | AddStudentField, string>;
const EMPTY: Values = { id: '', first_name: '', last_name: '', date_of_birth: '', class_id: '', birth_certificate_no: '', sea_no: '' };
const labelOf = (field: AddStudentField) => findField(field)?.label ?? field;

interface AddStudentDialogProps {
  open: boolean;
  onClose: () => void;
  /** Told the new student, e.g. to show it in the list. */
  onAdded: (student: AdminStudent) => void;
}

/**
 * Add Student: one new student without a spreadsheet — the fields Import Students requires of a
 * new ID (names, date of birth, class, and a birth certificate pin or SEA number), checked by the
 * same shared rules before sending; the server adds the class and uniqueness checks and answers
 * field by field. The student then signs in the first time with the pin or SEA number.
 */
export function AddStudentDialog({ open, onClose, onAdded }: AddStudentDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby="add-student-title">
      {open && <AddStudentForm onClose={onClose} onAdded={onAdded} />}
    </Dialog>
  );
}

function AddStudentForm({ onClose, onAdded }: Omit<AddStudentDialogProps, 'open'>) {
  const add = useAddStudent();
  const classes = useFormClasses();
  const snackbar = useSnackbar();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = (field: keyof Values, value: string) => setValues((old) => ({ ...old, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An empty pin or SEA number is left out (one of the two is enough); the rest is checked as typed.
    const parsed = AddStudentSchema.safeParse({ ...values, birth_certificate_no: values.birth_certificate_no || undefined, sea_no: values.sea_no || undefined });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setErrors({});
    setFailure(null);
    add.mutate(parsed.data, {
      onSuccess: (student) => {
        snackbar(`${listName(student)} (${student.id}) added.`);
        onAdded(student);
        onClose();
      },
      onError: (cause) => {
        if (isApiError(cause) && cause.errors) setErrors(Object.fromEntries(Object.entries(cause.errors).map(([field, messages]) => [field, messages[0]])));
        setFailure(isApiError(cause) ? cause.message : 'Could not add the student. Try again.');
      },
    });
  };

  const helper = (field: keyof Values, hint = ' ') => fieldHelper(errors, field, hint);
  const text = (field: 'id' | 'first_name' | 'last_name' | 'birth_certificate_no' | 'sea_no', label: string, hint?: string, required = false) => (
    <TextField
      key={field}
      name={field}
      label={label}
      value={values[field]}
      onChange={(event) => set(field, event.target.value)}
      required={required}
      fullWidth
      margin="dense"
      {...helper(field, hint)}
    />
  );

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-labelledby="add-student-title">
      <DialogTitle id="add-student-title">Add Student</DialogTitle>
      <DialogContent>
        <DialogContentText>The student signs in the first time with the birth certificate pin or SEA number and the date of birth.</DialogContentText>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
          {text('id', 'Student ID', 'Letters, digits and dashes', true)}
          <TextField
            select
            name="class_id"
            label={labelOf('class_id')}
            value={values.class_id}
            onChange={(event) => set('class_id', event.target.value)}
            required
            fullWidth
            margin="dense"
            {...helper('class_id')}
          >
            {(classes.data ?? []).map((formClass) => (
              <MenuItem key={formClass.id} value={formClass.id}>
                {formClassName(formClass.id, formClass.form_level)}
              </MenuItem>
            ))}
          </TextField>
          {text('first_name', labelOf('first_name'), undefined, true)}
          {text('last_name', labelOf('last_name'), undefined, true)}
          <BirthDatePicker value={values.date_of_birth} message={errors['date_of_birth']} onChange={(value) => set('date_of_birth', value)} />
          <Box />
          {text('birth_certificate_no', labelOf('birth_certificate_no'), 'This or the SEA number')}
          {text('sea_no', labelOf('sea_no'), 'This or the birth certificate pin')}
        </Box>
        {failure && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={add.isPending}>
          Add student
        </Button>
      </DialogActions>
    </Box>
  );
}
