import type { ErrorCode } from '../../shared/api-error.js';
import { STAFF_ACCOUNT_DISABLED_MESSAGE } from '../../shared/auth.schemas.js';

/** An error a service throws on purpose: its status, stable code and message reach the caller. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, errors?: Record<string, string[]>) =>
  new AppError(400, errors ? 'validation_failed' : 'bad_request', message, errors);
export const unauthenticated = (message = 'Please sign in.') => new AppError(401, 'unauthenticated', message);
/** A session of a staff account disabled since: ended, and the person told why (D84). */
export const accountDisabled = (status: 401 | 403 = 401) => new AppError(status, 'account_disabled', STAFF_ACCOUNT_DISABLED_MESSAGE);
export const forbidden = (message = 'You may not do that.') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);
export const conflict = (message: string, errors?: Record<string, string[]>) => new AppError(409, 'conflict', message, errors);

/** 429 with Retry-After in whole seconds (at least 1). */
export function tooManyRequests(message: string, retryAfterMs: number, code: ErrorCode = 'too_many_requests') {
  return new AppError(429, code, message, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
  });
}

/** Field errors in the `errors` shape from a field name and its messages. */
export function fieldError(field: string, ...messages: string[]): AppError {
  return badRequest(messages[0] ?? 'Invalid value.', { [field]: messages });
}
