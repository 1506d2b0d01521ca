// Leads (docs/identification.md): visitors who allowed identification and were identified, over the
// viewer's websites (an admin's: every website). The list with search, filters, sort and keyset
// pagination; the dashboard's identification summary; one lead with its timeline and the link to
// its consent proof; the lead export and the audience files for Google Ads, Meta and LinkedIn.
// Another owner's website or lead answers 404, as if it did not exist. Exports and audience files
// hold only leads whose identification still stands: a visitor who withdrew is never in one.
import { PassThrough } from 'node:stream';
import { WebsiteNotFoundError, isoDateTime, visitorId as visitorIdSchema } from '@consentry/events';
import type { Db } from '@consentry/infra';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInViewer, visibleWebsites } from '../access';
import { ApiError } from '../errors';
import { csvLine } from '../export/csv';
import { errorsFor, uuidParam } from '../schemas';
import { audienceFormats, audienceHeaders, audienceRow } from './audiences';
import {
  countResolutionsInMonth,
  getResolutionCapStatuses,
  getLead,
  getLeadTimeline,
  getLeadsSummary,
  leadConsentStatuses,
  leadEnrichmentStatuses,
  leadSorts,
  listLeads,
  streamAudienceEmails,
  streamLeadsForExport,
  type LeadCursor,
  type LeadDetail,
  type LeadListItem,
  type LeadSort,
  type ResolutionCapStatus,
  type Website,
} from '@consentry/projections';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const dayMs = 86_400_000;
/** The first day of the current UTC month (YYYY-MM-01). */
export const currentMonthStart = (now = new Date()) => `${isoDay(now).slice(0, 7)}-01`;

// ── shapes ──────────────────────────────────────────────────────────────────────────────────────────
const leadSource = z.enum(['form', 'call', 'network']);

const leadSummaryAnswer = z
  .object({
    websiteId: z.uuid(),
    websiteName: z.string(),
    visitorId: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    company: z.string().nullable().meta({ description: 'From enrichment, the form, or the network organisation' }),
    title: z.string().nullable(),
    source: leadSource.nullable().meta({ description: 'How the visitor was identified first' }),
    identifiedAt: z.iso.datetime(),
    firstSeen: z.iso.datetime(),
    lastSeen: z.iso.datetime(),
    pagesViewed: z.int(),
    engagedSeconds: z.int(),
    consentStatus: z.enum(leadConsentStatuses),
    enrichmentStatus: z.enum(leadEnrichmentStatuses),
  })
  .meta({ id: 'LeadSummary' });

const leadDetailAnswer = leadSummaryAnswer
  .extend({
    network: z.object({ asn: z.int(), organisation: z.string() }).nullable(),
    enrichment: z
      .object({
        provider: z.string(),
        enrichedAt: z.iso.datetime(),
        name: z.string().nullable(),
        title: z.string().nullable(),
        company: z.string().nullable(),
        domain: z.string().nullable(),
        industry: z.string().nullable(),
        size: z.string().nullable(),
        linkedinUrl: z.string().nullable(),
        location: z.string().nullable(),
      })
      .nullable(),
    consentEventId: z.uuid(),
    consentChangedAt: z.iso.datetime(),
    receiptUrl: z.string().meta({ description: 'The consent proof: GET /api/consents/{consentEventId}/receipt' }),
  })
  .meta({ id: 'LeadDetail' });

const timelineEntryAnswer = z
  .object({
    at: z.iso.datetime(),
    kind: z.enum(['page_view', 'consent', 'identified', 'company_matched', 'enriched', 'enrichment_failed']),
    detail: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'LeadTimelineEntry' });

const leadsPageAnswer = z
  .object({
    leads: z.array(leadSummaryAnswer),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page' }),
    enrichmentOn: z.boolean().meta({ description: "Whether this server has an enrichment provider; without one a lead's pending enrichment will not come" }),
  })
  .meta({ id: 'LeadsPage' });

const leadsSummaryAnswer = z
  .object({
    identified: z.int().meta({ description: 'Visitors identified in the range' }),
    allowed: z.int().meta({ description: 'Visitors who allowed identification (for the first time) in the range, including those who withdrew it since' }),
    withdrawn: z.int().meta({ description: 'Of `allowed`, visitors whose latest choice no longer allows identification' }),
    rate: z.number().nullable().meta({ description: 'identified / allowed (a fraction, not percent); null when nobody allowed identification' }),
    resolutionsThisMonth: z.int().meta({
      description:
        'Resolutions this UTC month (what is billed per resolution): people first identified on each website this month, each person once per website and month (their normalised email, else the visitor a network match named), however often and from however many visitor ids they identify',
    }),
    capAlerts: z
      .array(
        z.object({
          websiteId: z.uuid(),
          websiteName: z.string(),
          cap: z.int().meta({ description: "The website's monthly resolution cap" }),
          resolutions: z.int().meta({ description: 'Resolutions this month on the website' }),
          level: z.enum(['near', 'reached']).meta({ description: "'near': 80 % of the cap or more; 'reached': new people are refused until the month ends" }),
        }),
      )
      .meta({ description: 'The websites (of those asked about) at 80 % of their monthly resolution cap or more, the owner’s alert' }),
  })
  .meta({ id: 'LeadsSummary' });

/** The share of a cap from which the owner is warned. */
export const resolutionCapAlertShare = 0.8;

/** A cap status as the owner's alert: null below 80 %. Ingest's admissions count toward the cap as soon as they commit, before the bill does. */
export function capAlertOf(status: ResolutionCapStatus): { websiteId: string; websiteName: string; cap: number; resolutions: number; level: 'near' | 'reached' } | null {
  const used = Math.max(status.resolutions, status.admitted);
  if (used < status.cap * resolutionCapAlertShare) return null;
  return { websiteId: status.websiteId, websiteName: status.websiteName, cap: status.cap, resolutions: status.resolutions, level: used >= status.cap ? 'reached' : 'near' };
}

// ── inputs ──────────────────────────────────────────────────────────────────────────────────────────
/** A day (UTC) or an instant. */
const dayOrInstant = z.union([z.iso.date(), isoDateTime]).meta({ description: 'A UTC day (YYYY-MM-DD) or an ISO instant' });

/** The start of `from` (a day: its midnight UTC), inclusive. */
const fromInstant = (value: string) => (value.length === 10 ? `${value}T00:00:00.000Z` : new Date(value).toISOString());
/** The end of `to`, exclusive: a day includes the whole day. */
const toInstant = (value: string) => (value.length === 10 ? new Date(Date.parse(`${value}T00:00:00.000Z`) + dayMs).toISOString() : new Date(value).toISOString());

const filterFields = {
  websiteId: uuidParam.optional().meta({ description: "One of the viewer's websites; omitted: all of them" }),
  q: z
    .string()
    .trim()
    .max(254)
    .optional()
    .meta({ description: 'The start of the email (case-insensitive); for a lead without one, of its name or company' }),
  company: z.string().trim().max(200).optional().meta({ description: 'The company name, exactly (case-insensitive)' }),
  enrichment: z.enum(leadEnrichmentStatuses).optional(),
  from: dayOrInstant.optional().meta({ description: 'Identified at or after this day or instant' }),
  to: dayOrInstant.optional().meta({ description: 'Identified on or before this day, or before this instant' }),
};

/**
 * zod runs this refinement even when `from` or `to` failed their own check (`from=null`): such a
 * value is left to its field's issue here, never parsed (new Date('null').toISOString() throws).
 */
const rangeIsOrdered = (query: { from?: string; to?: string }) => {
  if (query.from === undefined || query.to === undefined) return true;
  if (!dayOrInstant.safeParse(query.from).success || !dayOrInstant.safeParse(query.to).success) return true;
  return fromInstant(query.from) < toInstant(query.to);
};
const rangeMessage = { error: '`from` must be before `to`', path: ['from'] };

const listQuery = z
  .strictObject({
    ...filterFields,
    status: z.enum(leadConsentStatuses).optional().meta({ description: "'granted' while identification stands, 'withdrawn' after" }),
    sort: z.enum(leadSorts).default('lastSeen'),
    order: z.enum(['asc', 'desc']).optional().meta({ description: 'Default: desc for the dates, asc for email' }),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(4096).optional().meta({ description: "The previous page's nextCursor" }),
  })
  .refine(rangeIsOrdered, rangeMessage);

const exportQuery = z.strictObject(filterFields).refine(rangeIsOrdered, rangeMessage);

const audienceQuery = z.strictObject({
  websiteId: filterFields.websiteId,
  format: z.enum(audienceFormats).meta({ description: 'google (Customer Match), meta (custom audience) or linkedin (matched audience contact list)' }),
});

const summaryQuery = z
  .strictObject({
    websiteId: filterFields.websiteId,
    from: z.iso.date().optional().meta({ description: 'First UTC day (default: 29 days before `to`)' }),
    to: z.iso.date().optional().meta({ description: 'Last UTC day, inclusive (default: today)' }),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, rangeMessage);

const leadParams = z.object({ websiteId: uuidParam, visitorId: visitorIdSchema });

// ── cursors ─────────────────────────────────────────────────────────────────────────────────────────
const cursorContent = z.strictObject({
  s: z.enum(leadSorts),
  o: z.enum(['asc', 'desc']),
  k: z.string().max(1500).nullable(),
  w: z.uuid(),
  v: visitorIdSchema,
});
const exactInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function encodeCursor(sort: LeadSort, order: 'asc' | 'desc', cursor: LeadCursor): string {
  return Buffer.from(JSON.stringify({ s: sort, o: order, k: cursor.key, w: cursor.websiteId, v: cursor.visitorId }), 'utf8').toString('base64url');
}

const invalidCursor = () => new ApiError(400, 'INVALID_CURSOR', 'The cursor is not one this list gave out, or belongs to another sort; start again from the first page');

function decodeCursor(text: string, sort: LeadSort, order: 'asc' | 'desc'): LeadCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const content = cursorContent.safeParse(parsed);
  if (!content.success || content.data.s !== sort || content.data.o !== order) throw invalidCursor();
  if (sort !== 'email' && (content.data.k === null || !exactInstant.test(content.data.k))) throw invalidCursor();
  return { key: content.data.k, websiteId: content.data.w, visitorId: content.data.v };
}

// ── answers ─────────────────────────────────────────────────────────────────────────────────────────
const toSummaryAnswer = (lead: LeadListItem, websites: ReadonlyMap<string, Website>): z.infer<typeof leadSummaryAnswer> => ({
  websiteId: lead.websiteId,
  websiteName: websites.get(lead.websiteId)?.name ?? '',
  visitorId: lead.visitorId,
  email: lead.email,
  name: lead.name,
  company: lead.company,
  title: lead.title,
  source: lead.source,
  identifiedAt: lead.identifiedAt,
  firstSeen: lead.firstSeen,
  lastSeen: lead.lastSeen,
  pagesViewed: lead.pagesViewed,
  engagedSeconds: lead.engagedSeconds,
  consentStatus: lead.consentStatus,
  enrichmentStatus: lead.enrichmentStatus,
});

const toDetailAnswer = (lead: LeadDetail, websites: ReadonlyMap<string, Website>): z.infer<typeof leadDetailAnswer> => ({
  ...toSummaryAnswer(lead, websites),
  network: lead.network ? { ...lead.network } : null,
  enrichment: lead.enrichment ? { ...lead.enrichment } : null,
  consentEventId: lead.consentEventId,
  consentChangedAt: lead.consentChangedAt,
  receiptUrl: `/api/consents/${lead.consentEventId}/receipt`,
});

/** The columns of the lead export (docs/identification.md), then the website for files of several. */
export const leadExportColumns = [
  'email',
  'name',
  'title',
  'company',
  'domain',
  'industry',
  'size',
  'linkedin',
  'location',
  'source',
  'identifiedAt',
  'lastSeen',
  'pagesViewed',
  'consentStatus',
  'website',
] as const;

/** Resolves once the stream wants more (or is gone), leaving no listener behind. */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('close', done);
  });
}

/**
 * Sends `lines` as a CSV download, pulling more only once the client took what was written; a
 * client that goes away stops the reading (the cursor closes and its connection goes back).
 */
function sendCsv(reply: FastifyReply, log: FastifyBaseLogger, fileName: string, lines: AsyncIterable<string>, onDone: (complete: boolean) => void) {
  const body = new PassThrough();
  const iterator = lines[Symbol.asyncIterator]();
  const pump = async () => {
    let complete = false;
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        if (!body.write(next.value)) await drained(body);
        if (body.destroyed) break;
      }
      complete = !body.destroyed;
      body.end();
    } catch (error) {
      log.error({ err: error }, 'leads download failed while streaming');
      body.destroy(error as Error);
    } finally {
      await iterator.return?.(undefined).catch(() => undefined);
      onDone(complete);
    }
  };
  void pump();
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

const fileLabel = (website: Website | undefined) => (website ? website.domain.replace(/[^a-z0-9.-]/g, '-') : 'all-websites');

export interface LeadRoutesOptions {
  readonly pool: Db;
  /** Whether an enrichment provider is configured (ENRICHMENT_PROVIDER is not `off`). */
  readonly enrichmentOn?: boolean;
}

export const leadRoutes: FastifyPluginAsyncZod<LeadRoutesOptions> = async (app, { pool, enrichmentOn = false }) => {
  /** The viewer's websites, and those a request names (one of them, or all); 404 for any other. */
  async function websitesOf(request: FastifyRequest, websiteId: string | undefined): Promise<{ websites: Map<string, Website>; ids: string[]; named?: Website }> {
    const websites = new Map((await visibleWebsites(pool, signedInViewer(request))).map((website) => [website.id, website]));
    if (websiteId === undefined) return { websites, ids: [...websites.keys()] };
    const named = websites.get(websiteId);
    if (!named) throw new WebsiteNotFoundError();
    return { websites, ids: [named.id], named };
  }

  app.get(
    '/api/leads',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['leads'],
        summary: 'Identified visitors (leads) of the viewer’s websites: search, filters, sort, keyset pagination',
        description:
          'Only visitors who allowed identification and were identified. `q` matches the start of the email (or, without one, of the name or company); ' +
          '`company` one company (exact name, case-insensitive); `from`/`to` when the lead was identified. Follow `nextCursor` until it is null: every lead is on exactly one page. ' +
          "Another owner's website answers 404.",
        querystring: listQuery,
        response: { 200: leadsPageAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const query = request.query;
      const { websites, ids } = await websitesOf(request, query.websiteId);
      const order = query.order ?? (query.sort === 'email' ? 'asc' : 'desc');
      const page = await listLeads(pool, {
        websiteIds: ids,
        q: query.q ?? null,
        company: query.company ?? null,
        status: query.status ?? null,
        enrichment: query.enrichment ?? null,
        from: query.from === undefined ? null : fromInstant(query.from),
        to: query.to === undefined ? null : toInstant(query.to),
        sort: query.sort,
        order,
        limit: query.limit,
        cursor: query.cursor === undefined ? null : decodeCursor(query.cursor, query.sort, order),
      });
      return {
        leads: page.leads.map((lead) => toSummaryAnswer(lead, websites)),
        nextCursor: page.nextCursor ? encodeCursor(query.sort, order, page.nextCursor) : null,
        enrichmentOn,
      };
    },
  );

  app.get(
    '/api/leads/summary',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['leads'],
        summary: 'Identified visitors and the identification rate (the dashboard card), and this month’s resolutions',
        description:
          '`rate` is identified / allowed: visitors identified among those who allowed identification in the range (UTC days, default the last 30). ' +
          "Another owner's website answers 404.",
        querystring: summaryQuery,
        response: { 200: leadsSummaryAnswer, ...errorsFor(400, 401, 404) },
      },
    },
    async (request) => {
      const { ids } = await websitesOf(request, request.query.websiteId);
      const to = request.query.to ?? isoDay(new Date());
      const from = request.query.from ?? isoDay(new Date(Date.parse(to) - 29 * dayMs));
      if (Date.parse(to) - Date.parse(from) > 3660 * dayMs) throw new ApiError(400, 'RANGE_TOO_LONG', 'Choose a range of at most ten years');
      const [summary, resolutionsThisMonth, caps] = await Promise.all([
        getLeadsSummary(pool, ids, from, to),
        countResolutionsInMonth(pool, ids, currentMonthStart()),
        getResolutionCapStatuses(pool, ids, currentMonthStart()),
      ]);
      return {
        identified: summary.identified,
        allowed: summary.allowed,
        withdrawn: summary.withdrawn,
        rate: summary.allowed === 0 ? null : summary.identified / summary.allowed,
        resolutionsThisMonth,
        capAlerts: caps.map(capAlertOf).filter((alert) => alert !== null),
      };
    },
  );

  app.get(
    '/api/leads/export.csv',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['leads'],
        summary: 'The leads whose identification still stands, as a CSV file',
        description:
          `Columns: ${leadExportColumns.join(', ')}. The list's filters apply (a withdrawn lead is never exported). ` +
          "Cells a spreadsheet would run as a formula are neutralised. Another owner's website answers 404.",
        querystring: exportQuery,
        // A stream is sent as is; the schema documents the download.
        response: { 200: z.any().describe('The leads as CSV'), ...errorsFor(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const { websites, ids, named } = await websitesOf(request, query.websiteId);
      const filters = {
        websiteIds: ids,
        q: query.q ?? null,
        company: query.company ?? null,
        enrichment: query.enrichment ?? null,
        from: query.from === undefined ? null : fromInstant(query.from),
        to: query.to === undefined ? null : toInstant(query.to),
      };
      let rows = 0;
      async function* lines(): AsyncGenerator<string> {
        yield csvLine(leadExportColumns);
        for await (const batch of streamLeadsForExport(pool, filters)) {
          rows += batch.length;
          let chunk = '';
          for (const lead of batch) {
            chunk += csvLine([
              lead.email,
              lead.name,
              lead.title,
              lead.company,
              lead.domain,
              lead.industry,
              lead.size,
              lead.linkedinUrl,
              lead.location,
              lead.source,
              lead.identifiedAt,
              lead.lastSeen,
              lead.pagesViewed,
              lead.consentStatus,
              websites.get(lead.websiteId)?.domain ?? null,
            ]);
          }
          yield chunk;
        }
      }
      const fileName = `consentry-leads-${fileLabel(named)}-${isoDay(new Date())}.csv`;
      // Who took which personal data is in the log line (no lead data in it).
      return sendCsv(reply, request.log, fileName, lines(), (complete) => request.log.info({ websiteId: named?.id ?? null, rows, complete }, 'leads exported'));
    },
  );

  app.get(
    '/api/leads/audience.csv',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['leads'],
        summary: 'An audience file: the SHA-256 hashed emails of leads whose identification still stands, in the platform’s upload format',
        description:
          "google: header `Email` (Google Ads Customer Match); meta: header `email` (Meta custom audience customer list); linkedin: LinkedIn's contact list template " +
          '(`email,firstname,lastname,jobtitle,employeecompany,country,googleaid`), only the email filled. Each email is trimmed and lower-cased, then hashed (SHA-256, lower-case hex); ' +
          "each address once. A visitor who withdrew identification is never in it. Another owner's website answers 404.",
        querystring: audienceQuery,
        response: { 200: z.any().describe('The audience file (CSV)'), ...errorsFor(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const { ids, named } = await websitesOf(request, request.query.websiteId);
      let rows = 0;
      async function* lines(): AsyncGenerator<string> {
        yield csvLine(audienceHeaders[format]);
        for await (const emails of streamAudienceEmails(pool, ids)) {
          rows += emails.length;
          yield emails.map((email) => csvLine(audienceRow(format, email))).join('');
        }
      }
      const fileName = `consentry-audience-${format}-${fileLabel(named)}-${isoDay(new Date())}.csv`;
      return sendCsv(reply, request.log, fileName, lines(), (complete) =>
        request.log.info({ websiteId: named?.id ?? null, format, rows, complete }, 'audience file exported'),
      );
    },
  );

  app.get(
    '/api/leads/:websiteId/:visitorId',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['leads'],
        summary: 'A lead: identity, company, enrichment, consent (with the link to its proof), and its timeline, newest first (at most 500 entries)',
        description: "A visitor who is no lead, or another owner's website, answers 404.",
        params: leadParams,
        response: {
          200: z.object({
            lead: leadDetailAnswer,
            timeline: z.array(timelineEntryAnswer),
            enrichmentOn: z.boolean().meta({
              description: "Whether this server has an enrichment provider (ENRICHMENT_PROVIDER is not 'off'); without one a pending enrichment only ends at its 24-hour deadline",
            }),
          }),
          ...errorsFor(400, 401, 404),
        },
      },
    },
    async (request) => {
      const { websiteId, visitorId } = request.params;
      const { websites } = await websitesOf(request, websiteId);
      const [lead, timeline] = await Promise.all([getLead(pool, websiteId, visitorId), getLeadTimeline(pool, websiteId, visitorId)]);
      if (!lead) throw new ApiError(404, 'LEAD_NOT_FOUND', 'Lead not found');
      return { lead: toDetailAnswer(lead, websites), timeline, enrichmentOn };
    },
  );
};
