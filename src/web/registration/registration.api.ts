import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LOOKUPS, toLookupOptions, type LookupName } from '../../shared/lookups.schemas.js';
import type { FieldValue } from '../../shared/registration.fields.js';
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

/** The registration calls of SPEC §7: one fetcher and one hook per call. */

const BACKGROUND = { background: true } as const;

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
    staleTime: 0,
  });
}

export function useStudentRecord(id: string | null) {
  return useQuery({ ...studentRecordQuery(id ?? ''), enabled: id !== null });
}

// ---- GET /api/registration-status --------------------------------------------------------------

export const registrationStatusKey = ['registration-status'] as const;

export function useRegistrationStatus() {
  return useQuery({
    queryKey: registrationStatusKey,
    queryFn: ({ signal }) => apiRequest('/api/registration-status', { schema: RegistrationStatusSchema, signal }),
    // The window can close while the page is open: ask again now and then.
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
  });
}

// ---- Lookups -----------------------------------------------------------------------------------

/** A lookup as `{ value, label }` options; the server lets browsers cache them for an hour. */
export function useLookupOptions(name: LookupName | undefined) {
  return useQuery({
    queryKey: ['lookup', name],
    queryFn: async ({ signal }) => {
      const lookup = LOOKUPS[name!];
      const rows = (await apiRequest(lookup.path, { schema: lookup.schema, signal })) as Record<string, unknown>[];
      return toLookupOptions(name!, rows);
    },
    enabled: name !== undefined,
    staleTime: 60 * 60_000,
  });
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
