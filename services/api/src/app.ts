// The api service as a Fastify plugin: the composition root registers it beside ingest on one
// server. For now it serves health and readiness; owner and admin routes join it here.
import type { Db } from '@consentry/infra';
import type { FastifyPluginAsync } from 'fastify';

export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<boolean> | boolean;
}

export interface ApiOptions {
  readonly pool: Db;
  /** Extra readiness conditions (the relay and projectors running, the bus connected). */
  readonly readiness?: readonly ReadinessCheck[];
}

export const apiPlugin: FastifyPluginAsync<ApiOptions> = async (app, options) => {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const checks: Record<string, boolean> = {};
    checks.database = await options.pool
      .query('SELECT 1')
      .then(() => true)
      .catch(() => false);
    for (const readiness of options.readiness ?? []) {
      checks[readiness.name] = await Promise.resolve(readiness.check()).catch(() => false);
    }
    const ready = Object.values(checks).every(Boolean);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
};
