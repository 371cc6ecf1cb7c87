import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  RolloverPreviewSchema,
  RolloverRunAnswerSchema,
  RolloverStateSchema,
  type RolloverPlanInput,
} from '../../shared/rollover.schemas.js';
import { apiRequest } from '../lib/api-client.js';

/** The year rollover (D60): one fetcher and one hook per call. */

const stateKey = ['year-rollover'] as const;

export function useRolloverState() {
  return useQuery({ queryKey: stateKey, queryFn: ({ signal }) => apiRequest('/api/year-rollover', { schema: RolloverStateSchema, signal }) });
}

/** The dry run: nothing is written. */
export function usePreviewRollover() {
  return useMutation({ mutationFn: (plan: RolloverPlanInput) => apiRequest('/api/year-rollover/preview', { method: 'POST', body: plan, schema: RolloverPreviewSchema }) });
}

/** Every screen that lists students or classes reads again after a run or an undo. */
function useRefreshAfterChange() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

export function useRunRollover() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (plan: RolloverPlanInput) => apiRequest('/api/year-rollover', { method: 'POST', body: plan, schema: RolloverRunAnswerSchema }),
    onSuccess: refresh,
  });
}

export function useUndoRollover() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/year-rollover/${id}/undo`, { method: 'POST', schema: RolloverRunAnswerSchema }),
    onSuccess: refresh,
  });
}
