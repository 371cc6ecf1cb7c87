import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody, ErrorCode } from '../../shared/api-error.js';
import { classifyDatabaseError, type DatabaseFailure } from '../db/database-errors.js';
import { AppError } from './errors.js';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'registration_closed',
  429: 'too_many_requests',
};

/** Turns a zod validation failure into `errors`: field path → all its messages. */
function toFieldErrors(error: FastifyError): Record<string, string[]> {
  // No prototype: a field named 'constructor' or 'toString' must not find Object.prototype's.
  const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const issue of error.validation ?? []) {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
    (errors[field] ??= []).push(issue.message ?? 'Invalid value.');
  }
  return errors;
}

function friendlyClientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted here.';
    default:
      return error.message;
  }
}

/**
 * busboy (under @fastify/multipart) throws plain Errors, without a status, for a malformed
 * multipart body: a missing boundary, a truncated body, a bad part header. They are the
 * client's fault (400), not ours.
 */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Unexpected end of multipart data|Malformed part header|Unsupported Content-Type\.|Missing Content-Type-header\.|.* terminated early due to unexpected end of multipart data)$/;

/**
 * Errors Fastify's router answers before any hook or handler runs (a malformed percent-encoding
 * in the path, a path parameter over maxParamLength): without this they leave in Fastify's own
 * `{ error, code, statusCode }` shape.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply
    .status(tooLong ? 414 : 400)
    .type('application/json; charset=utf-8')
    .send({ message: tooLong ? 'The address is too long.' : 'The address is not valid.', code: 'bad_request' } satisfies ApiErrorBody);
}

/**
 * What the caller is told when the database fails (D36): the cause in words a clerk can act on,
 * and when to try again; the engine's own error goes to the log only.
 */
const DATABASE_FAILURES: Record<DatabaseFailure, { status: number; code: ErrorCode; message: string; retryAfterS?: number }> = {
  unreachable: {
    status: 503,
    code: 'service_unavailable',
    message: 'The portal cannot reach its database right now. Please try again in a few minutes.',
    retryAfterS: 30,
  },
  busy: { status: 503, code: 'service_unavailable', message: 'The database is busy. Please try again in a moment.', retryAfterS: 5 },
  disk_full: {
    status: 507,
    code: 'insufficient_storage',
    message: 'The server’s disk is full, so nothing can be saved. Please tell the school office.',
  },
  duplicate: {
    status: 409,
    code: 'conflict',
    message: 'The same change was being made at the same moment (in another window, or by someone else), so nothing was saved. Reload the page to see where it stands, then try again.',
  },
};

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (Fastify's `clientErrorHandler`):
 * a request or its headers not received within the server's timeouts (server-timeouts.ts), headers
 * too large, a request that is not HTTP. Answered in the portal's error shape; the socket is closed.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body]: [number, ApiErrorBody] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, { message: 'The request took too long to arrive. Please try again.', code: 'request_timeout' }]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, { message: 'The request headers are too large.', code: 'bad_request' }]
        : [400, { message: 'The request is not valid HTTP.', code: 'bad_request' }];
  this.log.info({ status, reason: error.code }, body.message);
  if (socket.writable) {
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}

/**
 * The one error handler (docs/architecture.md "Request path"): every failure leaves as
 * `{ message, code, errors? }`; 5xx text is logged with the request id and never shown (no stack
 * traces or SQL to callers).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status: number;
    let body: ApiErrorBody;
    const failure = classifyDatabaseError(error);
    if (error instanceof AppError) {
      status = error.statusCode;
      body = { message: error.message, code: error.code, ...(error.errors ? { errors: error.errors } : {}) };
      if (error.headers) void reply.headers(error.headers);
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = toFieldErrors(error);
      const first = Object.values(errors)[0]?.[0];
      status = 400;
      body = { message: first ?? 'Some fields need attention.', code: 'validation_failed', errors };
    } else if (typeof error.statusCode !== 'number' && MALFORMED_MULTIPART.test(error.message)) {
      status = 400;
      body = { message: 'The upload is not a valid multipart/form-data body.', code: 'bad_request' };
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      body = { message: friendlyClientMessage(error), code: CODE_BY_STATUS[status] ?? 'bad_request' };
    } else if (failure) {
      const answer = DATABASE_FAILURES[failure];
      status = answer.status;
      body = { message: answer.message, code: answer.code };
      if (answer.retryAfterS) void reply.header('retry-after', String(answer.retryAfterS));
    } else {
      status = 500;
      body = { message: 'Something went wrong on our side. Please try again.', code: 'internal' };
    }
    // The engine's own error (SQLITE_FULL, ECONNREFUSED, 57014 …) is what the log keeps.
    if (status >= 500) request.log.error({ err: error, ...(failure ? { database: failure } : {}) }, failure ? `database ${failure}` : 'request failed');
    // A race past a service's own check is worth a look: which index, which route.
    else if (failure === 'duplicate') request.log.warn({ err: error, database: failure }, 'database duplicate');
    else request.log.info({ status, code: body.code }, body.message);
    return reply.status(status).type('application/json; charset=utf-8').send(body);
  });
}
