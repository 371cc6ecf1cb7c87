import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ReRegistrationAnswerSchema,
  ReRegistrationListSchema,
  StudentReRegistrationSchema,
  type ReRegistrationStep,
} from '../../shared/re-registration.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';

/** Re-registration calls (D62): one fetcher and one hook per call. */

// ---- GET /api/students/{studentId}/re-registration ---------------------------------------------

export const reRegistrationKey = (studentId: string) => ['re-registration', studentId] as const;

/** The record's steps to confirm this year (year null: nothing asked). */
export function useStudentReRegistration(studentId: string | null) {
  return useQuery({
    queryKey: reRegistrationKey(studentId ?? ''),
    queryFn: ({ signal }) => apiRequest(`/api/students/${encodeURIComponent(studentId ?? '')}/re-registration`, { schema: StudentReRegistrationSchema, signal }),
    enabled: studentId !== null,
    staleTime: 0,
  });
}

// ---- POST /api/students/{studentId}/re-registration/{step} ("Nothing changed") -----------------

export function useConfirmStep(studentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (step: ReRegistrationStep) =>
      apiRequest(`/api/students/${encodeURIComponent(studentId)}/re-registration/${step}`, { method: 'POST', body: {}, schema: StudentReRegistrationSchema }),
    meta: BACKGROUND_QUERY,
    onSuccess: (state) => queryClient.setQueryData(reRegistrationKey(studentId), state),
  });
}

// ---- Administrators: /api/re-registrations -----------------------------------------------------

const reRegistrationsKey = ['re-registrations'] as const;

export function useReRegistrations() {
  return useQuery({ queryKey: reRegistrationsKey, queryFn: ({ signal }) => apiRequest('/api/re-registrations', { schema: ReRegistrationListSchema, signal }), staleTime: 0 });
}

export function useOpenReRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (year: number) => apiRequest('/api/re-registrations', { method: 'POST', body: { year }, schema: ReRegistrationAnswerSchema }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reRegistrationsKey }),
  });
}

export function useCloseReRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (year: number) => apiRequest(`/api/re-registrations/${year}`, { method: 'DELETE', schema: ReRegistrationAnswerSchema }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reRegistrationsKey }),
  });
}
