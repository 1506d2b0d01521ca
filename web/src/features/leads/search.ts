// The search parameters of /leads (kept in the URL, so a filtered list can be linked to and the Back
// button works) and the api URLs built from them: the list's keyset pages, the CSV export and the
// audience files. Names and values are the api's query parameters (docs/identification.md).
import type { ApiQuery } from '../../lib/api-types';

type LeadsQuery = ApiQuery<'/api/leads'>;
export type LeadStatusFilter = NonNullable<LeadsQuery['status']>;
export type EnrichmentFilter = NonNullable<LeadsQuery['enrichment']>;
export type LeadSortColumn = NonNullable<LeadsQuery['sort']>;
export type SortOrder = NonNullable<LeadsQuery['order']>;

/** The values the filters and the sort offer, in their order. */
export const leadStatuses = ['granted', 'withdrawn'] as const satisfies readonly LeadStatusFilter[];
export const enrichmentFilters = ['none', 'pending', 'enriched', 'failed'] as const satisfies readonly EnrichmentFilter[];
export const leadSortColumns = ['lastSeen', 'identifiedAt', 'email'] as const satisfies readonly LeadSortColumn[];

export interface LeadsSearch {
  websiteId?: string;
  /** Free text: email, name or company. */
  q?: string;
  company?: string;
  status?: LeadStatusFilter;
  enrichment?: EnrichmentFilter;
  /** Identified on or after this UTC day, `YYYY-MM-DD`. */
  from?: string;
  /** Identified on or before this UTC day, `YYYY-MM-DD`. */
  to?: string;
  sort?: LeadSortColumn;
  order?: SortOrder;
}

export const defaultLeadSort: LeadSortColumn = 'lastSeen';
export const leadsPageSize = 50;
/** The longest search text or company the list sends (the api bounds them too). */
export const maxLeadsSearchLength = 200;
/** How long typing rests before the search is applied. */
export const leadsSearchDebounceMs = 300;

/** Newest first for dates, A to Z for email. */
export function getDefaultOrder(column: LeadSortColumn): SortOrder {
  return column === 'email' ? 'asc' : 'desc';
}

const isDay = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

function boundedText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text.length > 0 && text.length <= maxLeadsSearchLength ? text : undefined;
}

function oneOf<T extends string>(choices: readonly T[], value: unknown): T | undefined {
  return choices.find((choice) => choice === value);
}

/** validateSearch of /leads: keeps what is well-formed, drops anything else and the default sort. */
export function parseLeadsSearch(search: Record<string, unknown>): LeadsSearch {
  const websiteId = typeof search.websiteId === 'string' && search.websiteId.length > 0 && search.websiteId.length <= 64 ? search.websiteId : undefined;
  const sort = oneOf(leadSortColumns, search.sort);
  const order = oneOf(['asc', 'desc'] as const, search.order);
  const parsed: LeadsSearch = {
    websiteId,
    q: boundedText(search.q),
    company: boundedText(search.company),
    status: oneOf(leadStatuses, search.status),
    enrichment: oneOf(enrichmentFilters, search.enrichment),
    from: isDay(search.from) ? search.from : undefined,
    to: isDay(search.to) ? search.to : undefined,
  };
  const column = sort ?? defaultLeadSort;
  if (column !== defaultLeadSort || (order !== undefined && order !== getDefaultOrder(column))) {
    parsed.sort = column;
    if (order !== undefined && order !== getDefaultOrder(column)) parsed.order = order;
  }
  return dropUndefined(parsed);
}

function dropUndefined(search: LeadsSearch): LeadsSearch {
  return Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined)) as LeadsSearch;
}

/** The sort a search asks for, defaults filled in. */
export function getLeadSort(search: LeadsSearch): { sort: LeadSortColumn; order: SortOrder } {
  const sort = search.sort ?? defaultLeadSort;
  return { sort, order: search.order ?? getDefaultOrder(sort) };
}

/** Clicking a column's header: the same column flips its order, another starts at its default order. */
export function toggleLeadSort(search: LeadsSearch, column: LeadSortColumn): LeadsSearch {
  const current = getLeadSort(search);
  const order = current.sort === column ? (current.order === 'asc' ? 'desc' : 'asc') : getDefaultOrder(column);
  const { sort: _sort, order: _order, ...rest } = search;
  return parseLeadsSearch({ ...rest, sort: column, order });
}

/** Whether anything narrows the list (sorting does not). */
export function hasLeadFilters(search: LeadsSearch): boolean {
  return Boolean(search.websiteId || search.q || search.company || search.status || search.enrichment || search.from || search.to);
}

/** The search without filters, keeping its sort. */
export function clearLeadFilters(search: LeadsSearch): LeadsSearch {
  return dropUndefined({ sort: search.sort, order: search.order });
}

/** The filters as api query parameters, in a fixed order; the export takes no consent status. */
function filterParams(search: LeadsSearch, { withStatus = true } = {}): URLSearchParams {
  const params = new URLSearchParams();
  if (search.websiteId) params.set('websiteId', search.websiteId);
  if (search.q) params.set('q', search.q);
  if (search.company) params.set('company', search.company);
  if (withStatus && search.status) params.set('status', search.status);
  if (search.enrichment) params.set('enrichment', search.enrichment);
  if (search.from) params.set('from', search.from);
  if (search.to) params.set('to', search.to);
  return params;
}

/** GET /api/leads's query: the filters, the sort and one keyset page. */
export function buildLeadsQueryString(search: LeadsSearch, page: { cursor?: string | null; limit?: number } = {}): string {
  const params = filterParams(search);
  const { sort, order } = getLeadSort(search);
  params.set('sort', sort);
  params.set('order', order);
  params.set('limit', String(page.limit ?? leadsPageSize));
  if (page.cursor) params.set('cursor', page.cursor);
  return params.toString();
}

/**
 * The CSV of the leads the filters select. Only leads whose identification still stands are ever in
 * it (the api leaves withdrawn ones out), so the consent status filter is not sent.
 */
export function buildLeadsExportUrl(search: LeadsSearch): string {
  const query = filterParams(search, { withStatus: false }).toString();
  return `/api/leads/export.csv${query ? `?${query}` : ''}`;
}

export const audienceFormats = ['google', 'meta', 'linkedin'] as const;
export type AudienceFormat = (typeof audienceFormats)[number];

export const audienceFormatLabels: Record<AudienceFormat, string> = {
  google: 'Google Ads (Customer Match)',
  meta: 'Meta (custom audience)',
  linkedin: 'LinkedIn (matched audience)',
};

/** An audience file of hashed emails for one website, or every website when none is chosen. */
export function buildAudienceUrl(format: AudienceFormat, websiteId?: string): string {
  const params = new URLSearchParams();
  if (websiteId) params.set('websiteId', websiteId);
  params.set('format', format);
  return `/api/leads/audience.csv?${params.toString()}`;
}
