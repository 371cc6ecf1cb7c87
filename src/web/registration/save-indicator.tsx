import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Where one field's save is (SPEC §4 "Field save indicator: saving, then success or error"). */
export type SaveState = 'idle' | 'saving' | 'saved' | 'error';

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
      {state === 'error' && <ErrorOutlineIcon fontSize="small" color="error" titleAccess={`${fieldLabel} not saved`} />}
    </Box>
  );
}
