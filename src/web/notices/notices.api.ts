import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  NoticeListSchema,
  NoticePreferencesSchema,
  NoticeSettingsSchema,
  ReminderPreviewSchema,
  ReminderSendAnswerSchema,
  UnsubscribeAnswerSchema,
  type NoticePreferences,
  type NoticeSettings,
} from '../../shared/notices.schemas.js';
import { apiRequest } from '../lib/api-client.js';

/** Messages to families: one fetcher and one hook per call. */

const noticesKey = ['notices'] as const;
const preferencesKey = ['notice-preferences'] as const;
const settingsKey = ['notice-settings'] as const;
const previewKey = ['deadline-reminders-preview'] as const;

export function useNotices() {
  return useQuery({ queryKey: noticesKey, queryFn: ({ signal }) => apiRequest('/api/notices', { schema: NoticeListSchema, signal }) });
}

export function useMarkNoticeRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/notices/${id}/read`, { method: 'POST', schema: z.unknown() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noticesKey }),
  });
}

export function useNoticePreferences(enabled: boolean) {
  return useQuery({ queryKey: preferencesKey, enabled, queryFn: ({ signal }) => apiRequest('/api/notice-preferences', { schema: NoticePreferencesSchema, signal }) });
}

export function useUpdateNoticePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NoticePreferences) => apiRequest('/api/notice-preferences', { method: 'PUT', body: input, schema: NoticePreferencesSchema }),
    onSuccess: (saved) => queryClient.setQueryData(preferencesKey, saved),
  });
}

/** POST /api/notices/unsubscribe {token}: no sign-in needed. */
export function useUnsubscribe() {
  return useMutation({ mutationFn: (token: string) => apiRequest('/api/notices/unsubscribe', { method: 'POST', body: { token }, schema: UnsubscribeAnswerSchema, freshCsrf: true }) });
}

export function useNoticeSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => apiRequest('/api/notice-settings', { schema: NoticeSettingsSchema, signal }) });
}

export function useUpdateNoticeSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NoticeSettings) => apiRequest('/api/notice-settings', { method: 'PUT', body: input, schema: NoticeSettingsSchema }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKey, saved);
      return queryClient.invalidateQueries({ queryKey: previewKey });
    },
  });
}

export function useReminderPreview() {
  return useQuery({ queryKey: previewKey, queryFn: ({ signal }) => apiRequest('/api/deadline-reminders/preview', { schema: ReminderPreviewSchema, signal }) });
}

export function useSendReminders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/deadline-reminders', { method: 'POST', schema: ReminderSendAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: previewKey }),
  });
}
