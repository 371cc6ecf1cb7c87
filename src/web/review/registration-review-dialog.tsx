import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { RegistrationDecision } from './registration-decision.js';

/**
 * The student list's "Review registration" row action: verify, return with a note and
 * steps, or reopen one student's record. src/web/app hands it to the list.
 */
export function RegistrationReviewDialog({ student, onClose }: { student: { id: string; name: string } | null; onClose: () => void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={student !== null} onClose={onClose} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby="registration-review-title">
      <DialogTitle id="registration-review-title">Review registration — {student?.name}</DialogTitle>
      <DialogContent>{student && <RegistrationDecision studentId={student.id} name={student.name} bare />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
