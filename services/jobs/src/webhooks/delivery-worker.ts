// The webhook delivery worker of `consentry start` (docs/identification.md, "Webhooks"): claims due
// deliveries with SKIP LOCKED (so any number of processes share the queue), POSTs each payload to its
// endpoint signed as Standard Webhooks describes, through the SSRF guard, and logs every try. A 2xx
// answer delivers; anything else, or no answer within the timeout, is retried on the documented
// schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter), honouring a longer Retry-After;
// after the last retry the delivery has failed. A 410 Gone ends it at once: the spec (section
// "Delivery success and failure") reads it as the receiver asking to receive no more. The
// webhook-id is the delivery's message id, the same on every try, so receivers can deduplicate.
import { startQueueRunner, type Db, type HostLookup } from '@consentry/infra';
import {
  claimDueDeliveries,
  claimStaleDeliveries,
  getEndpointTarget,
  recordDeliveryTry,
  releaseDelivery,
  type ClaimedDelivery,
  type DeliveryOutcome,
} from './deliveries';
import { guardedPost } from './guarded-post';
import { webhookHeaders } from './signature';

/** The retry delays after the first try (docs/identification.md): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const webhookRetryScheduleMs: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export const webhookUserAgent = 'Consentry-Webhooks/1';

export interface WebhookWorkerOptions {
  readonly pool: Db;
  /** Names this worker in the queue (host and process). */
  readonly workerId: string;
  /** Deliveries in flight at once (default 8). */
  readonly concurrency?: number;
  /** How long a receiver has to answer (default 10 s). */
  readonly timeoutMs?: number;
  /** Delays between tries; its length is the number of retries (tests use milliseconds). */
  readonly retryScheduleMs?: readonly number[];
  /** Hosts that may be reached at private addresses (VERIFY_ALLOWED_HOSTS; tests: loopback). */
  readonly allowHosts?: readonly string[];
  readonly lookup?: HostLookup;
  /** How often an idle worker looks for due deliveries (default 1 s). */
  readonly pollMs?: number;
  /** A claim older than this is taken over (default: 6 × the timeout). */
  readonly staleAfterMs?: number;
  /** How often stale claims are looked for (default 30 s). */
  readonly staleCheckEveryMs?: number;
  readonly now?: () => Date;
  /** [0, 1) for the jitter; tests may pin it. */
  readonly random?: () => number;
  /** Told about every try, for the operator's log (never the URL, the payload or the secret). */
  readonly onTry?: (report: DeliveryTryReport) => void;
  /** Told about what could not even be recorded (the database gone); the worker keeps going. */
  readonly onError?: (error: unknown) => void;
}

export interface DeliveryTryReport {
  readonly deliveryId: string;
  readonly endpointId: string;
  readonly attempt: number;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly outcome: DeliveryOutcome['kind'];
  /** False when another worker had taken the delivery over meanwhile, so nothing was recorded. */
  readonly recorded: boolean;
}

export const endpointRemovedError = 'Endpoint removed';

/** Sends one claimed delivery and records the try. */
export async function deliverClaimed(options: WebhookWorkerOptions, delivery: ClaimedDelivery, signal?: AbortSignal): Promise<DeliveryTryReport | null> {
  const now = options.now ?? (() => new Date());
  const schedule = options.retryScheduleMs ?? webhookRetryScheduleMs;
  const report = (statusCode: number | null, error: string | null, outcome: DeliveryOutcome, recorded: boolean): DeliveryTryReport => ({
    deliveryId: delivery.deliveryId,
    endpointId: delivery.endpointId,
    attempt: delivery.attempt,
    statusCode,
    error,
    outcome: outcome.kind,
    recorded,
  });

  const target = await getEndpointTarget(options.pool, delivery.endpointId);
  if (!target) {
    const outcome: DeliveryOutcome = { kind: 'failed' };
    const recorded = await recordDeliveryTry(options.pool, delivery, options.workerId, null, outcome, endpointRemovedError, now());
    return report(null, endpointRemovedError, outcome, recorded);
  }

  const body = JSON.stringify(delivery.payload);
  const attemptedAt = now();
  const headers = {
    ...webhookHeaders(target.secret, delivery.messageId, body, Math.floor(attemptedAt.getTime() / 1000)),
    'content-type': 'application/json',
    'user-agent': webhookUserAgent,
  };
  const started = performance.now();
  const result = await guardedPost(target.url, body, headers, {
    timeoutMs: options.timeoutMs ?? 10_000,
    ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(signal ? { signal } : {}),
  });
  const durationMs = Math.min(2_147_483_647, Math.round(performance.now() - started));
  if (signal?.aborted) {
    // Stopping: the try is given back rather than counted (a receiver that got it deduplicates).
    await releaseDelivery(options.pool, delivery, options.workerId);
    return null;
  }

  const statusCode = result.kind === 'answered' ? result.status : null;
  const error = result.kind === 'answered' ? (statusCode! >= 200 && statusCode! < 300 ? null : `HTTP ${statusCode}`) : result.error;
  let outcome: DeliveryOutcome;
  if (error === null) outcome = { kind: 'delivered' };
  else if (statusCode === 410 || delivery.attempt > schedule.length) outcome = { kind: 'failed' };
  else {
    const scheduled = schedule[delivery.attempt - 1]!;
    const asked = result.kind === 'answered' && result.retryAfterMs !== null ? Math.min(result.retryAfterMs, Math.max(...schedule)) : 0;
    // Jitter (the spec recommends some) so receivers that failed together are not retried together.
    const delay = Math.max(scheduled, asked) * (1 + 0.1 * (options.random ?? Math.random)());
    outcome = { kind: 'retry', at: new Date(now().getTime() + Math.round(delay)) };
  }
  const lastError = statusCode === 410 ? 'HTTP 410: the endpoint no longer accepts webhooks' : error;
  const recorded = await recordDeliveryTry(
    options.pool,
    delivery,
    options.workerId,
    { attemptedAt, statusCode, error: lastError, durationMs },
    outcome,
    lastError,
    now(),
  );
  return report(statusCode, lastError, outcome, recorded);
}

export interface WebhookWorker {
  stop(): Promise<void>;
}

/** Works the delivery queue until stopped; stopping aborts the tries in flight and gives them back. */
export function startWebhookDeliveryWorker(options: WebhookWorkerOptions): WebhookWorker {
  const now = options.now ?? (() => new Date());
  const staleAfterMs = options.staleAfterMs ?? 6 * (options.timeoutMs ?? 10_000);
  const runner = startQueueRunner<ClaimedDelivery>({
    name: 'webhook delivery',
    concurrency: Math.max(1, options.concurrency ?? 8),
    pollMs: options.pollMs ?? 1_000,
    // No index covers 'sending' rows: stale claims are looked for now and then, not at every claim.
    sweepEveryMs: options.staleCheckEveryMs ?? 30_000,
    claim: async ({ free, sweep }) => {
      const at = now();
      const due = sweep ? await claimStaleDeliveries(options.pool, options.workerId, at, staleAfterMs, free) : [];
      if (due.length < free) due.push(...(await claimDueDeliveries(options.pool, options.workerId, at, free - due.length)));
      return due;
    },
    work: async (delivery, { signal }) => {
      const report = await deliverClaimed(options, delivery, signal);
      if (report) options.onTry?.(report);
    },
    now: () => now().getTime(),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return { stop: () => runner.stop() };
}
