import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { StudentAttendanceSchema, type StudentAttendance } from '../../shared/attendance.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { sessionQuery, studentShownTo } from '../lib/session.js';

/** The student's attendance calls (docs/requirements.md R10, R15): one fetcher and one hook per call, and the screen's loader. */

export interface TermChoice {
  year: number;
  term: number;
}

// ---- GET /api/student-attendance/{userID} ---------------------------------------------------------

/** The attendance response for the current term, or the term given. */
export function getStudentAttendance(studentId: string, term: TermChoice | null, signal?: AbortSignal): Promise<StudentAttendance> {
  const query = term ? `?year=${term.year}&term=${term.term}` : '';
  return apiRequest(`/api/student-attendance/${encodeURIComponent(studentId)}${query}`, {
    schema: StudentAttendanceSchema,
    ...(signal ? { signal } : {}),
  });
}

export function attendanceQueryKey(studentId: string, term: TermChoice | null) {
  return ['student-attendance', studentId, term?.year ?? null, term?.term ?? null] as const;
}

export function attendanceQuery(studentId: string, term: TermChoice | null) {
  return queryOptions({
    queryKey: attendanceQueryKey(studentId, term),
    queryFn: ({ signal }) => getStudentAttendance(studentId, term, signal),
  });
}

/** The student's attendance; idle until there is a student. Keeps the last term shown while another loads. */
export function useStudentAttendance(studentId: string | null, term: TermChoice | null) {
  return useQuery({ ...attendanceQuery(studentId ?? '', term), enabled: Boolean(studentId), placeholderData: keepPreviousData });
}

/** The /attendance route's loader (app/router.tsx): the current term; a failure is the screen's to show. */
export async function loadAttendance(queryClient: QueryClient, url: URL): Promise<null> {
  const { user } = await queryClient.ensureQueryData(sessionQuery);
  const studentId = studentShownTo(user, url.searchParams);
  if (studentId) await queryClient.ensureQueryData(attendanceQuery(studentId, null)).catch(() => undefined);
  return null;
}
