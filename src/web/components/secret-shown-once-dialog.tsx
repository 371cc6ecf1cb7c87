import type { ReactNode } from 'react';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useSnackbar } from './snackbar-provider.js';

interface SecretShownOnceDialogProps {
  /** The secret; the dialog is open while it is set. */
  secret: string | null;
  title: ReactNode;
  /** What to do with it, and that it is not shown again. */
  text: ReactNode;
  /** The field's name and label, e.g. `device_key` and "Device key". */
  name: string;
  label: string;
  /** The secret's word in the buttons and messages, e.g. "key" or "password". */
  noun: string;
  onClose: () => void;
}

/**
 * A secret the server gives out once (a scanner's key, a one-time password): shown read-only in a
 * monospace field that selects itself, with Copy and Done. Nothing keeps it after Done.
 */
export function SecretShownOnceDialog({ secret, title, text, name, label, noun, onClose }: SecretShownOnceDialogProps) {
  const showSnackbar = useSnackbar();
  const titleId = `${name}-title`;
  const copy = () => {
    void navigator.clipboard?.writeText(secret ?? '').then(
      () => showSnackbar(`${noun[0]!.toUpperCase()}${noun.slice(1)} copied.`),
      () => showSnackbar(`Copy the ${noun} by hand.`, 'info'),
    );
  };
  return (
    <Dialog open={secret !== null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{text}</DialogContentText>
        <TextField
          name={name}
          label={label}
          value={secret ?? ''}
          slotProps={{ htmlInput: { readOnly: true, style: { fontFamily: 'monospace' } } }}
          onFocus={(event) => event.target.select()}
        />
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon aria-hidden />} onClick={copy}>
          Copy {noun}
        </Button>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
