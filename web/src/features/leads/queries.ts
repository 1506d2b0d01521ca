// Leads: visitors who allowed identification and were identified (docs/identification.md). The list
// (['leads', 'list', search], keyset pages), the summary behind the dashboard's "Identified
// visitors" (['leads', 'summary', range]) and one lead with its timeline (['leads', websiteId,
// visitorId]). Every key starts with 'leads', so the live update the leads projection sends
// (`[['leads'], ['subscription']]`) refreshes all of them without a reload.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { getJson } from '../../lib/api';
import { buildLeadsQueryString, leadsPageSize, type LeadsSearch } from './search';

export type LeadSource = 'form' | 'call' | 'network';
export type LeadConsentStatus = 'granted' | 'withdrawn';
export type EnrichmentStatus = 'none' | 'pending' | 'enriched' | 'failed';

export interface LeadSummary {
  websiteId: string;
  websiteName: string;
  visitorId: string;
  email: string | null;
  name: string | null;
  /** From enrichment, the form, or the network's organisation. */
  company: string | null;
  title: string | null;
  /** How the visitor was first identified. */
  source: LeadSource | null;
  identifiedAt: string;
  firstSeen: string;
  lastSeen: string;
  pagesViewed: number;
  engagedSeconds: number;
  consentStatus: LeadConsentStatus;
  enrichmentStatus: EnrichmentStatus;
}

export interface LeadEnrichment {
  provider: string;
  enrichedAt: string;
  name: string | null;
  title: string | null;
  company: string | null;
  domain: string | null;
  industry: string | null;
  size: string | null;
  linkedinUrl: string | null;
  location: string | null;
}

export interface LeadDetail extends LeadSummary {
  network: { asn: number; organisation: string } | null;
  enrichment: LeadEnrichment | null;
  /** The choice the lead's identification rests on (or, once withdrawn, the one that withdrew it). */
  consentEventId: string;
  consentChangedAt: string;
  /** The consent proof: `/api/consents/{consentEventId}/receipt`. */
  receiptUrl: string;
}

export type TimelineKind = 'page_view' | 'consent' | 'identified' | 'company_matched' | 'enriched' | 'enrichment_failed';

export interface TimelineEntry {
  at: string;
  kind: TimelineKind;
  /**
   * page_view `{ url, title?, visibleMs?, actions? }`, consent `{ method, granted, eventId }`, identified `{ source, pageUrl }`,
   * company_matched `{ organisation }`, enriched `{ provider }`, enrichment_failed `{ reason }`.
   */
  detail: Record<string, unknown>;
}

export interface LeadsPage {
  leads: LeadSummary[];
  nextCursor: string | null;
}

export interface LeadWithTimeline {
  lead: LeadDetail;
  timeline: TimelineEntry[];
  /** Whether the server has an enrichment provider (ENRICHMENT_PROVIDER is not `off`). */
  enrichmentOn: boolean;
}

export interface LeadsSummary {
  /** Visitors identified in the range. */
  identified: number;
  /** Visitors who allowed identification in the range. */
  allowed: number;
  /** identified / allowed; null when nobody allowed identification. */
  rate: number | null;
  /** People first identified this month, each once per website (what is billed per resolution). */
  resolutionsThisMonth: number;
  /** Websites at 80 % of their monthly resolution cap or more (absent from an api that predates caps). */
  capAlerts?: ResolutionCapAlert[];
}

/** A website near (80 %+) or at its monthly resolution cap: the owner's alert. */
export interface ResolutionCapAlert {
  websiteId: string;
  websiteName: string;
  cap: number;
  resolutions: number;
  /** `reached`: new people are refused until the month ends. */
  level: 'near' | 'reached';
}

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

export function leadQueryOptions(websiteId: string, visitorId: string) {
  return queryOptions({
    queryKey: ['leads', websiteId, visitorId],
    queryFn: () => getJson<LeadWithTimeline>(`/api/leads/${encodeURIComponent(websiteId)}/${encodeURIComponent(visitorId)}`),
  });
}
