// How leads read on screen: names, statuses, sources, the identification rate against the landing
// page's claim, and a line per timeline entry. Pure, so the wording is tested without rendering.
import { formatDuration, formatNumber, formatRate } from '../../lib/format';
import { consentMethodLabels, formatPurposeList, type ConsentMethod } from '../../lib/purposes';
import type { EnrichmentStatus, LeadConsentStatus, LeadSource, LeadSummary, LeadsSummary, TimelineEntry, TimelineKind } from './queries';

/** The claim the landing page makes (spec sections 1 and 9), shown beside the measured rate, never instead of it. */
export const landingIdentificationClaim = 'up to 40%';

export const consentStatusLabels: Record<LeadConsentStatus, string> = { granted: 'Allowed', withdrawn: 'Withdrawn' };

/** A pending enrichment on a server without a provider: it will not come. */
export const enrichmentOffLabel = 'Enrichment off';

export const enrichmentStatusLabels: Record<EnrichmentStatus, string> = {
  none: 'Not enriched',
  pending: 'Pending',
  enriched: 'Enriched',
  failed: 'Failed',
};

export const leadSourceLabels: Record<LeadSource, string> = {
  form: 'Form',
  call: 'Consentry.identify',
  network: 'Company network',
};

/** Who the lead is, as a heading: their name, else their email, else their company. */
export function getLeadDisplayName(lead: Pick<LeadSummary, 'name' | 'email' | 'company'>): string {
  return lead.name?.trim() || lead.email || lead.company?.trim() || 'Unnamed lead';
}

export function formatLeadSource(source: LeadSource | null): string {
  return source ? leadSourceLabels[source] : '—';
}

/** Seconds engaged as a person reads them; nothing engaged reads `0s`. */
export function formatEngagement(seconds: number): string {
  return formatDuration(seconds);
}

/** identified ÷ allowed in percent, computed from the counts the api measured; null when nobody allowed it. */
export function getIdentificationRate(summary: Pick<LeadsSummary, 'identified' | 'allowed'>): number | null {
  if (summary.allowed <= 0) return null;
  return Math.min(100, (summary.identified / summary.allowed) * 100);
}

/**
 * The dashboard's sentence: the owner's own measured rate first, then what the landing page says.
 * Without visitors who allowed identification there is no rate to show, and none is made up.
 */
export function describeIdentificationRate(summary: Pick<LeadsSummary, 'identified' | 'allowed'>): string {
  const rate = getIdentificationRate(summary);
  if (rate === null) return `No measured rate yet: no visitor has allowed identification · the landing page says ${landingIdentificationClaim}`;
  return `Your rate: ${formatRate(rate)} · the landing page says ${landingIdentificationClaim}`;
}

/** `12 of 52 visitors who allowed identification`. */
export function describeIdentificationCounts(summary: Pick<LeadsSummary, 'identified' | 'allowed'>): string {
  return `${formatNumber(summary.identified)} of ${formatNumber(summary.allowed)} ${summary.allowed === 1 ? 'visitor' : 'visitors'} who allowed identification`;
}

/**
 * The visitors counted as having allowed identification who have withdrawn it since: they stay in
 * the count (it is history: who allowed it in the period), and the sentence says so. Null when none.
 */
export function describeWithdrawnSince(summary: Pick<LeadsSummary, 'allowed' | 'withdrawn'>): string | null {
  if (summary.withdrawn <= 0) return null;
  return `${formatNumber(summary.withdrawn)} of those ${formatNumber(summary.allowed)} ${summary.withdrawn === 1 ? 'has' : 'have'} withdrawn it since.`;
}

export const enrichmentFailureLabels: Record<string, string> = {
  not_found: 'The provider found no details for this lead.',
  deadline: 'The provider gave no answer within 24 hours.',
  rejected: 'The provider refused the request.',
  withdrawn: 'The visitor withdrew identification first.',
};

export interface TimelineLine {
  title: string;
  /** A second line (a page address, the purposes granted); null for none. */
  detail: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim().length > 0 ? value : null);

/** One timeline entry as a title and an optional detail line. */
export function describeTimelineEntry(entry: TimelineEntry): TimelineLine {
  const detail = entry.detail;
  const kind: TimelineKind = entry.kind;
  switch (kind) {
    case 'page_view': {
      const url = text(detail.url);
      const title = text(detail.title);
      const visibleMs = typeof detail.visibleMs === 'number' && detail.visibleMs > 0 ? detail.visibleMs : null;
      const parts = [title ? url : null, visibleMs === null ? null : `${formatDuration(visibleMs / 1000)} on the page`].filter(Boolean);
      return { title: `Viewed ${title ?? url ?? 'a page'}`, detail: parts.length > 0 ? parts.join(' · ') : null };
    }
    case 'consent': {
      const granted = Array.isArray(detail.granted) ? detail.granted.filter((item): item is string => typeof item === 'string') : [];
      const method = text(detail.method);
      const how = method && method in consentMethodLabels ? consentMethodLabels[method as ConsentMethod] : method;
      const purposes = formatPurposeList(granted);
      return {
        title: granted.includes('identification') ? 'Allowed identification' : 'Did not allow identification',
        detail: [how, purposes ? `Granted: ${purposes}` : 'Granted: necessary only'].filter(Boolean).join(' · '),
      };
    }
    case 'identified': {
      const source = text(detail.source);
      return {
        title: source === 'call' ? 'Identified by the site (Consentry.identify)' : 'Identified from a form',
        detail: text(detail.pageUrl),
      };
    }
    case 'company_matched':
      return { title: `Company matched from the network: ${text(detail.organisation) ?? 'unknown organisation'}`, detail: null };
    case 'enriched':
      return { title: `Enriched by ${text(detail.provider) ?? 'the provider'}`, detail: null };
    case 'enrichment_failed': {
      const reason = text(detail.reason);
      return { title: 'Enrichment failed', detail: reason ? (enrichmentFailureLabels[reason] ?? reason) : null };
    }
    default: {
      const unknown: never = kind;
      return { title: String(unknown), detail: null };
    }
  }
}

/** Newest first, whatever order the api sent; entries at the same instant keep theirs. */
export function sortTimelineNewestFirst(entries: readonly TimelineEntry[]): TimelineEntry[] {
  return entries
    .map((entry, index) => ({ entry, index, time: Date.parse(entry.at) }))
    .sort((a, b) => (b.time || 0) - (a.time || 0) || a.index - b.index)
    .map(({ entry }) => entry);
}

/** Only http(s) addresses become links (a profile URL from a provider is not trusted to be one). */
export function getSafeExternalUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
