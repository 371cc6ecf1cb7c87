import { queryOptions, useQuery } from '@tanstack/react-query';
import { RegistrationFormContentSchema, registrationFormContentUrl } from '../../shared/registration-form.schemas.js';
import { apiRequest } from '../lib/api-client.js';

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
