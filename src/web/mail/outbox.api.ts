import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OutboxMessageSchema, OutboxPageSchema, type OutboxState, type SendTestMessageInput } from '../../shared/outbox.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';

/** The Outbox screen's calls: one fetcher and hook per call. */

const outboxKey = ['admin', 'outbox'] as const;

/** While a message waits or is being sent, the list is asked again this often to show how it went. */
const REFRESH_WHILE_WAITING_MS = 3_000;

/** GET /api/outbox: a page of messages, newest first; shown in place, refreshed while any waits. */
export function useOutbox(query: { state: OutboxState | null; page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...outboxKey, query.state, query.page, query.pageSize],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(query.page), page_size: String(query.pageSize) });
      if (query.state) params.set('state', query.state);
      return apiRequest(`/api/outbox?${params}`, { schema: OutboxPageSchema, signal });
    },
    placeholderData: keepPreviousData,
    refetchInterval: (current) =>
      current.state.data?.smtp_configured && current.state.data.messages.some((message) => message.state === 'queued' || message.state === 'sending')
        ? REFRESH_WHILE_WAITING_MS
        : false,
    meta: BACKGROUND_QUERY,
  });
}

/** POST /api/outbox/test: queues the test message. */
export function useSendTestMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendTestMessageInput) => apiRequest('/api/outbox/test', { method: 'POST', body: input, schema: OutboxMessageSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: outboxKey }),
  });
}

/** POST /api/outbox/{id}/resend: a failed or waiting message, due again with all its tries. */
export function useResendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/outbox/${id}/resend`, { method: 'POST', schema: OutboxMessageSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: outboxKey }),
  });
}
