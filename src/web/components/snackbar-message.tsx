import Alert, { type AlertColor } from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

export interface SnackbarMessageProps {
  text: string;
  severity: AlertColor;
  open: boolean;
  onClose: (event?: unknown, reason?: string) => void;
}

/** The app's one snackbar as shown: a filled alert at the bottom centre, gone after six seconds. */
export function SnackbarMessage({ text, severity, open, onClose }: SnackbarMessageProps) {
  return (
    <Snackbar open={open} autoHideDuration={6000} onClose={onClose} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert onClose={onClose} severity={severity} variant="filled" sx={{ width: '100%' }}>
        {text}
      </Alert>
    </Snackbar>
  );
}
