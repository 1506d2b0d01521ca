// The webhook-dispatch reactor (async; docs/identification.md, "Webhooks"): turns what happens to a
// lead into Standard Webhooks messages, one webhook_deliveries row per active endpoint of the
// website subscribed to the message's type:
//   VisitorIdentified → lead.identified, LeadEnriched → lead.enriched, and a choice that no longer
//   allows identification, of a visitor whose previous choice allowed it → consent.withdrawn.
// Nothing is sent about a visitor whose latest choice does not allow identification.
//
// The deliveries are the webhook worker's (services/jobs/src/webhooks/), not this projection's
// tables: a replay never drops one, and ON CONFLICT (endpoint_id, source_event_id) means a
// redelivered or replayed event queues nothing twice. An endpoint gets the events recorded after it
// was added (not a lead's whole history when it is added, nor again on a replay).
//
// Who allows identification, and who they said they are, the reactor knows from the events it has
// applied itself (webhook_dispatch_visitors, its own table; it must not read the leads projection's,
// which may be behind or ahead of it).
import { allowsIdentification, grantedList } from '@consentry/events';
import type { DbTransaction, StoredEvent } from '@consentry/infra';
import { leadKeyOf, visitorKeysOf } from '../leads/fold';
import type { Projection } from '../projection';
import { buildWebhookPayload, webhookMessageIdOf, type WebhookLeadIdentity, type WebhookMessage } from './payload';

const reactorTypes = ['ConsentGiven', 'ConsentDeclined', 'VisitorIdentified', 'LeadEnriched'] as const satisfies readonly StoredEvent['type'][];
type ReactorEvent = Extract<StoredEvent, { type: (typeof reactorTypes)[number] }>;
const isReactorEvent = (event: StoredEvent): event is ReactorEvent => (reactorTypes as readonly string[]).includes(event.type);

/** A visitor whose latest choice allows identification, as webhook_dispatch_visitors holds them. */
interface AllowingVisitor {
  readonly websiteId: string;
  readonly visitorId: string;
  consentEventId: string;
  identifiedEventId: string | null;
  identity: WebhookLeadIdentity;
}

interface VisitorRow {
  website_id: string;
  visitor_id: string;
  consent_event_id: string;
  identified_event_id: string | null;
  email: string | null;
  name: string | null;
  company: string | null;
}

const noIdentity: WebhookLeadIdentity = { email: null, name: null, company: null };

interface Outgoing {
  readonly sourceEventId: string;
  readonly recordedAt: string;
  readonly message: WebhookMessage;
}

export const webhookDispatchProjection: Projection = {
  name: 'webhook-dispatch',
  canHandle: reactorTypes,

  async apply(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    const mine = events.filter(isReactorEvent);
    if (mine.length === 0) return;
    const keys = visitorKeysOf(mine.map((event) => [event.data.websiteId, event.data.visitorId] as const));
    const { rows } = await tx.query<VisitorRow>({
      name: 'webhook-dispatch-load-visitors',
      text: `SELECT website_id, visitor_id, consent_event_id, identified_event_id, email, name, company FROM webhook_dispatch_visitors
              WHERE (website_id, visitor_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))`,
      values: [keys.websiteIds, keys.visitorIds],
    });
    const allowing = new Map<string, AllowingVisitor>();
    for (const row of rows) {
      allowing.set(leadKeyOf(row.website_id, row.visitor_id), {
        websiteId: row.website_id,
        visitorId: row.visitor_id,
        consentEventId: row.consent_event_id,
        identifiedEventId: row.identified_event_id,
        identity: { email: row.email, name: row.name, company: row.company },
      });
    }
    const changed = new Map<string, AllowingVisitor | { websiteId: string; visitorId: string; dropped: true }>();
    const outgoing: Outgoing[] = [];

    for (const event of mine) {
      const { websiteId, visitorId } = event.data;
      const key = leadKeyOf(websiteId, visitorId);
      const visitor = allowing.get(key);
      const base = { websiteId, visitorId };
      switch (event.type) {
        case 'ConsentGiven':
        case 'ConsentDeclined': {
          const data = event.data;
          if (allowsIdentification(data)) {
            const next = visitor ?? { ...base, consentEventId: event.eventId, identifiedEventId: null, identity: noIdentity };
            next.consentEventId = event.eventId;
            allowing.set(key, next);
            changed.set(key, next);
          } else if (visitor) {
            const message: WebhookMessage = {
              type: 'consent.withdrawn',
              ...base,
              at: data.receivedAt,
              identity: visitor.identity,
              consentEventId: event.eventId,
              method: data.method,
              granted: grantedList(data.purposes),
            };
            outgoing.push({ sourceEventId: event.eventId, recordedAt: event.recordedAt, message });
            // Withdrawn: forgotten here, identity and all, until they allow identification again.
            allowing.delete(key);
            changed.set(key, { ...base, dropped: true });
          }
          break;
        }
        case 'VisitorIdentified': {
          if (!visitor) break;
          const { email, name, company, source, pageUrl, receivedAt } = event.data;
          visitor.identity = { email, name, company };
          visitor.identifiedEventId = event.eventId;
          changed.set(key, visitor);
          const message: WebhookMessage = {
            type: 'lead.identified',
            ...base,
            at: receivedAt,
            identity: visitor.identity,
            consentEventId: event.data.consentEventId,
            source,
            pageUrl,
          };
          outgoing.push({ sourceEventId: event.eventId, recordedAt: event.recordedAt, message });
          break;
        }
        case 'LeadEnriched': {
          if (!visitor) break;
          const { provider, details, enrichedAt } = event.data;
          const message: WebhookMessage = {
            type: 'lead.enriched',
            ...base,
            at: enrichedAt,
            identity: visitor.identity,
            consentEventId: visitor.consentEventId,
            provider,
            details,
          };
          outgoing.push({ sourceEventId: event.eventId, recordedAt: event.recordedAt, message });
          break;
        }
        default: {
          const unhandled: never = event;
          throw new Error(`webhook-dispatch: unhandled event ${(unhandled as StoredEvent).type}`);
        }
      }
    }

    const kept = [...changed.values()].filter((row): row is AllowingVisitor => !('dropped' in row));
    const dropped = [...changed.values()].filter((row) => 'dropped' in row);
    if (kept.length > 0) {
      await tx.query({
        name: 'webhook-dispatch-keep-visitors',
        text: `INSERT INTO webhook_dispatch_visitors (website_id, visitor_id, consent_event_id, identified_event_id, email, name, company)
               SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[])
               ON CONFLICT (website_id, visitor_id) DO UPDATE
                 SET consent_event_id = EXCLUDED.consent_event_id, identified_event_id = EXCLUDED.identified_event_id,
                     email = EXCLUDED.email, name = EXCLUDED.name, company = EXCLUDED.company`,
        values: [
          kept.map((row) => row.websiteId),
          kept.map((row) => row.visitorId),
          kept.map((row) => row.consentEventId),
          kept.map((row) => row.identifiedEventId),
          kept.map((row) => row.identity.email),
          kept.map((row) => row.identity.name),
          kept.map((row) => row.identity.company),
        ],
      });
    }
    if (dropped.length > 0) {
      await tx.query({
        name: 'webhook-dispatch-drop-visitors',
        text: `DELETE FROM webhook_dispatch_visitors WHERE (website_id, visitor_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))`,
        values: [dropped.map((row) => row.websiteId), dropped.map((row) => row.visitorId)],
      });
    }
    if (outgoing.length === 0) return;
    await tx.query({
      name: 'webhook-dispatch-queue-deliveries',
      text: `INSERT INTO webhook_deliveries (delivery_id, endpoint_id, website_id, visitor_id, source_event_id, message_id, event_type,
                                            payload, status, attempts, next_attempt_at, created_at)
             SELECT gen_random_uuid(), endpoint.endpoint_id, message.website_id, message.visitor_id, message.source_event_id,
                    message.message_id, message.event_type, message.payload, 'queued', 0, now(), now()
               FROM jsonb_to_recordset($1::jsonb) AS message(website_id uuid, visitor_id text, source_event_id uuid, message_id text,
                                                             event_type text, payload jsonb, recorded_at timestamptz)
               JOIN webhook_endpoints AS endpoint
                 ON endpoint.website_id = message.website_id AND endpoint.removed_at IS NULL
                AND message.event_type = ANY(endpoint.event_types) AND endpoint.added_at <= message.recorded_at
             ON CONFLICT (endpoint_id, source_event_id) DO NOTHING`,
      values: [
        JSON.stringify(
          outgoing.map(({ sourceEventId, recordedAt, message }) => ({
            website_id: message.websiteId,
            visitor_id: message.visitorId,
            source_event_id: sourceEventId,
            message_id: webhookMessageIdOf(sourceEventId),
            event_type: message.type,
            payload: buildWebhookPayload(message),
            recorded_at: recordedAt,
          })),
        ),
      ],
    });
  },

  // Only the reactor's memory of who allows identification; the deliveries are the worker's.
  tables: ['webhook_dispatch_visitors'],

  // What a replay of the remaining log would not know: a visitor whose latest choice was purged, and
  // an identity whose identification was.
  async purged(removed: readonly StoredEvent[], _purgeEventId: string, tx: DbTransaction): Promise<void> {
    const choices = removed.filter((event): event is Extract<StoredEvent, { type: 'ConsentGiven' | 'ConsentDeclined' }> =>
      event.type === 'ConsentGiven' || event.type === 'ConsentDeclined');
    const identifications = removed.filter((event): event is Extract<StoredEvent, { type: 'VisitorIdentified' }> => event.type === 'VisitorIdentified');
    if (choices.length > 0) {
      await tx.query({
        name: 'webhook-dispatch-purge-visitors',
        text: `DELETE FROM webhook_dispatch_visitors
                WHERE (website_id, visitor_id, consent_event_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[]))`,
        values: [choices.map((event) => event.data.websiteId), choices.map((event) => event.data.visitorId), choices.map((event) => event.eventId)],
      });
    }
    if (identifications.length > 0) {
      await tx.query({
        name: 'webhook-dispatch-purge-identities',
        text: `UPDATE webhook_dispatch_visitors SET identified_event_id = NULL, email = NULL, name = NULL, company = NULL
                WHERE (website_id, visitor_id, identified_event_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[]))`,
        values: [
          identifications.map((event) => event.data.websiteId),
          identifications.map((event) => event.data.visitorId),
          identifications.map((event) => event.eventId),
        ],
      });
    }
  },

  // An erased identification leaves the remembered identity as the erased event now reads (empty).
  async rewritten(events: readonly StoredEvent[], tx: DbTransaction): Promise<void> {
    for (const event of events) {
      if (event.type !== 'VisitorIdentified') continue;
      const { websiteId, visitorId, email, name, company } = event.data;
      await tx.query({
        name: 'webhook-dispatch-rewrite-identity',
        text: `UPDATE webhook_dispatch_visitors SET email = $4, name = $5, company = $6
                WHERE website_id = $1 AND visitor_id = $2 AND identified_event_id = $3`,
        values: [websiteId, visitorId, event.eventId, email, name, company],
      });
    }
  },
};
