// The leads projection's logic without I/O: folds a batch of events, in log order, into the leads it
// touches and what the batch adds to the timeline, the resolutions and the daily counts; deterministic
// for any batch size. The rules: docs/identification.md, "The leads read model's rules".
import {
  allowsIdentification,
  grantedList,
  type EngagementKind,
  type EnrichmentDetails,
  type IdentificationSource,
} from '@consentry/events';
import type { StoredEvent } from '@consentry/infra';
import { utcDayOf } from '../consent-stats/projection';

export const leadInputTypes = [
  'ConsentGiven',
  'ConsentDeclined',
  'PageViewed',
  'PageHidden',
  'EngagementRecorded',
  'VisitorIdentified',
  'CompanyMatched',
  'LeadEnriched',
  'EnrichmentFailed',
] as const satisfies readonly StoredEvent['type'][];
export type LeadInputEvent = Extract<StoredEvent, { type: (typeof leadInputTypes)[number] }>;

export function isLeadInput(event: StoredEvent): event is LeadInputEvent {
  return (leadInputTypes as readonly string[]).includes(event.type);
}

/** Page views of a lead whose time on page and engagement are still tracked (oldest dropped first). */
export const maxRecentPages = 50;

export type LeadConsentStatus = 'granted' | 'withdrawn';
export type LeadEnrichmentStatus = 'none' | 'pending' | 'enriched' | 'failed';
export type LeadIdentificationSource = IdentificationSource | 'network';

/** A recent page view: its id, its timeline position, the largest visibleMs so far, its engagement kinds. */
export type RecentPage = [pageviewId: string, position: number, visibleMs: number, actions: EngagementKind[]];

/** One visitor on one website, as stored in `leads` (times as ISO strings). */
export interface LeadState {
  readonly websiteId: string;
  readonly visitorId: string;
  consentStatus: LeadConsentStatus;
  consentEventId: string;
  consentChangedAt: string;
  email: string | null;
  name: string | null;
  company: string | null;
  identificationSource: LeadIdentificationSource | null;
  identifiedAt: string | null;
  selfIdentified: boolean;
  networkAsn: number | null;
  networkOrganisation: string | null;
  enrichmentStatus: LeadEnrichmentStatus;
  enrichment: EnrichmentDetails | null;
  enrichmentProvider: string | null;
  enrichedAt: string | null;
  firstSeen: string;
  lastSeen: string;
  pagesViewed: number;
  engagedMs: number;
  recentPages: RecentPage[];
}

export type LeadTimelineKind = 'page_view' | 'consent' | 'identified' | 'company_matched' | 'enriched' | 'enrichment_failed';

export interface TimelineEntry {
  readonly websiteId: string;
  readonly visitorId: string;
  readonly position: number;
  readonly eventId: string;
  readonly at: string;
  readonly kind: LeadTimelineKind;
  detail: Record<string, unknown>;
}

/** A change to a page view's timeline entry written before this batch. */
export interface PageViewPatch {
  readonly websiteId: string;
  readonly visitorId: string;
  readonly position: number;
  visibleMs: number;
  actions: EngagementKind[];
}

export interface DailyDelta {
  readonly websiteId: string;
  readonly day: string;
  allowed: number;
  identified: number;
}

export interface Resolution {
  readonly websiteId: string;
  readonly visitorId: string;
  /** First day of the UTC month, `YYYY-MM-01`. */
  readonly month: string;
  readonly resolvedAt: string;
  /** The person resolved: the first email the visitor gave that month; null while only their network is known. */
  email: string | null;
}

export interface LeadDeltas {
  readonly timeline: TimelineEntry[];
  readonly pagePatches: Map<string, PageViewPatch>;
  readonly resolutions: Map<string, Resolution>;
  readonly daily: Map<string, DailyDelta>;
}

export const leadKeyOf = (websiteId: string, visitorId: string): string => `${websiteId}|${visitorId}`;

/** Visitors as two parallel arrays (for `unnest($1::uuid[], $2::text[])`), each once. */
export interface VisitorKeys {
  readonly websiteIds: string[];
  readonly visitorIds: string[];
}

export function visitorKeysOf(pairs: Iterable<readonly [websiteId: string, visitorId: string]>): VisitorKeys {
  const seen = new Set<string>();
  const keys: VisitorKeys = { websiteIds: [], visitorIds: [] };
  for (const [websiteId, visitorId] of pairs) {
    const key = leadKeyOf(websiteId, visitorId);
    if (seen.has(key)) continue;
    seen.add(key);
    keys.websiteIds.push(websiteId);
    keys.visitorIds.push(visitorId);
  }
  return keys;
}

export const utcMonthOf = (isoDateTime: string): string => `${utcDayOf(isoDateTime).slice(0, 7)}-01`;

export function emptyLeadDeltas(): LeadDeltas {
  return { timeline: [], pagePatches: new Map(), resolutions: new Map(), daily: new Map() };
}

/** The company a lead shows: what enrichment found, else what the form said, else the network's organisation. */
export function displayCompanyOf(lead: Pick<LeadState, 'enrichment' | 'company' | 'networkOrganisation'>): string | null {
  return lead.enrichment?.company ?? lead.company ?? lead.networkOrganisation ?? null;
}

/**
 * What the list searches and sorts by (lower-case): the email, the name (the form's, else
 * enrichment's) and the company shown, in that order — so it starts with the email when there is one.
 * null when none is known.
 */
export function searchTextOf(lead: Pick<LeadState, 'email' | 'name' | 'company' | 'enrichment' | 'networkOrganisation'>): string | null {
  const parts = [lead.email, lead.name ?? lead.enrichment?.name ?? null, displayCompanyOf(lead)].filter(
    (part): part is string => part !== null && part.trim() !== '',
  );
  return parts.length === 0 ? null : parts.join(' ').toLowerCase();
}

const later = (current: string, candidate: string): string => (Date.parse(candidate) > Date.parse(current) ? candidate : current);

function newLead(websiteId: string, visitorId: string, consentEventId: string, at: string): LeadState {
  return {
    websiteId,
    visitorId,
    consentStatus: 'granted',
    consentEventId,
    consentChangedAt: at,
    email: null,
    name: null,
    company: null,
    identificationSource: null,
    identifiedAt: null,
    selfIdentified: false,
    networkAsn: null,
    networkOrganisation: null,
    enrichmentStatus: 'none',
    enrichment: null,
    enrichmentProvider: null,
    enrichedAt: null,
    firstSeen: at,
    lastSeen: at,
    pagesViewed: 0,
    engagedMs: 0,
    recentPages: [],
  };
}

/**
 * Applies `events` (in log order) to the leads in `leads` (keyed by leadKeyOf; visitors who allow
 * identification for the first time are added there) and returns what to add to the other tables,
 * with the keys of the leads that changed.
 */
export function foldLeadEvents(
  events: readonly StoredEvent[],
  leads: Map<string, LeadState>,
  deltas: LeadDeltas = emptyLeadDeltas(),
): { deltas: LeadDeltas; changed: Set<string> } {
  const changed = new Set<string>();
  // Timeline entries of this batch by lead and position, so a PageHidden edits the entry itself.
  const newEntries = new Map<string, TimelineEntry>();

  const addEntry = (lead: LeadState, event: StoredEvent, at: string, kind: LeadTimelineKind, detail: Record<string, unknown>) => {
    const entry: TimelineEntry = { websiteId: lead.websiteId, visitorId: lead.visitorId, position: event.position, eventId: event.eventId, at, kind, detail };
    deltas.timeline.push(entry);
    newEntries.set(`${leadKeyOf(lead.websiteId, lead.visitorId)}|${event.position}`, entry);
  };
  const daily = (websiteId: string, at: string): DailyDelta => {
    const day = utcDayOf(at);
    const id = `${websiteId}|${day}`;
    let row = deltas.daily.get(id);
    if (row === undefined) deltas.daily.set(id, (row = { websiteId, day, allowed: 0, identified: 0 }));
    return row;
  };
  const identify = (lead: LeadState, at: string, source: LeadIdentificationSource, email: string | null) => {
    if (lead.identifiedAt === null) {
      lead.identifiedAt = at;
      lead.identificationSource = source;
      daily(lead.websiteId, at).identified++;
    }
    const month = utcMonthOf(at);
    const id = `${lead.websiteId}|${month}|${lead.visitorId}`;
    const resolution = deltas.resolutions.get(id);
    if (resolution === undefined) deltas.resolutions.set(id, { websiteId: lead.websiteId, visitorId: lead.visitorId, month, resolvedAt: at, email });
    // A visitor first known by their network is the person they say they are once they do.
    else if (resolution.email === null) resolution.email = email;
  };
  const updatePage = (lead: LeadState, page: RecentPage) => {
    const entry = newEntries.get(`${leadKeyOf(lead.websiteId, lead.visitorId)}|${page[1]}`);
    if (entry) {
      entry.detail = pageViewDetail(entry.detail, page);
      return;
    }
    deltas.pagePatches.set(`${leadKeyOf(lead.websiteId, lead.visitorId)}|${page[1]}`, {
      websiteId: lead.websiteId,
      visitorId: lead.visitorId,
      position: page[1],
      visibleMs: page[2],
      actions: [...page[3]],
    });
  };

  for (const event of events) {
    if (!isLeadInput(event)) continue;
    const key = leadKeyOf(event.data.websiteId, event.data.visitorId);
    const lead = leads.get(key);
    switch (event.type) {
      case 'ConsentGiven':
      case 'ConsentDeclined': {
        const data = event.data;
        const allowed = allowsIdentification(data);
        let target = lead;
        if (target === undefined) {
          // Nobody is followed before they allow identification; a choice that does not allow it
          // leaves no trace here.
          if (!allowed) break;
          target = newLead(data.websiteId, data.visitorId, event.eventId, data.receivedAt);
          leads.set(key, target);
          daily(data.websiteId, data.receivedAt).allowed++;
        } else {
          target.consentStatus = allowed ? 'granted' : 'withdrawn';
          target.consentEventId = event.eventId;
          target.consentChangedAt = data.receivedAt;
          target.lastSeen = later(target.lastSeen, data.receivedAt);
          // Withdrawal cancels the queued enrichment: none is coming any more.
          if (!allowed && target.enrichmentStatus === 'pending') target.enrichmentStatus = 'none';
        }
        addEntry(target, event, data.receivedAt, 'consent', { method: data.method, granted: grantedList(data.purposes), eventId: event.eventId });
        changed.add(key);
        break;
      }
      case 'PageViewed': {
        if (lead?.consentStatus !== 'granted') break;
        const { pageviewId, url, title, receivedAt } = event.data;
        lead.pagesViewed++;
        lead.lastSeen = later(lead.lastSeen, receivedAt);
        lead.recentPages.push([pageviewId, event.position, 0, []]);
        if (lead.recentPages.length > maxRecentPages) lead.recentPages.splice(0, lead.recentPages.length - maxRecentPages);
        addEntry(lead, event, receivedAt, 'page_view', pageViewDetail(title === null ? { url } : { url, title }, [pageviewId, event.position, 0, []]));
        changed.add(key);
        break;
      }
      case 'PageHidden': {
        if (lead?.consentStatus !== 'granted') break;
        const page = lead.recentPages.find(([pageviewId]) => pageviewId === event.data.pageviewId);
        // Each PageHidden carries the page's running total: the lead gains what it adds.
        if (page === undefined || event.data.visibleMs <= page[2]) break;
        lead.engagedMs += event.data.visibleMs - page[2];
        page[2] = event.data.visibleMs;
        updatePage(lead, page);
        changed.add(key);
        break;
      }
      case 'EngagementRecorded': {
        if (lead?.consentStatus !== 'granted') break;
        const page = lead.recentPages.find(([pageviewId]) => pageviewId === event.data.pageviewId);
        if (page === undefined || page[3].includes(event.data.kind)) break;
        page[3].push(event.data.kind);
        updatePage(lead, page);
        changed.add(key);
        break;
      }
      case 'VisitorIdentified': {
        if (lead?.consentStatus !== 'granted') break;
        const { email, name, company, source, pageUrl, receivedAt } = event.data;
        // What a later form leaves out, an earlier one may have said.
        lead.email = email ?? lead.email;
        lead.name = name ?? lead.name;
        lead.company = company ?? lead.company;
        lead.selfIdentified = true;
        identify(lead, receivedAt, source, email);
        // The enrichment queue takes every identification with an email.
        if (email !== null && lead.enrichmentStatus !== 'enriched') lead.enrichmentStatus = 'pending';
        lead.lastSeen = later(lead.lastSeen, receivedAt);
        addEntry(lead, event, receivedAt, 'identified', { source, pageUrl });
        changed.add(key);
        break;
      }
      case 'CompanyMatched': {
        if (lead?.consentStatus !== 'granted') break;
        const { asn, organisation, matchedAt } = event.data;
        lead.networkAsn = asn;
        lead.networkOrganisation = organisation;
        // The network identifies a visitor only until they say who they are.
        if (!lead.selfIdentified) identify(lead, matchedAt, 'network', null);
        if (organisation !== null && lead.enrichmentStatus !== 'enriched') lead.enrichmentStatus = 'pending';
        lead.lastSeen = later(lead.lastSeen, matchedAt);
        addEntry(lead, event, matchedAt, 'company_matched', { organisation });
        changed.add(key);
        break;
      }
      case 'LeadEnriched': {
        if (lead?.consentStatus !== 'granted') break;
        const { provider, details, enrichedAt } = event.data;
        lead.enrichmentStatus = 'enriched';
        lead.enrichment = details;
        lead.enrichmentProvider = provider;
        lead.enrichedAt = enrichedAt;
        addEntry(lead, event, enrichedAt, 'enriched', { provider });
        changed.add(key);
        break;
      }
      case 'EnrichmentFailed': {
        if (lead === undefined) break;
        const { reason, failedAt } = event.data;
        // Details found earlier stand when a later job fails.
        if (lead.enrichmentStatus !== 'enriched') lead.enrichmentStatus = 'failed';
        addEntry(lead, event, failedAt, 'enrichment_failed', { reason });
        changed.add(key);
        break;
      }
      default: {
        const unhandled: never = event;
        throw new Error(`leads: unhandled event ${(unhandled as StoredEvent).type}`);
      }
    }
  }
  return { deltas, changed };
}

/** A page view's timeline detail with its time on page (and engagement, once there is any). */
export function pageViewDetail(detail: Record<string, unknown>, page: RecentPage): Record<string, unknown> {
  const { actions: _actions, ...rest } = detail;
  return page[3].length > 0 ? { ...rest, visibleMs: page[2], actions: [...page[3]] } : { ...rest, visibleMs: page[2] };
}
