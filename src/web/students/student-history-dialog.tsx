import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { StudentChange } from '../../shared/students.schemas.js';
import { schoolDateTime } from '../../shared/dates.js';
import { errorMessage } from '../lib/api-client.js';
import { useStudentHistory } from './students.api.js';

/** An empty value in the history: nothing was there, or nothing is now. */
const EMPTY_VALUE = '(empty)';

/** "First Name: Jane → Janet" */
export function changeText(change: StudentChange): string {
  return `${change.label}: ${change.old_value ?? EMPTY_VALUE} → ${change.new_value ?? EMPTY_VALUE}`;
}

interface StudentHistoryDialogProps {
  student: { id: string; name: string } | null;
  onClose: () => void;
}

/**
 * A student's history, one click from the list's row (docs/decisions.md D82): each change of the
 * record and its documents, newest first, as the field's label with the old and the new value
 * (yes/no answers in words), who made it and when in school time; older changes a page at a time.
 * The server decides who may read it (a form teacher their classes' students only).
 */
export function StudentHistoryDialog({ student, onClose }: StudentHistoryDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const history = useStudentHistory(student?.id ?? null);
  const changes = history.data?.pages.flatMap((page) => page.changes) ?? [];
  return (
    <Dialog open={student !== null} onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby="student-history-title">
      <DialogTitle id="student-history-title">
        History
        {student && (
          <Typography component="span" display="block" color="text.secondary" variant="body2">
            {student.name} · {student.id}
          </Typography>
        )}
      </DialogTitle>
      <DialogContent dividers>
        {history.isPending && student && (
          <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <CircularProgress size={18} aria-hidden />
            <Typography>Loading the history…</Typography>
          </Box>
        )}
        {history.error && (
          <Alert severity="error" role="alert">
            {errorMessage(history.error)}
          </Alert>
        )}
        {history.isSuccess && changes.length === 0 && <Typography>No changes recorded.</Typography>}
        {changes.length > 0 && (
          <List dense aria-label="Changes, newest first" disablePadding>
            {changes.map((change) => (
              <ListItem key={change.id} disableGutters divider>
                <ListItemText
                  primary={changeText(change)}
                  secondary={`${schoolDateTime(new Date(change.at))} · ${change.who}`}
                  slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
        {history.hasNextPage && (
          <Button onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage} sx={{ mt: 1 }}>
            Show older changes
          </Button>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
