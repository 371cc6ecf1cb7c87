import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  EnrolmentAnswerSchema,
  RecoveryCodesAnswerSchema,
  SecondFactorStatusSchema,
  type StartEnrolmentInput,
  type TotpConfirmInput,
} from '../../shared/staff-2fa.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { refreshSession } from '../lib/session.js';

/** The own second factor of a signed-in staff member: one fetcher and hook per call. */

export const staff2faStatusQuery = queryOptions({
  queryKey: ['staff-2fa'],
  queryFn: ({ signal }) => apiRequest('/api/staff-2fa', { schema: SecondFactorStatusSchema, signal }),
});

/** GET /api/staff-2fa: whether the portal asks for it and whether it is on. */
export function useStaff2faStatus() {
  return useQuery(staff2faStatusQuery);
}

/** POST /api/staff-2fa/enrol with the current password: a new secret and its QR code. */
export function useStartEnrolment() {
  return useMutation({
    mutationFn: (input: StartEnrolmentInput) => apiRequest('/api/staff-2fa/enrol', { method: 'POST', body: input, schema: EnrolmentAnswerSchema }),
  });
}

/** POST /api/staff-2fa/confirm: turns it on; the session (maybe re-issued) is fetched again. */
export function useConfirmEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TotpConfirmInput) => apiRequest('/api/staff-2fa/confirm', { method: 'POST', body: input, schema: RecoveryCodesAnswerSchema }),
    onSuccess: async () => {
      await refreshSession(queryClient);
      await queryClient.invalidateQueries({ queryKey: staff2faStatusQuery.queryKey });
    },
  });
}

/** DELETE /api/staff-2fa with a current code. */
export function useTurnOff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TotpConfirmInput) => apiRequest('/api/staff-2fa', { method: 'DELETE', body: input, schema: z.void() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staff2faStatusQuery.queryKey }),
  });
}
