import { useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { SxProps, Theme } from '@mui/material/styles';
import {
  ABSENCE_NOTE_STATE_LABELS,
  ABSENCE_NOTE_STATES,
  ABSENCE_NOTE_TEXT_MAX,
  ABSENCE_PART_LABELS,
  ABSENCE_QUEUE_PAGE,
  ABSENCE_REASONS,
  absenceReasonLabel,
  DecideAbsenceNoteSchema,
  decisionReasonsFor,
  type AbsenceDecision,
  type AbsenceNoteDetail,
  type AbsenceNoteQueueQuery,
  type AbsenceNoteState,
  type AbsenceReason,
} from '../../shared/absence-notes.schemas.js';
import { DAY_ATTENDANCE_WORDS } from '../../shared/attendance.stats.js';
import { isIsoDate } from '../../shared/dates.js';
import { listName } from '../../shared/students.schemas.js';
import { RangeDateField } from '../components/range-date-field.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { ApiError, errorMessage } from '../lib/api-client.js';
import { fieldErrorsOf, fieldHelper, firstFieldMessages, type FieldErrors } from '../lib/form-errors.js';
import { useFormClasses } from '../lib/form-classes.js';
import { useSession } from '../lib/session.js';
import { classChoicesFor, reachesEveryClass } from '../lib/staff-access.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { noteDays, STATE_COLORS } from './absence-note-words.js';
import { useAbsenceNote, useAbsenceNoteQueue, useDecideAbsenceNote } from './absence-notes.api.js';

const TITLE = 'Absence Notes';

/** A note's state as a coloured chip. */
function NoteState({ state, sx }: { state: AbsenceNoteState; sx?: SxProps<Theme> }) {
  return <Chip size="small" color={STATE_COLORS[state]} label={ABSENCE_NOTE_STATE_LABELS[state]} sx={sx} />;
}

/**
 * The school's Absence Notes queue (docs/decisions.md D93), for the form teacher (their classes),
 * the office and the principal: waiting notes first (oldest first), filtered by class, days,
 * reason and state; a note opened shows its attachment and the child's attendance on its days,
 * and is accepted or declined with a reason. The server decides who sees what: a form teacher's
 * class choice lists only their classes.
 */
export function AbsenceNotesQueueScreen() {
  usePageTitle(TITLE);
  const user = useSession().data?.user;
  const classes = useFormClasses();
  const [classId, setClassId] = useState('');
  const [state, setState] = useState<AbsenceNoteState | ''>('');
  const [reason, setReason] = useState<AbsenceReason | ''>('');
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);
  const [opened, setOpened] = useState<number | null>(null);
  const filter: AbsenceNoteQueueQuery = {
    ...(classId ? { class_id: classId } : {}),
    ...(state ? { state } : {}),
    ...(reason ? { reason } : {}),
    // A half-typed date filters nothing until it is a date.
    ...(from && isIsoDate(from) ? { from } : {}),
    ...(to && isIsoDate(to) ? { to } : {}),
    ...(offset ? { offset } : {}),
  };
  const queue = useAbsenceNoteQueue(filter);
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'));
  const filtered = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setOffset(0);
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        {TITLE}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)', lg: 'repeat(5, 1fr)' }, alignItems: 'start' }}>
        <TextField select label="Class" value={classId} onChange={(event) => filtered(setClassId)(event.target.value)}>
          <MenuItem value="">{reachesEveryClass(user) ? 'All classes' : 'All my classes'}</MenuItem>
          {classChoicesFor(user, classes.data ?? []).map((formClass) => (
            <MenuItem key={formClass.id} value={formClass.id}>
              {formClass.id}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="State" value={state} onChange={(event) => filtered(setState)(event.target.value as AbsenceNoteState | '')}>
          <MenuItem value="">All (waiting first)</MenuItem>
          {ABSENCE_NOTE_STATES.map((code) => (
            <MenuItem key={code} value={code}>
              {ABSENCE_NOTE_STATE_LABELS[code]}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="Reason" value={reason} onChange={(event) => filtered(setReason)(event.target.value as AbsenceReason | '')}>
          <MenuItem value="">All reasons</MenuItem>
          {ABSENCE_REASONS.map((item) => (
            <MenuItem key={item.code} value={item.code}>
              {item.label}
            </MenuItem>
          ))}
        </TextField>
        <RangeDateField name="from" label="From" value={from} onChange={filtered(setFrom)} required={false} margin="none" />
        <RangeDateField name="to" label="To" value={to} onChange={filtered(setTo)} required={false} margin="none" />
      </Box>
      {queue.isError && (
        <Alert severity="error" role="alert">
          {errorMessage(queue.error)}
        </Alert>
      )}
      {queue.data && (
        <>
          <Typography data-testid="absence-queue-total">
            {queue.data.waiting} waiting · {queue.data.total} {queue.data.total === 1 ? 'note' : 'notes'} shown by these filters
          </Typography>
          {queue.data.items.length === 0 ? (
            <Typography color="text.secondary" role="status">
              No absence notes here.
            </Typography>
          ) : (
            <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Absence notes">
                <TableHead>
                  <TableRow>
                    <TableCell>Student</TableCell>
                    {wide && <TableCell>Days</TableCell>}
                    {wide && <TableCell>Part</TableCell>}
                    {wide && <TableCell>Reason</TableCell>}
                    {wide && <TableCell>State</TableCell>}
                    <TableCell />
                  </TableRow>
                </TableHead>
                <TableBody>
                  {queue.data.items.map((item) => (
                    <TableRow key={item.id}>
                      <TableCell>
                        {listName(item.student) || item.student_id}
                        <Typography variant="body2" color="text.secondary">
                          {item.student.class_id ?? '—'}
                          {/* A phone has room for two columns: the days and the state go under the name. */}
                          {!wide && ` · ${noteDays(item)}`}
                        </Typography>
                        {!wide && <NoteState state={item.state} sx={{ mt: 0.5 }} />}
                      </TableCell>
                      {wide && <TableCell>{noteDays(item)}</TableCell>}
                      {wide && <TableCell>{ABSENCE_PART_LABELS[item.part]}</TableCell>}
                      {wide && <TableCell>{absenceReasonLabel(item.reason)}</TableCell>}
                      {wide && (
                        <TableCell>
                          <NoteState state={item.state} />
                        </TableCell>
                      )}
                      <TableCell align="right">
                        <Button size="small" onClick={() => setOpened(item.id)} aria-label={`Open the note of ${listName(item.student) || item.student_id} for ${noteDays(item)}`}>
                          Open
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Paper>
          )}
          {queue.data.total > ABSENCE_QUEUE_PAGE && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - ABSENCE_QUEUE_PAGE))}>
                Previous
              </Button>
              <Typography variant="body2">
                {offset + 1}–{Math.min(offset + ABSENCE_QUEUE_PAGE, queue.data.total)} of {queue.data.total}
              </Typography>
              <Button disabled={offset + ABSENCE_QUEUE_PAGE >= queue.data.total} onClick={() => setOffset(offset + ABSENCE_QUEUE_PAGE)}>
                Next
              </Button>
            </Stack>
          )}
        </>
      )}
      {opened !== null && <AbsenceNoteDialog noteId={opened} onClose={() => setOpened(null)} />}
    </Stack>
  );
}

/** What the record says on one of the note's days, and what accepted notes excuse. */
function dayWords(day: AbsenceNoteDetail['days'][number]): string {
  const words = day.status === 'not-recorded' ? 'not recorded yet' : DAY_ATTENDANCE_WORDS[day.status];
  return day.time_in && (day.status === 'late' || day.status === 'absent-am') ? `${words} (arrived ${day.time_in})` : words;
}

function excusedWords(excused: AbsenceNoteDetail['days'][number]['excused']): string {
  const parts = [excused.am && 'morning', excused.pm && 'afternoon', excused.late && 'late arrival'].filter(Boolean);
  return parts.length ? parts.join(', ') : '—';
}

/**
 * One note opened: the child, the days with their attendance, the family's words and attachment,
 * and, while it waits, Accept or Decline with a reason from the shared list or the school's own
 * words. Sent once: a second press while the decision is on its way does nothing.
 */
export function AbsenceNoteDialog({ noteId, onClose }: { noteId: number; onClose: () => void }) {
  const detail = useAbsenceNote(noteId);
  const show = useSnackbar();
  const decide = useDecideAbsenceNote();
  const sending = useRef(false);
  const [decision, setDecision] = useState<AbsenceDecision>('accept');
  const [reason, setReason] = useState('');
  const [details, setDetails] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const note = detail.data?.note;
  const waiting = note?.state === 'waiting';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const parsed = DecideAbsenceNoteSchema.safeParse({ decision, ...(reason ? { reason } : {}), ...(details.trim() ? { details: details.trim() } : {}) });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    sending.current = true;
    setErrors({});
    setProblem(null);
    try {
      const answer = await decide.mutateAsync({ id: noteId, input: parsed.data });
      show(answer.message);
      onClose();
    } catch (error) {
      const onFields = error instanceof ApiError ? firstFieldMessages(error.errors) : {};
      setErrors(onFields);
      setProblem(onFields.reason || onFields.details ? null : errorMessage(error));
    } finally {
      sending.current = false;
    }
  };

  const title = detail.data ? `${listName(detail.data.student) || detail.data.student.id} · ${detail.data.student.class_id ?? '—'}` : 'Absence note';
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="absence-note-dialog-title">
      <DialogTitle id="absence-note-dialog-title">{title}</DialogTitle>
      <DialogContent>
        {detail.isPending && <Typography role="status">Loading the note…</Typography>}
        {detail.isError && (
          <Alert severity="error" role="alert">
            {errorMessage(detail.error)}
          </Alert>
        )}
        {detail.data && note && (
          <Stack spacing={2}>
            <Box>
              <Typography sx={{ fontWeight: 600 }}>
                {noteDays(note)} · {ABSENCE_PART_LABELS[note.part]} · {note.school_days} school {note.school_days === 1 ? 'day' : 'days'}
              </Typography>
              <Typography>
                {absenceReasonLabel(note.reason)}
                {note.text ? `: ${note.text}` : ''}
              </Typography>
              <Typography variant="body2" color="text.secondary" component="div">
                Sent by {note.sent_by ?? (note.sender === 'student' ? 'the student' : 'the family')} on {note.created_at.slice(0, 10)} ·{' '}
                <NoteState state={note.state} />
              </Typography>
              {note.attachment ? (
                <Link href={note.attachment.url} target="_blank" rel="noopener">
                  Open the attachment ({note.attachment.file_name})
                </Link>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  No attachment.
                </Typography>
              )}
            </Box>
            <Table size="small" aria-label="Attendance on these days">
              <TableHead>
                <TableRow>
                  <TableCell>Day</TableCell>
                  <TableCell>Attendance</TableCell>
                  <TableCell>Excused</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {detail.data.days.map((day) => (
                  <TableRow key={day.date}>
                    <TableCell>{day.date}</TableCell>
                    <TableCell>{dayWords(day)}</TableCell>
                    <TableCell>{excusedWords(day.excused)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {note.decision && (
              <Alert severity={note.state === 'accepted' ? 'success' : 'warning'}>
                {note.state === 'accepted' ? 'Accepted' : 'Declined'}
                {note.decision.decided_by ? ` by ${note.decision.decided_by}` : ''} on {note.decision.decided_at.slice(0, 10)}: {note.decision.text}
              </Alert>
            )}
            {waiting && (
              <Stack spacing={1.5} component="form" method="post" id="absence-decision-form" noValidate onSubmit={(event) => void submit(event)}>
                <RadioGroup
                  row
                  name="decision"
                  aria-label="Decision"
                  value={decision}
                  onChange={(event) => {
                    setDecision(event.target.value as AbsenceDecision);
                    setReason('');
                    setErrors({});
                  }}
                >
                  <FormControlLabel value="accept" control={<Radio />} label="Accept" />
                  <FormControlLabel value="decline" control={<Radio />} label="Decline" />
                </RadioGroup>
                <TextField
                  select
                  name="reason"
                  label={decision === 'accept' ? 'Reason (optional)' : 'Reason'}
                  required={decision === 'decline'}
                  value={reason}
                  onChange={(event) => setReason(event.target.value)}
                  {...fieldHelper(errors, 'reason')}
                >
                  {decision === 'accept' && <MenuItem value="">No reason given</MenuItem>}
                  {decisionReasonsFor(decision).map((item) => (
                    <MenuItem key={item.code} value={item.code}>
                      {item.label}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  name="details"
                  label={reason === 'other' ? 'In your own words' : 'Words for the family (optional)'}
                  required={reason === 'other'}
                  multiline
                  minRows={2}
                  value={details}
                  onChange={(event) => setDetails(event.target.value)}
                  {...fieldHelper(errors, 'details', `${details.length} / ${ABSENCE_NOTE_TEXT_MAX}`)}
                  slotProps={{ ...fieldHelper(errors, 'details').slotProps, htmlInput: { maxLength: ABSENCE_NOTE_TEXT_MAX } }}
                />
                {problem && (
                  <Alert severity="error" role="alert">
                    {problem}
                  </Alert>
                )}
              </Stack>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{waiting ? 'Cancel' : 'Close'}</Button>
        {waiting && (
          <Button type="submit" form="absence-decision-form" variant="contained" color={decision === 'accept' ? 'primary' : 'error'} disabled={decide.isPending}>
            {decision === 'accept' ? 'Accept note' : 'Decline note'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
