import { useQuery } from '@tanstack/react-query';
import { FamilyHomeSchema } from '../../shared/family-home.schemas.js';
import { apiRequest } from '../lib/api-client.js';

/** GET /api/family/home: a card per linked child in one call (D76). */
export function fetchFamilyHome() {
  return apiRequest('/api/family/home', { schema: FamilyHomeSchema });
}

/** The family's home cards; keyed by the linked children, so a child added or removed asks again. */
export function familyHomeQueryKey(childIds: readonly string[]) {
  return ['family-home', [...childIds].sort().join(',')] as const;
}

export function useFamilyHome(childIds: readonly string[]) {
  return useQuery({
    queryKey: familyHomeQueryKey(childIds),
    queryFn: fetchFamilyHome,
  });
}
