import { z } from 'zod';

/** Field name → the message to show under that field. */
export type FieldErrors = Partial<Record<string, string>>;

/** The first message of each field of a failed shared-schema parse, for the form's helper texts. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const { fieldErrors } = z.flattenError(error);
  const result: FieldErrors = {};
  for (const [field, messages] of Object.entries(fieldErrors) as Array<[string, string[] | undefined]>) {
    if (messages?.[0] !== undefined) result[field] = messages[0];
  }
  return result;
}

/** The first message of a failed parse, for screens that show one alert (SPEC §2 admin login). */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Check the form and try again.';
}
