import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AuditLogPageSchema, DeleteStudentAnswerSchema, StudentHistorySchema } from '../../shared/privacy.schemas.js';
import { apiRequest } from '../lib/api-client.js';

/** The Privacy screen's calls: the audit log, a student's history, deletion (the export is a plain download link). */

const privacyKey = ['admin', 'privacy'] as const;

/** GET /api/privacy/audit-log: 50 entries a page, newest first, for one student or for everyone. */
export function useAuditLog(studentId: string | null) {
  return useInfiniteQuery({
    queryKey: [...privacyKey, 'audit-log', studentId],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '50' });
      if (studentId) query.set('student_id', studentId);
      if (pageParam !== null) query.set('before_id', String(pageParam));
      return apiRequest(`/api/privacy/audit-log?${query}`, { schema: AuditLogPageSchema, signal });
    },
    getNextPageParam: (page) => page.next_before_id,
  });
}

/** GET /api/privacy/students/{id}/history: the student's changes; asked only once a student is chosen. */
export function useStudentHistory(studentId: string | null) {
  return useQuery({
    queryKey: [...privacyKey, 'history', studentId],
    enabled: studentId !== null,
    queryFn: ({ signal }) => apiRequest(`/api/privacy/students/${encodeURIComponent(studentId!)}/history`, { schema: StudentHistorySchema, signal }),
  });
}

/** DELETE /api/privacy/students/{id}: the server asks for the Student ID again as confirmation. */
export function useDeleteStudent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (studentId: string) =>
      apiRequest(`/api/privacy/students/${encodeURIComponent(studentId)}`, {
        method: 'DELETE',
        body: { confirm_student_id: studentId },
        schema: DeleteStudentAnswerSchema,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
}
