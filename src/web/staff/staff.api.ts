import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ResetSecondFactorAnswerSchema,
  StaffAccountWithPasswordSchema,
  StaffListSchema,
  type CreateStaffInput,
  type UpdateStaffInput,
} from '../../shared/staff.schemas.js';
import { apiRequest } from '../lib/api-client.js';

/** The Staff Accounts screen's calls: one fetcher and hook per call. */

const staffKey = ['admin', 'staff'] as const;

/** GET /api/staff: every staff account. */
export function useStaffAccounts() {
  return useQuery({ queryKey: staffKey, queryFn: ({ signal }) => apiRequest('/api/staff', { schema: StaffListSchema, signal }) });
}

/** POST /api/staff: the answer holds the one-time password, shown once. */
export function useCreateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateStaffInput) => apiRequest('/api/staff', { method: 'POST', body: input, schema: StaffAccountWithPasswordSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKey }),
  });
}

/** PATCH /api/staff/{id}: a change, or `reset_password` for a new one-time password (in the answer only). */
export function useUpdateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: UpdateStaffInput }) =>
      apiRequest(`/api/staff/${id}`, { method: 'PATCH', body: change, schema: StaffAccountWithPasswordSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKey }),
  });
}

/** POST /api/staff/{id}/reset-second-factor: another staff member's factor off; says whom the mail tells. */
export function useResetSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/staff/${id}/reset-second-factor`, { method: 'POST', schema: ResetSecondFactorAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKey }),
  });
}
