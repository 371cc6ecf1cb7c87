import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { LOOKUPS, toLookupOptions, type LookupName } from '../../shared/lookups.schemas.js';
import { REGISTRATION_FIELDS, type FieldValue } from '../../shared/registration.fields.js';
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
import { REGISTRATION_STATUS_PATH, studentRecordPath } from './registration.paths.js';

/** The registration calls of SPEC §7: one fetcher and one hook per call. */

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
      const [record] = await apiRequest(studentRecordPath(id), { schema: StudentRecordListSchema, signal });
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
  queryFn: ({ signal }) => apiRequest(REGISTRATION_STATUS_PATH, { schema: RegistrationStatusSchema, signal }),
  staleTime: 60_000,
});

export function useRegistrationStatus() {
  // The window can close while the page is open: ask again now and then.
  return useQuery({ ...registrationStatusQuery, refetchInterval: 5 * 60_000 });
}

// ---- Lookups -----------------------------------------------------------------------------------

function lookupQuery(name: LookupName | undefined) {
  return queryOptions({
    queryKey: ['lookup', name],
    queryFn: async ({ signal }) => {
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

/** Every lookup a registration field takes its options or suggestions from. */
const REGISTRATION_LOOKUPS = [...new Set(REGISTRATION_FIELDS.flatMap((field) => (field.lookup ? [field.lookup] : [])))];

/**
 * Starts the calls the registration screens make at once — the record, the window's status and
 * the fields' lookups — so they run while the screens' code downloads instead of after it has
 * rendered (router.tsx; docs/performance.md, web).
 */
export function prefetchRegistration(queryClient: QueryClient, studentId: string): void {
  void queryClient.prefetchQuery(studentRecordQuery(studentId));
  void queryClient.prefetchQuery(registrationStatusQuery);
  for (const name of REGISTRATION_LOOKUPS) void queryClient.prefetchQuery(lookupQuery(name));
}

// ---- POST /api/student -------------------------------------------------------------------------

export function saveStudentFields(id: string, fields: Record<string, FieldValue>): Promise<SaveStudentAnswer> {
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
    mutationFn: (formLevel: number) =>
      apiRequest(`/api/registration-periods/${formLevel}`, { method: 'DELETE', schema: RegistrationPeriodListSchema }),
    onSuccess: (periods) => {
      queryClient.setQueryData(registrationPeriodsKey, periods);
      void queryClient.invalidateQueries({ queryKey: registrationStatusKey });
    },
  });
}
