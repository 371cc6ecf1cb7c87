import Alert from '@mui/material/Alert';

/** The red alert above a sign-in form (docs/requirements.md R3); renders nothing without a message. */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mb: 1, mt: 1 }}>
      {message}
    </Alert>
  );
}
