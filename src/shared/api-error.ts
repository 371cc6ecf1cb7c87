import { z } from 'zod';

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
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error body every failing call answers: `{ message, code, errors? }`. */
export const ApiErrorSchema = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES),
  /** Field name → every message for that field. */
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;

/** The message a screen shows: the first field error when present, else the message (SPEC §8). */
export function firstErrorMessage(body: ApiErrorBody): string {
  const first = body.errors ? Object.values(body.errors).find((messages) => messages.length > 0) : undefined;
  return first?.[0] ?? body.message;
}
