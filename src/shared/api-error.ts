import { z } from 'zod/mini';

/**
 * The one error body every failing call answers, `{ message, code, errors? }` (docs/requirements.md R15). Its
 * schema is `zod/mini`, like the sign-in schemas: the web client parses every failure with it, so
 * it is on the login page's load (docs/performance.md, web).
 */

/** Stable error codes the server answers with (R15). */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'unauthenticated',
  'forbidden',
  'csrf_failed',
  'password_change_required',
  'second_factor_setup_required',
  'not_found',
  'conflict',
  'request_timeout',
  'payload_too_large',
  'unsupported_media_type',
  'registration_closed',
  /** An edit of a former student's record (D60): kept read-only. */
  'former_student',
  'too_many_requests',
  'account_throttled',
  'invalid_credentials',
  /** A disabled staff account: said only after its right password, or to its ended session (D84). */
  'account_disabled',
  /** A mailed link (verify, reset, invitation) that expired, was used or never existed. */
  'link_invalid',
  'service_unavailable',
  'insufficient_storage',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The message a screen shows: the first field error when present, else the message (R16). */
export function firstErrorMessage(body: { message: string; errors?: Record<string, string[]> | undefined }): string {
  const first = body.errors ? Object.values(body.errors).find((messages) => messages.length > 0) : undefined;
  return first?.[0] ?? body.message;
}

/** The error body: what the server sends and what the web client parses every failure with. */
export const ApiErrorSchema = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES),
  /** Field name → every message for that field. */
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;
