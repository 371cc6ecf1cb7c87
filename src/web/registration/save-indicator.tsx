import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloudQueueIcon from '@mui/icons-material/CloudQueue';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/**
 * Where one field's save is (saving, then saved or a problem), and
 * 'waiting': kept on the device and sent when it can be (D73), which is not an error in the answer.
 */
export type SaveState = 'idle' | 'saving' | 'saved' | 'error' | 'waiting';

/** The spinner, check or alert-circle icon beside a field; announced politely to screen readers. */
export function SaveIndicator({ state, fieldLabel }: { state: SaveState; fieldLabel: string }) {
  return (
    <Box
      component="span"
      role="status"
      aria-live="polite"
      data-save-state={state}
      sx={{ display: 'inline-flex', width: 22, height: 22, alignItems: 'center', justifyContent: 'center', flexShrink: 0 }}
    >
      {state === 'saving' && <CircularProgress size={18} aria-label={`Saving ${fieldLabel}`} />}
      {state === 'saved' && <CheckCircleIcon fontSize="small" color="success" titleAccess={`${fieldLabel} saved`} />}
      {state === 'waiting' && <CloudQueueIcon fontSize="small" color="action" titleAccess={`${fieldLabel} not saved yet`} />}
      {state === 'error' && <ErrorOutlineIcon fontSize="small" color="error" titleAccess={`${fieldLabel} not saved`} />}
    </Box>
  );
}
