import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { StudentIdSchema } from '../../shared/auth.schemas.js';
import type { AuditEntry } from '../../shared/privacy.schemas.js';
import { schoolTimeOf } from '../../shared/dates.js';
import { useSnackbar } from '../components/snackbar-provider.js';
import { HIDE_ON_PHONE_SX, PHONE_TABLE_SX } from '../components/table-priority.js';
import { errorMessage } from '../lib/api-client.js';
import { usePageTitle } from '../lib/use-page-title.js';
import { useAuditLog, useDeleteStudent, useStudentHistory } from './privacy.api.js';

function describeEntry(entry: AuditEntry): string {
  const what = [entry.entity, entry.entity_id].filter(Boolean).join(' ');
  const field = entry.field ? ` · ${entry.field}` : '';
  const change = entry.old_value !== null || entry.new_value !== null ? `: ${entry.old_value ?? '—'} → ${entry.new_value ?? '—'}` : '';
  return `${what}${field}${change}`;
}

function EntriesTable({ label, entries }: { label: string; entries: AuditEntry[] }) {
  return (
    <TableContainer sx={{ mt: 2 }}>
      <Table size="small" aria-label={label} sx={PHONE_TABLE_SX}>
        <TableHead>
          <TableRow>
            <TableCell>When</TableCell>
            <TableCell sx={HIDE_ON_PHONE_SX}>Who</TableCell>
            <TableCell sx={HIDE_ON_PHONE_SX}>Action</TableCell>
            <TableCell>What</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{schoolTimeOf(entry.at)}</TableCell>
              <TableCell sx={HIDE_ON_PHONE_SX}>{entry.actor}</TableCell>
              <TableCell sx={HIDE_ON_PHONE_SX}>{entry.action}</TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>
                {/* On a phone Who and Action are left out as columns (D46) and head this cell. */}
                <Box component="span" sx={{ display: { xs: 'block', sm: 'none' }, color: 'text.secondary' }}>
                  {entry.actor} · {entry.action}
                </Box>
                {describeEntry(entry)}
              </TableCell>
            </TableRow>
          ))}
          {entries.length === 0 && (
            <TableRow>
              <TableCell colSpan={4} align="center" sx={{ color: 'text.secondary', py: 3 }}>
                Nothing recorded.
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * Privacy: the audit log (who read, exported or changed what, when), one student's
 * change history, the export of everything held about a student, and deleting a student.
 */
export function Privacy() {
  usePageTitle('Privacy');
  const [input, setInput] = useState('');
  const [studentId, setStudentId] = useState<string | null>(null);
  const deletion = useDeletionConfirmation();

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        Privacy
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Every administrator&apos;s view of a student&apos;s record or documents, every export and every change is recorded here. Enter a Student
        ID to see only that student, their change history, to export everything held about them, or to delete them.
      </Typography>

      <StudentIdForm input={input} onInputChange={setInput} onChoose={setStudentId} />
      {studentId && <StudentSection studentId={studentId} onDelete={deletion.start} />}
      <AuditLogSection studentId={studentId} />
      <DeleteStudentDialog
        studentId={studentId}
        deletion={deletion}
        onDeleted={() => {
          setStudentId(null);
          setInput('');
        }}
      />
    </Paper>
  );
}

interface StudentIdFormProps {
  input: string;
  onInputChange: (input: string) => void;
  /** A valid Student ID, or null (the whole log) when the field is left empty. */
  onChoose: (studentId: string | null) => void;
}

/** The Student ID to narrow the screen to; an ID that is not valid stays on the field and changes nothing. */
function StudentIdForm({ input, onInputChange, onChoose }: StudentIdFormProps) {
  const [inputError, setInputError] = useState<string | null>(null);

  const choose = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '') {
      setInputError(null);
      onChoose(null);
      return;
    }
    const parsed = StudentIdSchema.safeParse(input);
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? 'Enter a Student ID.');
      return;
    }
    setInputError(null);
    onChoose(parsed.data);
  };

  return (
    <Box component="form" method="post" noValidate onSubmit={choose} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', mt: 2 }}>
      <TextField
        name="privacy_student_id"
        label="Student ID"
        value={input}
        onChange={(event) => onInputChange(event.target.value)}
        error={inputError !== null}
        helperText={inputError ?? 'Leave empty for the whole log'}
        slotProps={{ htmlInput: { maxLength: 20 }, formHelperText: inputError !== null ? { role: 'alert' } : {} }}
        sx={{ maxWidth: 260 }}
      />
      <Button type="submit" variant="contained" sx={{ mt: { xs: 0, sm: 1 } }}>
        Show
      </Button>
    </Box>
  );
}

/** The chosen student: export and delete, and their change history, oldest first. */
function StudentSection({ studentId, onDelete }: { studentId: string; onDelete: () => void }) {
  const history = useStudentHistory(studentId);
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h2" sx={{ fontSize: '1.2rem' }}>
        Student {studentId}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}>
        <Button variant="outlined" component="a" href={`/api/privacy/students/${encodeURIComponent(studentId)}/export`} download>
          Export everything (JSON)
        </Button>
        <Button variant="outlined" color="error" onClick={onDelete}>
          Delete student…
        </Button>
      </Box>
      <Typography variant="h3" sx={{ fontSize: '1.05rem', mt: 3 }}>
        Change history
      </Typography>
      {history.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {errorMessage(history.error)}
        </Alert>
      )}
      {history.data && <EntriesTable label={`Change history of ${studentId}`} entries={[...history.data.changes].reverse()} />}
    </Box>
  );
}

/** The audit log, for the chosen student or for everyone, a page at a time. */
function AuditLogSection({ studentId }: { studentId: string | null }) {
  const log = useAuditLog(studentId);
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <>
      <Typography variant="h2" sx={{ fontSize: '1.2rem', mt: 4 }}>
        {studentId ? `Audit log for ${studentId}` : 'Audit log'}
      </Typography>
      {log.isError && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {errorMessage(log.error)}
        </Alert>
      )}
      <EntriesTable label="Audit log" entries={entries} />
      {log.hasNextPage && (
        <Button sx={{ mt: 1 }} onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          Show older entries
        </Button>
      )}
    </>
  );
}

/**
 * The state of the delete confirmation. It lives above the student's section so the dialog can
 * close in place after the deletion clears the chosen student; `start` opens it afresh, with an
 * empty confirmation and no earlier error.
 */
function useDeletionConfirmation() {
  const remove = useDeleteStudent();
  const [isOpen, setIsOpen] = useState(false);
  const [confirmText, setConfirmText] = useState('');
  const start = () => {
    setConfirmText('');
    remove.reset();
    setIsOpen(true);
  };
  return { remove, isOpen, start, close: () => setIsOpen(false), confirmText, setConfirmText };
}

interface DeleteStudentDialogProps {
  studentId: string | null;
  deletion: ReturnType<typeof useDeletionConfirmation>;
  onDeleted: () => void;
}

/** Deletes the student once their Student ID is typed again. */
function DeleteStudentDialog({ studentId, deletion, onDeleted }: DeleteStudentDialogProps) {
  const showSnackbar = useSnackbar();
  const { remove, confirmText } = deletion;
  return (
    <Dialog open={deletion.isOpen} onClose={deletion.close} aria-labelledby="privacy-delete-title">
      <DialogTitle id="privacy-delete-title">Delete student {studentId}?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          This removes the record, the account and its sessions, the documents, the term results and the attendance, and the log entries that
          name the student. It cannot be undone. Export the data first if it may be needed. Type the Student ID to confirm.
        </DialogContentText>
        <TextField
          name="privacy_confirm_student_id"
          label="Student ID"
          value={confirmText}
          onChange={(event) => deletion.setConfirmText(event.target.value)}
          sx={{ mt: 2 }}
          autoFocus
        />
        {remove.isError && (
          <Alert severity="error" role="alert" sx={{ mt: 1 }}>
            {errorMessage(remove.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={deletion.close}>Cancel</Button>
        <Button
          color="error"
          variant="contained"
          disabled={remove.isPending || confirmText.trim() !== studentId}
          onClick={() =>
            studentId &&
            remove.mutate(studentId, {
              onSuccess: (answer) => {
                deletion.close();
                onDeleted();
                showSnackbar(answer.message);
              },
            })
          }
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
