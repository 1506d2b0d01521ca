// The isolation matrix: two owners with their own websites and consents. Every endpoint that takes
// or returns a website or consent shows each owner only their own (another owner's website id is a
// 404, as if it did not exist), and every admin endpoint refuses an owner (403) and nobody (401).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplePngDataUrl } from '@consentry/events/examples';
import { defaultSiteContent } from '@consentry/events';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { saveAdmin } from './auth/admins';
import { createPasswordHasher } from './auth/passwords';
import { addWebsiteAs, buildTestApi, recordConsents, registerOwner, signInAdmin, testPublicUrl, type Client, type SignedInUser, type TestApi } from './testing/api-app';

let db: TestDatabase;
let api: TestApi;
let admin: Client;
let alice: SignedInUser;
let bob: SignedInUser;
let aliceSite: { id: string; embedCode: string };
let bobSite: { id: string; embedCode: string };

beforeAll(async () => {
  db = await createTestDatabase('api_isolation', { poolSize: 12 });
  const pool = db.pool;
  api = await buildTestApi(pool, { verification: { fetch: { timeoutMs: 500 }, pageUrlsFor: () => [] } });
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  admin = await signInAdmin(api.app, 'root', 'admin password 1');
  alice = await registerOwner(api.app);
  bob = await registerOwner(api.app);
  aliceSite = await addWebsiteAs(alice, 'Alice shop', 'alice.example.com');
  bobSite = await addWebsiteAs(bob, 'Bob blog', 'bob.example.com');
  const now = new Date().toISOString();
  await recordConsents(db.pool, [
    { websiteId: aliceSite.id, choice: 'accepted', receivedAt: now },
    { websiteId: aliceSite.id, choice: 'accepted', receivedAt: now },
    { websiteId: aliceSite.id, choice: 'declined', receivedAt: now },
    { websiteId: bobSite.id, choice: 'declined', receivedAt: now },
  ]);
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

const owners = () =>
  [
    ['Alice', alice, aliceSite, bobSite, { total: 3, declined: 1 }],
    ['Bob', bob, bobSite, aliceSite, { total: 1, declined: 1 }],
  ] as const;

describe.each(['Alice', 'Bob'])('what %s sees', (name) => {
  const pick = () => owners().find(([ownerName]) => ownerName === name)!;

  it('GET /api/websites: only their own website', async () => {
    const [, owner, own] = pick();
    const ids = (await owner.request({ method: 'GET', url: '/api/websites' })).json().map((website: { id: string }) => website.id);
    expect(ids).toEqual([own.id]);
  });

  it('DELETE /api/websites/:id of the other owner: 404, and the website stays', async () => {
    const [, owner, , other] = pick();
    const response = await owner.request({ method: 'DELETE', url: `/api/websites/${other.id}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'WEBSITE_NOT_FOUND', message: 'Website not found' } });
    const all = (await admin.request({ method: 'GET', url: '/api/websites' })).json().map((website: { id: string }) => website.id);
    expect(all).toContain(other.id);
  });

  it('GET /api/stats/consents: only their own consents', async () => {
    const [, owner, , , expected] = pick();
    const stats = (await owner.request({ method: 'GET', url: '/api/stats/consents' })).json();
    expect(stats).toMatchObject({ totalConsents: expected.total, declinedConsents: expected.declined });
  });

  it('GET /api/stats/websites: only their own website', async () => {
    const [, owner, own] = pick();
    const rows = (await owner.request({ method: 'GET', url: '/api/stats/websites' })).json();
    expect(rows.map((row: { website: { id: string } }) => row.website.id)).toEqual([own.id]);
  });

  it('GET /api/stats/consents/daily: only their own consents', async () => {
    const [, owner, , , expected] = pick();
    const days: Array<{ accepted: number; declined: number }> = (await owner.request({ method: 'GET', url: '/api/stats/consents/daily?days=2' })).json();
    expect(days.reduce((sum, day) => sum + day.accepted + day.declined, 0)).toBe(expected.total);
  });

  it('GET /api/consents: only records of their own website', async () => {
    const [, owner, own, , expected] = pick();
    const records = (await owner.request({ method: 'GET', url: '/api/consents?limit=1000' })).json();
    expect(records).toHaveLength(expected.total);
    expect(new Set(records.map((record: { websiteId: string }) => record.websiteId))).toEqual(new Set([own.id]));
  });

  it('GET /api/subscription/usage: only their own websites and consents', async () => {
    const [, owner, , , expected] = pick();
    expect((await owner.request({ method: 'GET', url: '/api/subscription/usage' })).json()).toMatchObject({ currentWebsites: 1, currentMonthConsents: expected.total });
  });

  it('GET and PUT /api/branding: only their own branding', async () => {
    const [ownerName, owner] = pick();
    const saved = await owner.request({ method: 'PUT', url: '/api/branding', payload: { companyName: `${ownerName} Co`, primaryColor: '#112233', logoUrl: null } });
    expect(saved.statusCode).toBe(200);
    expect((await owner.request({ method: 'GET', url: '/api/branding' })).json().companyName).toBe(`${ownerName} Co`);
  });
});

describe('an admin', () => {
  it('sees both owners’ websites, stats and consents', async () => {
    const ids = (await admin.request({ method: 'GET', url: '/api/websites' })).json().map((website: { id: string }) => website.id);
    expect(ids).toEqual(expect.arrayContaining([aliceSite.id, bobSite.id]));
    expect((await admin.request({ method: 'GET', url: '/api/stats/consents' })).json()).toMatchObject({ totalConsents: 4, declinedConsents: 2 });
    expect((await admin.request({ method: 'GET', url: '/api/consents?limit=1000' })).json()).toHaveLength(4);
  });

  it('exports both owners’ consents, and the export is audited as the signed-in admin', async () => {
    const response = await admin.request({ method: 'GET', url: '/api/export/consents?format=json' });
    expect(response.json()).toHaveLength(4);
    const { rows } = await db.pool.query(`SELECT data FROM events WHERE type = 'ConsentsExported' AND data->>'exportedBy' = 'root'`);
    expect(rows.map((row) => row.data)).toEqual([expect.objectContaining({ userId: null, websiteId: null, format: 'json', rowCount: 4 })]);
  });
});

describe('nobody signed in', () => {
  it.each([
    ['GET', '/api/websites'],
    ['POST', '/api/websites'],
    ['DELETE', `/api/websites/${randomUUID()}`],
    ['GET', '/api/stats/consents'],
    ['GET', '/api/stats/websites'],
    ['GET', '/api/stats/consents/daily'],
    ['GET', '/api/consents?limit=10'],
    ['GET', '/api/subscription/usage'],
    ['GET', '/api/branding'],
    ['PUT', '/api/branding'],
    ['GET', '/api/auth/user'],
  ] as const)('%s %s: 401', async (method, url) => {
    const payload =
      method === 'POST' ? { name: 'x', domain: 'x.example.com' } : method === 'PUT' ? { companyName: 'x', primaryColor: '#000000', logoUrl: null } : undefined;
    const response = await api.app.inject({ method, url, headers: { origin: testPublicUrl }, ...(payload ? { payload } : {}) });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Sign in to continue' } });
  });
});

describe('the admin endpoints', () => {
  const userId = randomUUID();
  const adminEndpoints = [
    ['GET', '/api/admin/branding', undefined],
    ['PUT', '/api/admin/branding', { companyName: 'Mine now', primaryColor: '#000000', logoUrl: examplePngDataUrl }],
    ['GET', '/api/admin/website-content', undefined],
    ['PUT', '/api/admin/website-content', { ...defaultSiteContent, heroTitle: 'Mine now' }],
    ['GET', '/api/admin/users', undefined],
    ['PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'business', subscriptionStatus: 'active', maxWebsites: 50, maxConsentsPerMonth: 500_000, isActive: true }],
    ['DELETE', `/api/admin/users/${userId}`, undefined],
    ['POST', '/api/admin/users/invite', { email: 'someone@example.com' }],
    ['GET', '/api/admin/subscription-plans', undefined],
  ] as const;

  it.each(adminEndpoints)('%s %s refuses an owner with 403', async (method, url, payload) => {
    const before = (await db.pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n;
    const response = await alice.request({ method, url, ...(payload ? { payload } : {}) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: { code: 'ADMIN_REQUIRED', message: 'This needs an admin session' } });
    expect((await db.pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(before);
  });

  it.each(adminEndpoints)('%s %s refuses nobody with 401', async (method, url, payload) => {
    const response = await api.app.inject({ method, url, headers: { origin: testPublicUrl }, ...(payload ? { payload } : {}) });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('PUT /api/admin/users/:userId on Bob by Alice changes nothing about Bob', async () => {
    const response = await alice.request({
      method: 'PUT',
      url: `/api/admin/users/${bob.id}`,
      payload: { subscriptionTier: 'free', subscriptionStatus: 'expired', maxWebsites: 0, maxConsentsPerMonth: 0, isActive: false },
    });
    expect(response.statusCode).toBe(403);
    expect((await bob.request({ method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ isActive: true, subscriptionStatus: 'active' });
  });
});

describe.each(['Alice', 'Bob'])('what %s sees of exports, verification, analytics and recommendations', (name) => {
  const pick = () => owners().find(([ownerName]) => ownerName === name)!;

  it('GET /api/export/consents: only their own records; the other owner’s website is a 404', async () => {
    const [, owner, own, other, expected] = pick();
    const all = (await owner.request({ method: 'GET', url: '/api/export/consents?format=json' })).json() as Array<{ websiteId: string }>;
    expect(all).toHaveLength(expected.total);
    expect(new Set(all.map((record) => record.websiteId))).toEqual(new Set([own.id]));
    expect((await owner.request({ method: 'GET', url: `/api/export/consents?format=csv&websiteId=${other.id}` })).statusCode).toBe(404);
  });

  it('GET /api/exports: only their own exports', async () => {
    const [, owner, own] = pick();
    await owner.request({ method: 'GET', url: `/api/export/consents?format=csv&websiteId=${own.id}` });
    const exports = (await owner.request({ method: 'GET', url: '/api/exports' })).json() as Array<{ websiteId: string | null }>;
    expect(exports.length).toBeGreaterThan(0);
    for (const entry of exports) expect([null, own.id]).toContain(entry.websiteId);
  });

  it('POST /api/verify-installation with the other owner’s embed code: 404', async () => {
    const [, owner, , other] = pick();
    const response = await owner.request({ method: 'POST', url: '/api/verify-installation', payload: { embedCode: other.embedCode } });
    expect(response.statusCode).toBe(404);
  });

  it('analytics and recommendations of the other owner’s website: 404; all reports: only their own', async () => {
    const [, owner, own, other] = pick();
    expect((await owner.request({ method: 'GET', url: `/api/analytics/website/${other.id}` })).statusCode).toBe(404);
    expect((await owner.request({ method: 'GET', url: `/api/analytics?websiteId=${other.id}` })).statusCode).toBe(404);
    expect((await owner.request({ method: 'GET', url: `/api/recommendations/website/${other.id}?days=7` })).statusCode).toBe(404);
    const reports = (await owner.request({ method: 'GET', url: '/api/recommendations/all' })).json() as Array<{ website: { id: string } }>;
    expect(reports.map((report) => report.website.id)).toEqual([own.id]);
  });
});

describe('nobody signed in', () => {
  it.each([
    ['GET', '/api/export/consents'],
    ['GET', '/api/exports'],
    ['GET', '/api/analytics/website/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/recommendations/all'],
  ] as const)('%s %s: 401', async (method, url) => {
    expect((await api.app.inject({ method, url })).statusCode).toBe(401);
  });
});
