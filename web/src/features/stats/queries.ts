// Consent statistics read models: overall totals, per-website totals and daily counts for trends.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';

export interface ConsentStats {
  totalConsents: number;
  declinedConsents: number;
  consentRate: number;
}

export interface WebsiteStats {
  website: { id: string; domain: string; name?: string };
  totalConsents: number;
  consentRate: number;
}

/** One calendar day (UTC, `YYYY-MM-DD`) of consent choices. */
export interface DailyConsents {
  date: string;
  accepted: number;
  declined: number;
}

/** Days the Consent Trends chart shows: the default analytics range (spec section 9). */
export const trendWindowDays = 30;

export function consentStatsQueryOptions() {
  return queryOptions({
    queryKey: ['stats', 'consents'],
    queryFn: () => getJson<ConsentStats>('/api/stats/consents'),
  });
}

export function websiteStatsQueryOptions() {
  return queryOptions({
    queryKey: ['stats', 'websites'],
    queryFn: () => getJson<WebsiteStats[]>('/api/stats/websites'),
  });
}

export function dailyConsentStatsQueryOptions(days: number = trendWindowDays) {
  return queryOptions({
    queryKey: ['stats', 'consents', 'daily', days],
    queryFn: () => getJson<DailyConsents[]>(`/api/stats/consents/daily?days=${days}`),
  });
}
