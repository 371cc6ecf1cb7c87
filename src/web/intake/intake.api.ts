import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IntakeFinaliseResultSchema, IntakeUndoAnswerSchema, IntakeViewSchema, type IntakeView } from '../../shared/intake.schemas.js';
import { apiRequest, fileForm } from '../lib/api-client.js';

/** The new Form 1 (D61): one fetcher and one hook per call; every change answers the whole allocation. */

const intakeKey = ['intake'] as const;

export function useIntake() {
  return useQuery({ queryKey: intakeKey, queryFn: ({ signal }) => apiRequest('/api/intake', { schema: IntakeViewSchema, signal }) });
}

/** A change whose answer is the new allocation, put straight into the query's data. */
function useIntakeChange<Input>(send: (input: Input) => Promise<IntakeView>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: (view) => queryClient.setQueryData(intakeKey, view) });
}

export const useImportIntake = () =>
  useIntakeChange((file: File) => apiRequest('/api/intake/import', { method: 'POST', body: fileForm(file), schema: IntakeViewSchema }));

export const useBalanceIntake = () => useIntakeChange(() => apiRequest('/api/intake/balance', { method: 'POST', schema: IntakeViewSchema }));

export const useMoveIntakeStudent = () =>
  useIntakeChange(({ id, classId }: { id: number; classId: string | null }) =>
    apiRequest(`/api/intake/students/${id}`, { method: 'PATCH', body: { class_id: classId }, schema: IntakeViewSchema }),
  );

export const useClearIntake = () => useIntakeChange(() => apiRequest('/api/intake', { method: 'DELETE', schema: IntakeViewSchema }));

export function useFinaliseIntake() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/intake/finalise', { method: 'POST', schema: IntakeFinaliseResultSchema }),
    // New students: every list the admin area holds (the student list, class counts) is out of date.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** Undoes a finalise the day it ran (D79): the students go, the children are back in the intake. */
export function useUndoFinalise() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/intake/finalises/${id}/undo`, { method: 'POST', schema: IntakeUndoAnswerSchema }),
    // Students removed: every list the admin area holds is out of date; the intake is the answer's.
    onSuccess: async (answer) => {
      queryClient.setQueryData(intakeKey, answer.view);
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== intakeKey[0] });
    },
  });
}
