import { useDeferredValue } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  AdminLoginInput,
  ChangePasswordInput,
  FindStudentIdInput,
  FirstLoginInput,
  SessionAnswer,
  SessionUser,
  StudentLoginInput,
} from '../../shared/auth.schemas.js';
import { apiRequest, forgetEarlyAnswers, NO_CONTENT } from '../lib/api-client.js';
import { SessionAnswerParser } from './session-answer.js';

/**
 * The sign-in calls of SPEC §7: one fetcher and one hook per call. Every page loads this module
 * at start, so the shared zod schemas come in with `loadAuthSchemas()` when a call or a form
 * first needs them, not with the page (docs/performance.md, web).
 */

/** The shared sign-in schemas (zod); the browser loads the file once and keeps it. */
export function loadAuthSchemas() {
  return import('../../shared/auth.schemas.js');
}

/** Starts loading the schemas ahead of a submit; a failure shows when the submit needs them. */
export function preloadAuthSchemas(): void {
  loadAuthSchemas().catch(() => undefined);
}

/** Queries marked background never raise the full-page loading overlay. */
export const BACKGROUND_QUERY = { background: true } as const;

// ---- GET /api/session ------------------------------------------------------------------------

export const sessionQueryKey = ['session'] as const;

/** The signed-in user, or `{ user: null }` for a visitor. */
export function getSession(signal?: AbortSignal): Promise<SessionAnswer> {
  return apiRequest('/api/session', { schema: SessionAnswerParser, ...(signal ? { signal } : {}) });
}

export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: ({ signal }) => getSession(signal),
  staleTime: 60_000,
  meta: BACKGROUND_QUERY,
});

/** The session every guard and page reads; the server is the only source of truth. */
export function useSession() {
  return useQuery(sessionQuery);
}

/**
 * The session as the route guards read it: `pending` until the first answer, then the user (or
 * null). The answer arrives through the query cache, whose updates React renders synchronously;
 * deferring it lets the screen it unlocks render as a transition, in slices that keep the page
 * responsive, instead of one long task (Lighthouse's Total Blocking Time; docs/performance.md).
 */
export function useDeferredSession(): { pending: boolean; user: SessionUser | null } {
  const session = useSession();
  const pending = useDeferredValue(session.isPending);
  const user = useDeferredValue(session.data?.user ?? null);
  return { pending, user };
}

/** Fetches the session again now and resolves once the cache holds the answer. */
export function refreshSession(queryClient: QueryClient): Promise<SessionAnswer> {
  return queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 });
}

/** Forgets everything about the signed-in user on this device (SPEC §4: even if sign-out fails). */
export function forgetSession(queryClient: QueryClient): void {
  void queryClient.cancelQueries();
  // The session query stays (its observers are the guards); everything else goes.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
  queryClient.setQueryData<SessionAnswer>(sessionQueryKey, { user: null });
  forgetEarlyAnswers();
  window.sessionStorage.clear();
}

/** A student who must choose a new password before anything else (SPEC §4; admins are exempt). */
export function needsPasswordChange(user: SessionUser | null | undefined): boolean {
  return user?.role === 'student' && (user.first_login === 1 || user.password_reset === 1);
}

/** Where a signed-in user belongs: admins on their dashboard, students on theirs (SPEC §2). */
export function homePathFor(user: SessionUser): string {
  return user.role === 'admin' ? '/admin/dashboard' : '/dashboard';
}

// ---- GET /api/user/{student_id} --------------------------------------------------------------

/** Whether the account is new or reset, which changes what the password field expects (SPEC §2). */
export async function getUserStatus(studentId: string, signal?: AbortSignal) {
  const { UserStatusSchema } = await loadAuthSchemas();
  return apiRequest(`/api/user/${encodeURIComponent(studentId)}`, {
    schema: UserStatusSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The status of a well-formed student ID; no call (an empty list) for one that is not. */
async function getStatusOfTypedId(typed: string, signal: AbortSignal) {
  const { StudentIdSchema } = await loadAuthSchemas();
  const parsed = StudentIdSchema.safeParse(typed);
  return parsed.success ? getUserStatus(parsed.data, signal) : [];
}

/** The status of a typed student ID; idle while the field is empty. */
export function useUserStatus(studentId: string) {
  // The shared rule trims too; the key stays the same whatever spaces surround the ID.
  const id = studentId.trim();
  return useQuery({
    queryKey: ['user-status', id],
    queryFn: ({ signal }) => getStatusOfTypedId(id, signal),
    enabled: id !== '',
    staleTime: 60_000,
    retry: false,
    meta: BACKGROUND_QUERY,
  });
}

// ---- sign-in and password calls -------------------------------------------------------------

/** POST /api/login-student, after a fresh CSRF cookie. */
export async function loginStudent(input: StudentLoginInput) {
  const { LoginAnswerSchema } = await loadAuthSchemas();
  return apiRequest('/api/login-student', {
    method: 'POST',
    body: input,
    schema: LoginAnswerSchema,
    freshCsrf: true,
  });
}

/** POST /api/first-login with the birth certificate pin or SEA number and yyyymmdd birth date. */
export async function firstLogin(input: FirstLoginInput) {
  const { LoginAnswerSchema } = await loadAuthSchemas();
  return apiRequest('/api/first-login', { method: 'POST', body: input, schema: LoginAnswerSchema, freshCsrf: true });
}

/** POST /api/admin-login. */
export async function adminLogin(input: AdminLoginInput) {
  const { AdminLoginAnswerSchema } = await loadAuthSchemas();
  return apiRequest('/api/admin-login', { method: 'POST', body: input, schema: AdminLoginAnswerSchema, freshCsrf: true });
}

/** POST /api/change-password-student: the forced change (`reset_password`) or the own one. */
export async function changePasswordStudent(input: ChangePasswordInput) {
  const { ChangePasswordAnswerSchema } = await loadAuthSchemas();
  return apiRequest('/api/change-password-student', {
    method: 'POST',
    body: input,
    schema: ChangePasswordAnswerSchema,
  });
}

/** POST /api/find-student-id: the one matching ID, never a list (DESIGN §6). */
export async function findStudentId(input: FindStudentIdInput) {
  const { FindStudentIdAnswerSchema } = await loadAuthSchemas();
  return apiRequest('/api/find-student-id', { method: 'POST', body: input, schema: FindStudentIdAnswerSchema });
}

/** POST /logout (204). */
export function logout() {
  return apiRequest('/logout', { method: 'POST', schema: NO_CONTENT });
}

/** Each sign-in hook resolves only after the session cache holds the new session. */
function useSignInMutation<I, A>(call: (input: I) => Promise<A>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => refreshSession(queryClient) });
}

/** Student sign-in with ID and password. */
export function useLoginStudent() {
  return useSignInMutation(loginStudent);
}

/** First sign-in with birth certificate pin or SEA number. */
export function useFirstLogin() {
  return useSignInMutation(firstLogin);
}

/** Administrator sign-in. */
export function useAdminLogin() {
  return useSignInMutation(adminLogin);
}

/** Password change; the session is refreshed so the guards see the cleared flags. */
export function useChangePasswordStudent() {
  return useSignInMutation(changePasswordStudent);
}

/** The Student ID finder. */
export function useFindStudentId() {
  return useMutation({ mutationFn: findStudentId });
}

/** Sign-out call; the logout page forgets the session whatever it answers. */
export function useLogout() {
  return useMutation({ mutationFn: logout, meta: BACKGROUND_QUERY });
}
