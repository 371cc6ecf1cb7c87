import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DocumentQueueSchema,
  OfficeStudentReviewSchema,
  RegistrationReviewAnswerSchema,
  RegistrationReviewSchema,
  ReviewDocumentAnswerSchema,
  type DocumentQueueQuery,
  type ReturnRegistrationInput,
  type ReviewDocumentInput,
  type VerifyRegistrationInput,
} from '../../shared/review.schemas.js';
import { ReRegistrationChangesSchema } from '../../shared/re-registration.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';

/** The office's review calls: one fetcher and one hook per call. */

// ---- GET /api/review/documents -----------------------------------------------------------------

export const queueKey = (filter: DocumentQueueQuery) => ['review', 'documents', filter.class_id ?? '', filter.file_type ?? ''] as const;

export function useDocumentQueue(filter: DocumentQueueQuery) {
  const query = new URLSearchParams();
  if (filter.class_id) query.set('class_id', filter.class_id);
  if (filter.file_type) query.set('file_type', filter.file_type);
  const text = query.toString();
  return useQuery({
    queryKey: queueKey(filter),
    queryFn: ({ signal }) => apiRequest(`/api/review/documents${text ? `?${text}` : ''}`, { schema: DocumentQueueSchema, signal }),
    staleTime: 0,
  });
}

// ---- POST /api/review/documents/{publicId} -----------------------------------------------------

export function useReviewDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ publicId, input }: { publicId: string; input: ReviewDocumentInput }) =>
      apiRequest(`/api/review/documents/${encodeURIComponent(publicId)}`, { method: 'POST', body: input, schema: ReviewDocumentAnswerSchema }),
    meta: BACKGROUND_QUERY,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['review'] });
      // The student's Documents dialog shows each file's review too.
      void queryClient.invalidateQueries({ queryKey: ['documents'] });
    },
  });
}

// ---- GET /api/registration-review/{studentId} (the office's view) -------------------------------

export function useRegistrationState(studentId: string) {
  return useQuery({
    queryKey: ['review', 'registration', studentId],
    queryFn: ({ signal }) => apiRequest(`/api/registration-review/${encodeURIComponent(studentId)}`, { schema: RegistrationReviewSchema, signal }),
    staleTime: 0,
  });
}

// ---- POST /api/review/registrations/{studentId}/verify | return | reopen -----------------------

export type RegistrationDecision = { action: 'verify'; input: VerifyRegistrationInput } | { action: 'reopen' } | { action: 'return'; input: ReturnRegistrationInput };

export function useDecideRegistration(studentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: RegistrationDecision) =>
      apiRequest(`/api/review/registrations/${encodeURIComponent(studentId)}/${decision.action}`, {
        method: 'POST',
        body: decision.action === 'reopen' ? {} : decision.input,
        schema: RegistrationReviewAnswerSchema,
      }),
    meta: BACKGROUND_QUERY,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['review'] });
      void queryClient.invalidateQueries({ queryKey: ['students'] });
    },
  });
}

// ---- GET /api/review/re-registrations/{studentId} ------------------------------------

/** What changed in the record since its re-registration opened, and its steps. */
export function useReRegistrationChanges(studentId: string) {
  return useQuery({
    queryKey: ['review', 're-registration', studentId],
    queryFn: ({ signal }) => apiRequest(`/api/review/re-registrations/${encodeURIComponent(studentId)}`, { schema: ReRegistrationChangesSchema, signal }),
    staleTime: 0,
  });
}

// ---- GET /api/review/students/{studentId} --------------------------------------------------------

export const officeStudentKey = (studentId: string) => ['review', 'student', studentId] as const;

/** The office's view of one student: each document's decision (who, when) and whom a message reaches. */
export function useOfficeStudentReview(studentId: string) {
  return useQuery({
    queryKey: officeStudentKey(studentId),
    queryFn: ({ signal }) => apiRequest(`/api/review/students/${encodeURIComponent(studentId)}`, { schema: OfficeStudentReviewSchema, signal }),
    staleTime: 0,
  });
}

/** The printable notice for the family (PDF): the returned record and each returned document. */
export const familyNoticeUrl = (studentId: string) => `/api/review/students/${encodeURIComponent(studentId)}/notice`;
