import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiErrorSchema } from '../../shared/api-error.js';
import {
  AttendanceSettingsSchema,
  CreatedScannerDeviceSchema,
  ImportResultSchema,
  ScannerDeviceSchema,
  SchoolHolidaySchema,
  type AttendanceSettings,
  type CreateScannerDeviceInput,
  type CreateSchoolHolidayInput,
  type ImportResult,
} from '../../shared/attendance.schemas.js';
import { ApiError, apiRequest, fetchCsrfCookie, readCookie } from '../lib/api-client.js';

/** The administrator's attendance calls (issue #6): scanner devices, scan import, bell time, holidays. */

// ---- scanner devices ----------------------------------------------------------------------------------

const devicesKey = ['scanner-devices'] as const;

export function useScannerDevices() {
  return useQuery({
    queryKey: devicesKey,
    queryFn: ({ signal }) => apiRequest('/api/scanner-devices', { schema: z.array(ScannerDeviceSchema), signal }),
  });
}

/** POST /api/scanner-devices: the answer holds the key, shown once. */
export function useCreateScannerDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateScannerDeviceInput) =>
      apiRequest('/api/scanner-devices', { method: 'POST', body: input, schema: CreatedScannerDeviceSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesKey }),
  });
}

/** DELETE /api/scanner-devices/{id}: revokes the device's key. */
export function useRevokeScannerDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/scanner-devices/${id}`, { method: 'DELETE', schema: ScannerDeviceSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesKey }),
  });
}

// ---- import of scans ---------------------------------------------------------------------------------

/**
 * POST /api/attendance/import as multipart/form-data (apiRequest sends JSON only). Same CSRF
 * header and error shape as every other call.
 */
export async function importAttendanceFile(file: File, dryRun: boolean): Promise<ImportResult> {
  if (readCookie('XSRF-TOKEN') === null) await fetchCsrfCookie();
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(`/api/attendance/import?dryRun=${dryRun ? 1 : 0}`, {
      method: 'POST',
      body: form,
      credentials: 'include',
      headers: { Accept: 'application/json', 'X-XSRF-TOKEN': readCookie('XSRF-TOKEN') ?? '' },
    });
  } catch {
    throw new ApiError(0, { code: 'internal', message: 'Could not reach the school portal. Check your connection and try again.' });
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const body = ApiErrorSchema.safeParse(json);
    throw new ApiError(response.status, body.success ? body.data : { code: 'internal', message: `The upload failed (HTTP ${response.status}).` });
  }
  const parsed = ImportResultSchema.safeParse(json);
  if (!parsed.success) throw new ApiError(response.status, { code: 'internal', message: 'The server sent an answer this page did not expect.' });
  return parsed.data;
}

export function useImportAttendance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => importAttendanceFile(file, dryRun),
    onSuccess: (result) => {
      if (!result.dry_run) void queryClient.invalidateQueries({ queryKey: ['student-attendance'] });
    },
  });
}

// ---- bell time and holidays ----------------------------------------------------------------------------

const settingsKey = ['attendance-settings'] as const;
const holidaysKey = ['school-holidays'] as const;

export function useAttendanceSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) => apiRequest('/api/attendance/settings', { schema: AttendanceSettingsSchema, signal }),
  });
}

export function useUpdateAttendanceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AttendanceSettings) =>
      apiRequest('/api/attendance/settings', { method: 'PUT', body: input, schema: AttendanceSettingsSchema }),
    onSuccess: (settings) => queryClient.setQueryData(settingsKey, settings),
  });
}

export function useSchoolHolidays() {
  return useQuery({
    queryKey: holidaysKey,
    queryFn: ({ signal }) => apiRequest('/api/attendance/holidays', { schema: z.array(SchoolHolidaySchema), signal }),
  });
}

export function useAddSchoolHoliday() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSchoolHolidayInput) =>
      apiRequest('/api/attendance/holidays', { method: 'POST', body: input, schema: SchoolHolidaySchema }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: holidaysKey });
      void queryClient.invalidateQueries({ queryKey: ['student-attendance'] });
    },
  });
}

export function useRemoveSchoolHoliday() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/attendance/holidays/${id}`, { method: 'DELETE', schema: z.void() }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: holidaysKey });
      void queryClient.invalidateQueries({ queryKey: ['student-attendance'] });
    },
  });
}
