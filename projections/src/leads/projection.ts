// The leads projection (async; docs/identification.md): one row per visitor who allowed
// identification on a website, their timeline, the monthly resolutions behind usage and billing, and
// per-day counts for the identification rate. A batch loads the leads it touches, folds in memory
// (fold.ts), then writes the changed leads and what the batch added with one statement per table.
//
// Purge and erasure (Projection.purged / rewritten) rebuild each lead they touch from the log, so the
// read model is what a replay of the log as it now stands gives: the lead's own timeline names every
// event that ever changed it (by position), those events are read again (an erasure's rewritten
// versions; a purge's removed ones are gone), and folded from nothing — a lead whose every allowing
// choice was purged disappears, with its resolutions and daily counts. Time on page and engagement
// come from the timeline entries of the page views (a PageHidden always follows its PageViewed, so a
// retention purge, which removes a visitor's oldest events, never keeps one without the other).
import { eventColumns, toStoredEvent, type DbTransaction, type EventRow, type StoredEvent } from '@consentry/infra';
import type { EngagementKind, EnrichmentDetails } from '@consentry/events';
import type { Projection } from '../projection';
import {
  displayCompanyOf,
  emptyLeadDeltas,
  foldLeadEvents,
  isLeadInput,
  leadInputTypes,
  leadKeyOf,
  pageViewDetail,
  searchTextOf,
  type DailyDelta,
  type LeadConsentStatus,
  type LeadDeltas,
  type LeadEnrichmentStatus,
  type LeadIdentificationSource,
  type LeadState,
  type LeadTimelineKind,
  type RecentPage,
  type VisitorKeys,
  visitorKeysOf,
} from './fold';

/** Every table of the leads read model. */
export const leadsTables = ['leads', 'lead_timeline', 'lead_resolutions', 'lead_daily'] as const;

const instant = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ${column}`;

interface LeadRow {
  website_id: string;
  visitor_id: string;
  consent_status: LeadConsentStatus;
  consent_event_id: string;
  consent_changed_at: string;
  email: string | null;
  name: string | null;
  company: string | null;
  identification_source: LeadIdentificationSource | null;
  identified_at: string | null;
  self_identified: boolean;
  network_asn: number | null;
  network_organisation: string | null;
  enrichment_status: LeadEnrichmentStatus;
  enrichment: EnrichmentDetails | null;
  enrichment_provider: string | null;
  enriched_at: string | null;
  first_seen: string;
  last_seen: string;
  pages_viewed: number;
  engaged_ms: number;
  recent_pages: RecentPage[];
}

const ofVisitors = `(website_id, visitor_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))`;

async function loadLeads(tx: DbTransaction, keys: VisitorKeys): Promise<Map<string, LeadState>> {
  const leads = new Map<string, LeadState>();
  if (keys.websiteIds.length === 0) return leads;
  const { rows } = await tx.query<LeadRow>({
    name: 'leads-load',
    text: `SELECT website_id, visitor_id, consent_status, consent_event_id, ${instant('consent_changed_at')}, email, name, company,
                  identification_source, ${instant('identified_at')}, self_identified, network_asn, network_organisation,
                  enrichment_status, enrichment, enrichment_provider, ${instant('enriched_at')}, ${instant('first_seen')},
                  ${instant('last_seen')}, pages_viewed, engaged_ms, recent_pages
             FROM leads WHERE ${ofVisitors}`,
    values: [keys.websiteIds, keys.visitorIds],
  });
  for (const row of rows) {
    leads.set(leadKeyOf(row.website_id, row.visitor_id), {
      websiteId: row.website_id,
      visitorId: row.visitor_id,
      consentStatus: row.consent_status,
      consentEventId: row.consent_event_id,
      consentChangedAt: row.consent_changed_at,
      email: row.email,
      name: row.name,
      company: row.company,
      identificationSource: row.identification_source,
      identifiedAt: row.identified_at,
      selfIdentified: row.self_identified,
      networkAsn: row.network_asn,
      networkOrganisation: row.network_organisation,
      enrichmentStatus: row.enrichment_status,
      enrichment: row.enrichment,
      enrichmentProvider: row.enrichment_provider,
      enrichedAt: row.enriched_at,
      firstSeen: row.first_seen,
      lastSeen: row.last_seen,
      pagesViewed: row.pages_viewed,
      engagedMs: row.engaged_ms,
      recentPages: row.recent_pages,
    });
  }
  return leads;
}

const leadColumns = [
  'website_id',
  'visitor_id',
  'consent_status',
  'consent_event_id',
  'consent_changed_at',
  'email',
  'name',
  'company',
  'identification_source',
  'identified_at',
  'network_asn',
  'network_organisation',
  'enrichment_status',
  'enrichment',
  'enrichment_provider',
  'enriched_at',
  'first_seen',
  'last_seen',
  'pages_viewed',
  'engaged_ms',
  'search_text',
  'display_company',
  'recent_pages',
  'self_identified',
] as const;

async function saveLeads(tx: DbTransaction, leads: readonly LeadState[]): Promise<void> {
  if (leads.length === 0) return;
  const rows = leads.map((lead) =>
    JSON.stringify({
      website_id: lead.websiteId,
      visitor_id: lead.visitorId,
      consent_status: lead.consentStatus,
      consent_event_id: lead.consentEventId,
      consent_changed_at: lead.consentChangedAt,
      email: lead.email,
      name: lead.name,
      company: lead.company,
      identification_source: lead.identificationSource,
      identified_at: lead.identifiedAt,
      network_asn: lead.networkAsn,
      network_organisation: lead.networkOrganisation,
      enrichment_status: lead.enrichmentStatus,
      enrichment: lead.enrichment,
      enrichment_provider: lead.enrichmentProvider,
      enriched_at: lead.enrichedAt,
      first_seen: lead.firstSeen,
      last_seen: lead.lastSeen,
      pages_viewed: lead.pagesViewed,
      engaged_ms: lead.engagedMs,
      search_text: searchTextOf(lead),
      display_company: displayCompanyOf(lead),
      recent_pages: lead.recentPages,
      self_identified: lead.selfIdentified,
    }),
  );
  const columns = leadColumns.join(', ');
  await tx.query({
    name: 'leads-save',
    text: `INSERT INTO leads (${columns})
           SELECT ${columns} FROM jsonb_populate_recordset(NULL::leads, $1::jsonb)
           ON CONFLICT (website_id, visitor_id) DO UPDATE SET
             ${leadColumns
               .filter((column) => column !== 'website_id' && column !== 'visitor_id')
               .map((column) => `${column} = EXCLUDED.${column}`)
               .join(', ')}`,
    values: [`[${rows.join(',')}]`],
  });
}

async function writeDeltas(tx: DbTransaction, deltas: LeadDeltas): Promise<void> {
  if (deltas.timeline.length > 0) {
    await tx.query({
      name: 'leads-add-timeline',
      text: `INSERT INTO lead_timeline (website_id, visitor_id, position, event_id, at, kind, detail)
             SELECT website_id, visitor_id, position, event_id, at, kind, detail
               FROM jsonb_populate_recordset(NULL::lead_timeline, $1::jsonb)
             ON CONFLICT (website_id, visitor_id, position) DO NOTHING`,
      values: [
        JSON.stringify(
          deltas.timeline.map((entry) => ({
            website_id: entry.websiteId,
            visitor_id: entry.visitorId,
            position: entry.position,
            event_id: entry.eventId,
            at: entry.at,
            kind: entry.kind,
            detail: entry.detail,
          })),
        ),
      ],
    });
  }
  if (deltas.pagePatches.size > 0) {
    const patches = [...deltas.pagePatches.values()];
    await tx.query({
      name: 'leads-patch-page-views',
      text: `UPDATE lead_timeline AS entry
                SET detail = (entry.detail - 'actions') || jsonb_build_object('visibleMs', patch.visible_ms)
                             || CASE WHEN jsonb_array_length(patch.actions) > 0 THEN jsonb_build_object('actions', patch.actions) ELSE '{}'::jsonb END
               FROM jsonb_to_recordset($1::jsonb) AS patch(website_id uuid, visitor_id text, position int8, visible_ms int8, actions jsonb)
              WHERE entry.website_id = patch.website_id AND entry.visitor_id = patch.visitor_id AND entry.position = patch.position`,
      values: [
        JSON.stringify(
          patches.map((patch) => ({
            website_id: patch.websiteId,
            visitor_id: patch.visitorId,
            position: patch.position,
            visible_ms: patch.visibleMs,
            actions: patch.actions,
          })),
        ),
      ],
    });
  }
  if (deltas.resolutions.size > 0) {
    const resolutions = [...deltas.resolutions.values()];
    await tx.query({
      name: 'leads-add-resolutions',
      // The person key is the one ingest's cap counts by (resolution_person_key, migration 023). A
      // visitor's row keeps its first person, except that a visitor known only by their network
      // becomes the email they give later that month.
      text: `INSERT INTO lead_resolutions AS r (website_id, visitor_id, month, resolved_at, person_key)
             SELECT website_id, visitor_id, month, resolved_at, resolution_person_key(website_id, visitor_id, email)
               FROM unnest($1::uuid[], $2::text[], $3::date[], $4::timestamptz[], $5::text[]) AS t (website_id, visitor_id, month, resolved_at, email)
             ON CONFLICT (website_id, month, visitor_id) DO UPDATE SET person_key = EXCLUDED.person_key
              WHERE (r.person_key IS NULL OR r.person_key LIKE 'v:%') AND EXCLUDED.person_key LIKE 'e:%'`,
      values: [
        resolutions.map((row) => row.websiteId),
        resolutions.map((row) => row.visitorId),
        resolutions.map((row) => row.month),
        resolutions.map((row) => row.resolvedAt),
        resolutions.map((row) => row.email),
      ],
    });
  }
  await addDaily(tx, [...deltas.daily.values()]);
}

async function addDaily(tx: DbTransaction, deltas: readonly DailyDelta[]): Promise<void> {
  const rows = deltas.filter((row) => row.allowed !== 0 || row.identified !== 0);
  if (rows.length === 0) return;
  await tx.query({
    name: 'leads-add-daily',
    text: `INSERT INTO lead_daily (website_id, day, allowed, identified)
           SELECT * FROM unnest($1::uuid[], $2::date[], $3::int8[], $4::int8[])
           ON CONFLICT (website_id, day) DO UPDATE
             SET allowed = lead_daily.allowed + EXCLUDED.allowed, identified = lead_daily.identified + EXCLUDED.identified`,
    values: [rows.map((row) => row.websiteId), rows.map((row) => row.day), rows.map((row) => row.allowed), rows.map((row) => row.identified)],
  });
}

interface TimelineRow {
  website_id: string;
  visitor_id: string;
  position: number;
  kind: LeadTimelineKind;
  detail: Record<string, unknown>;
}

/**
 * Rebuilds the leads of these visitors from the events their timelines name, without the events at
 * `removed` positions (see the module comment). Visitors without a lead are left alone.
 */
export async function refoldLeads(tx: DbTransaction, visitors: Iterable<readonly [string, string]>, removed: ReadonlySet<number>): Promise<void> {
  const old = await loadLeads(tx, visitorKeysOf(visitors));
  if (old.size === 0) return;
  const keys = visitorKeysOf([...old.values()].map((lead) => [lead.websiteId, lead.visitorId] as const));
  const { rows: timeline } = await tx.query<TimelineRow>({
    name: 'leads-refold-timeline',
    text: `SELECT website_id, visitor_id, position, kind, detail FROM lead_timeline WHERE ${ofVisitors}`,
    values: [keys.websiteIds, keys.visitorIds],
  });
  const oldPages = new Map<string, Record<string, unknown>>();
  for (const entry of timeline) {
    if (entry.kind === 'page_view') oldPages.set(`${leadKeyOf(entry.website_id, entry.visitor_id)}|${entry.position}`, entry.detail);
  }
  const positions = timeline.map((entry) => entry.position).filter((position) => !removed.has(position));
  const { rows: eventRows } = await tx.query<EventRow>({
    // Unnamed: planned for its array each time (see analytics' load of visitors).
    text: `SELECT ${eventColumns} FROM events WHERE position = ANY($1::int8[]) ORDER BY transaction_id, position`,
    values: [positions],
  });
  const leads = new Map<string, LeadState>();
  const deltas = emptyLeadDeltas();
  foldLeadEvents(eventRows.map(toStoredEvent), leads, deltas);

  // Time on page and engagement, as the page views' entries recorded them.
  const pageOf = (key: string, position: number): RecentPage | null => {
    const detail = oldPages.get(`${key}|${position}`);
    if (!detail) return null;
    const visibleMs = typeof detail['visibleMs'] === 'number' ? detail['visibleMs'] : 0;
    const actions = Array.isArray(detail['actions']) ? (detail['actions'] as EngagementKind[]) : [];
    return ['', position, visibleMs, [...actions]];
  };
  for (const entry of deltas.timeline) {
    if (entry.kind !== 'page_view') continue;
    const key = leadKeyOf(entry.websiteId, entry.visitorId);
    const page = pageOf(key, entry.position);
    if (!page) continue;
    entry.detail = pageViewDetail(entry.detail, page);
    leads.get(key)!.engagedMs += page[2];
  }
  for (const [key, lead] of leads) {
    for (const recent of lead.recentPages) {
      const page = pageOf(key, recent[1]);
      if (page) [recent[2], recent[3]] = [page[2], page[3]];
    }
  }

  // Out with the old lead's counts, in with the new.
  const daily = new Map<string, DailyDelta>();
  const count = (websiteId: string, at: string, field: 'allowed' | 'identified', by: number) => {
    const day = at.slice(0, 10);
    const id = `${websiteId}|${day}`;
    let row = daily.get(id);
    if (row === undefined) daily.set(id, (row = { websiteId, day, allowed: 0, identified: 0 }));
    row[field] += by;
  };
  for (const lead of old.values()) {
    count(lead.websiteId, lead.firstSeen, 'allowed', -1);
    if (lead.identifiedAt !== null) count(lead.websiteId, lead.identifiedAt, 'identified', -1);
  }
  for (const row of deltas.daily.values()) {
    count(row.websiteId, `${row.day}T00:00:00Z`, 'allowed', row.allowed);
    count(row.websiteId, `${row.day}T00:00:00Z`, 'identified', row.identified);
  }
  deltas.daily.clear();

  for (const table of leadsTables) {
    if (table === 'lead_daily') continue;
    await tx.query({ name: `leads-refold-clear-${table}`, text: `DELETE FROM ${table} WHERE ${ofVisitors}`, values: [keys.websiteIds, keys.visitorIds] });
  }
  await saveLeads(tx, [...leads.values()]);
  await writeDeltas(tx, deltas);
  const touched = [...daily.values()];
  await addDaily(tx, touched);
  // A day nobody is counted on any more is no row at all, as in a replay.
  await tx.query({
    name: 'leads-refold-drop-empty-days',
    text: `DELETE FROM lead_daily WHERE (website_id, day) IN (SELECT * FROM unnest($1::uuid[], $2::date[])) AND allowed = 0 AND identified = 0`,
    values: [touched.map((row) => row.websiteId), touched.map((row) => row.day)],
  });
}

const visitorsOf = (events: readonly StoredEvent[]) =>
  events.filter(isLeadInput).map((event) => [event.data.websiteId, event.data.visitorId] as const);

export const leadsProjection: Projection = {
  name: 'leads',
  canHandle: leadInputTypes,

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const leads = await loadLeads(tx, visitorKeysOf(visitorsOf(events)));
    const { deltas, changed } = foldLeadEvents(events, leads);
    await saveLeads(tx, [...changed].map((key) => leads.get(key)!));
    await writeDeltas(tx, deltas);
  },

  tables: leadsTables,

  async purged(removed: readonly StoredEvent[], _purgeEventId: string, tx: DbTransaction): Promise<void> {
    await refoldLeads(tx, visitorsOf(removed), new Set(removed.map((event) => event.position)));
  },

  async rewritten(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    await refoldLeads(tx, visitorsOf(events), new Set());
  },
};
