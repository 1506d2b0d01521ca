// Individual consent records, newest first.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiSchemas } from '../../lib/api-types';

/** One choice: the purposes its banner asked for and those granted (canonical order), the method, and the regional rule that applied. */
export type ConsentRecord = ApiSchemas['ConsentRecord'];

/** Dashboard page size (spec section 9). */
export const recentConsentsLimit = 10;

export function recentConsentsQueryOptions(limit: number = recentConsentsLimit) {
  return queryOptions({
    queryKey: ['consents', { limit }],
    queryFn: () => getJson<ConsentRecord[]>(`/api/consents?limit=${limit}`),
  });
}
