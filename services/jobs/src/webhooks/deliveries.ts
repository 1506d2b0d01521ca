// The webhook delivery queue (webhook_deliveries, migration 018), worked here and filled by the
// webhook-dispatch reactor: one query per function, parameterised, named for the logs. A delivery is
// queued → sending → delivered | failed; each try is a row of webhook_delivery_attempts.
import type { Db, DbTransaction, Queryable } from '@consentry/infra';
import { withTransaction } from '@consentry/infra';

export interface ClaimedDelivery {
  readonly deliveryId: string;
  readonly endpointId: string;
  readonly messageId: string;
  readonly eventType: string;
  readonly payload: unknown;
  /** This try's number (1 for the first), already counted. */
  readonly attempt: number;
}

interface ClaimedRow {
  delivery_id: string;
  endpoint_id: string;
  message_id: string;
  event_type: string;
  payload: unknown;
  attempts: number;
}

const toClaimed = (row: ClaimedRow): ClaimedDelivery => ({
  deliveryId: row.delivery_id,
  endpointId: row.endpoint_id,
  messageId: row.message_id,
  eventType: row.event_type,
  payload: row.payload,
  attempt: row.attempts,
});

/** Claims up to `limit` due deliveries (SKIP LOCKED: workers never wait on each other's rows). */
export async function claimDueDeliveries(db: Queryable, workerId: string, now: Date, limit: number): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimedRow>({
    name: 'webhooks-claim-due',
    text: `UPDATE webhook_deliveries d
              SET status = 'sending', claimed_by = $1, claimed_at = $2, attempts = d.attempts + 1
            WHERE d.delivery_id IN (
              SELECT delivery_id FROM webhook_deliveries
               WHERE status = 'queued' AND next_attempt_at <= $2
               ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
           RETURNING d.delivery_id, d.endpoint_id, d.message_id, d.event_type, d.payload, d.attempts`,
    values: [workerId, now, limit],
  });
  return rows.map(toClaimed);
}

/**
 * Takes over deliveries whose worker stopped answering (claimed longer ago than `staleAfterMs`): run
 * now and then rather than at every poll, since no index covers 'sending' rows.
 */
export async function claimStaleDeliveries(db: Queryable, workerId: string, now: Date, staleAfterMs: number, limit: number): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimedRow>({
    name: 'webhooks-claim-stale',
    text: `UPDATE webhook_deliveries d
              SET claimed_by = $1, claimed_at = $2, attempts = d.attempts + 1
            WHERE d.delivery_id IN (
              SELECT delivery_id FROM webhook_deliveries
               WHERE status = 'sending' AND claimed_at < $2::timestamptz - make_interval(secs => $3::float8 / 1000)
               ORDER BY claimed_at LIMIT $4 FOR UPDATE SKIP LOCKED)
           RETURNING d.delivery_id, d.endpoint_id, d.message_id, d.event_type, d.payload, d.attempts`,
    values: [workerId, now, staleAfterMs, limit],
  });
  return rows.map(toClaimed);
}

export interface EndpointTarget {
  readonly url: string;
  readonly secret: string;
}

/** Where a delivery goes and what signs it; null when the endpoint was removed (or never had a secret). */
export async function getEndpointTarget(db: Queryable, endpointId: string): Promise<EndpointTarget | null> {
  const { rows } = await db.query<{ url: string; secret: string }>({
    name: 'webhooks-endpoint-target',
    text: `SELECT e.url, s.secret FROM webhook_endpoints e JOIN webhook_endpoint_secrets s USING (endpoint_id)
            WHERE e.endpoint_id = $1 AND e.removed_at IS NULL`,
    values: [endpointId],
  });
  return rows[0] ?? null;
}

export interface AttemptRecord {
  readonly attemptedAt: Date;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/** How a try ends the delivery, or when the next one is. */
export type DeliveryOutcome =
  | { readonly kind: 'delivered' }
  | { readonly kind: 'retry'; readonly at: Date }
  | { readonly kind: 'failed' };

/**
 * Records one try and what follows from it, in one transaction, only while this worker still holds
 * the claim: a worker that was taken over records nothing (its answer already went out; the
 * receiver deduplicates on webhook-id). True when recorded.
 */
export async function recordDeliveryTry(
  pool: Db,
  delivery: ClaimedDelivery,
  workerId: string,
  attempt: AttemptRecord | null,
  outcome: DeliveryOutcome,
  lastError: string | null,
  now: Date,
): Promise<boolean> {
  return withTransaction(pool, async (tx: DbTransaction) => {
    const status = outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'failed' ? 'failed' : 'queued';
    const { rowCount } = await tx.query({
      name: 'webhooks-record-outcome',
      text: `UPDATE webhook_deliveries
                SET status = $3,
                    next_attempt_at = CASE WHEN $3 = 'queued' THEN $4::timestamptz ELSE next_attempt_at END,
                    delivered_at = CASE WHEN $3 = 'delivered' THEN $5::timestamptz ELSE delivered_at END,
                    last_status_code = $6, last_error = $7, claimed_by = NULL, claimed_at = NULL,
                    -- No try was made (the endpoint is gone): the claim's count is taken back.
                    attempts = CASE WHEN $9 THEN attempts ELSE attempts - 1 END
              WHERE delivery_id = $1 AND claimed_by = $2 AND status = 'sending' AND attempts = $8`,
      values: [
        delivery.deliveryId,
        workerId,
        status,
        outcome.kind === 'retry' ? outcome.at : null,
        now,
        attempt?.statusCode ?? null,
        lastError,
        delivery.attempt,
        attempt !== null,
      ],
    });
    if (rowCount !== 1) return false;
    if (attempt) {
      await tx.query({
        name: 'webhooks-record-attempt',
        text: `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, attempted_at, status_code, error, duration_ms)
               VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        values: [delivery.deliveryId, delivery.attempt, attempt.attemptedAt, attempt.statusCode, attempt.error, attempt.durationMs],
      });
    }
    return true;
  });
}

/** Gives a claimed delivery back untouched (the worker is stopping before it was sent). */
export async function releaseDelivery(db: Queryable, delivery: ClaimedDelivery, workerId: string): Promise<void> {
  await db.query({
    name: 'webhooks-release',
    text: `UPDATE webhook_deliveries SET status = 'queued', attempts = attempts - 1, claimed_by = NULL, claimed_at = NULL
            WHERE delivery_id = $1 AND claimed_by = $2 AND status = 'sending' AND attempts = $3`,
    values: [delivery.deliveryId, workerId, delivery.attempt],
  });
}

export type ResendOutcome = 'queued' | 'in_progress' | 'not_found';

/**
 * "Send again": a delivered or failed delivery is queued to go out now; the same webhook-id goes out
 * again, so a receiver that already has it can tell. Its tries count on (the attempts log keeps every
 * one); when its retries were used up it gets one more try. A delivery still waiting or being sent is
 * left alone (`in_progress`). The api's "Send again" (services/api/src/webhooks) does the same.
 */
export async function resendDelivery(db: Queryable, deliveryId: string, now: Date = new Date()): Promise<ResendOutcome> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(deliveryId)) return 'not_found';
  const { rows } = await db.query<{ status: string; requeued: boolean }>({
    name: 'webhooks-resend',
    text: `WITH requeued AS (
             UPDATE webhook_deliveries SET status = 'queued', next_attempt_at = $2, claimed_by = NULL, claimed_at = NULL
              WHERE delivery_id = $1 AND status IN ('delivered', 'failed')
             RETURNING delivery_id)
           SELECT d.status, EXISTS (SELECT 1 FROM requeued) AS requeued FROM webhook_deliveries d WHERE d.delivery_id = $1`,
    values: [deliveryId, now],
  });
  const row = rows[0];
  if (!row) return 'not_found';
  return row.requeued ? 'queued' : 'in_progress';
}
