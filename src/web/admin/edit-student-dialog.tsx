import { useRef, useState } from 'react';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { format, isValid, parseISO } from 'date-fns';
import {
  ADMIN_EDIT_FIELDS,
  ADMIN_MESSAGES,
  ADMIN_MIN_BIRTH_DATE,
  adminEditFieldLabel,
  adminEditFieldMessage,
  listName,
  type AdminEditField,
  type AdminStudent,
} from '../../shared/admin.schemas.js';
import { formClassName } from '../../shared/form-class.js';
import { isApiError } from '../lib/api-client.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useSaveStudent } from './admin.api.js';

type Values = Record<AdminEditField, string>;
type Status = 'idle' | 'updating' | 'updated' | 'error';

const MIN_DATE = parseISO(ADMIN_MIN_BIRTH_DATE);

function valuesOf(student: AdminStudent): Values {
  return {
    first_name: student.first_name ?? '',
    last_name: student.last_name ?? '',
    date_of_birth: student.date_of_birth ?? '',
    birth_certificate_no: student.birth_certificate_no ?? '',
  };
}

interface EditStudentDialogProps {
  student: AdminStudent | null;
  onClose: () => void;
}

/**
 * Edit Student (SPEC §2, §4, §5): First Name, Last Name, Date of Birth and Birth Certificate Pin,
 * and the Class (a move to another class, saved when chosen and audited like every change).
 * A text field saves when it loses focus; the date when one is chosen in the calendar, or a typed
 * one when the field loses focus or Enter is pressed (never once per keystroke: every digit typed
 * into a whole date makes another valid date); the title shows the name as saved; the status reads
 * 'Updating', then 'Updated Successfully.' or 'Error Occured.', with the server's message under
 * the field it names (a pin another student has). An empty name or pin says 'Required' and is
 * not sent. Save sends whatever has not been saved yet; Close closes.
 */
export function EditStudentDialog({ student, onClose }: EditStudentDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={student !== null} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="xs" aria-labelledby="edit-student-title">
      {student && <EditStudentForm key={student.id} student={student} onClose={onClose} />}
    </Dialog>
  );
}

function EditStudentForm({ student, onClose }: { student: AdminStudent; onClose: () => void }) {
  const save = useSaveStudent();
  const [values, setValues] = useState<Values>(() => valuesOf(student));
  // The ref answers "is this already stored?" at once; the state shows the saved name in the title.
  const saved = useRef<Values>(valuesOf(student));
  const [savedValues, setSavedValues] = useState<Values>(saved.current);
  const [errors, setErrors] = useState<Partial<Record<AdminEditField, string>>>({});
  const [status, setStatus] = useState<Status>('idle');

  /** Sends the given fields that differ from what is stored and pass the rules. */
  const send = (fields: readonly AdminEditField[], current: Values = values) => {
    const nextErrors = { ...errors };
    const changes: Partial<Values> = {};
    for (const field of fields) {
      const message = adminEditFieldMessage(field, current[field]);
      if (message) nextErrors[field] = message;
      else {
        delete nextErrors[field];
        if (current[field].trim() !== saved.current[field]) changes[field] = current[field].trim();
      }
    }
    // Re-render only when a message changed: a blur that changes nothing must not disturb an open picker.
    const same = ADMIN_EDIT_FIELDS.every((field) => nextErrors[field] === errors[field]);
    if (!same) setErrors(nextErrors);
    if (Object.keys(changes).length === 0) return;
    setStatus('updating');
    save.mutate(
      { id: student.id, ...changes },
      {
        onSuccess: () => {
          saved.current = { ...saved.current, ...changes };
          setSavedValues(saved.current);
          setStatus('updated');
        },
        onError: (error) => {
          // The server's word on a field (e.g. a pin another student has, 409) shows under it.
          const fieldMessages = isApiError(error) ? error.errors : undefined;
          if (fieldMessages) {
            setErrors((old) => {
              const next = { ...old };
              for (const field of ADMIN_EDIT_FIELDS) {
                const message = fieldMessages[field]?.[0];
                if (message) next[field] = message;
              }
              return next;
            });
          }
          setStatus('error');
        },
      },
    );
  };

  // The class is a choice from the school's classes: it saves when chosen, and goes back if the save fails.
  const classes = useFormClasses();
  const [classId, setClassId] = useState(student.class_id ?? '');
  const chooseClass = (next: string) => {
    const before = classId;
    setClassId(next);
    if (next === before) return;
    setStatus('updating');
    save.mutate(
      { id: student.id, class_id: next },
      {
        onSuccess: () => setStatus('updated'),
        onError: () => {
          setClassId(before);
          setStatus('error');
        },
      },
    );
  };

  const setValue = (field: AdminEditField, value: string) => setValues((old) => ({ ...old, [field]: value }));

  const textField = (field: Exclude<AdminEditField, 'date_of_birth'>) => (
    <TextField
      key={field}
      label={adminEditFieldLabel(field)}
      name={field}
      value={values[field]}
      onChange={(event) => setValue(field, event.target.value)}
      onBlur={() => send([field])}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? ' '}
      required
      fullWidth
      margin="dense"
    />
  );

  const dateValue = values.date_of_birth ? parseISO(values.date_of_birth) : null;
  const chooseDate = (date: Date | null, commit: boolean) => {
    const iso = date && isValid(date) ? format(date, 'yyyy-MM-dd') : '';
    const next = { ...values, date_of_birth: iso };
    setValues(next);
    if (commit) send(['date_of_birth'], next);
  };

  return (
    <>
      <DialogTitle id="edit-student-title">
        Edit Student
        <Typography component="span" display="block" color="text.secondary" variant="body2">
          {listName(savedValues)} · {student.id}
        </Typography>
      </DialogTitle>
      <DialogContent>
        <Box component="form" noValidate aria-label="Edit Student" onSubmit={(event) => (event.preventDefault(), send(ADMIN_EDIT_FIELDS))}>
          {textField('first_name')}
          {textField('last_name')}
          <LocalizationProvider dateAdapter={AdapterDateFns}>
            <DatePicker
              label={adminEditFieldLabel('date_of_birth')}
              value={dateValue && isValid(dateValue) ? dateValue : null}
              openTo="year"
              views={['year', 'month', 'day']}
              format="yyyy-MM-dd"
              minDate={MIN_DATE}
              disableFuture
              onChange={(date) => chooseDate(date, false)}
              // Typing in the field "accepts" each valid date on the way; only the calendar's choice saves at once.
              onAccept={(date, context) => chooseDate(date, context.source === 'view')}
              slotProps={{
                textField: {
                  name: 'date_of_birth',
                  required: true,
                  fullWidth: true,
                  margin: 'dense',
                  onBlur: () => send(['date_of_birth']),
                  onKeyDown: (event) => {
                    if (event.key === 'Enter') send(['date_of_birth']);
                  },
                  error: Boolean(errors.date_of_birth),
                  helperText: errors.date_of_birth ?? 'yyyy-MM-dd, from 1950-01-01',
                },
              }}
            />
          </LocalizationProvider>
          {textField('birth_certificate_no')}
          <TextField select label="Class" name="class_id" value={classId} onChange={(event) => chooseClass(event.target.value)} fullWidth margin="dense" helperText="Moves the student to this class">
            {classId !== '' && !(classes.data ?? []).some((formClass) => formClass.id === classId) && <MenuItem value={classId}>{classId}</MenuItem>}
            {(classes.data ?? []).map((formClass) => (
              <MenuItem key={formClass.id} value={formClass.id}>
                {formClassName(formClass.id, formClass.form_level)}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        <SaveStatus status={status} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => send(ADMIN_EDIT_FIELDS)} disabled={save.isPending}>
          Save
        </Button>
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
    </>
  );
}

/** 'Updating' → 'Updated Successfully.' (check icon) or 'Error Occured.' (alert icon), SPEC §4/§8. */
function SaveStatus({ status }: { status: Status }) {
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'flex', alignItems: 'center', gap: 1, minHeight: 28, mt: 1 }}>
      {status === 'updating' && (
        <>
          <CircularProgress size={18} aria-hidden />
          <Typography>{ADMIN_MESSAGES.updating}</Typography>
        </>
      )}
      {status === 'updated' && (
        <>
          <CheckCircleIcon color="success" aria-hidden />
          <Typography color="success.main">{ADMIN_MESSAGES.updated}</Typography>
        </>
      )}
      {status === 'error' && (
        <Box role="alert" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <ErrorOutlineIcon color="error" aria-hidden />
          <Typography color="error">{ADMIN_MESSAGES.error}</Typography>
        </Box>
      )}
    </Box>
  );
}
