import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  AdminLoginAnswerSchema,
  AdminSignedInSchema,
  ChangePasswordAnswerSchema,
  FindStudentIdAnswerSchema,
  LoginAnswerSchema,
  StudentIdSchema,
  StudentResetAnswerSchema,
  UserStatusSchema,
  type AdminLoginInput,
  type ChangePasswordInput,
  type FindStudentIdInput,
  type FirstLoginInput,
  type StudentForgotPasswordInput,
  type StudentLoginInput,
  type StudentResetPasswordInput,
} from '../../shared/auth.schemas.js';
import { ChangeStaffPasswordAnswerSchema, type ChangeStaffPasswordInput } from '../../shared/staff.schemas.js';
import type { SecondFactorLoginInput } from '../../shared/staff-2fa.schemas.js';
import { StaffSignInOptionsSchema } from '../../shared/staff-sign-in.js';
import { apiRequest } from '../lib/api-client.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';
import { refreshSession } from '../lib/session.js';

/**
 * The sign-in calls (docs/requirements.md R3, R15): one fetcher and one hook per call. The session itself
 * (GET /api/session) is every screen's, in lib/session.ts.
 */

// ---- GET /api/user/{student_id} --------------------------------------------------------------

/** Whether the account is new or reset, which changes what the password field expects (R3). */
export function getUserStatus(studentId: string, signal?: AbortSignal) {
  return apiRequest(`/api/user/${encodeURIComponent(studentId)}`, { schema: UserStatusSchema, signal });
}

/** The status of a typed student ID; idle while the field is empty or not a well-formed ID. */
export function useUserStatus(typed: string) {
  const parsed = StudentIdSchema.safeParse(typed);
  const id = parsed.success ? parsed.data : null;
  return useQuery({
    queryKey: ['user-status', id],
    queryFn: ({ signal }) => getUserStatus(id ?? '', signal),
    enabled: id !== null,
    staleTime: 60_000,
    retry: false,
    meta: BACKGROUND_QUERY,
  });
}

// ---- GET /api/staff-sign-in ----------------------------------------------------------------

/** How staff sign in here: the school provider's buttons (D96), and whether passwords are on. */
export const staffSignInOptionsQuery = queryOptions({
  queryKey: ['staff-sign-in'],
  queryFn: ({ signal }) => apiRequest('/api/staff-sign-in', { schema: StaffSignInOptionsSchema, signal }),
  staleTime: 5 * 60_000,
  meta: BACKGROUND_QUERY,
});

export function useStaffSignInOptions() {
  return useQuery(staffSignInOptionsQuery);
}

/** The /admin route's loader: the options in the cache before the page renders; a failure leaves the password form alone. */
export async function loadStaffSignInOptions(queryClient: QueryClient): Promise<null> {
  await queryClient.ensureQueryData(staffSignInOptionsQuery).catch(() => undefined);
  return null;
}

// ---- sign-in and password calls -------------------------------------------------------------

/** POST /api/login-student, after a fresh CSRF cookie. */
export function loginStudent(input: StudentLoginInput) {
  return apiRequest('/api/login-student', { method: 'POST', body: input, schema: LoginAnswerSchema, freshCsrf: true });
}

/** POST /api/first-login with the birth certificate pin or SEA number and the birth date (yyyy-MM-dd, or yyyymmdd). */
export function firstLogin(input: FirstLoginInput) {
  return apiRequest('/api/first-login', { method: 'POST', body: input, schema: LoginAnswerSchema, freshCsrf: true });
}

/** POST /api/admin-login. */
export function adminLogin(input: AdminLoginInput) {
  return apiRequest('/api/admin-login', { method: 'POST', body: input, schema: AdminLoginAnswerSchema, freshCsrf: true });
}

/** POST /api/admin-login/totp: the code from the app (or a recovery code) after the password. */
export function adminLoginSecondFactor(input: SecondFactorLoginInput) {
  return apiRequest('/api/admin-login/totp', { method: 'POST', body: input, schema: AdminSignedInSchema });
}

/** POST /api/change-password-student: the forced change (`reset_password`) or the own one. */
export function changePasswordStudent(input: ChangePasswordInput) {
  return apiRequest('/api/change-password-student', { method: 'POST', body: input, schema: ChangePasswordAnswerSchema });
}

/** POST /api/change-password-staff: a staff member's own change, and the forced one after a new account or a reset. */
export function changePasswordStaff(input: ChangeStaffPasswordInput) {
  return apiRequest('/api/change-password-staff', { method: 'POST', body: input, schema: ChangeStaffPasswordAnswerSchema });
}

/** POST /api/find-student-id: the one matching ID, never a list (R3). */
export function findStudentId(input: FindStudentIdInput) {
  return apiRequest('/api/find-student-id', { method: 'POST', body: input, schema: FindStudentIdAnswerSchema });
}

/** POST /api/student-password/forgot (202): the same answer whatever was found (D77). */
export function forgotStudentPassword(input: StudentForgotPasswordInput) {
  return apiRequest('/api/student-password/forgot', { method: 'POST', body: input, schema: z.object({ message: z.string() }), freshCsrf: true });
}

/** POST /api/student-password/reset {token, password}: the new password; nobody is signed in by it. */
export function resetStudentPassword(input: StudentResetPasswordInput) {
  return apiRequest('/api/student-password/reset', { method: 'POST', body: input, schema: StudentResetAnswerSchema, freshCsrf: true });
}

/** POST /logout (204). */
export function logout() {
  return apiRequest('/logout', { method: 'POST', schema: z.void() });
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

/** The second step of a staff sign-in. */
export function useAdminLoginSecondFactor() {
  return useSignInMutation(adminLoginSecondFactor);
}

/** Password change; the session is refreshed so the guards see the cleared flags. */
export function useChangePasswordStudent() {
  return useSignInMutation(changePasswordStudent);
}

/** A staff password change; the session is refreshed so the guards see the cleared flag. */
export function useChangePasswordStaff() {
  return useSignInMutation(changePasswordStaff);
}

/** The Student ID finder. */
export function useFindStudentId() {
  return useMutation({ mutationFn: findStudentId });
}

/** A student's "Forgot your password?". */
export function useForgotStudentPassword() {
  return useMutation({ mutationFn: forgotStudentPassword });
}

/** A student's reset link opened with the new password. */
export function useResetStudentPassword() {
  return useMutation({ mutationFn: resetStudentPassword });
}

/** Sign-out call; the logout page forgets the session whatever it answers. */
export function useLogout() {
  return useMutation({ mutationFn: logout, meta: BACKGROUND_QUERY });
}
