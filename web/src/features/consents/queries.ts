// Individual consent records, newest first.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';

export interface ConsentRecord {
  id: string;
  websiteId: string;
  timestamp: string;
  consentChoice: string;
  country?: string | null;
  city?: string | null;
  email?: string | null;
  ipAddress?: string | null;
}

/** Dashboard page size (spec section 9). */
export const recentConsentsLimit = 10;

export function recentConsentsQueryOptions(limit: number = recentConsentsLimit) {
  return queryOptions({
    queryKey: ['consents', { limit }],
    queryFn: () => getJson<ConsentRecord[]>(`/api/consents?limit=${limit}`),
  });
}
