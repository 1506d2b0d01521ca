// Builders for the identification tests (leads, enrichment queue, webhook dispatch, consent records):
// one visitor's choices, visits and identification events, as ingest, the network matcher and the
// enrichment worker would record them, and a log appender that keeps the order given (including
// version 1 choices, written as a build from before purposes stored them).
import { randomUUID } from 'node:crypto';
import {
  grantNone,
  optionalPurposes,
  type ConsentMethod,
  type EngagementKind,
  type EnrichmentDetails,
  type OptionalPurpose,
} from '@consentry/events';
import { appendToStream, readCheckpoint, readCommittedEvents, type Db, type NewEvent } from '@consentry/infra';
import { tablesHolding as tablesHoldingAnywhere, waitForLogVisible } from '@consentry/infra/testing';
import { checkpointNameOf, type Projection } from '../projection';
import { applyProjectionBatch } from '../runtime/projector';

/** `start` plus `minutes`, as an ISO instant. */
export function at(start: string, minutes = 0): string {
  return new Date(Date.parse(start) + minutes * 60_000).toISOString();
}

/** A log entry: an event to append, or a version 1 choice to write as an old build did. */
export type LogEntry = NewEvent & { readonly eventId: string; readonly legacy?: true };

export interface LeadVisitor {
  readonly websiteId: string;
  readonly visitorId: string;
  /** The id of this visitor's latest choice so far (what an identification names). */
  readonly lastChoiceId: string | null;
  /** A choice on a banner offering `offered` (all four purposes by default). */
  choose(receivedAt: string, options: { method: ConsentMethod; granted: readonly OptionalPurpose[]; offered?: readonly OptionalPurpose[] }): LogEntry;
  /** Accept All on a banner that offers identification. */
  allow(receivedAt: string): LogEntry;
  /** A custom choice that keeps analytics and leaves identification off (a withdrawal once allowed). */
  refuse(receivedAt: string): LogEntry;
  /** Reject All. */
  decline(receivedAt: string): LogEntry;
  /** A version 1 choice (before purposes; never identification). */
  legacy(receivedAt: string, accepted: boolean): LogEntry;
  view(path: string, receivedAt: string): LogEntry & { readonly pageviewId: string };
  hide(pageviewId: string, visibleMs: number, receivedAt: string): LogEntry;
  engage(pageviewId: string, kind: EngagementKind, receivedAt: string): LogEntry;
  identify(receivedAt: string, who: { email: string | null; name?: string | null; company?: string | null; source?: 'form' | 'call'; pageUrl?: string | null }): LogEntry;
  matchCompany(matchedAt: string, network: { asn: number; organisation: string }): LogEntry;
  enrich(enrichedAt: string, details: Partial<EnrichmentDetails>, options?: { enrichmentId?: string; provider?: string }): LogEntry;
  failEnrichment(failedAt: string, reason: 'not_found' | 'deadline' | 'rejected' | 'withdrawn', options?: { enrichmentId?: string }): LogEntry;
}

const noDetails: EnrichmentDetails = { name: null, title: null, company: null, domain: null, industry: null, size: null, linkedinUrl: null, location: null };

export function leadVisitor(websiteId: string, visitorId: string = randomUUID()): LeadVisitor {
  let lastChoiceId: string | null = null;
  const choice = (receivedAt: string, method: ConsentMethod, granted: readonly OptionalPurpose[], offered: readonly OptionalPurpose[]): LogEntry => {
    const purposes = { ...grantNone, ...Object.fromEntries(granted.map((purpose) => [purpose, true])) };
    const eventId = randomUUID();
    lastChoiceId = eventId;
    const data = {
      websiteId,
      visitorId,
      source: 'banner' as const,
      offered: optionalPurposes.filter((purpose) => offered.includes(purpose)),
      purposes,
      method,
      rule: { rule: 'opt_in' as const, region: 'EU' },
      policyVersion: '1',
      shownLanguage: 'en',
      textsHash: null,
      language: 'en-GB',
      pageUrl: 'https://www.shop.example.com/',
      ipAddress: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
      deviceClass: 'desktop' as const,
      country: 'GB',
      city: 'London',
      email: null,
      occurredAt: receivedAt,
      receivedAt,
    };
    return granted.length > 0 ? { type: 'ConsentGiven', eventId, data } : { type: 'ConsentDeclined', eventId, data };
  };
  return {
    websiteId,
    visitorId,
    get lastChoiceId() {
      return lastChoiceId;
    },
    choose: (receivedAt, options) => choice(receivedAt, options.method, options.granted, options.offered ?? optionalPurposes),
    allow: (receivedAt) => choice(receivedAt, 'accept_all', optionalPurposes, optionalPurposes),
    refuse: (receivedAt) => choice(receivedAt, 'custom', ['analytics'], optionalPurposes),
    decline: (receivedAt) => choice(receivedAt, 'reject_all', [], optionalPurposes),
    legacy(receivedAt, accepted) {
      const eventId = randomUUID();
      lastChoiceId = eventId;
      const data = {
        websiteId,
        visitorId,
        source: 'banner',
        policyVersion: '1',
        language: 'de-DE',
        pageUrl: 'https://www.shop.example.com/',
        ipAddress: '203.0.113.0',
        userAgent: 'Mozilla/5.0',
        deviceClass: 'desktop',
        country: 'DE',
        city: 'Berlin',
        email: null,
        occurredAt: receivedAt,
        receivedAt,
      };
      return { type: accepted ? 'ConsentGiven' : 'ConsentDeclined', eventId, data, legacy: true } as unknown as LogEntry;
    },
    view(path, receivedAt) {
      const pageviewId = randomUUID();
      return {
        type: 'PageViewed',
        eventId: randomUUID(),
        pageviewId,
        data: {
          websiteId,
          visitorId,
          pageviewId,
          url: `https://www.shop.example.com${path}`,
          path,
          referrer: null,
          title: path === '/' ? 'Home' : null,
          deviceClass: 'desktop',
          country: 'GB',
          receivedAt,
        },
      };
    },
    hide: (pageviewId, visibleMs, receivedAt) => ({ type: 'PageHidden', eventId: randomUUID(), data: { websiteId, visitorId, pageviewId, visibleMs, receivedAt } }),
    engage: (pageviewId, kind, receivedAt) => ({ type: 'EngagementRecorded', eventId: randomUUID(), data: { websiteId, visitorId, pageviewId, kind, receivedAt } }),
    identify: (receivedAt, who) => ({
      type: 'VisitorIdentified',
      eventId: randomUUID(),
      data: {
        websiteId,
        visitorId,
        source: who.source ?? 'form',
        email: who.email,
        name: who.name ?? null,
        company: who.company ?? null,
        pageUrl: who.pageUrl === undefined ? 'https://www.shop.example.com/contact' : who.pageUrl,
        consentEventId: lastChoiceId ?? randomUUID(),
        occurredAt: receivedAt,
        receivedAt,
      },
    }),
    matchCompany: (matchedAt, network) => ({
      type: 'CompanyMatched',
      eventId: randomUUID(),
      data: { websiteId, visitorId, asn: network.asn, organisation: network.organisation, consentEventId: lastChoiceId ?? randomUUID(), matchedAt },
    }),
    enrich: (enrichedAt, details, options = {}) => ({
      type: 'LeadEnriched',
      eventId: randomUUID(),
      data: {
        websiteId,
        visitorId,
        enrichmentId: options.enrichmentId ?? randomUUID(),
        provider: options.provider ?? 'loopback',
        details: { ...noDetails, ...details },
        enrichedAt,
      },
    }),
    failEnrichment: (failedAt, reason, options = {}) => ({
      type: 'EnrichmentFailed',
      eventId: randomUUID(),
      data: { websiteId, visitorId, enrichmentId: options.enrichmentId ?? randomUUID(), provider: 'loopback', reason, detail: 'test', attempts: 1, failedAt },
    }),
  };
}

/**
 * Appends entries in exactly this order: each run of current events in one transaction per 500 (on
 * a test stream of its own), version 1 choices as raw rows on the visitor's consent stream. Log
 * order is array order.
 */
export async function appendLog(pool: Db, entries: readonly LogEntry[]): Promise<void> {
  let run: LogEntry[] = [];
  const flush = async () => {
    for (let offset = 0; offset < run.length; offset += 500) await appendToStream(pool, `identification-test-${randomUUID()}`, run.slice(offset, offset + 500));
    run = [];
  };
  for (const entry of entries) {
    if (!entry.legacy) {
      run.push(entry);
      continue;
    }
    await flush();
    const data = entry.data as { websiteId: string; visitorId: string };
    await pool.query(`INSERT INTO events (event_id, stream_id, type, schema_version, data, metadata) VALUES ($1, $2, $3, 1, $4, '{}')`, [
      entry.eventId,
      `consent-${data.websiteId}-${data.visitorId}`,
      entry.type,
      entry.data,
    ]);
  }
  await flush();
}

/** The read-model tables holding `needle` (the log, `events`, left out unless `exclude` says otherwise). */
export const tablesHolding = (pool: Db, needle: string, exclude: readonly string[] = ['events']) => tablesHoldingAnywhere(pool, needle, exclude);

/** Brings a projection up to the end of the log the way its projector catches up: batches of `batchSize` after its checkpoint. */
export async function catchUp(pool: Db, projection: Projection, batchSize = 500): Promise<void> {
  await waitForLogVisible(pool);
  const client = await pool.connect();
  try {
    for (;;) {
      const checkpoint = await readCheckpoint(client, checkpointNameOf(projection));
      const events = await readCommittedEvents(client, checkpoint, { limit: batchSize, types: projection.canHandle });
      if (events.length === 0) break;
      await applyProjectionBatch(client, projection, events);
    }
  } finally {
    client.release();
  }
}
