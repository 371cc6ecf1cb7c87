import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AbsenceNoteAnswerSchema,
  AbsenceNoteDetailSchema,
  AbsenceNoteListSchema,
  AbsenceNoteQueueSchema,
  type AbsenceNoteQueueQuery,
  type DecideAbsenceNoteInput,
  type SendAbsenceNoteFields,
} from '../../shared/absence-notes.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';

/** The absence notes' calls (docs/decisions.md D93): one fetcher and one hook per call. */

const ROOT = ['absence-notes'] as const;

// ---- GET /api/absence-notes?student_id= ------------------------------------------------------------

export const absenceNotesKey = (studentId: string) => [...ROOT, 'student', studentId] as const;

/** A child's notes and whether this person may send one now; idle until there is a child. */
export function useAbsenceNotes(studentId: string | null) {
  return useQuery({
    queryKey: absenceNotesKey(studentId ?? ''),
    queryFn: ({ signal }) => apiRequest(`/api/absence-notes?${new URLSearchParams({ student_id: studentId ?? '' }).toString()}`, { schema: AbsenceNoteListSchema, signal }),
    enabled: Boolean(studentId),
    staleTime: 0,
  });
}

// ---- POST /api/absence-notes (multipart) ---------------------------------------------------------

export interface SendAbsenceNote extends SendAbsenceNoteFields {
  file?: File | null;
}

/** The note's form data: the fields first, so the server refuses a wrong student before reading the file. */
export function absenceNoteForm(input: SendAbsenceNote): FormData {
  const form = new FormData();
  form.append('student_id', input.student_id);
  form.append('date_from', input.date_from);
  if (input.date_to) form.append('date_to', input.date_to);
  form.append('part', input.part);
  form.append('reason', input.reason);
  if (input.text) form.append('text', input.text);
  if (input.file) form.append('file', input.file, input.file.name);
  return form;
}

export function useSendAbsenceNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendAbsenceNote) => apiRequest('/api/absence-notes', { method: 'POST', body: absenceNoteForm(input), schema: AbsenceNoteAnswerSchema }),
    meta: BACKGROUND_QUERY,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ROOT }),
  });
}

// ---- POST /api/absence-notes/{id}/withdraw -------------------------------------------------------

export function useWithdrawAbsenceNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/absence-notes/${id}/withdraw`, { method: 'POST', schema: AbsenceNoteAnswerSchema }),
    meta: BACKGROUND_QUERY,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ROOT }),
  });
}

// ---- GET /api/absence-notes/queue ----------------------------------------------------------------

/** The queue's address for a filter: only the filters set. */
export function queuePath(filter: AbsenceNoteQueueQuery): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined && value !== '') query.set(key, String(value));
  const text = query.toString();
  return `/api/absence-notes/queue${text ? `?${text}` : ''}`;
}

export function useAbsenceNoteQueue(filter: AbsenceNoteQueueQuery) {
  return useQuery({
    queryKey: [...ROOT, 'queue', filter],
    queryFn: ({ signal }) => apiRequest(queuePath(filter), { schema: AbsenceNoteQueueSchema, signal }),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

// ---- GET /api/absence-notes/{id} -----------------------------------------------------------------

export function useAbsenceNote(id: number | null) {
  return useQuery({
    queryKey: [...ROOT, 'note', id],
    queryFn: ({ signal }) => apiRequest(`/api/absence-notes/${id}`, { schema: AbsenceNoteDetailSchema, signal }),
    enabled: id !== null,
    staleTime: 0,
  });
}

// ---- POST /api/absence-notes/{id}/decision -------------------------------------------------------

export function useDecideAbsenceNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: DecideAbsenceNoteInput }) =>
      apiRequest(`/api/absence-notes/${id}/decision`, { method: 'POST', body: input, schema: AbsenceNoteAnswerSchema }),
    meta: BACKGROUND_QUERY,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ROOT }),
  });
}
