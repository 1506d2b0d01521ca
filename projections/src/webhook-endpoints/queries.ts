// Reads of the webhook endpoints read model and of the delivery log the webhook worker writes
// (docs/identification.md): an owner's endpoints, one endpoint, a delivery, and an endpoint's
// deliveries newest first with every try. The signing secrets (webhook_endpoint_secrets) are never
// read here: they are a credential for the worker alone.
import type { WebhookEventType } from '@consentry/events';
import type { Queryable } from '@consentry/infra';

export interface WebhookEndpoint {
  readonly id: string;
  readonly websiteId: string;
  readonly url: string;
  readonly description: string;
  readonly eventTypes: readonly WebhookEventType[];
  readonly addedBy: string;
  readonly addedAt: string;
  /** null while the endpoint receives deliveries. */
  readonly removedAt: string | null;
}

interface EndpointRow {
  endpoint_id: string;
  website_id: string;
  url: string;
  description: string;
  event_types: WebhookEventType[];
  added_by: string;
  added_at: Date;
  removed_at: Date | null;
}

const endpointColumns = 'endpoint_id, website_id, url, description, event_types, added_by, added_at, removed_at';

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.endpoint_id,
  websiteId: row.website_id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types,
  addedBy: row.added_by,
  addedAt: row.added_at.toISOString(),
  removedAt: row.removed_at?.toISOString() ?? null,
});

/** A website's endpoints that have not been removed, oldest first. */
export async function listWebhookEndpoints(db: Queryable, websiteId: string): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query<EndpointRow>({
    name: 'list-webhook-endpoints',
    text: `SELECT ${endpointColumns} FROM webhook_endpoints WHERE website_id = $1 AND removed_at IS NULL ORDER BY added_at, endpoint_id`,
    values: [websiteId],
  });
  return rows.map(toEndpoint);
}

/** One endpoint, removed or not; null when there is none with this id. */
export async function getWebhookEndpoint(db: Queryable, endpointId: string): Promise<WebhookEndpoint | null> {
  const { rows } = await db.query<EndpointRow>({
    name: 'get-webhook-endpoint',
    text: `SELECT ${endpointColumns} FROM webhook_endpoints WHERE endpoint_id = $1`,
    values: [endpointId],
  });
  return rows[0] ? toEndpoint(rows[0]) : null;
}

export type WebhookDeliveryStatus = 'queued' | 'sending' | 'delivered' | 'failed';

export interface WebhookDeliveryAttempt {
  readonly attempt: number;
  readonly attemptedAt: string;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

export interface WebhookDelivery {
  readonly id: string;
  readonly endpointId: string;
  readonly websiteId: string;
  readonly messageId: string;
  readonly eventType: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly deliveredAt: string | null;
  /** When the next try is due; null unless the delivery waits in the queue. */
  readonly nextAttemptAt: string | null;
}

export interface WebhookDeliveryWithAttempts extends WebhookDelivery {
  /** Every try, newest first (at most `maxAttemptsShown`). */
  readonly attemptLog: readonly WebhookDeliveryAttempt[];
}

/** A delivery log page's cursor: the last delivery's creation (exact, microseconds) and id. */
export interface WebhookDeliveryCursor {
  readonly createdAt: string;
  readonly deliveryId: string;
}

export interface WebhookDeliveryPage {
  readonly deliveries: WebhookDeliveryWithAttempts[];
  readonly nextCursor: WebhookDeliveryCursor | null;
}

/** The most tries shown per delivery (seven retries and a few "send again"s fit). */
export const maxAttemptsShown = 50;

interface DeliveryRow {
  delivery_id: string;
  endpoint_id: string;
  website_id: string;
  message_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  next_attempt_at: Date;
}

const deliveryColumns = `d.delivery_id, d.endpoint_id, d.website_id, d.message_id, d.event_type, d.status, d.attempts, d.last_status_code,
  d.last_error, d.created_at, d.delivered_at, d.next_attempt_at`;

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.delivery_id,
  endpointId: row.endpoint_id,
  websiteId: row.website_id,
  messageId: row.message_id,
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  createdAt: row.created_at.toISOString(),
  deliveredAt: row.delivered_at?.toISOString() ?? null,
  nextAttemptAt: row.status === 'queued' ? row.next_attempt_at.toISOString() : null,
});

/** One delivery (without its tries); null when there is none with this id. */
export async function getWebhookDelivery(db: Queryable, deliveryId: string): Promise<WebhookDelivery | null> {
  const { rows } = await db.query<DeliveryRow>({
    name: 'get-webhook-delivery',
    text: `SELECT ${deliveryColumns} FROM webhook_deliveries d WHERE d.delivery_id = $1`,
    values: [deliveryId],
  });
  return rows[0] ? toDelivery(rows[0]) : null;
}

/**
 * An endpoint's deliveries, newest first, `limit` at a time from `cursor` on (over the
 * webhook_deliveries_log index), each with its tries.
 */
export async function listWebhookDeliveries(
  db: Queryable,
  endpointId: string,
  options: { readonly limit: number; readonly cursor?: WebhookDeliveryCursor | null },
): Promise<WebhookDeliveryPage> {
  const cursor = options.cursor ?? null;
  // Two statements rather than `$2 IS NULL OR …`: a cached generic plan could not start the index
  // scan at the cursor then, and a deep page would read every newer delivery first.
  const after = cursor ? `AND d.created_at <= $4::timestamptz AND (d.created_at < $4::timestamptz OR d.delivery_id < $5::uuid)` : '';
  const { rows } = await db.query<DeliveryRow & { created_key: string; attempt_log: WebhookDeliveryAttempt[] }>({
    name: cursor ? 'list-webhook-deliveries-after' : 'list-webhook-deliveries',
    text: `SELECT ${deliveryColumns}, to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key, log.attempt_log
             FROM (SELECT * FROM webhook_deliveries d
                    WHERE d.endpoint_id = $1 ${after}
                    ORDER BY d.created_at DESC, d.delivery_id DESC
                    LIMIT $2) d
             CROSS JOIN LATERAL (
               SELECT coalesce(jsonb_agg(jsonb_build_object(
                        'attempt', a.attempt,
                        'attemptedAt', to_char(a.attempted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                        'statusCode', a.status_code,
                        'error', a.error,
                        'durationMs', a.duration_ms) ORDER BY a.attempt DESC), '[]'::jsonb) AS attempt_log
                 FROM (SELECT * FROM webhook_delivery_attempts WHERE delivery_id = d.delivery_id ORDER BY attempt DESC LIMIT $3) a
             ) log
            ORDER BY d.created_at DESC, d.delivery_id DESC`,
    values: [endpointId, options.limit + 1, maxAttemptsShown, ...(cursor ? [cursor.createdAt, cursor.deliveryId] : [])],
  });
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    deliveries: page.map((row) => ({ ...toDelivery(row), attemptLog: row.attempt_log })),
    nextCursor: rows.length > options.limit && last ? { createdAt: last.created_key, deliveryId: last.delivery_id } : null,
  };
}
