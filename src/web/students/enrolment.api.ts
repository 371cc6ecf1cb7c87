import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EnrolmentChangeAnswerSchema, EnrolmentSchema, type Enrolment, type EnrolmentChangeAnswer, type ReadmitInput, type WithdrawInput } from '../../shared/enrolment.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';
import { studentsQueryKey } from './students.api.js';

/** A student's enrolment history, Withdraw and Readmit (docs/decisions.md D80): one fetcher and one hook per call. */

export const enrolmentQueryKey = (studentId: string) => ['admin', 'enrolment', studentId] as const;

const enrolmentPath = (studentId: string) => `/api/enrolment/${encodeURIComponent(studentId)}`;

export function getEnrolment(studentId: string, signal?: AbortSignal): Promise<Enrolment> {
  return apiRequest(enrolmentPath(studentId), { schema: EnrolmentSchema, ...(signal ? { signal } : {}) });
}

/** One student's enrolment, asked for when the dialog opens (`studentId` null: nothing). */
export function useEnrolment(studentId: string | null) {
  return useQuery({
    queryKey: enrolmentQueryKey(studentId ?? ''),
    queryFn: ({ signal }) => getEnrolment(studentId!, signal),
    enabled: studentId !== null,
    staleTime: 0,
    meta: BACKGROUND_QUERY,
  });
}

/** After a change: the dialog's history is the answer's, and the student list asks again (the student left it, or came back). */
function useEnrolmentChange<Input>(path: 'withdraw' | 'readmit') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ studentId, input }: { studentId: string; input: Input }): Promise<EnrolmentChangeAnswer> =>
      apiRequest(`${enrolmentPath(studentId)}/${path}`, { method: 'POST', body: input, schema: EnrolmentChangeAnswerSchema }),
    meta: BACKGROUND_QUERY,
    onSuccess: (answer) => {
      queryClient.setQueryData(enrolmentQueryKey(answer.enrolment.student_id), answer.enrolment);
      void queryClient.invalidateQueries({ queryKey: studentsQueryKey });
    },
  });
}

export const useWithdrawStudent = () => useEnrolmentChange<WithdrawInput>('withdraw');
export const useReadmitStudent = () => useEnrolmentChange<ReadmitInput>('readmit');
