import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { toDayFirstDate } from '../../shared/dates.js';
import {
  ENROLMENT_MESSAGES,
  ENROLMENT_NOTE_MAX,
  EXIT_REASON_LABELS,
  OTHER_SCHOOL_MAX,
  ReadmitInputSchema,
  WITHDRAW_REASONS,
  WithdrawInputSchema,
  dateInWindow,
  reasonText,
  readmitFormLevels,
  type Enrolment,
  type EnrolmentEvent,
  type WithdrawReason,
} from '../../shared/enrolment.schemas.js';
import { formClassName } from '../../shared/form-class.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { errorMessage, isApiError } from '../lib/api-client.js';
import { fieldErrorsOf, fieldHelper, firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useEnrolment, useReadmitStudent, useWithdrawStudent } from './enrolment.api.js';

/** What the dialog shows first: the history, or straight away the readmission form (a former student's row action). */
export type EnrolmentView = 'history' | 'withdraw' | 'readmit';

export interface EnrolmentDialogProps {
  student: { id: string; name: string } | null;
  start: EnrolmentView;
  /** The office's and administrators' (`student.enrolment`): the Withdraw and Readmit buttons. */
  mayChange: boolean;
  onClose: () => void;
}

/**
 * One student's enrolment (docs/decisions.md D80): where they stand, their dated entries and
 * exits, and for the office Withdraw (on the roll) or Readmit (a former student). The forms check
 * the shared rules before sending, the dates against the window the server answered; the server
 * checks them again and its field messages land on the fields.
 */
export function EnrolmentDialog({ student, start, mayChange, onClose }: EnrolmentDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={student !== null} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby="enrolment-title">
      {student && <EnrolmentContent key={`${student.id}-${start}`} student={student} start={start} mayChange={mayChange} onClose={onClose} />}
    </Dialog>
  );
}

function EnrolmentContent({ student, start, mayChange, onClose }: { student: { id: string; name: string }; start: EnrolmentView; mayChange: boolean; onClose: () => void }) {
  const enrolment = useEnrolment(student.id);
  const [view, setView] = useState<EnrolmentView>(start);
  const title = `${view === 'withdraw' ? 'Withdraw' : view === 'readmit' ? 'Readmit' : 'Enrolment'} — ${student.name} (${student.id})`;
  const data = enrolment.data;
  return (
    <>
      <DialogTitle id="enrolment-title">{title}</DialogTitle>
      {!data ? (
        <>
          <DialogContent>
            {enrolment.error ? (
              <Alert severity="error" role="alert">
                {errorMessage(enrolment.error)}
              </Alert>
            ) : (
              <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
                <CircularProgress aria-label="Loading the enrolment history" />
              </Box>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
          </DialogActions>
        </>
      ) : view === 'withdraw' && data.on_roll ? (
        <WithdrawForm enrolment={data} onBack={() => setView('history')} onDone={onClose} />
      ) : view === 'readmit' && !data.on_roll ? (
        <ReadmitForm enrolment={data} onBack={() => setView('history')} onDone={onClose} />
      ) : (
        <History enrolment={data} mayChange={mayChange} onWithdraw={() => setView('withdraw')} onReadmit={() => setView('readmit')} onClose={onClose} />
      )}
    </>
  );
}

function standing(enrolment: Enrolment): string {
  if (enrolment.on_roll) return enrolment.class_id ? `On the roll in ${enrolment.class_id}.` : 'On the roll, in no class.';
  return `Former student: left${enrolment.left_class ? ` ${enrolment.left_class}` : ''} on ${toDayFirstDate(enrolment.left_on ?? '')}. The record is read-only.`;
}

/** "Entry · 1A" / "Exit · from 5A", and the note. */
function eventDetail(event: EnrolmentEvent): string {
  const where = event.class_id ? (event.kind === 'entry' ? ` · into ${event.class_id}` : ` · from ${event.class_id}`) : '';
  return `${event.kind === 'entry' ? 'Entry' : 'Exit'}${where}${event.note ? ` · ${event.note}` : ''}`;
}

function History({ enrolment, mayChange, onWithdraw, onReadmit, onClose }: { enrolment: Enrolment; mayChange: boolean; onWithdraw: () => void; onReadmit: () => void; onClose: () => void }) {
  return (
    <>
      <DialogContent>
        <DialogContentText>{standing(enrolment)}</DialogContentText>
        {enrolment.events.length === 0 ? (
          <DialogContentText sx={{ mt: 1 }}>No entries recorded.</DialogContentText>
        ) : (
          <List dense aria-label="Enrolment history">
            {enrolment.events.map((event) => (
              <ListItem key={event.id} disableGutters>
                <ListItemText primary={`${toDayFirstDate(event.on)} — ${reasonText(event)}`} secondary={eventDetail(event)} />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        {mayChange && enrolment.on_roll && (
          <Button color="error" variant="outlined" onClick={onWithdraw}>
            Withdraw…
          </Button>
        )}
        {mayChange && !enrolment.on_roll && (
          <Button variant="contained" onClick={onReadmit}>
            Readmit…
          </Button>
        )}
      </DialogActions>
    </>
  );
}

interface FormProps {
  enrolment: Enrolment;
  onBack: () => void;
  onDone: () => void;
}

/** The day's field: a native date input (a phone's own picker), limited to the window. */
function DateField({ value, onChange, enrolment, errors, label }: { value: string; onChange: (date: string) => void; enrolment: Enrolment; errors: FieldErrors; label: string }) {
  const { earliest, latest } = enrolment.window;
  const hint = earliest === latest ? `Only ${toDayFirstDate(latest)}` : `From ${toDayFirstDate(earliest)} to ${toDayFirstDate(latest)}`;
  const helper = fieldHelper(errors, 'date', hint);
  return (
    <TextField
      type="date"
      name="date"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      fullWidth
      margin="dense"
      {...helper}
      slotProps={{ ...helper.slotProps, inputLabel: { shrink: true }, htmlInput: { min: earliest, max: latest } }}
    />
  );
}

/** The shared schema's problems, and a date outside the window, as field messages. */
function problemsOf(parsed: { success: boolean; error?: Parameters<typeof fieldErrorsOf>[0] }, date: string, enrolment: Enrolment): FieldErrors {
  const errors = parsed.success || !parsed.error ? {} : fieldErrorsOf(parsed.error);
  if (errors.date === undefined && !dateInWindow(date, enrolment.window)) errors.date = date ? ENROLMENT_MESSAGES.dateOutOfRange(enrolment.window.earliest, enrolment.window.latest) : ENROLMENT_MESSAGES.chooseDate;
  return errors;
}

/**
 * What a form of this dialog does with the server's answer: the message in the snackbar and the
 * dialog back to the history; on a refusal, the server's messages beside its fields and its reason.
 */
function sentForm(form: { snackbar: (message: string) => void; onDone: () => void; setErrors: (errors: FieldErrors) => void; setFailure: (failure: string) => void }) {
  return {
    onSuccess: (answer: { message: string }) => {
      form.snackbar(answer.message);
      form.onDone();
    },
    onError: (cause: unknown) => {
      if (isApiError(cause)) form.setErrors(firstFieldMessages(cause.errors));
      form.setFailure(errorMessage(cause));
    },
  };
}

export function WithdrawForm({ enrolment, onBack, onDone }: FormProps) {
  const withdraw = useWithdrawStudent();
  const snackbar = useSnackbar();
  const [date, setDate] = useState(enrolment.window.latest);
  const [reason, setReason] = useState<WithdrawReason | ''>('');
  const [otherSchool, setOtherSchool] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { date, reason, ...(reason === 'transferred' ? { other_school: otherSchool } : {}), ...(note.trim() ? { note } : {}) };
    const parsed = WithdrawInputSchema.safeParse(body);
    const problems = problemsOf(parsed, date, enrolment);
    setErrors(problems);
    if (!parsed.success || Object.keys(problems).length > 0) return;
    setFailure(null);
    withdraw.mutate(
      { studentId: enrolment.student_id, input: parsed.data },
      sentForm({ snackbar, onDone, setErrors, setFailure }),
    );
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-labelledby="enrolment-title">
      <DialogContent>
        <DialogContentText>
          The student leaves the roll{enrolment.class_id ? ` and ${enrolment.class_id}` : ''}: the record, report cards and attendance are kept, read-only, among the former students.
        </DialogContentText>
        <DateField label="Left on" value={date} onChange={setDate} enrolment={enrolment} errors={errors} />
        <TextField select name="reason" label="Reason" value={reason} onChange={(event) => setReason(event.target.value as WithdrawReason)} required fullWidth margin="dense" {...fieldHelper(errors, 'reason')}>
          {WITHDRAW_REASONS.map((value) => (
            <MenuItem key={value} value={value}>
              {EXIT_REASON_LABELS[value]}
            </MenuItem>
          ))}
        </TextField>
        {reason === 'transferred' && (
          <TextField
            name="other_school"
            label="School moving to"
            value={otherSchool}
            onChange={(event) => setOtherSchool(event.target.value)}
            required
            fullWidth
            margin="dense"
            {...fieldHelper(errors, 'other_school')}
            slotProps={{ ...fieldHelper(errors, 'other_school').slotProps, htmlInput: { maxLength: OTHER_SCHOOL_MAX } }}
          />
        )}
        <TextField
          name="note"
          label={reason === 'other' ? 'Note (why)' : 'Note (optional)'}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          required={reason === 'other'}
          fullWidth
          margin="dense"
          {...fieldHelper(errors, 'note')}
          slotProps={{ ...fieldHelper(errors, 'note').slotProps, htmlInput: { maxLength: ENROLMENT_NOTE_MAX } }}
        />
        {failure && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onBack}>Back</Button>
        <Button type="submit" color="error" variant="contained" disabled={withdraw.isPending}>
          Withdraw
        </Button>
      </DialogActions>
    </Box>
  );
}

export function ReadmitForm({ enrolment, onBack, onDone }: FormProps) {
  const readmit = useReadmitStudent();
  const snackbar = useSnackbar();
  const classes = useFormClasses();
  const [date, setDate] = useState(enrolment.window.latest);
  const [classId, setClassId] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const leftLevel = (classes.data ?? []).find((c) => c.id === enrolment.left_class)?.form_level ?? null;
  const levels = readmitFormLevels(leftLevel);
  const choices = (classes.data ?? []).filter((c) => levels === null || levels.includes(c.form_level));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ReadmitInputSchema.safeParse({ date, class_id: classId, ...(note.trim() ? { note } : {}) });
    const problems = problemsOf(parsed, date, enrolment);
    if (!classId) problems.class_id = 'Choose a class.';
    setErrors(problems);
    if (!parsed.success || Object.keys(problems).length > 0) return;
    setFailure(null);
    readmit.mutate(
      { studentId: enrolment.student_id, input: parsed.data },
      sentForm({ snackbar, onDone, setErrors, setFailure }),
    );
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={submit} aria-labelledby="enrolment-title">
      <DialogContent>
        <DialogContentText>
          Back on the roll{enrolment.left_class ? ` (left ${enrolment.left_class} on ${toDayFirstDate(enrolment.left_on ?? '')})` : ''}: choose the class and the day they return.
        </DialogContentText>
        <DateField label="Back on" value={date} onChange={setDate} enrolment={enrolment} errors={errors} />
        <TextField select name="class_id" label="Class" value={classId} onChange={(event) => setClassId(event.target.value)} required fullWidth margin="dense" {...fieldHelper(errors, 'class_id')}>
          {choices.map((formClass) => (
            <MenuItem key={formClass.id} value={formClass.id}>
              {formClassName(formClass.id, formClass.form_level)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          name="note"
          label="Note (optional)"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          fullWidth
          margin="dense"
          {...fieldHelper(errors, 'note')}
          slotProps={{ ...fieldHelper(errors, 'note').slotProps, htmlInput: { maxLength: ENROLMENT_NOTE_MAX } }}
        />
        {failure && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onBack}>Back</Button>
        <Button type="submit" variant="contained" disabled={readmit.isPending}>
          Readmit
        </Button>
      </DialogActions>
    </Box>
  );
}
