// The OpenAPI description at /api/docs (generated from the routes' zod schemas) and the Prometheus
// metrics: counted on the product's port, served only by the metrics server (buildMetricsServer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { buildMetricsServer, createMetricsRegistry } from './metrics';
import { buildTestApi, registerOwner, type TestApi } from './testing/api-app';

let db: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  db = await createTestDatabase('api_docs');
  api = await buildTestApi(db.pool);
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

interface Operation {
  summary?: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

const ownedOperations = [
  ['get', '/api/login'],
  ['get', '/api/logout'],
  ['post', '/api/logout'],
  ['post', '/api/auth/register'],
  ['post', '/api/auth/login'],
  ['get', '/api/auth/user'],
  ['post', '/api/admin/login'],
  ['post', '/api/admin/logout'],
  ['get', '/api/admin/me'],
  ['get', '/api/websites'],
  ['post', '/api/websites'],
  ['delete', '/api/websites/{id}'],
  ['get', '/api/stats/consents'],
  ['get', '/api/stats/websites'],
  ['get', '/api/stats/consents/daily'],
  ['get', '/api/consents'],
  ['get', '/api/subscription/usage'],
  ['get', '/api/subscription-plans'],
  ['get', '/api/admin/subscription-plans'],
  ['get', '/api/site/branding'],
  ['get', '/api/site/content'],
  ['get', '/api/admin/branding'],
  ['put', '/api/admin/branding'],
  ['get', '/api/branding'],
  ['put', '/api/branding'],
  ['get', '/api/admin/website-content'],
  ['put', '/api/admin/website-content'],
  ['get', '/api/admin/users'],
  ['put', '/api/admin/users/{userId}'],
  ['delete', '/api/admin/users/{userId}'],
  ['post', '/api/admin/users/invite'],
  ['get', '/api/admin/dead-letters'],
  ['post', '/api/admin/dead-letters/retry'],
  ['get', '/healthz'],
  ['get', '/readyz'],
] as const;

describe('the OpenAPI description', () => {
  it('describes every route with its parameters, body and answers', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } }>();
    expect(document.openapi).toBe('3.1.0');
    for (const [method, path] of ownedOperations) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation?.summary, `${method} ${path}`).toBeTruthy();
      const statuses = Object.keys(operation?.responses ?? {});
      expect(statuses.length, `${method} ${path}`).toBeGreaterThan(0);
    }
    // Export, the installation check, live updates and receipts are api routes like the others.
    for (const [method, path] of [['get', '/api/export/consents'], ['get', '/api/exports'], ['post', '/api/verify-installation'], ['get', '/api/events'], ['get', '/api/consents/{consentId}/receipt']] as const) {
      expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }

    const addWebsite = document.paths['/api/websites']?.post;
    expect(addWebsite?.requestBody?.content['application/json']?.schema).toMatchObject({ properties: { name: expect.any(Object), domain: expect.any(Object) } });
    expect(Object.keys(addWebsite?.responses ?? {})).toEqual(expect.arrayContaining(['201', '400', '401', '403']));
    expect(JSON.stringify(addWebsite?.responses['201'])).toContain('Website');
    expect(document.paths['/api/websites/{id}']?.delete?.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
    expect(document.paths['/api/stats/consents/daily']?.get?.parameters).toEqual([expect.objectContaining({ name: 'days', in: 'query' })]);
    expect(document.components.schemas).toHaveProperty('Error');
    expect(document.components.schemas).toHaveProperty('Website');
    expect(document.components.schemas).toHaveProperty('ManagedUser');
  });

  it('is browsable at /api/docs', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });
});

describe('the metrics', () => {
  it('count requests by route pattern and status', async () => {
    const owner = await registerOwner(api.app);
    await api.app.inject({ method: 'GET', url: '/api/websites' });
    await owner.request({ method: 'DELETE', url: '/api/websites/7d9d2c52-1b8e-4b43-9a0e-3c2f1e0d9b8a' });
    await owner.request({ method: 'DELETE', url: '/api/websites/0a9d2c52-1b8e-4b43-9a0e-3c2f1e0d9b8b' });
    const body = await api.metrics();
    expect(body).toContain('consentry_http_requests_total{method="GET",route="/api/websites",status="401"} 1');
    expect(body).toContain('consentry_http_requests_total{method="DELETE",route="/api/websites/:id",status="404"} 2');
    expect(body).toContain('consentry_http_requests_total{method="POST",route="/api/auth/register",status="201"} 1');
    expect(body).toContain('consentry_http_request_duration_seconds_bucket');
    expect(body).toContain('consentry_sign_in_attempts_total{kind="user",outcome="success"} 1');
    expect(body).toContain('consentry_process_cpu_user_seconds_total');
    expect(body).not.toContain('7d9d2c52');
  });

  it('are not served on the product’s port, to anyone', async () => {
    const owner = await registerOwner(api.app);
    for (const response of [await api.app.inject({ method: 'GET', url: '/metrics' }), await owner.request({ method: 'GET', url: '/metrics' })]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('consentry_');
    }
  });
});

describe('the metrics server', () => {
  it('serves the registry at /metrics, never stored', async () => {
    const registry = createMetricsRegistry();
    const server = await buildMetricsServer({ registry });
    try {
      const response = await server.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/plain');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toContain('consentry_process_cpu_user_seconds_total');
      expect((await server.inject({ method: 'GET', url: '/api/websites' })).statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('with a token, answers only a scrape that sends it', async () => {
    const token = 'scrape-token-0123456789abcdef';
    const server = await buildMetricsServer({ registry: createMetricsRegistry(), token });
    try {
      for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${token}`, `Bearer ${token}x`, token]) {
        const refused = await server.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
        expect(refused.statusCode).toBe(401);
        expect(refused.headers['www-authenticate']).toContain('Bearer');
        expect(refused.body).not.toContain('consentry_');
      }
      const allowed = await server.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.body).toContain('consentry_process_cpu_user_seconds_total');
    } finally {
      await server.close();
    }
  });
});
