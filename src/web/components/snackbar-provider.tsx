import { createContext, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { AlertColor } from '@mui/material/Alert';
import { lazyNamed } from '../lib/lazy-named.js';
import type { SnackbarMessage } from './app-snackbar.js';

// Fetched with the first message, so MUI's Snackbar is not part of any page's first load.
const AppSnackbar = lazyNamed(() => import('./app-snackbar.js'), 'AppSnackbar');

type ShowSnackbar = (text: string, severity?: AlertColor) => void;

const SnackbarContext = createContext<ShowSnackbar | null>(null);

/** Holds the one snackbar of the app, so a message survives the navigation that follows it. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<SnackbarMessage | null>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback<ShowSnackbar>((text, severity = 'success') => {
    setMessage({ key: Date.now(), text, severity });
    setOpen(true);
  }, []);
  const close = useCallback((_event?: unknown, reason?: string) => {
    if (reason !== 'clickaway') setOpen(false);
  }, []);
  const value = useMemo(() => show, [show]);

  return (
    <SnackbarContext.Provider value={value}>
      {children}
      {message !== null && (
        <Suspense fallback={null}>
          <AppSnackbar message={message} open={open} onClose={close} />
        </Suspense>
      )}
    </SnackbarContext.Provider>
  );
}

/** `show(text, severity?)`: puts a message in the app's snackbar (e.g. 'Password Changed Successfully.'). */
export function useSnackbar(): ShowSnackbar {
  const show = useContext(SnackbarContext);
  if (show === null) throw new Error('useSnackbar needs a SnackbarProvider above it.');
  return show;
}
