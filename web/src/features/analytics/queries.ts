// Site analytics of one website over a range of UTC days (GET /api/analytics/website/{id}). Keys start
// with ['analytics'], the prefix the api's live updates name when the analytics projection advances.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { DateRange } from './date-range';

/** Spec section 3 "Site analytics"; definitions in docs/analytics.md. */
export interface SiteAnalytics {
  uniqueVisitors: number;
  totalPageviews: number;
  pagesPerVisit: number;
  /** Whole seconds. */
  avgTimeOnSite: number;
  /** Percent, one decimal. */
  bounceRate: number;
  topPages: { url: string; views: number }[];
  topReferrers: { domain: string; visits: number }[];
  mobileEngagement: {
    locationMapViews: number;
    hoursOperationViews: number;
    contactFormSubmissions: number;
    tapToCallActions: number;
  };
  deviceBreakdown: Record<string, number>;
}

export function siteAnalyticsQueryOptions(websiteId: string, range: DateRange) {
  return queryOptions({
    queryKey: ['analytics', 'website', websiteId, { startDate: range.startDate, endDate: range.endDate }],
    queryFn: () => {
      const query = new URLSearchParams({ startDate: range.startDate, endDate: range.endDate });
      return getJson<SiteAnalytics>(`/api/analytics/website/${encodeURIComponent(websiteId)}?${query.toString()}`);
    },
  });
}
