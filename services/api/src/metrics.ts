// Prometheus metrics (prom-client): requests by route pattern, method and status, their durations,
// the process's own metrics, and whatever other parts register on the same registry (sign-in
// attempts here; ingest batch sizes and projection lag in the composition root).
//
// They are counted on the product's port but served only by a server of their own
// (buildMetricsServer, on METRICS_HOST:METRICS_PORT, loopback by default, optionally behind a bearer
// token): route names, sign-in counters and memory are for the operator, not for anyone who can reach
// the product.
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'consentry_' });
  return registry;
}

export interface MetricsOptions {
  readonly registry: Registry;
}

/**
 * Counts the server's requests; serves nothing. Register at the root (it is wrapped with
 * fastify-plugin), before the services, so every route of the server is counted. Routes are labelled by their pattern (`/api/websites/:id`), never by the
 * raw URL, so the number of series stays bounded.
 */
const collectHttpMetrics: FastifyPluginAsync<MetricsOptions> = async (app, { registry }) => {
  const requests = new Counter({
    name: 'consentry_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'consentry_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    durations.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });
};

export const metricsPlugin = fp(collectHttpMetrics, { name: 'consentry-metrics', fastify: '5.x' });

export interface MetricsServerOptions {
  readonly registry: Registry;
  /** METRICS_TOKEN: when set, a scrape must send `Authorization: Bearer <token>`. */
  readonly token?: string;
}

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
const digestOf = (text: string) => createHash('sha256').update(text).digest();

/** The metrics server (not yet listening): GET /metrics and nothing else. */
export async function buildMetricsServer({ registry, token }: MetricsServerOptions): Promise<FastifyInstance> {
  // No request log: a scraper every few seconds would drown the product's own lines.
  const app = Fastify({ logger: false });
  const expected = token === undefined ? null : digestOf(`Bearer ${token}`);
  app.get('/metrics', async (request, reply) => {
    if (expected && !timingSafeEqual(digestOf(request.headers.authorization ?? ''), expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="consentry metrics"')
        .send({ error: { code: 'UNAUTHORIZED', message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' } });
    }
    return reply.type(registry.contentType).header('cache-control', 'no-store').send(await registry.metrics());
  });
  await app.ready();
  return app;
}

/** Sign-in attempts by kind (user, admin) and outcome (success, failure, rate_limited). */
export function createSignInCounter(registry: Registry) {
  const counter = new Counter({
    name: 'consentry_sign_in_attempts_total',
    help: 'Sign-in attempts, by kind of account and outcome',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  return (kind: 'user' | 'admin', outcome: 'success' | 'failure' | 'rate_limited') => counter.inc({ kind, outcome });
}

/**
 * The ledger's own metrics, fed by the composition root: group-commit batch sizes and commit
 * times on the ingest path, and per projector the lag between an event's append and its
 * projection (what dashboards wait for).
 */
export interface LedgerMetricsOptions {
  /** Open dead letters per projection, read when scraped (the database is the truth across processes). */
  readonly openDeadLetters?: () => Promise<ReadonlyMap<string, number>>;
}

export function createLedgerMetrics(registry: Registry, options: LedgerMetricsOptions = {}) {
  const batchSize = new Histogram({
    name: 'consentry_ingest_batch_size',
    help: 'Events per group-commit batch',
    buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000],
    registers: [registry],
  });
  const batchDuration = new Histogram({
    name: 'consentry_ingest_batch_commit_seconds',
    help: 'Time to write and commit one group-commit batch',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const projectionLag = new Gauge({
    name: 'consentry_projection_lag_seconds',
    help: 'Seconds between the append of the last event a projector applied and its commit',
    labelNames: ['projection'] as const,
    registers: [registry],
  });
  const projectedEvents = new Counter({
    name: 'consentry_projected_events_total',
    help: 'Events applied, by projection',
    labelNames: ['projection'] as const,
    registers: [registry],
  });
  const parkedEvents = new Counter({
    name: 'consentry_projection_parked_events_total',
    help: 'Events a projection could not apply and set aside as dead letters, by projection',
    labelNames: ['projection'] as const,
    registers: [registry],
  });
  const { openDeadLetters } = options;
  if (openDeadLetters) {
    new Gauge({
      name: 'consentry_projection_dead_letters',
      help: 'Events set aside by a projection and not yet resolved (consentry dead-letters), by projection',
      labelNames: ['projection'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        // A scrape must not fail because the database is briefly away: the gauge is left empty then.
        const counts = await openDeadLetters().catch(() => new Map<string, number>());
        for (const [projection, count] of counts) this.set({ projection }, count);
      },
    });
  }
  return {
    observeParked(projection: string) {
      parkedEvents.inc({ projection });
    },
    observeIngestBatch(size: number, durationMs: number) {
      batchSize.observe(size);
      batchDuration.observe(durationMs / 1000);
    },
    observeProjected(projection: string, applied: readonly { readonly recordedAt: string }[]) {
      const last = applied[applied.length - 1];
      if (!last) return;
      projectedEvents.inc({ projection }, applied.length);
      projectionLag.set({ projection }, Math.max(0, (Date.now() - Date.parse(last.recordedAt)) / 1000));
    },
  };
}
