// Site analytics of one website over a range of UTC days (GET /api/analytics/website/{id}) and its
// visitors and page views per day (…/daily). Keys start with ['analytics'], the prefix the api's live
// updates name when the analytics projection advances.
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

/** Unique visitors, page views and visits of each UTC day of a range, days without traffic as zeros. */
export type DailyAnalytics = ApiSchemas['DailyAnalytics']['days'][number];

export function dailyAnalyticsQueryOptions(websiteId: string, range: DateRange) {
  return queryOptions({
    queryKey: ['analytics', 'website', websiteId, 'daily', { startDate: range.startDate, endDate: range.endDate }],
    queryFn: async () => {
      const query = new URLSearchParams({ startDate: range.startDate, endDate: range.endDate });
      const answer = await getJson<ApiSchemas['DailyAnalytics']>(`/api/analytics/website/${encodeURIComponent(websiteId)}/daily?${query.toString()}`);
      return answer.days;
    },
  });
}
