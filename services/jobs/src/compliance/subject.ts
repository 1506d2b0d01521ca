// Data-subject requests (GDPR Art. 15 and 17) for one visitor of one website, identified by the
// visitor id the widget keeps in their browser, or by an IP address as stored. Export gathers
// everything held about them: their events in the log and their rows in the read models. Erasure
// removes their personal data (IP address, user agent, email, city, the pages they were on) from the
// log and every read model in one transaction, keeps their consent choice history, and records itself as an event
// naming each rewritten event with its new digest, so the seals still verify.
import { randomUUID } from 'node:crypto';
import { consentEventTypes, consentStreamId, erasurePatchOf, subjectErasedFields, type SubjectErasedData } from '@consentry/events';
import {
  appendInTransaction,
  atCurrentVersion,
  eventDigest,
  sealAll,
  sealedEventColumns,
  toSealedEvent,
  withTransaction,
  type Db,
  type Queryable,
  type SealSigner,
  type SealedEvent,
  type SealedEventRow,
  type StoredEvent,
} from '@consentry/infra';
import { visitorKeyOf, type Website } from '@consentry/projections';
import { lockReadersPast } from './log-readers';

export type SubjectSelector = { readonly visitorId: string } | { readonly ip: string };

/** The streams that hold one visitor's events on one website (ingest names them). */
const streamsOf = (websiteId: string, visitorIds: readonly string[]) =>
  visitorIds.flatMap((visitorId) => [consentStreamId(websiteId, visitorId), `visits-${websiteId}-${visitorId}`]);

/** The visitor ids a selector stands for: itself, or every visitor whose consents carry that address. */
export async function resolveVisitorIds(db: Queryable, website: Website, subject: SubjectSelector): Promise<string[]> {
  if ('visitorId' in subject) return [subject.visitorId];
  const { rows } = await db.query<{ visitor_id: string }>({
    text: `SELECT DISTINCT data->>'visitorId' AS visitor_id FROM events
            WHERE type = ANY($3::text[]) AND data->>'websiteId' = $1 AND data->>'ipAddress' = $2 ORDER BY 1`,
    values: [website.id, subject.ip, consentEventTypes],
  });
  return rows.map((row) => row.visitor_id);
}

async function readSubjectEvents(db: Queryable, website: Website, visitorIds: readonly string[], lock = false): Promise<SealedEvent[]> {
  if (visitorIds.length === 0) return [];
  const { rows } = await db.query<SealedEventRow>({
    text: `SELECT ${sealedEventColumns} FROM events WHERE stream_id = ANY($1::text[]) ORDER BY events.transaction_id, events.position${lock ? ' FOR UPDATE' : ''}`,
    values: [streamsOf(website.id, visitorIds)],
  });
  return rows.map(toSealedEvent);
}

export interface SubjectExport {
  readonly generatedAt: string;
  readonly website: { readonly id: string; readonly name: string; readonly domain: string };
  readonly subject: { readonly matchedBy: SubjectSelector; readonly visitorIds: readonly string[] };
  /** Every event of the visitor, as stored in the ledger. */
  readonly events: readonly SealedEvent[];
  /** What the read models hold about the visitor. */
  readonly readModels: {
    readonly consentRecords: readonly Record<string, unknown>[];
    readonly analyticsVisitor: readonly Record<string, unknown>[];
    /** Lead identification: the lead, its timeline, enrichment jobs and webhook deliveries about them. */
    readonly leads: readonly Record<string, unknown>[];
    readonly leadTimeline: readonly Record<string, unknown>[];
    readonly enrichmentJobs: readonly Record<string, unknown>[];
    readonly webhookDeliveries: readonly Record<string, unknown>[];
  };
}

export async function exportSubject(db: Db, website: Website, subject: SubjectSelector): Promise<SubjectExport> {
  const visitorIds = await resolveVisitorIds(db, website, subject);
  const events = await readSubjectEvents(db, website, visitorIds);
  const { rows: consentRecords } = await db.query({
    text: `SELECT * FROM consent_records WHERE website_id = $1 AND visitor_id = ANY($2::text[]) ORDER BY received_at, event_id`,
    values: [website.id, visitorIds],
  });
  const { rows: analyticsVisitor } = await db.query({
    text: 'SELECT * FROM analytics_visitors WHERE visitor_key = ANY($1::uuid[])',
    values: [visitorIds.map((visitorId) => visitorKeyOf(website.id, visitorId))],
  });
  const ofVisitors = (table: string, order: string) =>
    db
      .query({ text: `SELECT * FROM ${table} WHERE website_id = $1 AND visitor_id = ANY($2::text[]) ORDER BY ${order}`, values: [website.id, visitorIds] })
      .then((result) => result.rows);
  const [leads, leadTimeline, enrichmentJobs, webhookDeliveries] = await Promise.all([
    ofVisitors('leads', 'visitor_id'),
    ofVisitors('lead_timeline', 'visitor_id, position'),
    ofVisitors('enrichment_jobs', 'created_at, job_id'),
    ofVisitors('webhook_deliveries', 'created_at, delivery_id'),
  ]);
  return {
    generatedAt: new Date().toISOString(),
    website: { id: website.id, name: website.name, domain: website.domain },
    subject: { matchedBy: subject, visitorIds },
    events,
    readModels: { consentRecords, analyticsVisitor, leads, leadTimeline, enrichmentJobs, webhookDeliveries },
  };
}

export interface ErasureSummary {
  readonly visitorIds: readonly string[];
  readonly events: number;
  readonly rewritten: number;
  readonly erasureEventId: string | null;
}

/** What the erasure changes in an event (erasurePatchOf); empty when it holds no personal data. */
const erasurePatch = (event: SealedEvent) => erasurePatchOf(event.type, event.data as Record<string, unknown>);
const holdsPersonalData = (event: SealedEvent) => Object.keys(erasurePatch(event)).length > 0;

/** Erases one visitor's personal data; their choices stay. Nothing held about them: nothing recorded. */
export async function eraseSubject(pool: Db, signer: SealSigner, website: Website, subject: SubjectSelector): Promise<ErasureSummary> {
  const visitorIds = await resolveVisitorIds(pool, website, subject);
  if (visitorIds.length === 0) return { visitorIds, events: 0, rewritten: 0, erasureEventId: null };
  // Seal first: the seals keep the digests of the events as they were before the erasure.
  await sealAll(pool, signer);
  return withTransaction(pool, async (tx) => {
    const events = await readSubjectEvents(tx, website, visitorIds, true);
    const toRewrite = events.filter(holdsPersonalData);
    const rewritten: SubjectErasedData['rewritten'] = [];
    if (toRewrite.length > 0) {
      const readers = await lockReadersPast(tx, toRewrite.map(asStoredEvent));
      await tx.query('SET LOCAL consentry.maintenance = erasure');
      // Each event loses its own personal fields (a key its type does not have is never added).
      const { rows } = await tx.query<SealedEventRow>({
        text: `UPDATE events SET data = events.data || erased.patch
                 FROM unnest($1::int8[], $2::jsonb[]) AS erased(at_position, patch)
                WHERE events.position = erased.at_position
            RETURNING ${sealedEventColumns}`,
        values: [toRewrite.map((event) => event.position), toRewrite.map((event) => JSON.stringify(erasurePatch(event)))],
      });
      const updated = rows.map(toSealedEvent).sort((a, b) => a.position - b.position);
      for (const event of updated) rewritten.push({ position: event.position, eventId: event.eventId, digest: eventDigest(event) });
      for (const [projection] of readers) {
        await projection.rewritten?.(updated.filter((event) => projection.canHandle.includes(event.type as StoredEvent['type'])).map(asStoredEvent), tx);
      }
    }
    await eraseFromQueues(tx, website.id, visitorIds);
    const erasureEventId = randomUUID();
    await appendInTransaction(tx, `erasures-${website.id}`, [
      {
        type: 'SubjectErased',
        eventId: erasureEventId,
        data: { erasureId: erasureEventId, websiteId: website.id, visitorIds, fields: [...subjectErasedFields], rewritten, erasedAt: new Date().toISOString() },
      },
    ]);
    return { visitorIds, events: events.length, rewritten: rewritten.length, erasureEventId };
  });
}

/**
 * The work queues are not history but hold copies of identification data: an erased visitor's
 * enrichment input and webhook payloads are emptied, and what was still waiting is called off.
 */
async function eraseFromQueues(tx: Queryable, websiteId: string, visitorIds: readonly string[]): Promise<void> {
  await tx.query({
    name: 'erase-enrichment-jobs',
    text: `UPDATE enrichment_jobs
              SET input = '{}'::jsonb,
                  status = CASE WHEN status IN ('queued', 'running') THEN 'cancelled' ELSE status END,
                  finished_at = COALESCE(finished_at, now()),
                  last_error = CASE WHEN status IN ('queued', 'running') THEN 'Erased at the visitor''s request' ELSE last_error END
            WHERE website_id = $1 AND visitor_id = ANY($2::text[])`,
    values: [websiteId, visitorIds],
  });
  await tx.query({
    name: 'erase-webhook-deliveries',
    text: `UPDATE webhook_deliveries
              SET payload = jsonb_build_object('erased', true),
                  status = CASE WHEN status IN ('queued', 'sending') THEN 'failed' ELSE status END,
                  last_error = CASE WHEN status IN ('queued', 'sending') THEN 'Erased at the visitor''s request' ELSE last_error END
            WHERE website_id = $1 AND visitor_id = ANY($2::text[])`,
    values: [websiteId, visitorIds],
  });
  // Ingest's resolution-cap admissions key the visitor's email (hashed): they go with it. The month's
  // tally still counts the visitor (the resolution happened).
  await tx.query({
    name: 'erase-resolution-admissions',
    text: 'DELETE FROM resolution_admissions WHERE website_id = $1 AND visitor_id = ANY($2::text[])',
    values: [websiteId, visitorIds],
  });
}

/** The store's view of a sealed event (the readers and projection hooks take StoredEvent). */
function asStoredEvent(event: SealedEvent): StoredEvent {
  return atCurrentVersion({
    eventId: event.eventId,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
    transactionId: Number(event.transactionId),
    position: event.position,
    recordedAt: event.recordedAt,
  } as StoredEvent);
}
