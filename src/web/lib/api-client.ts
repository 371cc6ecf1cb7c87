import { ApiErrorSchema, firstErrorMessage, type ApiErrorBody, type ErrorCode } from '../../shared/api-error.js';

/**
 * The one way the web client talks to the server: same origin, session cookie sent, CSRF header
 * on every state-changing call (docs/decisions.md D2, D38), error bodies turned into typed `ApiError`s
 * and answers parsed with their zod schema, never cast (docs/architecture.md "Web").
 */

const CSRF_COOKIE = 'XSRF-TOKEN';
const CSRF_HEADER = 'X-XSRF-TOKEN';
const CSRF_COOKIE_PATH = '/sanctum/csrf-cookie';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a screen says when the server (or a file of the app) cannot be reached. */
export const UNREACHABLE_MESSAGE = 'Could not reach the school portal. Check your connection and try again.';

/** What a screen says when the server (or a proxy before it) failed without an answer of ours. */
export const SERVER_TROUBLE_MESSAGE = 'The school portal had a problem and could not answer. Please try again in a moment.';

/** What a call that got no answer in its time says (the request was abandoned). */
export const NO_ANSWER_MESSAGE = 'The school portal did not answer in time. Check your connection and try again.';

/** A failed call: the server's `{ message, code, errors? }` plus the HTTP status (0 = no answer). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly errors: Record<string, string[]> | undefined;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.status = status;
    this.code = body.code;
    this.errors = body.errors;
  }

  /** What a screen shows: the first field message when present, else the message (docs/requirements.md R16). */
  get displayMessage(): string {
    return firstErrorMessage({ message: this.message, errors: this.errors });
  }
}

/** True when `error` is an `ApiError`, optionally with one of the given codes. */
export function isApiError(error: unknown, ...codes: ErrorCode[]): error is ApiError {
  return error instanceof ApiError && (codes.length === 0 || codes.includes(error.code));
}

/** The text to show for any error a call can throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.displayMessage;
  return 'Something went wrong. Please try again.';
}

/** The current value of a cookie, decoded, or null. */
export function readCookie(name: string): string | null {
  const prefix = `${name}=`;
  const entry = document.cookie.split('; ').find((part) => part.startsWith(prefix));
  return entry === undefined ? null : decodeURIComponent(entry.slice(prefix.length));
}

/** Asks the server for a fresh `XSRF-TOKEN` cookie; sign-in calls do this first (R15). */
export async function fetchCsrfCookie(): Promise<void> {
  const response = await send(CSRF_COOKIE_PATH, { method: 'GET' });
  if (!response.ok) throw await toApiError(response);
}

/** What an answer is parsed with: its shared zod schema (classic or `zod/mini`; both parse alike). */
export interface AnswerSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; a FormData (a file upload) is sent as multipart/form-data. */
  body?: unknown;
  /** Parses the answer; `z.void()` for a 204. */
  schema: AnswerSchema<T>;
  /** Fetch a fresh CSRF cookie first, as every sign-in call does (R15). */
  freshCsrf?: boolean;
  signal?: AbortSignal;
  /**
   * Give up after this long without an answer: the request is aborted and an `ApiError` with
   * status 0 and code `request_timeout` is thrown, as for a connection that dropped (D73).
   */
  timeoutMs?: number;
}

/** Calls the API and returns the answer parsed with `schema`; throws `ApiError` on any failure. */
export async function apiRequest<T>(path: string, options: RequestOptions<T>): Promise<T> {
  if (options.timeoutMs === undefined) return request(path, options);
  const controller = new AbortController();
  const outer = options.signal;
  const passOn = () => controller.abort();
  outer?.addEventListener('abort', passOn);
  let timer = 0;
  // Raced rather than left to the abort: the answer is given up on even if fetch ignores it.
  const timedOut = new Promise<never>((_, reject) => {
    timer = window.setTimeout(() => {
      controller.abort();
      reject(new ApiError(0, { code: 'request_timeout', message: NO_ANSWER_MESSAGE }));
    }, options.timeoutMs);
  });
  try {
    return await Promise.race([request(path, { ...options, signal: controller.signal }), timedOut]);
  } finally {
    window.clearTimeout(timer);
    outer?.removeEventListener('abort', passOn);
  }
}

async function request<T>(path: string, options: RequestOptions<T>): Promise<T> {
  const method = options.method ?? 'GET';
  const unsafe = UNSAFE_METHODS.has(method);
  if (unsafe && (options.freshCsrf || readCookie(CSRF_COOKIE) === null)) await fetchCsrfCookie();

  let response = await sendBody(path, method, options.body, options.signal);
  // A token rotated by the server (for example at sign-in) is refused once; the call had no
  // effect, so fetching a fresh cookie and sending it again is safe.
  if (unsafe && response.status === 403) {
    const error = await toApiError(response.clone());
    if (error.code === 'csrf_failed') {
      await fetchCsrfCookie();
      response = await sendBody(path, method, options.body, options.signal);
    }
  }
  if (!response.ok) throw await toApiError(response);
  return parseAnswer(response, options.schema);
}

function sendBody(path: string, method: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const multipart = body instanceof FormData;
  // A FormData's Content-Type (with its boundary) is the browser's to write.
  if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (UNSAFE_METHODS.has(method)) {
    const token = readCookie(CSRF_COOKIE);
    if (token !== null) headers[CSRF_HEADER] = token;
  }
  return send(path, {
    method,
    headers,
    body: body === undefined ? null : multipart ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** How a call reaches the server: see `setApiTransport`. */
export type ApiTransport = (path: string, init: RequestInit) => Promise<Response>;

let transport: ApiTransport = (path, init) => fetch(path, { ...init, credentials: 'include' });

/**
 * How calls reach the server: in the browser, fetch with the session cookie; while the server
 * renders a page, the page's own reads (entry-server.tsx), so a route's loader asks for its data
 * the same way on both sides.
 */
export function setApiTransport(next: ApiTransport): void {
  transport = next;
}

/** The transport's answer; a network failure becomes the `ApiError` UNREACHABLE_MESSAGE. */
export async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await transport(path, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, { code: 'internal', message: UNREACHABLE_MESSAGE });
  }
}

async function parseAnswer<T>(response: Response, schema: AnswerSchema<T>): Promise<T> {
  const text = await response.text();
  let json: unknown = undefined;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw unexpectedAnswer(response.status);
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw unexpectedAnswer(response.status);
  return parsed.data;
}

/** The `ApiError` of a failed answer (the server's message, or words for a proxy's page). */
export async function toApiError(response: Response): Promise<ApiError> {
  let json: unknown = undefined;
  try {
    json = await response.json();
  } catch {
    // Not JSON (a proxy's error page, say): fall through to the status text.
  }
  // A proxy's or gateway's page says 'Internal Server Error' or 'Bad Gateway': not words for a parent.
  const fallback = response.status >= 500 ? SERVER_TROUBLE_MESSAGE : response.statusText || `The request failed (HTTP ${response.status}).`;
  return errorFromBody(response.status, json, fallback);
}

/**
 * The `ApiError` of a failed answer: the server's `{ message, code, errors? }` when the body is
 * one (checked with its shared schema), else `fallbackMessage` (a proxy's page, an empty body).
 */
export function errorFromBody(status: number, json: unknown, fallbackMessage: string): ApiError {
  const parsed = ApiErrorSchema.safeParse(json);
  if (parsed.success) return new ApiError(status, parsed.data);
  const code: ErrorCode = status === 413 ? 'payload_too_large' : status >= 500 || status === 0 ? 'internal' : 'bad_request';
  return new ApiError(status, { code, message: fallbackMessage });
}

function unexpectedAnswer(status: number): ApiError {
  return new ApiError(status, { code: 'internal', message: 'The server sent an answer this page did not expect.' });
}

/** Why a call did not reach the portal or get its answer, or null when the portal answered it. */
export type ConnectionTrouble = 'offline' | 'unreachable' | 'no-answer' | 'server';

/**
 * The connection trouble behind a failed call: no network, no answer in time, or a server or
 * gateway failure (5xx, 429) that may pass; null for an answer about the request itself (a 4xx),
 * which sending it again will not change (D73).
 */
export function connectionTroubleOf(error: unknown, online: boolean): ConnectionTrouble | null {
  if (!(error instanceof ApiError)) return error instanceof DOMException && error.name === 'AbortError' ? 'no-answer' : null;
  if (error.status === 0) return error.code === 'request_timeout' ? 'no-answer' : online ? 'unreachable' : 'offline';
  if (error.status >= 500 || error.status === 429 || error.status === 408) return 'server';
  return null;
}

/** A spreadsheet or document upload's body: the file under the field name `file`. */
export function fileForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}
