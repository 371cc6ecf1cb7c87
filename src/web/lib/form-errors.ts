import type { $ZodError } from 'zod/v4/core';

/** Field name → the message to show under that field. */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * The first message of each field of a failed shared-schema parse, for the form's helper texts
 * (what `z.flattenError` gives, read from the issues so it serves classic and `zod/mini` schemas).
 */
export function fieldErrorsOf(error: Pick<$ZodError, 'issues'>): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of error.issues) {
    const [key] = issue.path;
    if (key === undefined || typeof key === 'symbol') continue;
    const field = String(key);
    if (result[field] === undefined) result[field] = issue.message;
  }
  return result;
}

/** The first message of a failed parse, for screens that show one alert (docs/requirements.md R3, staff sign-in). */
export function firstIssueMessage(error: Pick<$ZodError, 'issues'>): string {
  return error.issues[0]?.message ?? 'Check the form and try again.';
}

/** The first of the server's messages for each field of an error body's `errors`, for the helper texts. */
export function firstFieldMessages(errors: Record<string, string[]> | undefined): FieldErrors {
  const result: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors ?? {})) if (messages[0] !== undefined) result[field] = messages[0];
  return result;
}

/**
 * A text field's props for its message: the field's message under it, read out when it appears
 * (`role="alert"`), or its hint (a space keeps the line's height, so the form does not jump).
 */
export function fieldHelper(errors: FieldErrors, field: string, hint = ' ') {
  const message = errors[field];
  return {
    error: message !== undefined,
    helperText: message ?? hint,
    slotProps: message !== undefined ? { formHelperText: { role: 'alert' } } : {},
  };
}
