import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { RegistrationFormContentSchema, registrationFormContentUrl } from '../../shared/registration-form.schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { sessionQuery } from '../lib/session.js';
import { registrationStudentOf, studentRecordQuery } from './registration.api.js';

// ---- GET /api/registration-form/{studentId}/content (D75) -------------------------------------

/** The registration form's content, as of the record's `updated_at` (a change asks again). */
export function registrationFormContentQuery(studentId: string, version: string) {
  return queryOptions({
    queryKey: ['registration-form-content', studentId, version] as const,
    queryFn: ({ signal }) => apiRequest(registrationFormContentUrl(studentId), { schema: RegistrationFormContentSchema, signal }),
  });
}

export function useRegistrationFormContent(studentId: string, version: string) {
  return useQuery(registrationFormContentQuery(studentId, version));
}

/**
 * The Complete step's data: the form's content as of the record the registration frame loads (the
 * same query, so one read). A failure is left to the screen, which says what went wrong.
 */
export async function loadCompleteStep(queryClient: QueryClient, url: URL): Promise<null> {
  const { user } = await queryClient.ensureQueryData(sessionQuery);
  const studentId = registrationStudentOf(user, url.searchParams);
  if (!studentId) return null;
  try {
    const record = await queryClient.ensureQueryData(studentRecordQuery(studentId));
    await queryClient.ensureQueryData(registrationFormContentQuery(studentId, record.updated_at));
  } catch {
    // The screen asks again and says what went wrong.
  }
  return null;
}
