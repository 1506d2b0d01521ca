// Site analytics of one website over a range of UTC days (GET /api/analytics/website/{id}). Keys start
// with ['analytics'], the prefix the api's live updates name when the analytics projection advances.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiSchemas } from '../../lib/api-types';
import type { DateRange } from './date-range';

/** Spec section 3 "Site analytics"; definitions in docs/analytics.md. */
export type SiteAnalytics = ApiSchemas['SiteAnalytics'];

export function siteAnalyticsQueryOptions(websiteId: string, range: DateRange) {
  return queryOptions({
    queryKey: ['analytics', 'website', websiteId, { startDate: range.startDate, endDate: range.endDate }],
    queryFn: () => {
      const query = new URLSearchParams({ startDate: range.startDate, endDate: range.endDate });
      return getJson<SiteAnalytics>(`/api/analytics/website/${encodeURIComponent(websiteId)}?${query.toString()}`);
    },
  });
}
