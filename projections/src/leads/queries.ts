// Reads of the leads read model (docs/identification.md): the list (keyset pagination), one lead with
// its timeline, the dashboard summary, the month's resolutions, and the streams behind the exports.
// One named query per function. Why the list is fast on a million leads: docs/identification.md,
// "How the leads list stays fast".
import type { Db, Queryable } from '@consentry/infra';
import type { QueryResultRow } from 'pg';

export type LeadSort = 'lastSeen' | 'identifiedAt' | 'email';
export type LeadOrder = 'asc' | 'desc';
export type LeadConsentStatus = 'granted' | 'withdrawn';
export type LeadEnrichmentStatus = 'none' | 'pending' | 'enriched' | 'failed';
export type LeadSource = 'form' | 'call' | 'network';

export const leadSorts = ['lastSeen', 'identifiedAt', 'email'] as const satisfies readonly LeadSort[];
export const leadEnrichmentStatuses = ['none', 'pending', 'enriched', 'failed'] as const satisfies readonly LeadEnrichmentStatus[];
export const leadConsentStatuses = ['granted', 'withdrawn'] as const satisfies readonly LeadConsentStatus[];

/** The most timeline entries a lead's page reads (newest first). */
export const maxLeadTimelineEntries = 500;

/**
 * What narrows the list. `q` is a prefix of the lead's search text (lower-cased: the email, or for a
 * lead without one its name or company — `leads.search_text`); `company` the company shown
 * (enrichment, form or network organisation), exactly but case-insensitive; `from`/`to` bound when the lead
 * was identified (`from` inclusive, `to` exclusive, ISO instants).
 */
export interface LeadFilters {
  /** The websites to read; an empty list reads nothing. */
  readonly websiteIds: readonly string[];
  readonly q?: string | null;
  readonly company?: string | null;
  readonly status?: LeadConsentStatus | null;
  readonly enrichment?: LeadEnrichmentStatus | null;
  readonly from?: string | null;
  readonly to?: string | null;
}

/**
 * Where the next page starts: the last row's sort key (exact, as Postgres prints it; null for a lead
 * without a search text in the email sort), website and visitor.
 */
export interface LeadCursor {
  readonly key: string | null;
  readonly websiteId: string;
  readonly visitorId: string;
}

export interface ListLeadsOptions extends LeadFilters {
  readonly sort: LeadSort;
  readonly order: LeadOrder;
  readonly limit: number;
  readonly cursor?: LeadCursor | null;
}

export interface LeadListItem {
  readonly websiteId: string;
  readonly visitorId: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly company: string | null;
  readonly title: string | null;
  readonly source: LeadSource | null;
  readonly identifiedAt: string;
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly pagesViewed: number;
  readonly engagedSeconds: number;
  readonly consentStatus: LeadConsentStatus;
  readonly enrichmentStatus: LeadEnrichmentStatus;
}

export interface LeadPage {
  readonly leads: LeadListItem[];
  /** null on the last page. */
  readonly nextCursor: LeadCursor | null;
}

export interface LeadEnrichment {
  readonly provider: string;
  readonly enrichedAt: string;
  readonly name: string | null;
  readonly title: string | null;
  readonly company: string | null;
  readonly domain: string | null;
  readonly industry: string | null;
  readonly size: string | null;
  readonly linkedinUrl: string | null;
  readonly location: string | null;
}

export interface LeadDetail extends LeadListItem {
  readonly network: { readonly asn: number; readonly organisation: string } | null;
  readonly enrichment: LeadEnrichment | null;
  readonly consentEventId: string;
  readonly consentChangedAt: string;
}

export type LeadTimelineKind = 'page_view' | 'consent' | 'identified' | 'company_matched' | 'enriched' | 'enrichment_failed';

export interface LeadTimelineEntry {
  readonly at: string;
  readonly kind: LeadTimelineKind;
  readonly detail: Record<string, unknown>;
}

interface LeadRow {
  website_id: string;
  visitor_id: string;
  email: string | null;
  name: string | null;
  company: string | null;
  title: string | null;
  source: LeadSource | null;
  identified_at: Date;
  first_seen: Date;
  last_seen: Date;
  pages_viewed: number;
  engaged_ms: number;
  consent_status: LeadConsentStatus;
  enrichment_status: LeadEnrichmentStatus;
}

/** The list's columns; the name and title fall back on what enrichment found. */
const listColumns = `website_id, visitor_id, email, coalesce(name, enrichment->>'name') AS name, display_company AS company,
  enrichment->>'title' AS title, identification_source AS source, identified_at, first_seen, last_seen, pages_viewed, engaged_ms,
  consent_status, enrichment_status`;

const toListItem = (row: LeadRow): LeadListItem => ({
  websiteId: row.website_id,
  visitorId: row.visitor_id,
  email: row.email,
  name: row.name,
  company: row.company,
  title: row.title,
  source: row.source,
  identifiedAt: row.identified_at.toISOString(),
  firstSeen: row.first_seen.toISOString(),
  lastSeen: row.last_seen.toISOString(),
  pagesViewed: row.pages_viewed,
  engagedSeconds: Math.floor(row.engaged_ms / 1000),
  consentStatus: row.consent_status,
  enrichmentStatus: row.enrichment_status,
});

/**
 * The smallest string greater than every string that starts with `prefix`, in byte (UTF-8, `C`)
 * order, which is code point order: the prefix with its last code point raised by one. null when
 * there is none (the prefix ends in U+10FFFF): the range is then open above.
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last >= 0x10ffff) continue;
    // Surrogate code points are no characters; the next one after U+D7FF is U+E000.
    const next = last + 1 >= 0xd800 && last + 1 <= 0xdfff ? 0xe000 : last + 1;
    return points.join('') + String.fromCodePoint(next);
  }
  return null;
}

/** A sort: its column, its type, and the key printed exactly (microseconds) for a cursor. */
const sortKeys: Record<LeadSort, { readonly column: string; readonly cast: string; text(table: string): string }> = {
  lastSeen: { column: 'last_seen', cast: 'timestamptz', text: (table) => `to_char(${table}.last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` },
  identifiedAt: { column: 'identified_at', cast: 'timestamptz', text: (table) => `to_char(${table}.identified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` },
  // The search text starts with the email (lower-case) or, for a lead without one, its name or
  // company: ordering by it orders by email over the index the search uses. Compared as bytes
  // (text_pattern_ops), so the order is the same in every database collation.
  email: { column: 'search_text', cast: 'text', text: (table) => `${table}.search_text` },
};

/** Adds a value to the statement's parameters and answers its placeholder. */
function parameters(): { readonly values: unknown[]; add(value: unknown, cast: string): string } {
  const values: unknown[] = [];
  return {
    values,
    add(value, cast) {
      values.push(value);
      return `$${values.length}::${cast}`;
    },
  };
}

/** The conditions of the filters, and the parts of the statement's name they add. */
function filterConditions(filters: LeadFilters, params: ReturnType<typeof parameters>, table = 'leads'): { conditions: string[]; shape: string[] } {
  const conditions: string[] = [];
  const shape: string[] = [];
  const q = filters.q?.trim().toLowerCase() ?? '';
  if (q !== '') {
    conditions.push(`${table}.search_text ~>=~ ${params.add(q, 'text')}`);
    const upper = prefixUpperBound(q);
    if (upper !== null) conditions.push(`${table}.search_text ~<~ ${params.add(upper, 'text')}`);
    shape.push(upper === null ? 'q-open' : 'q');
  }
  const company = filters.company?.trim().toLowerCase() ?? '';
  if (company !== '') {
    // Exact (case-insensitive): read in the list's order through leads_company_last_seen.
    conditions.push(`lower(${table}.display_company) = ${params.add(company, 'text')}`);
    shape.push('company');
  }
  if (filters.status) {
    conditions.push(`${table}.consent_status = ${params.add(filters.status, 'text')}`);
    shape.push('status');
  }
  if (filters.enrichment) {
    conditions.push(`${table}.enrichment_status = ${params.add(filters.enrichment, 'text')}`);
    shape.push('enrichment');
  }
  if (filters.from) {
    conditions.push(`${table}.identified_at >= ${params.add(filters.from, 'timestamptz')}`);
    shape.push('from');
  }
  if (filters.to) {
    conditions.push(`${table}.identified_at < ${params.add(filters.to, 'timestamptz')}`);
    shape.push('to');
  }
  return { conditions, shape };
}

/**
 * The email sort reads two segments: leads with a search text (over the index), and the few without
 * one (an erasure can leave a lead with neither email, name nor company), which come last in
 * ascending order and first in descending order, as the index keeps NULLs.
 */
type Segment = 'keyed' | 'unkeyed';

/**
 * A page of identified leads of the websites, filtered and sorted, ties broken by website and
 * visitor so every lead is on exactly one page. The statement is built from the filters present
 * (each shape has its own name, so its plan is cached on its own).
 */
export async function listLeads(db: Queryable, options: ListLeadsOptions): Promise<LeadPage> {
  if (options.websiteIds.length === 0) return { leads: [], nextCursor: null };
  const cursor = options.cursor ?? null;
  if (options.sort !== 'email') {
    const page = await readSegment(db, options, 'keyed', cursor, options.limit);
    return { leads: page.leads.map(withoutSortKey), nextCursor: page.nextCursor };
  }
  const searching = (options.q?.trim() ?? '') !== '';
  const segments: Segment[] = searching ? ['keyed'] : options.order === 'asc' ? ['keyed', 'unkeyed'] : ['unkeyed', 'keyed'];
  const leads: (LeadListItem & { sortKey: string })[] = [];
  let from = cursor === null ? 0 : Math.max(0, segments.indexOf(cursor.key === null ? 'unkeyed' : 'keyed'));
  let after = cursor;
  for (; from < segments.length; from++) {
    const page = await readSegment(db, options, segments[from]!, after, options.limit - leads.length);
    leads.push(...page.leads);
    if (page.nextCursor) return { leads: leads.map(withoutSortKey), nextCursor: page.nextCursor };
    after = null;
    if (leads.length === options.limit) {
      // Full, and this segment is done: a next page exists only if a later segment has a lead.
      const later = segments.slice(from + 1);
      for (const segment of later) {
        if ((await readSegment(db, options, segment, null, 1)).leads.length > 0) {
          const last = leads.at(-1)!;
          return {
            leads: leads.map(withoutSortKey),
            nextCursor: { key: segments[from] === 'unkeyed' ? null : last.sortKey, websiteId: last.websiteId, visitorId: last.visitorId },
          };
        }
      }
      break;
    }
  }
  return { leads: leads.map(withoutSortKey), nextCursor: null };
}

const withoutSortKey = ({ sortKey: _sortKey, ...lead }: LeadListItem & { sortKey: string }): LeadListItem => lead;

async function readSegment(
  db: Queryable,
  options: ListLeadsOptions,
  segment: Segment,
  cursor: LeadCursor | null,
  limitRows: number,
): Promise<{ leads: (LeadListItem & { sortKey: string })[]; nextCursor: LeadCursor | null }> {
  const params = parameters();
  const websites = params.add(options.websiteIds, 'uuid[]');
  const { conditions, shape } = filterConditions(options, params);
  const key = sortKeys[options.sort];
  const descending = options.order === 'desc';
  // Newest (or last in the alphabet) first, ties by website and visitor ascending; the reverse for asc.
  const keyOrder = options.sort === 'email' ? `USING ${descending ? '~>~' : '~<~'}` : descending ? 'DESC' : 'ASC';
  const tieOrder = descending ? 'ASC' : 'DESC';
  const keyed = segment === 'keyed';
  if (options.sort === 'email') {
    conditions.push(`leads.search_text IS ${keyed ? 'NOT ' : ''}NULL`);
    shape.push(segment);
  }
  if (cursor) {
    const tie = `(leads.website_id, leads.visitor_id) ${descending ? '>' : '<'} (${params.add(cursor.websiteId, 'uuid')}, ${params.add(cursor.visitorId, 'text')})`;
    if (keyed && cursor.key !== null) {
      const at = params.add(cursor.key, key.cast);
      const [before, strictlyBefore] = options.sort === 'email' ? (descending ? ['~<=~', '~<~'] : ['~>=~', '~>~']) : descending ? ['<=', '<'] : ['>=', '>'];
      // The first part bounds the index scan; the second only sorts out the rows that tie with the cursor.
      conditions.push(`leads.${key.column} ${before} ${at}`, `(leads.${key.column} ${strictlyBefore} ${at} OR ${tie})`);
    } else {
      conditions.push(tie);
    }
    shape.push('after');
  }
  const limit = params.add(limitRows + 1, 'int4');
  const order = keyed ? [`${key.column} ${keyOrder}`] : [];
  const text = `SELECT ${listColumns}, sort_key
    FROM unnest(${websites}) AS w(id)
    CROSS JOIN LATERAL (
      SELECT leads.*, ${key.text('leads')} AS sort_key
        FROM leads
       WHERE leads.website_id = w.id AND leads.identified_at IS NOT NULL${conditions.map((condition) => `\n         AND ${condition}`).join('')}
       ORDER BY ${[...order.map((part) => `leads.${part}`), `leads.visitor_id ${tieOrder}`].join(', ')}
       LIMIT ${limit}
    ) AS page
   ORDER BY ${[...order.map((part) => `page.${part}`), `page.website_id ${tieOrder}`, `page.visitor_id ${tieOrder}`].join(', ')}
   LIMIT ${limit}`;
  const name = `list-leads:${options.sort}:${options.order}${shape.length > 0 ? `:${shape.join(':')}` : ''}`;
  // A prefix search is as selective as its prefix: 'u' matches half the leads, 'ada.lovelace@' one.
  // Such statements stay unnamed, so Postgres plans each with its values (the search index for a
  // rare prefix, the sort index for a common one) rather than settling on one generic plan.
  const prefixSearch = shape.some((part) => part.startsWith('q'));
  const { rows } = await db.query<LeadRow & { sort_key: string | null }>(
    prefixSearch ? { text: `/* ${name} */ ${text}`, values: params.values } : { name, text, values: params.values },
  );
  const page = rows.slice(0, limitRows);
  const last = page.at(-1);
  return {
    leads: page.map((row) => ({ ...toListItem(row), sortKey: row.sort_key ?? '' })),
    nextCursor: rows.length > limitRows && last ? { key: keyed ? last.sort_key : null, websiteId: last.website_id, visitorId: last.visitor_id } : null,
  };
}

interface LeadDetailRow extends LeadRow {
  network_asn: number | null;
  network_organisation: string | null;
  enrichment: Record<string, string | null> | null;
  enrichment_provider: string | null;
  enriched_at: Date | null;
  consent_event_id: string;
  consent_changed_at: Date;
}

const enrichmentText = (details: Record<string, unknown>, field: string): string | null => {
  const value = details[field];
  return typeof value === 'string' ? value : null;
};

/** One identified lead of a website; null when the visitor is no lead there (not identified, or unknown). */
export async function getLead(db: Queryable, websiteId: string, visitorId: string): Promise<LeadDetail | null> {
  const { rows } = await db.query<LeadDetailRow>({
    name: 'get-lead',
    text: `SELECT ${listColumns}, network_asn, network_organisation, enrichment, enrichment_provider, enriched_at, consent_event_id, consent_changed_at
             FROM leads WHERE website_id = $1 AND visitor_id = $2 AND identified_at IS NOT NULL`,
    values: [websiteId, visitorId],
  });
  const row = rows[0];
  if (!row) return null;
  const details = row.enrichment;
  return {
    ...toListItem(row),
    network: row.network_asn !== null && row.network_organisation !== null ? { asn: row.network_asn, organisation: row.network_organisation } : null,
    enrichment:
      details && row.enriched_at
        ? {
            provider: row.enrichment_provider ?? 'unknown',
            enrichedAt: row.enriched_at.toISOString(),
            name: enrichmentText(details, 'name'),
            title: enrichmentText(details, 'title'),
            company: enrichmentText(details, 'company'),
            domain: enrichmentText(details, 'domain'),
            industry: enrichmentText(details, 'industry'),
            size: enrichmentText(details, 'size'),
            linkedinUrl: enrichmentText(details, 'linkedinUrl'),
            location: enrichmentText(details, 'location'),
          }
        : null,
    consentEventId: row.consent_event_id,
    consentChangedAt: row.consent_changed_at.toISOString(),
  };
}

/** A lead's timeline, newest first, at most `limit` (≤ 500) entries. */
export async function getLeadTimeline(db: Queryable, websiteId: string, visitorId: string, limit = maxLeadTimelineEntries): Promise<LeadTimelineEntry[]> {
  const { rows } = await db.query<{ at: Date; kind: LeadTimelineKind; detail: Record<string, unknown> }>({
    name: 'get-lead-timeline',
    text: 'SELECT at, kind, detail FROM lead_timeline WHERE website_id = $1 AND visitor_id = $2 ORDER BY position DESC LIMIT $3',
    values: [websiteId, visitorId, Math.min(Math.max(limit, 0), maxLeadTimelineEntries)],
  });
  return rows.map((row) => ({ at: row.at.toISOString(), kind: row.kind, detail: row.detail }));
}

export interface LeadsSummary {
  /** Visitors identified in the range. */
  readonly identified: number;
  /** Visitors who allowed identification (for the first time) in the range. */
  readonly allowed: number;
  /** Of `allowed`, those whose latest choice no longer allows it: they count in `allowed`, as history does. */
  readonly withdrawn: number;
}

/** Identified visitors and visitors who allowed identification, per UTC day from `fromDay` to `toDay` (inclusive, YYYY-MM-DD). */
export async function getLeadsSummary(db: Queryable, websiteIds: readonly string[], fromDay: string, toDay: string): Promise<LeadsSummary> {
  if (websiteIds.length === 0) return { identified: 0, allowed: 0, withdrawn: 0 };
  const { rows } = await db.query<{ identified: number; allowed: number; withdrawn: number }>({
    name: 'get-leads-summary',
    // A lead's first_seen is when it first allowed identification: the day lead_daily counted it on.
    text: `SELECT coalesce(sum(identified), 0)::int8 AS identified, coalesce(sum(allowed), 0)::int8 AS allowed,
                  (SELECT count(*) FROM leads
                    WHERE website_id = ANY($1::uuid[]) AND consent_status = 'withdrawn'
                      AND first_seen >= $2::date::timestamp AT TIME ZONE 'UTC'
                      AND first_seen < ($3::date + 1)::timestamp AT TIME ZONE 'UTC')::int8 AS withdrawn
             FROM lead_daily WHERE website_id = ANY($1::uuid[]) AND day BETWEEN $2::date AND $3::date`,
    values: [websiteIds, fromDay, toDay],
  });
  return { identified: rows[0]?.identified ?? 0, allowed: rows[0]?.allowed ?? 0, withdrawn: rows[0]?.withdrawn ?? 0 };
}

/**
 * Resolutions of the websites in the UTC month starting `monthStart` (YYYY-MM-01): the people first
 * identified on each website that month — a person is their normalised email, else (a visitor only
 * their network named) the visitor — so repeated identifications of one person, from however many
 * visitor ids, count once per website and month. What is billed per resolution.
 */
export async function countResolutionsInMonth(db: Queryable, websiteIds: readonly string[], monthStart: string): Promise<number> {
  if (websiteIds.length === 0) return 0;
  const { rows } = await db.query<{ count: number }>({
    name: 'count-lead-resolutions-in-month',
    text: `SELECT count(*)::int8 AS count
             FROM (SELECT DISTINCT website_id, coalesce(person_key, 'v:' || visitor_id) FROM lead_resolutions
                    WHERE website_id = ANY($1::uuid[]) AND month = $2::date) AS people`,
    values: [websiteIds, monthStart],
  });
  return rows[0]?.count ?? 0;
}

/** A website's resolutions this month against the cap its owner set. */
export interface ResolutionCapStatus {
  readonly websiteId: string;
  readonly websiteName: string;
  readonly cap: number;
  /** Resolutions so far (what is billed). */
  readonly resolutions: number;
  /** People ingest let through toward the cap; at the cap, new people are refused. */
  readonly admitted: number;
}

/**
 * The websites among these with a monthly resolution cap, with this month's resolutions and the people
 * ingest admitted toward the cap (resolution_tallies, migration 023), for the owner's alerts.
 */
export async function getResolutionCapStatuses(db: Queryable, websiteIds: readonly string[], monthStart: string): Promise<ResolutionCapStatus[]> {
  if (websiteIds.length === 0) return [];
  const { rows } = await db.query<{ website_id: string; name: string; cap: number; resolutions: number; admitted: number }>({
    name: 'get-resolution-cap-statuses',
    text: `SELECT w.id AS website_id, w.name, w.monthly_resolution_cap AS cap,
                  (SELECT count(DISTINCT coalesce(r.person_key, 'v:' || r.visitor_id)) FROM lead_resolutions r
                    WHERE r.website_id = w.id AND r.month = $2::date)::int8 AS resolutions,
                  coalesce((SELECT t.people FROM resolution_tallies t WHERE t.website_id = w.id AND t.period = $2::date), 0)::int8 AS admitted
             FROM websites w
            WHERE w.id = ANY($1::uuid[]) AND w.monthly_resolution_cap IS NOT NULL
            ORDER BY w.name, w.id`,
    values: [websiteIds, monthStart],
  });
  return rows.map((row) => ({ websiteId: row.website_id, websiteName: row.name, cap: row.cap, resolutions: Number(row.resolutions), admitted: Number(row.admitted) }));
}

/** A lead as the export writes it: only leads whose identification still stands. */
export interface LeadExportRow {
  readonly websiteId: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly title: string | null;
  readonly company: string | null;
  readonly domain: string | null;
  readonly industry: string | null;
  readonly size: string | null;
  readonly linkedinUrl: string | null;
  readonly location: string | null;
  readonly source: LeadSource | null;
  readonly identifiedAt: string;
  readonly lastSeen: string;
  readonly pagesViewed: number;
  readonly consentStatus: LeadConsentStatus;
}

interface LeadExportDbRow {
  website_id: string;
  email: string | null;
  name: string | null;
  title: string | null;
  company: string | null;
  domain: string | null;
  industry: string | null;
  size: string | null;
  linkedin_url: string | null;
  location: string | null;
  source: LeadSource | null;
  identified_at: string;
  last_seen: string;
  pages_viewed: number;
  consent_status: LeadConsentStatus;
}

/**
 * Reads a query in batches through a server-side cursor in a read-only transaction on a client of its
 * own, so memory stays flat however many rows there are. Stopping early (a `break`, a download the
 * client abandoned) closes the cursor and hands the client back.
 */
async function* readInBatches<Row extends object>(db: Db, query: { name: string; text: string; values: unknown[] }, batchSize: number): AsyncGenerator<Row[]> {
  const size = Math.max(1, Math.min(Math.floor(batchSize), 100_000));
  const client = await db.connect();
  let open = false;
  try {
    await client.query('BEGIN READ ONLY');
    open = true;
    // The cursor's name is fixed: one per transaction, and the transaction is this generator's.
    // Unnamed: a DECLARE is planned once, with its values (the name is for the logs' sake only).
    await client.query({ text: `DECLARE lead_batches NO SCROLL CURSOR FOR ${query.text} -- ${query.name}`, values: query.values });
    for (;;) {
      const { rows } = await client.query<Row & QueryResultRow>(`FETCH ${size} FROM lead_batches`);
      if (rows.length > 0) yield rows;
      if (rows.length < size) break;
    }
    await client.query('COMMIT');
    open = false;
  } finally {
    if (open) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The identified leads of the websites whose identification still stands (consent granted), with
 * the list's filters (status aside: withdrawn leads never leave), oldest identification first, in
 * batches.
 */
export async function* streamLeadsForExport(db: Db, filters: Omit<LeadFilters, 'status'>, batchSize = 2000): AsyncGenerator<LeadExportRow[]> {
  if (filters.websiteIds.length === 0) return;
  const params = parameters();
  const websites = params.add(filters.websiteIds, 'uuid[]');
  const { conditions } = filterConditions({ ...filters, status: 'granted' }, params);
  const text = `SELECT website_id, email, coalesce(name, enrichment->>'name') AS name, enrichment->>'title' AS title, display_company AS company,
                       enrichment->>'domain' AS domain, enrichment->>'industry' AS industry, enrichment->>'size' AS size,
                       enrichment->>'linkedinUrl' AS linkedin_url, enrichment->>'location' AS location, identification_source AS source,
                       ${isoText('identified_at')} AS identified_at, ${isoText('last_seen')} AS last_seen, pages_viewed, consent_status
                  FROM leads
                 WHERE website_id = ANY(${websites}) AND identified_at IS NOT NULL${conditions.map((condition) => ` AND ${condition}`).join('')}
                 ORDER BY leads.identified_at, website_id, visitor_id`;
  for await (const rows of readInBatches<LeadExportDbRow>(db, { name: 'stream-leads-for-export', text, values: params.values }, batchSize)) {
    yield rows.map((row) => ({
      websiteId: row.website_id,
      email: row.email,
      name: row.name,
      title: row.title,
      company: row.company,
      domain: row.domain,
      industry: row.industry,
      size: row.size,
      linkedinUrl: row.linkedin_url,
      location: row.location,
      source: row.source,
      identifiedAt: row.identified_at,
      lastSeen: row.last_seen,
      pagesViewed: row.pages_viewed,
      consentStatus: row.consent_status,
    }));
  }
}

/**
 * The distinct emails (as stored: normalised, lower-case) of the websites' identified leads whose
 * identification still stands, in batches: what an audience file is made of. A visitor who withdrew
 * is never in it, whatever they were before.
 */
export async function* streamAudienceEmails(db: Db, websiteIds: readonly string[], batchSize = 5000): AsyncGenerator<string[]> {
  if (websiteIds.length === 0) return;
  const text = `SELECT DISTINCT email FROM leads
                 WHERE website_id = ANY($1::uuid[]) AND identified_at IS NOT NULL AND consent_status = 'granted' AND email IS NOT NULL
                 ORDER BY email`;
  for await (const rows of readInBatches<{ email: string }>(db, { name: 'stream-audience-emails', text, values: [websiteIds] }, batchSize)) {
    yield rows.map((row) => row.email);
  }
}
