// Every route of the api names who may call it. The OpenAPI document shows each operation's rule
// (`x-access`); this is the whole table, so a new route, or a changed rule, shows up here in review.
// Each non-public route refuses nobody with 401 (a well-formed request: malformed input is answered
// 400 first, before anyone is asked who they are).
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '@consentry/events';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { buildTestApi, testPublicUrl, type TestApi } from '../testing/api-app';
import { accessControl } from './plugin';
import { accessRules, type AccessRule } from './rules';
import { headerViewers } from './testing';

const accessByRoute: Record<string, AccessRule> = {
  'GET /healthz': 'public',
  'GET /readyz': 'public',
  'GET /api/login': 'public',
  'GET /api/logout': 'public',
  'POST /api/logout': 'public',
  'POST /api/auth/register': 'public',
  'POST /api/auth/confirm-email': 'public',
  'POST /api/auth/login': 'public',
  'GET /api/auth/user': 'ownerSession',
  'PATCH /api/auth/user': 'owner',
  'POST /api/admin/login': 'public',
  'POST /api/admin/logout': 'public',
  'GET /api/admin/me': 'adminSession',
  'POST /api/admin/password': 'adminSession',
  'POST /api/auth/password': 'owner',
  'POST /api/auth/invitation': 'public',
  'POST /api/auth/invitation/accept': 'public',
  'POST /api/auth/forgot-password': 'public',
  'POST /api/auth/reset-password/check': 'public',
  'POST /api/auth/reset-password': 'public',
  'POST /api/auth/email': 'owner',
  'POST /api/auth/email/confirm': 'public',
  'DELETE /api/auth/user': 'owner',
  'GET /api/websites': 'signedIn',
  'POST /api/websites': 'signedIn',
  'GET /api/websites/{id}/settings': 'signedIn',
  'PATCH /api/websites/{id}/settings': 'signedIn',
  'DELETE /api/websites/{id}': 'signedIn',
  'GET /api/banner-texts/{language}': 'public',
  'POST /api/websites/{id}/scans': 'signedIn',
  'GET /api/websites/{id}/scans': 'signedIn',
  'GET /api/scans/{scanId}': 'signedIn',
  'GET /api/websites/{id}/item-purposes': 'signedIn',
  'POST /api/websites/{id}/item-purposes': 'signedIn',
  'GET /api/leads': 'signedIn',
  'GET /api/leads/summary': 'signedIn',
  'GET /api/leads/export.csv': 'signedIn',
  'GET /api/leads/audience.csv': 'signedIn',
  'GET /api/leads/{websiteId}/{visitorId}': 'signedIn',
  'GET /api/websites/{id}/webhooks': 'signedIn',
  'POST /api/websites/{id}/webhooks': 'signedIn',
  'DELETE /api/websites/{id}/webhooks/{endpointId}': 'signedIn',
  'GET /api/websites/{id}/webhooks/{endpointId}/deliveries': 'signedIn',
  'POST /api/webhook-deliveries/{deliveryId}/resend': 'signedIn',
  'GET /api/stats/consents': 'signedIn',
  'GET /api/stats/websites': 'signedIn',
  'GET /api/stats/consents/daily': 'signedIn',
  'GET /api/stats/purposes': 'signedIn',
  'GET /api/consents': 'signedIn',
  'GET /api/subscription/usage': 'owner',
  'GET /api/analytics/website/{websiteId}': 'signedIn',
  'GET /api/analytics/website/{websiteId}/daily': 'signedIn',
  'GET /api/analytics': 'signedIn',
  'GET /api/recommendations/website/{websiteId}': 'signedIn',
  'GET /api/recommendations/all': 'signedIn',
  'GET /api/subscription-plans': 'public',
  'GET /api/admin/subscription-plans': 'admin',
  'GET /api/site/branding': 'public',
  'GET /api/admin/branding': 'admin',
  'PUT /api/admin/branding': 'admin',
  'GET /api/branding': 'owner',
  'PUT /api/branding': 'owner',
  'GET /api/site/content': 'public',
  'GET /api/admin/website-content': 'admin',
  'PUT /api/admin/website-content': 'admin',
  'GET /api/admin/users': 'admin',
  'PUT /api/admin/users/{userId}': 'admin',
  'DELETE /api/admin/users/{userId}': 'admin',
  'POST /api/admin/users/invite': 'admin',
  'POST /api/admin/users/{userId}/invitation': 'admin',
  'POST /api/admin/users/{userId}/password-reset': 'admin',
  'GET /api/admin/dead-letters': 'admin',
  'POST /api/admin/dead-letters/retry': 'admin',
  'GET /api/export/consents': 'signedIn',
  'GET /api/exports': 'signedIn',
  'POST /api/verify-installation': 'signedIn',
  'GET /api/events': 'signedIn',
  'GET /.well-known/consentry/seal-key': 'public',
  'GET /.well-known/consentry/seals': 'public',
  'GET /api/consents/{consentId}/receipt': 'signedIn',
};

/** What a well-formed request to a route sends beyond its path: required query parameters and a body. */
const wellFormed: Record<string, { query?: string; payload?: object }> = {
  'PATCH /api/auth/user': { payload: { firstName: 'Ada', lastName: 'Lovelace' } },
  'POST /api/admin/password': { payload: { currentPassword: 'generated', newPassword: 'a long enough new password' } },
  'POST /api/auth/password': { payload: { currentPassword: 'current', newPassword: 'a long enough new password' } },
  'POST /api/auth/email': { payload: { currentPassword: 'current', newEmail: 'new@example.com' } },
  'DELETE /api/auth/user': { payload: { currentPassword: 'current', confirmation: 'delete my account' } },
  'POST /api/websites': { payload: { name: 'Shop', domain: 'shop.example.com' } },
  'PATCH /api/websites/{id}/settings': { payload: { retentionMonths: 12 } },
  'POST /api/websites/{id}/item-purposes': { payload: { kind: 'cookie', name: '_ga', purpose: 'analytics' } },
  'GET /api/leads/audience.csv': { query: 'format=google' },
  'POST /api/websites/{id}/webhooks': { payload: { url: 'https://hooks.example.com/consentry' } },
  'GET /api/analytics': { query: 'websiteId=6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b' },
  'PUT /api/admin/branding': { payload: { companyName: 'Mine', primaryColor: '#000000', logoUrl: null } },
  'PUT /api/branding': { payload: { companyName: 'Mine', primaryColor: '#000000', logoUrl: null } },
  'PUT /api/admin/website-content': { payload: defaultSiteContent },
  'PUT /api/admin/users/{userId}': {
    payload: { subscriptionTier: 'business', subscriptionStatus: 'active', maxWebsites: 50, maxConsentsPerMonth: 500_000, isActive: true },
  },
  'POST /api/admin/users/invite': { payload: { email: 'someone@example.com' } },
  'POST /api/admin/dead-letters/retry': { payload: {} },
  'POST /api/verify-installation': { payload: { embedCode: 'Xk3_pQ9-vT2mZ8aB' } },
};

/** The routes that tell nobody more than 'Sign in to continue'. */
const signInPrompts: Record<string, string> = {
  'GET /api/export/consents': 'Sign in to export data',
  'GET /api/exports': 'Sign in to see your exports',
  'POST /api/verify-installation': 'Sign in to verify an installation',
  'GET /api/events': 'Sign in to receive live updates',
};

/** A path of the document with its parameters filled in: ids as UUIDs, a visitor id as itself. */
const concretePath = (path: string) =>
  path.replace('{visitorId}', 'visitor-1').replace(/\{[A-Za-z]+\}/g, '6f1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b');

let db: TestDatabase;
let api: TestApi;
let documented: Map<string, unknown>;

beforeAll(async () => {
  db = await createTestDatabase('api_route_access');
  api = await buildTestApi(db.pool);
  const response = await api.app.inject({ method: 'GET', url: '/api/docs/json' });
  const document = response.json<{ paths: Record<string, Record<string, { 'x-access'?: unknown }>> }>();
  documented = new Map(
    Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation['x-access']] as const),
    ),
  );
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

describe('the access rules of the api', () => {
  it('name a rule for every route of the document', () => {
    const withoutRule = [...documented].filter(([, access]) => typeof access !== 'string' || !Object.hasOwn(accessRules, access)).map(([route]) => route);
    expect(withoutRule).toEqual([]);
  });

  it('are the rules of this table, route by route', () => {
    expect(Object.fromEntries(documented)).toEqual(accessByRoute);
  });

  it('refuse nobody with 401 on every route that is not public', async () => {
    const answers: Record<string, string> = {};
    for (const [route, access] of Object.entries(accessByRoute)) {
      if (access === 'public') continue;
      const [method, path] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
      const { query, payload } = wellFormed[route] ?? {};
      const response = await api.app.inject({
        method,
        url: `${concretePath(path)}${query ? `?${query}` : ''}`,
        headers: method === 'GET' ? {} : { origin: testPublicUrl },
        ...(payload ? { payload } : {}),
      });
      const { error } = response.statusCode === 401 ? response.json<{ error: { code: string; message: string } }>() : { error: null };
      answers[route] = error ? `${response.statusCode} ${error.code}: ${error.message}` : `${response.statusCode} ${response.body.slice(0, 200)}`;
    }
    const expected = (route: string) => `401 UNAUTHENTICATED: ${signInPrompts[route] ?? 'Sign in to continue'}`;
    expect(Object.entries(answers).filter(([route, answer]) => answer !== expected(route))).toEqual([]);
  });

  it('stop an app whose route names no rule from starting', async () => {
    const app = Fastify();
    const start = async () => {
      await app.register(accessControl, { viewers: headerViewers() });
      await app.register(async (routes) => {
        routes.get('/api/forgotten', async () => ({ open: true }));
      });
      await app.ready();
    };
    try {
      await expect(start()).rejects.toThrow('GET /api/forgotten names no access rule');
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
