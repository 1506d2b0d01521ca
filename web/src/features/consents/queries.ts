// Individual consent records, newest first.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ConsentMethod, OptionalPurpose } from '../../lib/purposes';

export interface ConsentRecord {
  id: string;
  websiteId: string;
  timestamp: string;
  consentChoice: string;
  country?: string | null;
  city?: string | null;
  email?: string | null;
  ipAddress?: string | null;
  /** The optional purposes the banner asked for, and those the visitor granted (canonical order). */
  offeredPurposes?: OptionalPurpose[];
  grantedPurposes?: OptionalPurpose[];
  method?: ConsentMethod;
  /** The regional rule that applied (`opt_in`, `opt_out`, `notice_only`) and the region it was for. */
  rule?: string;
  region?: string | null;
}

/** Dashboard page size (spec section 9). */
export const recentConsentsLimit = 10;

export function recentConsentsQueryOptions(limit: number = recentConsentsLimit) {
  return queryOptions({
    queryKey: ['consents', { limit }],
    queryFn: () => getJson<ConsentRecord[]>(`/api/consents?limit=${limit}`),
  });
}
