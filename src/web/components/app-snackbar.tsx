import Alert, { type AlertColor } from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

export interface SnackbarMessage {
  key: number;
  text: string;
  severity: AlertColor;
}

interface AppSnackbarProps {
  message: SnackbarMessage;
  open: boolean;
  onClose: (event?: unknown, reason?: string) => void;
}

/** The app's one snackbar: a filled alert at the bottom centre, gone after six seconds. */
export function AppSnackbar({ message, open, onClose }: AppSnackbarProps) {
  return (
    <Snackbar key={message.key} open={open} autoHideDuration={6000} onClose={onClose} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert onClose={onClose} severity={message.severity} variant="filled" sx={{ width: '100%' }}>
        {message.text}
      </Alert>
    </Snackbar>
  );
}
