// Consent statistics read models: overall totals, per-website totals, daily counts for trends and
// acceptance per purpose.
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import type { ApiAnswer, ApiSchemas } from '../../lib/api-types';

export type ConsentStats = ApiSchemas['ConsentStats'];
export type WebsiteStats = ApiAnswer<'/api/stats/websites'>[number];
/** One calendar day (UTC, `YYYY-MM-DD`) of consent choices. */
export type DailyConsents = ApiAnswer<'/api/stats/consents/daily'>[number];

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

/** GET /api/stats/purposes: acceptance per purpose and how the choices were made. */
export type PurposeStats = ApiSchemas['PurposeStats'];
/** Acceptance of one purpose: of the choices whose banner asked for it, how many granted it (`acceptanceRate` in percent, null when never asked). */
export type PurposeAcceptance = PurposeStats['purposes'][number];

/** Over one website, or every website of the viewer without one; over the last `days` UTC days, or all time. */
export function purposeStatsQueryOptions({ websiteId, days }: { websiteId?: string; days?: number } = {}) {
  const search = new URLSearchParams();
  if (websiteId !== undefined) search.set('websiteId', websiteId);
  if (days !== undefined) search.set('days', String(days));
  const query = search.toString() ? `?${search.toString()}` : '';
  return queryOptions({
    queryKey: ['stats', 'purposes', { websiteId: websiteId ?? null, days: days ?? null }],
    queryFn: () => getJson<PurposeStats>(`/api/stats/purposes${query}`),
  });
}
