import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { AlertColor } from '@mui/material/Alert';

// Loaded with the first message: no page needs the snackbar's code before it shows something.
const SnackbarMessage = lazy(async () => ({ default: (await import('./snackbar-message.js')).SnackbarMessage }));

/** A button in the message, e.g. "Undo"; choosing it closes the message. */
export interface SnackbarAction {
  label: string;
  onClick: () => void;
}

interface SnackbarMessage {
  key: number;
  text: string;
  severity: AlertColor;
  action?: SnackbarAction;
}

type ShowSnackbar = (text: string, severity?: AlertColor, action?: SnackbarAction) => void;

const SnackbarContext = createContext<ShowSnackbar | null>(null);

/** Holds the one snackbar of the app, so a message survives the navigation that follows it. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<SnackbarMessage | null>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback<ShowSnackbar>((text, severity = 'success', action) => {
    setMessage({ key: Date.now(), text, severity, action });
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
          <SnackbarMessage
            key={message.key}
            text={message.text}
            severity={message.severity}
            action={message.action}
            open={open}
            onClose={close}
          />
        </Suspense>
      )}
    </SnackbarContext.Provider>
  );
}

/** `show(text, severity?, action?)`: puts a message in the app's snackbar (e.g. 'Password Changed Successfully.'), with an optional button such as Undo. */
export function useSnackbar(): ShowSnackbar {
  const show = useContext(SnackbarContext);
  if (show === null) throw new Error('useSnackbar needs a SnackbarProvider above it.');
  return show;
}
