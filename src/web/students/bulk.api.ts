import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BulkAnswerSchema,
  BulkSummarySchema,
  type BulkChangeClassInput,
  type BulkInviteInput,
  type BulkPaperDocumentInput,
  type BulkSelection,
} from '../../shared/bulk.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';
import { studentsQueryKey } from './students.api.js';

/** The student list's bulk actions (docs/decisions.md D83): one call each. */

/** What a selection holds now, asked afresh each time a dialog opens (never cached). */
export function useBulkSummary(selection: BulkSelection | null) {
  return useQuery({
    queryKey: ['admin', 'bulk-summary', selection],
    queryFn: ({ signal }) => apiRequest('/api/students/bulk/summary', { method: 'POST', body: { selection }, schema: BulkSummarySchema, signal }),
    enabled: selection !== null,
    gcTime: 0,
    staleTime: 0,
    meta: BACKGROUND_QUERY,
  });
}

/** A bulk action's call; the list is asked again afterwards, since rows changed. */
function useBulkAction<Input>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => apiRequest(path, { method: 'POST', body: input, schema: BulkAnswerSchema }),
    meta: BACKGROUND_QUERY,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studentsQueryKey }),
  });
}

export const useBulkChangeClass = () => useBulkAction<BulkChangeClassInput>('/api/students/bulk/class');
export const useBulkInvite = () => useBulkAction<BulkInviteInput>('/api/students/bulk/invitations');
export const useBulkPaperDocuments = () => useBulkAction<BulkPaperDocumentInput>('/api/students/bulk/paper-documents');
