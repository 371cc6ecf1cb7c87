import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useNavigation } from 'react-router';
import { useDelayedFlag } from '../lib/use-delayed-flag.js';

const SHOW_AFTER_MS = 250;

/**
 * Covers the page while a call or a screen load is in flight (docs/requirements.md R1): a route's loader and
 * code, or a call the screen does not show in place. Background work (`BACKGROUND_QUERY`: the
 * session check, the student-ID status lookup, a field's save) does not raise it.
 */
export function LoadingOverlay() {
  const fetching = useIsFetching({ predicate: (query) => query.meta?.['background'] !== true });
  const mutating = useIsMutating({ predicate: (mutation) => mutation.options.meta?.['background'] !== true });
  const navigation = useNavigation();
  const visible = useDelayedFlag(fetching + mutating > 0 || navigation.state !== 'idle', SHOW_AFTER_MS);
  return (
    <Backdrop open={visible} sx={(theme) => ({ zIndex: theme.zIndex.modal + 1, color: '#fff' })}>
      {visible && <CircularProgress color="inherit" aria-label="Loading" />}
    </Backdrop>
  );
}
