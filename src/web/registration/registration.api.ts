import { queryOptions, skipToken, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { LOOKUPS, toLookupOptions, type LookupName } from '../../shared/lookups.schemas.js';
import { fieldsOfStep, type FieldValue } from '../../shared/registration.fields.js';
import type { DataStep } from '../../shared/registration.progress.js';
import { RegistrationReviewSchema } from '../../shared/review.schemas.js';
import {
  RegistrationPeriodListSchema,
  RegistrationStatusSchema,
  SaveStudentAnswerSchema,
  StudentRecordListSchema,
  type SaveRegistrationPeriodInput,
  type SaveStudentAnswer,
  type StudentRecord,
} from '../../shared/registration.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { reRegistrationKey } from './re-registration.api.js';
import type { SessionUser } from '../../shared/auth.schemas.js';
import { sessionQuery, studentShownTo } from '../lib/session.js';

/**
 * The registration calls (docs/requirements.md R15): one fetcher and one hook per call, and the loaders of the
 * registration routes (app/router.tsx), which fill the query cache with the same query options
 * before a step renders.
 */

// ---- GET /api/student-record/{id} ---------------------------------------------------------------

export const studentRecordKey = (id: string) => ['student-record', id] as const;

export function studentRecordQuery(id: string) {
  return queryOptions({
    queryKey: studentRecordKey(id),
    queryFn: async ({ signal }) => {
      const [record] = await apiRequest(`/api/student-record/${encodeURIComponent(id)}`, { schema: StudentRecordListSchema, signal });
      if (!record) throw new Error('The record is empty.');
      return record;
    },
  });
}

export function useStudentRecord(id: string | null) {
  return useQuery({ ...studentRecordQuery(id ?? ''), enabled: id !== null });
}

// ---- GET /api/registration-status --------------------------------------------------------------

export const registrationStatusKey = ['registration-status'] as const;

/**
 * The window of the record's form level: a student's own (the server knows whose), a family
 * account's chosen child named with ?student_id=.
 */
function registrationStatusQuery(studentId: string | null) {
  const query = studentId ? `?${new URLSearchParams({ student_id: studentId }).toString()}` : '';
  return queryOptions({
    queryKey: [...registrationStatusKey, studentId],
    queryFn: ({ signal }) => apiRequest(`/api/registration-status${query}`, { schema: RegistrationStatusSchema, signal }),
    staleTime: 60_000,
  });
}

/** Only a family account names the child; a student's call stays the original bare one. */
const statusStudentOf = (user: SessionUser, studentId: string) => (user.role === 'guardian' ? studentId : null);

export function useRegistrationStatus(user: SessionUser | null, studentId: string | null) {
  // The window can close while the page is open: ask again now and then.
  return useQuery({
    ...registrationStatusQuery(user && studentId ? statusStudentOf(user, studentId) : null),
    enabled: studentId !== null,
    refetchInterval: 5 * 60_000,
  });
}

/**
 * Whose record the registration screens show (from the session and the address): a student's
 * own, a family account's chosen child; none for staff, who open a student's record
 * from the admin area.
 */
export function registrationStudentOf(user: SessionUser | null, search: URLSearchParams): string | null {
  return user?.role === 'staff' ? null : studentShownTo(user, search);
}

// ---- Lookups -----------------------------------------------------------------------------------

/** A lookup as `{ value, label }` options; none for a field without one. */
export function lookupQuery(name: LookupName | undefined) {
  return queryOptions({
    queryKey: ['lookup', name],
    queryFn:
      name === undefined
        ? skipToken
        : async ({ signal }) => {
            const lookup = LOOKUPS[name];
            const rows = await apiRequest<Record<string, unknown>[]>(lookup.path, { schema: lookup.schema, signal });
            return toLookupOptions(name, rows);
          },
    // The server lets browsers cache them for an hour too.
    staleTime: 60 * 60_000,
  });
}

export function useLookupOptions(name: LookupName | undefined) {
  return useQuery(lookupQuery(name));
}

// ---- The routes' loaders -----------------------------------------------------------------------

/**
 * The registration frame's data: the record (the signed-in student's, or a family account's
 * chosen child's) and the window's status. A failure is left to the screen, which asks again and
 * says what went wrong (and a call refused because the session ended sends the student to sign
 * in). An administrator has no record here.
 */
export async function loadRegistration(queryClient: QueryClient, url: URL): Promise<null> {
  const { user } = await queryClient.ensureQueryData(sessionQuery);
  const studentId = registrationStudentOf(user, url.searchParams);
  if (user && studentId) {
    await Promise.all([
      queryClient.ensureQueryData(studentRecordQuery(studentId)),
      queryClient.ensureQueryData(registrationStatusQuery(statusStudentOf(user, studentId))),
    ]).catch(() => undefined);
  }
  return null;
}

/** A data step's own data: the lookups its selects and suggestions show. */
export async function loadRegistrationStep(queryClient: QueryClient, step: DataStep, url: URL): Promise<null> {
  const { user } = await queryClient.ensureQueryData(sessionQuery);
  if (!registrationStudentOf(user, url.searchParams)) return null;
  const lookups = new Set(fieldsOfStep(step).flatMap((field) => (field.lookup ? [field.lookup] : [])));
  await Promise.all([...lookups].map((name) => queryClient.ensureQueryData(lookupQuery(name)))).catch(() => undefined);
  return null;
}

// ---- POST /api/student -------------------------------------------------------------------------

/**
 * How long a field's save waits for an answer before it is abandoned and called connection
 * trouble (D73): a phone on a failing connection otherwise spins for minutes.
 */
export const SAVE_TIMEOUT_MS = 15_000;

export function saveStudentFields(id: string, fields: Record<string, FieldValue>): Promise<SaveStudentAnswer> {
  return apiRequest('/api/student', { method: 'POST', body: { id, ...fields }, schema: SaveStudentAnswerSchema, timeoutMs: SAVE_TIMEOUT_MS });
}

/**
 * Puts a save's answer in the cache: the cached record takes the stored value and the new
 * progress flags, so the header and the shown sections follow at once.
 */
export async function applySavedAnswer(queryClient: QueryClient, studentId: string, answer: SaveStudentAnswer): Promise<void> {
  const key = studentRecordKey(studentId);
  // A read of the record that left before this save answered would put the old value back: it
  // is cancelled, and asked again once the saved value is in.
  const racing = queryClient.isFetching({ queryKey: key }) > 0;
  if (racing) await queryClient.cancelQueries({ queryKey: key });
  queryClient.setQueryData<StudentRecord>(key, (old) => (old ? { ...old, ...answer.saved, progress: answer.progress, updated_at: answer.updated_at } : old));
  if (racing) void queryClient.invalidateQueries({ queryKey: key });
  // A returned record goes back to the office on the family's change (D56): the notice follows.
  void queryClient.invalidateQueries({ queryKey: registrationReviewKey(studentId) });
  // A family's change confirms its step of a re-registration (D62).
  void queryClient.invalidateQueries({ queryKey: reRegistrationKey(studentId) });
}

// ---- Administrators: /api/registration-periods -------------------------------------------------

export const registrationPeriodsKey = ['registration-periods'] as const;

export function useRegistrationPeriods() {
  return useQuery({
    queryKey: registrationPeriodsKey,
    queryFn: ({ signal }) => apiRequest('/api/registration-periods', { schema: RegistrationPeriodListSchema, signal }),
  });
}

export function useSaveRegistrationPeriod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveRegistrationPeriodInput) =>
      apiRequest('/api/registration-periods', { method: 'PUT', body: input, schema: RegistrationPeriodListSchema }),
    onSuccess: (periods) => {
      queryClient.setQueryData(registrationPeriodsKey, periods);
      void queryClient.invalidateQueries({ queryKey: registrationStatusKey });
    },
  });
}

export function useRemoveRegistrationPeriod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (formLevel: number) => apiRequest(`/api/registration-periods/${formLevel}`, { method: 'DELETE', schema: RegistrationPeriodListSchema }),
    onSuccess: (periods) => {
      queryClient.setQueryData(registrationPeriodsKey, periods);
      void queryClient.invalidateQueries({ queryKey: registrationStatusKey });
    },
  });
}

// ---- GET /api/registration-review/{studentId} ----------------------------------------

export const registrationReviewKey = (studentId: string) => ['review', 'registration', studentId] as const;

/** Where the record stands with the office: submitted, returned (note and steps) or verified. */
export function useRegistrationReview(studentId: string | null) {
  return useQuery({
    queryKey: registrationReviewKey(studentId ?? ''),
    queryFn: ({ signal }) => apiRequest(`/api/registration-review/${encodeURIComponent(studentId ?? '')}`, { schema: RegistrationReviewSchema, signal }),
    enabled: studentId !== null,
    staleTime: 0,
  });
}
