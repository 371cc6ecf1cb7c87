import FormHelperText from '@mui/material/FormHelperText';

/**
 * A yes/no or switch's message: a refusal is an alert in the error colour; a value waiting for
 * the connection is a plain status line, as on the text fields (D73).
 */
export function FieldMessage({ id, message, waiting }: { id: string; message: string; waiting: boolean }) {
  return waiting ? (
    <FormHelperText id={id} role="status" data-waiting="true">
      {message}
    </FormHelperText>
  ) : (
    <FormHelperText id={id} error role="alert">
      {message}
    </FormHelperText>
  );
}
