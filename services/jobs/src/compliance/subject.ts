// Data-subject requests (GDPR Art. 15 and 17) for one visitor of one website, identified by the
// visitor id the widget keeps in their browser, or by an IP address as stored. Export gathers
// everything held about them: their events in the log and their rows in the read models. Erasure
// removes their personal data (IP address, user agent, email, city) from the log and every read
// model in one transaction, keeps their consent choice history, and records itself as an event
// naming each rewritten event with its new digest, so the seals still verify.
import { randomUUID } from 'node:crypto';
import { consentEventTypes, consentStreamId, erasableFields, type SubjectErasedData } from '@consentry/events';
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
  return {
    generatedAt: new Date().toISOString(),
    website: { id: website.id, name: website.name, domain: website.domain },
    subject: { matchedBy: subject, visitorIds },
    events,
    readModels: { consentRecords, analyticsVisitor },
  };
}

export interface ErasureSummary {
  readonly visitorIds: readonly string[];
  readonly events: number;
  readonly rewritten: number;
  readonly erasureEventId: string | null;
}

const isConsentEvent = (event: SealedEvent) => (consentEventTypes as readonly string[]).includes(event.type);
const holdsPersonalData = (event: SealedEvent) =>
  isConsentEvent(event) && erasableFields.some((field) => (event.data as Record<string, unknown>)[field] != null);

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
      const { rows } = await tx.query<SealedEventRow>({
        text: `UPDATE events SET data = data || jsonb_build_object('ipAddress', null, 'userAgent', null, 'email', null, 'city', null)
                WHERE position = ANY($1::int8[])
            RETURNING ${sealedEventColumns}`,
        values: [toRewrite.map((event) => event.position)],
      });
      const updated = rows.map(toSealedEvent).sort((a, b) => a.position - b.position);
      for (const event of updated) rewritten.push({ position: event.position, eventId: event.eventId, digest: eventDigest(event) });
      for (const [projection] of readers) {
        await projection.rewritten?.(updated.filter((event) => projection.canHandle.includes(event.type as StoredEvent['type'])).map(asStoredEvent), tx);
      }
    }
    const erasureEventId = randomUUID();
    await appendInTransaction(tx, `erasures-${website.id}`, [
      {
        type: 'SubjectErased',
        eventId: erasureEventId,
        data: { erasureId: erasureEventId, websiteId: website.id, visitorIds, fields: [...erasableFields], rewritten, erasedAt: new Date().toISOString() },
      },
    ]);
    return { visitorIds, events: events.length, rewritten: rewritten.length, erasureEventId };
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
