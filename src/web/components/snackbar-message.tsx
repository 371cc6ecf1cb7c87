import CloseIcon from '@mui/icons-material/Close';
import Alert, { type AlertColor } from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Snackbar from '@mui/material/Snackbar';

export interface SnackbarMessageProps {
  text: string;
  severity: AlertColor;
  action?: { label: string; onClick: () => void };
  open: boolean;
  onClose: (event?: unknown, reason?: string) => void;
}

/**
 * The app's one snackbar as shown: a filled alert at the bottom centre, gone after six seconds
 * (ten when it offers an action such as Undo, so there is time to reach it).
 */
export function SnackbarMessage({ text, severity, action, open, onClose }: SnackbarMessageProps) {
  const actions = action && (
    <>
      <Button
        color="inherit"
        size="small"
        onClick={() => {
          onClose();
          action.onClick();
        }}
      >
        {action.label}
      </Button>
      <IconButton color="inherit" size="small" aria-label="Close" onClick={() => onClose()}>
        <CloseIcon fontSize="small" />
      </IconButton>
    </>
  );
  return (
    <Snackbar open={open} autoHideDuration={action ? 10_000 : 6000} onClose={onClose} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert onClose={onClose} severity={severity} variant="filled" sx={{ width: '100%' }} action={actions}>
        {text}
      </Alert>
    </Snackbar>
  );
}
