import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  FamilyChildListSchema,
  FamilyCodeAnswerSchema,
  FamilyLinkAnswerSchema,
  FamilyMessageAnswerSchema,
  FamilySignedInSchema,
  StudentFamilySchema,
  type FamilyChild,
  type FamilyForgotPasswordInput,
  type FamilyLinkInput,
  type FamilyLoginInput,
  type FamilyRegisterInput,
  type FamilyVerifyInput,
  type FamilyResetPasswordInput,
  type StudentFamily,
} from '../../shared/family.schemas.js';
import { ParentEmailListSchema, type ParentEmailFieldName } from '../../shared/notices.schemas.js';
import { ApiError, apiRequest, fetchCsrfCookie, readCookie, send, toApiError } from '../lib/api-client.js';
import { rememberChild } from '../lib/family-child.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';
import { refreshSession } from '../lib/session.js';
import { saveFile } from '../lib/save-file.js';

/**
 * The family accounts' calls: one fetcher and one hook per call. The sign-ins resolve
 * once the session cache holds the new session (as auth.api.ts's do); a change to the family's
 * children refreshes the session too, whose `child_ids` the student screens read.
 */

const studentPath = (studentId: string) => `/api/students/${encodeURIComponent(studentId)}`;

/** Each call that ends signed in resolves only after the session cache holds the new session. */
function useSignInMutation<I, A>(call: (input: I) => Promise<A>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => refreshSession(queryClient) });
}

// ---- The account: sign-in, registration, verification, password reset ---------------------------

/** POST /api/family/login, after a fresh CSRF cookie. */
export function familyLogin(input: FamilyLoginInput) {
  return apiRequest('/api/family/login', { method: 'POST', body: input, schema: FamilySignedInSchema, freshCsrf: true });
}

export function useFamilyLogin() {
  return useSignInMutation(familyLogin);
}

/** POST /api/family/register (202): the answer says to open the mailed link. */
export function familyRegister(input: FamilyRegisterInput) {
  return apiRequest('/api/family/register', { method: 'POST', body: input, schema: FamilyMessageAnswerSchema, freshCsrf: true });
}

export function useFamilyRegister() {
  return useMutation({ mutationFn: familyRegister });
}

/** POST /api/family/verify {token, password}: the account is created with the password chosen on the confirmation page, and signed in. */
export function familyVerify(input: FamilyVerifyInput) {
  return apiRequest('/api/family/verify', { method: 'POST', body: input, schema: FamilySignedInSchema, freshCsrf: true });
}

export function useFamilyVerify() {
  return useSignInMutation(familyVerify);
}

/** POST /api/family/forgot-password (202): the same answer whether the address has an account or not. */
export function familyForgotPassword(input: FamilyForgotPasswordInput) {
  return apiRequest('/api/family/forgot-password', { method: 'POST', body: input, schema: FamilyMessageAnswerSchema, freshCsrf: true });
}

export function useFamilyForgotPassword() {
  return useMutation({ mutationFn: familyForgotPassword });
}

/** POST /api/family/reset-password {token, password}: the new password, signed in. */
export function familyResetPassword(input: FamilyResetPasswordInput) {
  return apiRequest('/api/family/reset-password', { method: 'POST', body: input, schema: FamilySignedInSchema, freshCsrf: true });
}

export function useFamilyResetPassword() {
  return useSignInMutation(familyResetPassword);
}

// ---- A family's children ----------------------------------------------------------------------

export const familyChildrenKey = ['family', 'children'] as const;

/** GET /api/family/children: the signed-in parent's children, each with everyone linked to it. */
export function getFamilyChildren(signal?: AbortSignal): Promise<FamilyChild[]> {
  return apiRequest('/api/family/children', { schema: FamilyChildListSchema, ...(signal ? { signal } : {}) });
}

/** The children, for the switcher and the My children page; off for anyone but a parent. */
export function useFamilyChildren(enabled = true) {
  return useQuery({ queryKey: familyChildrenKey, queryFn: ({ signal }) => getFamilyChildren(signal), enabled, staleTime: 30_000, meta: BACKGROUND_QUERY });
}

/** A child was linked or removed: the list and the session's `child_ids` follow. */
function useChildrenChanged() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([refreshSession(queryClient), queryClient.invalidateQueries({ queryKey: familyChildrenKey })]);
  };
}

/** POST /api/family/link {code, date_of_birth}: the child the code names; the screens switch to it. */
export function linkChild(input: FamilyLinkInput) {
  return apiRequest('/api/family/link', { method: 'POST', body: input, schema: FamilyLinkAnswerSchema });
}

export function useLinkChild() {
  const changed = useChildrenChanged();
  return useMutation({
    mutationFn: linkChild,
    onSuccess: async (answer) => {
      rememberChild(answer.child.student_id);
      await changed();
    },
  });
}

/** POST /api/family/accept {token}: the invitation's child is linked to the signed-in parent. */
export function acceptInvitation(token: string) {
  return apiRequest('/api/family/accept', { method: 'POST', body: { token }, schema: FamilyLinkAnswerSchema });
}

export function useAcceptInvitation() {
  const changed = useChildrenChanged();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: async (answer) => {
      rememberChild(answer.child.student_id);
      await changed();
    },
  });
}

/** DELETE /api/family/children/{student_id} (204): the child leaves this account; the child's own sign-in stays. */
export function removeChild(studentId: string) {
  return apiRequest(`/api/family/children/${encodeURIComponent(studentId)}`, { method: 'DELETE', schema: z.void() });
}

export function useRemoveChild() {
  const changed = useChildrenChanged();
  return useMutation({ mutationFn: removeChild, onSuccess: changed });
}

// ---- The office's side of a student's family ------------------------------------------------------

export const studentFamilyKey = (studentId: string) => ['family', 'student', studentId] as const;

/** GET /api/students/{id}/family: who is linked, the invitations still open, a waiting code. */
export function getStudentFamily(studentId: string, signal?: AbortSignal): Promise<StudentFamily> {
  return apiRequest(`${studentPath(studentId)}/family`, { schema: StudentFamilySchema, ...(signal ? { signal } : {}) });
}

export function useStudentFamily(studentId: string | null) {
  return useQuery({
    queryKey: studentFamilyKey(studentId ?? ''),
    queryFn: ({ signal }) => getStudentFamily(studentId ?? '', signal),
    enabled: studentId !== null,
    staleTime: 0,
    meta: BACKGROUND_QUERY,
  });
}

/** The answer of a change is the student's family as it now is: the dialog shows it at once. */
function useStudentFamilyChanged(studentId: string) {
  const queryClient = useQueryClient();
  return (family: StudentFamily) => queryClient.setQueryData(studentFamilyKey(studentId), family);
}

/** POST /api/students/{id}/family {email}: links an existing family account. */
export function officeLinkFamily(studentId: string, email: string) {
  return apiRequest(`${studentPath(studentId)}/family`, { method: 'POST', body: { email }, schema: StudentFamilySchema });
}

export function useOfficeLinkFamily(studentId: string) {
  const changed = useStudentFamilyChanged(studentId);
  return useMutation({ mutationFn: (email: string) => officeLinkFamily(studentId, email), meta: BACKGROUND_QUERY, onSuccess: changed });
}

/** DELETE /api/students/{id}/family/{user_id}: removes one family account's link. */
export function officeUnlinkFamily(studentId: string, userId: number) {
  return apiRequest(`${studentPath(studentId)}/family/${userId}`, { method: 'DELETE', schema: StudentFamilySchema });
}

export function useOfficeUnlinkFamily(studentId: string) {
  const changed = useStudentFamilyChanged(studentId);
  return useMutation({ mutationFn: (userId: number) => officeUnlinkFamily(studentId, userId), meta: BACKGROUND_QUERY, onSuccess: changed });
}

/** POST /api/students/{id}/family-code: a new code, shown once (the previous one stops working). */
export function issueFamilyCode(studentId: string) {
  return apiRequest(`${studentPath(studentId)}/family-code`, { method: 'POST', schema: FamilyCodeAnswerSchema });
}

export function useIssueFamilyCode(studentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => issueFamilyCode(studentId),
    meta: BACKGROUND_QUERY,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studentFamilyKey(studentId) }),
  });
}

/** POST /api/students/{id}/family-invitations {email} (202): mails a parent an invitation. */
export function inviteFamily(studentId: string, email: string) {
  return apiRequest(`${studentPath(studentId)}/family-invitations`, { method: 'POST', body: { email }, schema: FamilyMessageAnswerSchema });
}

export function useInviteFamily(studentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => inviteFamily(studentId, email),
    meta: BACKGROUND_QUERY,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studentFamilyKey(studentId) }),
  });
}

// ---- The parent e-mails of a student's registration record -------------------------------------

/** The record's parent e-mail fields (registration.fields.ts: the family step's contacts). */
export const PARENT_EMAIL_FIELDS = [
  ['email_mother', 'Mother'],
  ['email_father', 'Father'],
  ['email_guardian', 'Guardian'],
] as const;

const ParentEmailsSchema = z.array(z.object({ email_mother: z.nullish(z.string()), email_father: z.nullish(z.string()), email_guardian: z.nullish(z.string()) }));

/** One parent's e-mail on the record, for the invitation's choices. */
export interface ParentEmail {
  /** 'Mother', 'Father', 'Guardian'. */
  who: string;
  email: string;
}

/** GET /api/student-record/{id}, read for its parent e-mails only: the addresses an invitation offers. */
export async function getParentEmails(studentId: string, signal?: AbortSignal): Promise<ParentEmail[]> {
  const [record] = await apiRequest(`/api/student-record/${encodeURIComponent(studentId)}`, { schema: ParentEmailsSchema, ...(signal ? { signal } : {}) });
  return parentEmailsOf(record ?? {});
}

/** The record's distinct, non-empty parent e-mails, mother first. */
export function parentEmailsOf(record: Partial<Record<(typeof PARENT_EMAIL_FIELDS)[number][0], string | null | undefined>>): ParentEmail[] {
  const seen = new Set<string>();
  const emails: ParentEmail[] = [];
  for (const [field, who] of PARENT_EMAIL_FIELDS) {
    const email = record[field]?.trim().toLowerCase() ?? '';
    if (email === '' || seen.has(email)) continue;
    seen.add(email);
    emails.push({ who, email });
  }
  return emails;
}

export function useParentEmails(studentId: string | null) {
  return useQuery({
    queryKey: ['family', 'parent-emails', studentId],
    queryFn: ({ signal }) => getParentEmails(studentId ?? '', signal),
    enabled: studentId !== null,
    staleTime: 0,
    meta: BACKGROUND_QUERY,
  });
}

// ---- POST /api/family-letters/{classId}: a class's letters as one PDF ---------------------------

/**
 * New family codes for a whole class as one PDF of letters, saved as 'Family Codes {class}.pdf'.
 * A POST (it issues codes), so it is fetched with the CSRF header and saved from a blob.
 */
export async function downloadClassLetters(classId: string): Promise<void> {
  const path = `/api/family-letters/${encodeURIComponent(classId)}`;
  const post = () => send(path, { method: 'POST', headers: { Accept: 'application/pdf', 'X-XSRF-TOKEN': readCookie('XSRF-TOKEN') ?? '' } });
  if (readCookie('XSRF-TOKEN') === null) await fetchCsrfCookie();
  let response = await post();
  if (response.status === 403 && (await toApiError(response.clone())).code === 'csrf_failed') {
    await fetchCsrfCookie();
    response = await post();
  }
  if (!response.ok) throw await toApiError(response);
  const blob = await response.blob();
  if (blob.type !== 'application/pdf') throw new ApiError(response.status, { code: 'internal', message: 'The server sent an answer this page did not expect.' });
  saveFile([blob], `Family Codes ${classId}.pdf`, blob.type);
}

export function useDownloadClassLetters() {
  return useMutation({ mutationFn: downloadClassLetters, meta: BACKGROUND_QUERY });
}

// ---- The record's parent e-mails the office verified (where notices go without an account) ----

const verifiedEmailsKey = (studentId: string) => ['parent-emails-verified', studentId] as const;

export function useVerifiedParentEmails(studentId: string) {
  return useQuery({
    queryKey: verifiedEmailsKey(studentId),
    queryFn: ({ signal }) => apiRequest(`/api/students/${encodeURIComponent(studentId)}/parent-emails`, { schema: ParentEmailListSchema, signal }),
  });
}

export function useVerifyParentEmail(studentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { parent: ParentEmailFieldName; email: string; verified: boolean }) =>
      apiRequest(`/api/students/${encodeURIComponent(studentId)}/parent-emails/${input.parent}`, { method: 'PUT', body: { email: input.email, verified: input.verified }, schema: ParentEmailListSchema }),
    onSuccess: (saved) => queryClient.setQueryData(verifiedEmailsKey(studentId), saved),
  });
}
