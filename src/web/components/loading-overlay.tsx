import { lazy, Suspense } from 'react';
import CircularProgress from '@mui/material/CircularProgress';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useNavigation } from 'react-router';
import { useOpenedOnce } from '../lib/lazy-named.js';
import { useDelayedFlag } from '../lib/use-delayed-flag.js';

const SHOW_AFTER_MS = 250;

// The backdrop (with its fade) is fetched and mounted the first time it shows, not with the first
// page (docs/performance.md, web); it then stays mounted so it fades out as before.
const Backdrop = lazy(() => import('@mui/material/Backdrop'));

/**
 * Covers the page while a call or a screen load is in flight (SPEC §1). Background work — the
 * session check, the student-ID status lookup, the sign-out call — is marked `meta.background`
 * and does not raise it.
 */
export function LoadingOverlay() {
  const fetching = useIsFetching({ predicate: (query) => query.meta?.['background'] !== true });
  const mutating = useIsMutating({ predicate: (mutation) => mutation.options.meta?.['background'] !== true });
  const navigation = useNavigation();
  const visible = useDelayedFlag(fetching + mutating > 0 || navigation.state !== 'idle', SHOW_AFTER_MS);
  const mounted = useOpenedOnce(visible);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Backdrop open={visible} sx={(theme) => ({ zIndex: theme.zIndex.modal + 1, color: '#fff' })}>
        {visible && <CircularProgress color="inherit" aria-label="Loading" />}
      </Backdrop>
    </Suspense>
  );
}
