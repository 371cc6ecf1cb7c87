import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AttendanceSettingsSchema,
  ClassAttendanceSchema,
  CreatedScannerDeviceSchema,
  ImportResultSchema,
  ScannerDeviceSchema,
  SchoolHolidaySchema,
  classAttendanceUrl,
  type AttendanceSettings,
  type CreateScannerDeviceInput,
  type CreateSchoolHolidayInput,
  type ImportResult,
} from '../../shared/attendance.schemas.js';
import { apiRequest, fileForm } from '../lib/api-client.js';

/** The administrator's attendance calls: scanner devices, scan import, bell time, holidays, a class's attendance. */

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

/** Checks (dry run) or imports a file of gate scans (multipart). */
export function importAttendanceFile(file: File, dryRun: boolean): Promise<ImportResult> {
  return apiRequest(`/api/attendance/import?dryRun=${dryRun ? 1 : 0}`, { method: 'POST', body: fileForm(file), schema: ImportResultSchema });
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

// ---- a class over a date range ------------------------------------------------------------------------

/** GET /api/class-attendance: a class's figures for the range, or for the current term so far without dates. */
export function useClassAttendance(query: { class_id: string; from?: string; to?: string } | null) {
  return useQuery({
    queryKey: ['class-attendance', query],
    queryFn: ({ signal }) => apiRequest(classAttendanceUrl(query!), { schema: ClassAttendanceSchema, signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}
