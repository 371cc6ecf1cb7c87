import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AdminStudentListSchema,
  AdminStudentSchema,
  StudentChangesPageSchema,
  StudentListPageSchema,
  studentHistoryUrl,
  studentPageUrl,
  type AddStudentInput,
  type StudentChangesPage,
  type StudentListPage,
  type StudentListPageRequest,
  StudentImportResultSchema,
  type AdminEditField,
  type AdminStudent,
  type StudentImportResult,
} from '../../shared/students.schemas.js';
import { SaveStudentAnswerSchema } from '../../shared/registration.schemas.js';
import { apiRequest, fileForm } from '../lib/api-client.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';

/** The student list's calls (docs/requirements.md R11, R15): one fetcher and one hook per call. */

// ---- GET /api/students ---------------------------------------------------------------------------

export const studentsQueryKey = ['admin', 'students'] as const;

export function getStudents(signal?: AbortSignal, includeFormer = false): Promise<AdminStudent[]> {
  return apiRequest(includeFormer ? '/api/students?former=include' : '/api/students', { schema: AdminStudentListSchema, ...(signal ? { signal } : {}) });
}

/**
 * Every student on the roll, by class and name (D82), once `enabled` (a small
 * school's list); with `includeFormer`, the former students too (D60).
 */
export function useStudents(includeFormer = false, enabled = true) {
  return useQuery({
    queryKey: includeFormer ? [...studentsQueryKey, 'former'] : studentsQueryKey,
    queryFn: ({ signal }) => getStudents(signal, includeFormer),
    staleTime: 15_000,
    enabled,
  });
}

/** Under `studentsQueryKey`, so whatever refreshes the list refreshes its pages too. */
const studentPageKey = (request: StudentListPageRequest) => [...studentsQueryKey, 'page', request] as const;

export function getStudentPage(request: StudentListPageRequest, signal?: AbortSignal): Promise<StudentListPage> {
  return apiRequest(studentPageUrl(request), { schema: StudentListPageSchema, ...(signal ? { signal } : {}) });
}

/**
 * One page of the list, sorted and filtered on the server (D64); the page shown stays
 * while the next loads, so the grid does not empty between pages. Its `serverMode` tells the list
 * whether the school is past the threshold.
 */
export function useStudentPage(request: StudentListPageRequest, enabled: boolean) {
  return useQuery({
    queryKey: studentPageKey(request),
    queryFn: ({ signal }) => getStudentPage(request, signal),
    staleTime: 15_000,
    enabled,
    placeholderData: keepPreviousData,
  });
}

// ---- POST /api/student (the Edit Student dialog) -------------------------------------------------

export type StudentEdit = { id: string } & Partial<Record<AdminEditField | 'class_id', string>>;

/** Saves the sent fields of one student (the registration call, as an administrator). */
export function saveStudent(edit: StudentEdit) {
  return apiRequest('/api/student', { method: 'POST', body: edit, schema: SaveStudentAnswerSchema });
}

/**
 * Edit Student's save: every changed field in one request. It shows its own status, so the page
 * overlay stays down; the saved values go into the cached list, and the pages are asked again.
 */
export function useSaveStudent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveStudent,
    meta: BACKGROUND_QUERY,
    onSuccess: (answer) => {
      queryClient.setQueryData<AdminStudent[]>(studentsQueryKey, (list) => {
        if (!list) return list;
        const saved = answer.saved as Partial<Record<AdminEditField | 'class_id', string | null>>;
        return list.map((s) => (s.id === answer.id ? { ...s, ...saved, updatedAt: answer.updated_at } : s));
      });
      void queryClient.invalidateQueries({ queryKey: [...studentsQueryKey, 'page'] });
      void queryClient.invalidateQueries({ queryKey: studentHistoryKey(answer.id) });
    },
  });
}

// ---- GET /api/students/{id}/history ----------------------------------------------------------------

const studentHistoryKey = (studentId: string) => ['admin', 'student-history', studentId] as const;

export function getStudentHistory(studentId: string, beforeId: number | null, signal?: AbortSignal): Promise<StudentChangesPage> {
  return apiRequest(studentHistoryUrl(studentId, beforeId), { schema: StudentChangesPageSchema, ...(signal ? { signal } : {}) });
}

/** A student's changes, newest first, a page at a time (`fetchNextPage` for older ones); asked when `studentId` is set. */
export function useStudentHistory(studentId: string | null) {
  return useInfiniteQuery({
    queryKey: studentHistoryKey(studentId ?? ''),
    queryFn: ({ pageParam, signal }) => getStudentHistory(studentId ?? '', pageParam, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_before_id,
    enabled: studentId !== null,
    meta: BACKGROUND_QUERY,
  });
}

// ---- POST /api/students (Add Student) --------------------------------------------------------------

/** Adds one student; the new student goes to the top of the cached list, as the server sorts it. */
export function useAddStudent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddStudentInput) => apiRequest('/api/students', { method: 'POST', body: input, schema: AdminStudentSchema }),
    meta: BACKGROUND_QUERY,
    onSuccess: (created) => {
      queryClient.setQueryData<AdminStudent[]>(studentsQueryKey, (list) => (list ? [created, ...list] : list));
      void queryClient.invalidateQueries({ queryKey: [...studentsQueryKey, 'page'] });
    },
  });
}

// ---- POST /api/reset-password-student --------------------------------------------------------------

const ResetAnswerSchema = z.object({ message: z.string() });

export function resetStudentPassword(studentId: string) {
  return apiRequest('/api/reset-password-student', { method: 'POST', body: { student_id: studentId }, schema: ResetAnswerSchema });
}

/** The reset dialog shows its own progress (R11), so no page overlay. */
export function useResetStudentPassword() {
  return useMutation({ mutationFn: resetStudentPassword, meta: BACKGROUND_QUERY });
}

// ---- POST /api/students/import ---------------------------------------------------------------------

/** Checks (dry run) or imports a students file (multipart). */
export function importStudentsFile(file: File, dryRun: boolean): Promise<StudentImportResult> {
  return apiRequest(`/api/students/import?dryRun=${dryRun ? 1 : 0}`, { method: 'POST', body: fileForm(file), schema: StudentImportResultSchema });
}

export function useImportStudents() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => importStudentsFile(file, dryRun),
    onSuccess: (result) => {
      if (result.committed) void queryClient.invalidateQueries({ queryKey: studentsQueryKey });
    },
  });
}
