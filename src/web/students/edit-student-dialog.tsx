import { useRef, useState } from 'react';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import {
  ADMIN_EDIT_FIELDS,
  ADMIN_MESSAGES,
  adminEditFieldLabel,
  adminEditFieldMessage,
  listName,
  type AdminEditField,
  type AdminStudent,
} from '../../shared/students.schemas.js';
import { formClassName } from '../../shared/form-class.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { useFormClasses } from '../lib/form-classes.js';
import { BirthDatePicker } from './birth-date-picker.js';
import { useSaveStudent, type StudentEdit } from './students.api.js';

/** What the dialog edits: the four fields of the record the office edits, and the class. */
type EditedField = AdminEditField | 'class_id';
type Values = Record<EditedField, string>;
type Messages = Partial<Record<EditedField, string>>;

const EDITED_FIELDS: readonly EditedField[] = [...ADMIN_EDIT_FIELDS, 'class_id'];

export const EDIT_STUDENT_WORDS = {
  discardTitle: 'Discard changes?',
  discardText: 'The changes made here have not been saved.',
  discard: 'Discard',
  keepEditing: 'Keep editing',
  moveTitle: 'Move to another class?',
  move: 'Move',
  /** "Move Jane Doe from 3A to 3B?" */
  moveQuestion: (name: string, from: string, to: string) => (from ? `Move ${name} from ${from} to ${to}?` : `Move ${name} to ${to}?`),
} as const;

function valuesOf(student: AdminStudent): Values {
  return {
    first_name: student.first_name ?? '',
    last_name: student.last_name ?? '',
    date_of_birth: student.date_of_birth ?? '',
    birth_certificate_no: student.birth_certificate_no ?? '',
    class_id: student.class_id ?? '',
  };
}

/** The fields whose value differs from the stored one (text compared as it would be saved, trimmed). */
function changesOf(values: Values, stored: Values): Partial<Values> {
  const changes: Partial<Values> = {};
  for (const field of EDITED_FIELDS) if (values[field].trim() !== stored[field]) changes[field] = values[field].trim();
  return changes;
}

interface EditStudentDialogProps {
  student: AdminStudent | null;
  onClose: () => void;
}

/**
 * Edit Student (docs/decisions.md D82): First Name, Last Name, Date of Birth,
 * Birth Certificate Pin and the Class. Nothing is saved until Save, which sends every changed
 * field in one request (the server stores all or none); a change of class is confirmed first
 * ("Move Jane Doe from 3A to 3B?"). While it saves the status reads 'Updating' and Save is
 * disabled (a double click sends once); a refusal keeps the dialog open with the server's message
 * under each field it names and 'Error Occured.'. Cancel, Escape or a click outside with unsaved
 * changes asks "Discard changes?"; without changes they close at once.
 */
export function EditStudentDialog({ student, onClose }: EditStudentDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  // The form says whether it holds unsaved changes; a ref, as only a close asks.
  const dirty = useRef(false);
  const [askingDiscard, setAskingDiscard] = useState(false);
  const requestClose = () => {
    if (dirty.current) setAskingDiscard(true);
    else onClose();
  };
  const close = () => {
    dirty.current = false;
    setAskingDiscard(false);
    onClose();
  };
  return (
    <>
      <Dialog open={student !== null} onClose={requestClose} fullScreen={fullScreen} fullWidth maxWidth="xs" aria-labelledby="edit-student-title">
        {student && (
          <EditStudentForm
            key={student.id}
            student={student}
            onDirtyChange={(isDirty) => {
              dirty.current = isDirty;
            }}
            onCancel={requestClose}
            onSaved={close}
          />
        )}
      </Dialog>
      <Dialog open={askingDiscard} onClose={() => setAskingDiscard(false)} aria-labelledby="discard-title" aria-describedby="discard-text">
        <DialogTitle id="discard-title">{EDIT_STUDENT_WORDS.discardTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText id="discard-text">{EDIT_STUDENT_WORDS.discardText}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAskingDiscard(false)} autoFocus>
            {EDIT_STUDENT_WORDS.keepEditing}
          </Button>
          <Button onClick={close} color="error">
            {EDIT_STUDENT_WORDS.discard}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

interface EditStudentFormProps {
  student: AdminStudent;
  onDirtyChange: (dirty: boolean) => void;
  onCancel: () => void;
  onSaved: () => void;
}

function EditStudentForm({ student, onDirtyChange, onCancel, onSaved }: EditStudentFormProps) {
  const edit = useStudentEdit(student, onDirtyChange, onSaved);
  const { values, stored } = edit;
  const name = [values.first_name.trim(), values.last_name.trim()].filter(Boolean).join(' ') || student.id;
  return (
    <>
      <DialogTitle id="edit-student-title">
        Edit Student
        <Typography component="span" display="block" color="text.secondary" variant="body2">
          {listName(student)} · {student.id}
        </Typography>
      </DialogTitle>
      <DialogContent>
        <EditStudentFields values={values} messages={edit.messages} onChange={edit.setValue} onSubmit={edit.saveChanges} />
        <SaveStatus saving={edit.saving} failure={edit.failure} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button onClick={edit.saveChanges} variant="contained" disabled={edit.saving}>
          Save
        </Button>
      </DialogActions>
      <ConfirmMoveDialog
        open={edit.confirmingMove}
        question={EDIT_STUDENT_WORDS.moveQuestion(name, stored.class_id, values.class_id)}
        onCancel={edit.cancelMove}
        onMove={edit.confirmMove}
      />
    </>
  );
}

/**
 * The values against the stored ones and Save: the shared rules checked first, only the changed
 * fields sent, a change of class held until it is confirmed, and the server's refusal put under
 * the fields it names.
 */
function useStudentEdit(student: AdminStudent, onDirtyChange: (dirty: boolean) => void, onSaved: () => void) {
  const save = useSaveStudent();
  const snackbar = useSnackbar();
  const [stored] = useState<Values>(() => valuesOf(student));
  const [values, setValues] = useState<Values>(stored);
  const [messages, setMessages] = useState<Messages>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmingMove, setConfirmingMove] = useState(false);
  // Set the moment a save starts, before React re-renders the disabled button: a second click
  // that lands first finds it and sends nothing. Cleared only by a refusal, so the fields can be corrected.
  const sending = useRef(false);

  const setValue = (field: EditedField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    onDirtyChange(Object.keys(changesOf(next, stored)).length > 0);
  };

  const send = (changes: Partial<Values>) => {
    if (sending.current) return;
    sending.current = true;
    setFailure(null);
    const edit: StudentEdit = { id: student.id, ...changes };
    save.mutate(edit, {
      // After a save the form is done: the dialog closes, and a click that lands during its closing
      // transition finds `sending` still set.
      onSuccess: () => {
        snackbar(ADMIN_MESSAGES.updated, 'success');
        onSaved();
      },
      onError: (error) => {
        sending.current = false;
        setMessages(serverMessagesOf(error));
        setFailure(errorMessage(error));
      },
    });
  };

  const saveChanges = () => {
    if (sending.current) return;
    const problems = problemsOf(values);
    setMessages(problems ?? {});
    if (problems) return;
    const changes = changesOf(values, stored);
    if (Object.keys(changes).length === 0) {
      onSaved();
      return;
    }
    if ('class_id' in changes) setConfirmingMove(true);
    else send(changes);
  };

  const confirmMove = () => {
    setConfirmingMove(false);
    send(changesOf(values, stored));
  };

  return {
    stored,
    values,
    setValue,
    messages,
    failure,
    saving: save.isPending,
    saveChanges,
    confirmingMove,
    cancelMove: () => setConfirmingMove(false),
    confirmMove,
  };
}

/** Every field's message under the shared rules; null when all may be sent. */
function problemsOf(values: Values): Messages | null {
  const found: Messages = {};
  for (const field of ADMIN_EDIT_FIELDS) {
    const message = adminEditFieldMessage(field, values[field]);
    if (message) found[field] = message;
  }
  return Object.keys(found).length > 0 ? found : null;
}

/** The server's word on each field (a pin another student has, 409), to show under it. */
function serverMessagesOf(error: Error): Messages {
  const fieldMessages = isApiError(error) ? error.errors : undefined;
  const found: Messages = {};
  for (const field of EDITED_FIELDS) {
    const message = fieldMessages?.[field]?.[0];
    if (message) found[field] = message;
  }
  return found;
}

interface EditStudentFieldsProps {
  values: Values;
  messages: Messages;
  onChange: (field: EditedField, value: string) => void;
  onSubmit: () => void;
}

/** The four fields of the record and the class, each with its message beneath. */
function EditStudentFields({ values, messages, onChange, onSubmit }: EditStudentFieldsProps) {
  const textField = (field: Exclude<AdminEditField, 'date_of_birth'>) => (
    <TextField
      key={field}
      label={adminEditFieldLabel(field)}
      name={field}
      value={values[field]}
      onChange={(event) => onChange(field, event.target.value)}
      error={Boolean(messages[field])}
      helperText={messages[field] ?? ' '}
      required
      fullWidth
      margin="dense"
    />
  );
  return (
    <Box
      component="form" method="post"
      noValidate
      aria-label="Edit Student"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {textField('first_name')}
      {textField('last_name')}
      <BirthDatePicker value={values.date_of_birth} message={messages.date_of_birth} onChange={(value) => onChange('date_of_birth', value)} />
      {textField('birth_certificate_no')}
      <ClassField value={values.class_id} message={messages.class_id} onChange={(value) => onChange('class_id', value)} />
      {/* Enter in a field saves, as the Save button does. */}
      <button type="submit" hidden aria-hidden tabIndex={-1} />
    </Box>
  );
}

interface EditedFieldProps {
  value: string;
  message: string | undefined;
  onChange: (value: string) => void;
}

/** The class, from the school's form classes; a stored class no longer among them stays choosable. */
function ClassField({ value, message, onChange }: EditedFieldProps) {
  const classes = useFormClasses();
  return (
    <TextField
      select
      label="Class"
      name="class_id"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      fullWidth
      margin="dense"
      error={Boolean(message)}
      helperText={message ?? 'Moves the student to this class when saved'}
    >
      {value !== '' && !(classes.data ?? []).some((formClass) => formClass.id === value) && <MenuItem value={value}>{value}</MenuItem>}
      {(classes.data ?? []).map((formClass) => (
        <MenuItem key={formClass.id} value={formClass.id}>
          {formClassName(formClass.id, formClass.form_level)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** "Move Jane Doe from 3A to 3B?": a change of class is saved only once confirmed. */
function ConfirmMoveDialog({ open, question, onCancel, onMove }: { open: boolean; question: string; onCancel: () => void; onMove: () => void }) {
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="move-title" aria-describedby="move-text">
      <DialogTitle id="move-title">{EDIT_STUDENT_WORDS.moveTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText id="move-text">{question}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={onMove}>
          {EDIT_STUDENT_WORDS.move}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** 'Updating' while the save runs; 'Error Occured.' with the server's reason when refused. */
function SaveStatus({ saving, failure }: { saving: boolean; failure: string | null }) {
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'flex', alignItems: 'center', gap: 1, minHeight: 28, mt: 1 }}>
      {saving && (
        <>
          <CircularProgress size={18} aria-hidden />
          <Typography>{ADMIN_MESSAGES.updating}</Typography>
        </>
      )}
      {!saving && failure !== null && (
        <Box role="alert" sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
          <ErrorOutlineIcon color="error" aria-hidden />
          <Typography color="error">
            {ADMIN_MESSAGES.error} {failure}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
