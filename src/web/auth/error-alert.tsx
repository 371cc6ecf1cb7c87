import { lazy, Suspense } from 'react';

// MUI's Alert is fetched with the first error, not with the sign-in page (docs/performance.md, web).
const Alert = lazy(() => import('@mui/material/Alert'));

/** The red alert above a sign-in form (SPEC §2); renders nothing without a message. */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Suspense fallback={null}>
      <Alert severity="error" role="alert" sx={{ mb: 1, mt: 1 }}>
        {message}
      </Alert>
    </Suspense>
  );
}
