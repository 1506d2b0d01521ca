// Leads: visitors who allowed identification and were identified (docs/identification.md). The list
// (['leads', 'list', search], keyset pages), the summary behind the dashboard's "Identified
// visitors" (['leads', 'summary', range]) and one lead with its timeline (['leads', websiteId,
// visitorId]). Every key starts with 'leads', so the live update the leads projection sends
// (`[['leads'], ['subscription']]`) refreshes all of them without a reload.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import { lastDaysRange, type DateRange } from '../analytics/date-range';
import type { ApiAnswer, ApiSchemas } from '../../lib/api-types';
import { buildLeadsQueryString, leadsPageSize, type LeadsSearch } from './search';

export type LeadSummary = ApiSchemas['LeadSummary'];
/** How the visitor was first identified. */
export type LeadSource = NonNullable<LeadSummary['source']>;
export type LeadConsentStatus = LeadSummary['consentStatus'];
export type EnrichmentStatus = LeadSummary['enrichmentStatus'];
/** `consentEventId`: the choice the identification rests on (or, once withdrawn, the one that withdrew it); `receiptUrl` its proof. */
export type LeadDetail = ApiSchemas['LeadDetail'];
export type LeadEnrichment = NonNullable<LeadDetail['enrichment']>;
/**
 * `detail`: page_view `{ url, title?, visibleMs?, actions? }`, consent `{ method, granted, eventId }`, identified `{ source, pageUrl }`,
 * company_matched `{ organisation }`, enriched `{ provider }`, enrichment_failed `{ reason }`.
 */
export type TimelineEntry = ApiSchemas['LeadTimelineEntry'];
export type TimelineKind = TimelineEntry['kind'];
export type LeadsPage = ApiSchemas['LeadsPage'];
/** `enrichmentOn`: whether the server has an enrichment provider (ENRICHMENT_PROVIDER is not `off`). */
export type LeadWithTimeline = ApiAnswer<'/api/leads/{websiteId}/{visitorId}'>;
/** `rate` identified / allowed, null when nobody allowed identification; `capAlerts` the websites at 80 % of their monthly resolution cap or more. */
export type LeadsSummary = ApiSchemas['LeadsSummary'];
/** A website near (80 %+) or at (`reached`: new people are refused until the month ends) its monthly resolution cap. */
export type ResolutionCapAlert = LeadsSummary['capAlerts'][number];

/** The leads matching the search, one keyset page at a time ("Load more" asks for the next). */
export function leadsQueryOptions(search: LeadsSearch) {
  return infiniteQueryOptions({
    queryKey: ['leads', 'list', search],
    queryFn: ({ pageParam }) => getJson<LeadsPage>(`/api/leads?${buildLeadsQueryString(search, { cursor: pageParam, limit: leadsPageSize })}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export interface LeadsSummaryRange {
  websiteId?: string;
  /** Inclusive UTC days, `YYYY-MM-DD`. */
  from?: string;
  to?: string;
}

export function leadsSummaryQueryOptions(range: LeadsSummaryRange = {}) {
  const params = new URLSearchParams();
  if (range.websiteId) params.set('websiteId', range.websiteId);
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  const query = params.toString();
  return queryOptions({
    queryKey: ['leads', 'summary', { websiteId: range.websiteId ?? null, from: range.from ?? null, to: range.to ?? null }],
    queryFn: () => getJson<LeadsSummary>(`/api/leads/summary${query ? `?${query}` : ''}`),
  });
}

/** The days the dashboard's "Identified visitors" card measures: the dashboard's trend window. */
export const identifiedVisitorsDays = 30;

/** That card's summary, over the last `identifiedVisitorsDays` UTC days, today included. */
export function identifiedVisitorsQueryOptions(range: DateRange = lastDaysRange(identifiedVisitorsDays)) {
  return leadsSummaryQueryOptions({ from: range.startDate, to: range.endDate });
}

export function leadQueryOptions(websiteId: string, visitorId: string) {
  return queryOptions({
    queryKey: ['leads', websiteId, visitorId],
    queryFn: () => getJson<LeadWithTimeline>(`/api/leads/${encodeURIComponent(websiteId)}/${encodeURIComponent(visitorId)}`),
  });
}
