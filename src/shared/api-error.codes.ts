/**
 * The zod-free half of the error body (api-error.ts holds its schema): the code union and the
 * message rule, so the web client's first load can name and show errors without loading zod.
 */

/** Stable error codes the server answers with (DESIGN §5). */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'unauthenticated',
  'forbidden',
  'csrf_failed',
  'password_change_required',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'registration_closed',
  'too_many_requests',
  'account_locked',
  'invalid_credentials',
  'service_unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The message a screen shows: the first field error when present, else the message (SPEC §8). */
export function firstErrorMessage(body: { message: string; errors?: Record<string, string[]> | undefined }): string {
  const first = body.errors ? Object.values(body.errors).find((messages) => messages.length > 0) : undefined;
  return first?.[0] ?? body.message;
}
