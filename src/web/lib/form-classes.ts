import { useQuery } from '@tanstack/react-query';
import { LOOKUPS } from '../../shared/lookups.schemas.js';
import { apiRequest } from './api-client.js';

/** The school's form classes, for the staff screens that choose one (reports, mark sheets). */
export function useFormClasses() {
  const { path, schema } = LOOKUPS.formClasses;
  return useQuery({
    queryKey: ['admin', 'form-classes'],
    queryFn: ({ signal }) => apiRequest(path, { schema, signal }),
    staleTime: 5 * 60_000,
  });
}
