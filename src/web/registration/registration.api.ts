import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { LookupName } from '../../shared/lookups.schemas.js';
import { RegistrationStatusParser, StudentRecordListParser, type StudentRecord } from '../../shared/registration.answers.js';
import type { FieldValue } from '../../shared/registration.fields.js';
import { REGISTRATION_STATUS_PATH, studentRecordPath } from '../../shared/registration.paths.js';
import type { SaveRegistrationPeriodInput, SaveStudentAnswer } from '../../shared/registration.schemas.js';
import { apiRequest } from '../lib/api-client.js';

/**
 * The registration calls of SPEC §7: one fetcher and one hook per call. A step's first screen
 * needs only the record and the window's status, which are checked without zod
 * (registration.answers.ts); every other answer is parsed with its zod schema, loaded with the
 * first call that needs it (`loadRegistrationSchemas`, `loadLookupSchemas`), after that screen is
 * up (docs/performance.md, web).
 */

/** The shared registration schemas (zod); the browser loads the file once and keeps it. */
export function loadRegistrationSchemas() {
  return import('../../shared/registration.schemas.js');
}

/** The lookups' paths and answer schemas (zod). */
function loadLookupSchemas() {
  return import('../../shared/lookups.schemas.js');
}

const BACKGROUND = { background: true } as const;

// ---- GET /api/student-record/{id} ---------------------------------------------------------------

export const studentRecordKey = (id: string) => ['student-record', id] as const;

/**
 * The record is asked for afresh each time the registration screens open; one fetched in the last
 * few seconds (by `prefetchRegistration`, while the screens' code loaded) counts as that.
 */
const RECORD_FRESH_MS = 5_000;

export function studentRecordQuery(id: string) {
  return queryOptions({
    queryKey: studentRecordKey(id),
    queryFn: async ({ signal }) => {
      const [record] = await apiRequest(studentRecordPath(id), { schema: StudentRecordListParser, signal });
      if (!record) throw new Error('The record is empty.');
      return record;
    },
    staleTime: RECORD_FRESH_MS,
  });
}

export function useStudentRecord(id: string | null) {
  return useQuery({ ...studentRecordQuery(id ?? ''), enabled: id !== null });
}

// ---- GET /api/registration-status --------------------------------------------------------------

export const registrationStatusKey = ['registration-status'] as const;

const registrationStatusQuery = queryOptions({
  queryKey: registrationStatusKey,
  queryFn: ({ signal }) => apiRequest(REGISTRATION_STATUS_PATH, { schema: RegistrationStatusParser, signal }),
  staleTime: 60_000,
});

export function useRegistrationStatus() {
  // The window can close while the page is open: ask again now and then.
  return useQuery({ ...registrationStatusQuery, refetchInterval: 5 * 60_000 });
}

// ---- Lookups -----------------------------------------------------------------------------------

export function lookupQuery(name: LookupName | undefined) {
  return queryOptions({
    queryKey: ['lookup', name],
    queryFn: async ({ signal }) => {
      const { LOOKUPS, toLookupOptions } = await loadLookupSchemas();
      const lookup = LOOKUPS[name!];
      const rows = await apiRequest<Record<string, unknown>[]>(lookup.path, { schema: lookup.schema, signal });
      return toLookupOptions(name!, rows);
    },
    staleTime: 60 * 60_000,
  });
}

/** A lookup as `{ value, label }` options; the server lets browsers cache them for an hour. */
export function useLookupOptions(name: LookupName | undefined) {
  return useQuery({ ...lookupQuery(name), enabled: name !== undefined });
}

/**
 * Starts the calls a registration step's first screen needs — the record and the window's status
 * — so they run while the screens' code downloads instead of after it has rendered (router.tsx;
 * docs/performance.md, web). The fields' lookups follow that screen (registration-step-page.tsx).
 */
export function prefetchRegistration(queryClient: QueryClient, studentId: string): void {
  void queryClient.prefetchQuery(studentRecordQuery(studentId));
  void queryClient.prefetchQuery(registrationStatusQuery);
}

// ---- POST /api/student -------------------------------------------------------------------------

export async function saveStudentFields(id: string, fields: Record<string, FieldValue>): Promise<SaveStudentAnswer> {
  const { SaveStudentAnswerSchema } = await loadRegistrationSchemas();
  return apiRequest('/api/student', { method: 'POST', body: { id, ...fields }, schema: SaveStudentAnswerSchema });
}

/**
 * Saves one field. On success the cached record takes the stored value and the new progress
 * flags, so the header and the shown sections follow at once. Background: the field's own
 * indicator shows the save, not the page overlay.
 */
export function useSaveField(studentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, value }: { name: string; value: FieldValue }) => saveStudentFields(studentId, { [name]: value }),
    meta: BACKGROUND,
    onSuccess: (answer) => {
      queryClient.setQueryData<StudentRecord>(studentRecordKey(studentId), (old) =>
        old ? { ...old, ...answer.saved, progress: answer.progress, updated_at: answer.updated_at } : old,
      );
    },
  });
}

// ---- Administrators: /api/registration-periods -------------------------------------------------

export const registrationPeriodsKey = ['registration-periods'] as const;

export function useRegistrationPeriods() {
  return useQuery({
    queryKey: registrationPeriodsKey,
    queryFn: async ({ signal }) => {
      const { RegistrationPeriodListSchema } = await loadRegistrationSchemas();
      return apiRequest('/api/registration-periods', { schema: RegistrationPeriodListSchema, signal });
    },
  });
}

export function useSaveRegistrationPeriod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SaveRegistrationPeriodInput) => {
      const { RegistrationPeriodListSchema } = await loadRegistrationSchemas();
      return apiRequest('/api/registration-periods', { method: 'PUT', body: input, schema: RegistrationPeriodListSchema });
    },
    onSuccess: (periods) => {
      queryClient.setQueryData(registrationPeriodsKey, periods);
      void queryClient.invalidateQueries({ queryKey: registrationStatusKey });
    },
  });
}

export function useRemoveRegistrationPeriod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (formLevel: number) => {
      const { RegistrationPeriodListSchema } = await loadRegistrationSchemas();
      return apiRequest(`/api/registration-periods/${formLevel}`, { method: 'DELETE', schema: RegistrationPeriodListSchema });
    },
    onSuccess: (periods) => {
      queryClient.setQueryData(registrationPeriodsKey, periods);
      void queryClient.invalidateQueries({ queryKey: registrationStatusKey });
    },
  });
}
