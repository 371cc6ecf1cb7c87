import { z } from 'zod';
import { ERROR_CODES } from './api-error.codes.js';

export { ERROR_CODES, firstErrorMessage, type ErrorCode } from './api-error.codes.js';

/** The one error body every failing call answers: `{ message, code, errors? }`. */
export const ApiErrorSchema = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES),
  /** Field name → every message for that field. */
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;
