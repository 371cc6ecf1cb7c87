import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';

/** After a first login: tells the student the ID to sign in with next time (docs/requirements.md R3). */
export function NoteStudentIdDialog({ studentId, onClose }: { studentId: string | null; onClose: () => void }) {
  return (
    <Dialog open={studentId !== null} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Note your Student ID</DialogTitle>
      <DialogContent>
        <DialogContentText>Your Student ID is</DialogContentText>
        <Typography component="p" sx={{ fontSize: '1.75rem', fontWeight: 700, letterSpacing: 1, my: 1 }}>
          {studentId}
        </Typography>
        <DialogContentText>
          Write it down or save it somewhere safe: you will sign in with this Student ID and your new password next
          time.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} autoFocus>
          I have noted it
        </Button>
      </DialogActions>
    </Dialog>
  );
}
