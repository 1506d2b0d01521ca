// Consent statistics, recent consents, plan usage and plans through app.inject(), answered from the
// consent-stats and consent-records read models (consents recorded through group commit and
// projected from the log).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { saveAdmin } from '../auth/admins';
import { createPasswordHasher } from '../auth/passwords';
import { seedSubscriptionPlans } from '../plans/catalogue';
import { addWebsiteAs, buildTestApi, recordConsents, registerOwner, signInAdmin, type Client, type SignedInUser, type TestApi } from '../testing/api-app';
import { lastDays } from './routes';

let db: TestDatabase;
let api: TestApi;
let admin: Client;
let owner: SignedInUser;
let busy: { id: string };
let quiet: { id: string };
let empty: { id: string };

const today = new Date();
const daysAgo = (days: number, hour = 12) =>
  new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - days, hour)).toISOString();
const inThisMonth = (iso: string) => iso.slice(0, 7) === today.toISOString().slice(0, 7);

// busy: 3 accepted and 1 declined today, 1 accepted 40 days ago; quiet: 1 declined 3 days ago.
const consents = (): Array<{ websiteId: string; choice: 'accepted' | 'declined'; receivedAt: string }> => [
  { websiteId: busy.id, choice: 'accepted', receivedAt: daysAgo(0, 0) },
  { websiteId: busy.id, choice: 'accepted', receivedAt: daysAgo(0, 0) },
  { websiteId: busy.id, choice: 'accepted', receivedAt: daysAgo(0, 0) },
  { websiteId: busy.id, choice: 'declined', receivedAt: daysAgo(0, 0) },
  { websiteId: busy.id, choice: 'accepted', receivedAt: daysAgo(40) },
  { websiteId: quiet.id, choice: 'declined', receivedAt: daysAgo(3) },
];

beforeAll(async () => {
  db = await createTestDatabase('api_stats', { poolSize: 12 });
  api = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  admin = await signInAdmin(api.app, 'root', 'admin password 1');
  owner = await registerOwner(api.app);
  await admin.request({
    method: 'PUT',
    url: `/api/admin/users/${owner.id}`,
    payload: { subscriptionTier: 'pro', subscriptionStatus: 'active', maxWebsites: 10, maxConsentsPerMonth: 100_000, isActive: true },
  });
  busy = await addWebsiteAs(owner, 'Busy shop', 'busy.example.com');
  quiet = await addWebsiteAs(owner, 'Quiet blog', 'quiet.example.com');
  empty = await addWebsiteAs(owner, 'Empty page', 'empty.example.com');
  await recordConsents(db.pool, consents());
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

describe('GET /api/stats/consents', () => {
  it('answers the totals over the owner’s websites', async () => {
    const response = await owner.request({ method: 'GET', url: '/api/stats/consents' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ totalConsents: 6, declinedConsents: 2, consentRate: (4 / 6) * 100 });
  });

  it('answers zeros for an owner without consents', async () => {
    const newcomer = await registerOwner(api.app);
    expect((await newcomer.request({ method: 'GET', url: '/api/stats/consents' })).json()).toEqual({ totalConsents: 0, declinedConsents: 0, consentRate: 0 });
  });
});

describe('GET /api/stats/websites', () => {
  it('answers every website with its totals, most consents first', async () => {
    const response = await owner.request({ method: 'GET', url: '/api/stats/websites' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { website: { id: busy.id, domain: 'busy.example.com', name: 'Busy shop' }, totalConsents: 5, consentRate: 80 },
      { website: { id: quiet.id, domain: 'quiet.example.com', name: 'Quiet blog' }, totalConsents: 1, consentRate: 0 },
      { website: { id: empty.id, domain: 'empty.example.com', name: 'Empty page' }, totalConsents: 0, consentRate: 0 },
    ]);
  });
});

describe('GET /api/stats/consents/daily', () => {
  it('answers each of the last N UTC days, oldest first, with zeros for quiet days', async () => {
    const response = await owner.request({ method: 'GET', url: '/api/stats/consents/daily?days=7' });
    expect(response.statusCode).toBe(200);
    const days = response.json();
    expect(days.map((day: { date: string }) => day.date)).toEqual(lastDays(7));
    expect(days.at(-1)).toEqual({ date: daysAgo(0).slice(0, 10), accepted: 3, declined: 1 });
    expect(days.at(-4)).toEqual({ date: daysAgo(3).slice(0, 10), accepted: 0, declined: 1 });
    expect(days.filter((day: { accepted: number; declined: number }) => day.accepted + day.declined === 0)).toHaveLength(5);
  });

  it('covers 30 days by default and reaches back as far as asked', async () => {
    expect((await owner.request({ method: 'GET', url: '/api/stats/consents/daily' })).json()).toHaveLength(30);
    const year = (await owner.request({ method: 'GET', url: '/api/stats/consents/daily?days=366' })).json();
    expect(year).toHaveLength(366);
    expect(year.find((day: { date: string }) => day.date === daysAgo(40).slice(0, 10))).toMatchObject({ accepted: 1, declined: 0 });
  });

  it.each(['0', '367', 'abc', '1.5'])('refuses days=%s with 400', async (days) => {
    const response = await owner.request({ method: 'GET', url: `/api/stats/consents/daily?days=${days}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_REQUEST');
  });
});

describe('GET /api/consents', () => {
  it('answers the newest records first, limited, with ipAddress present', async () => {
    const response = await owner.request({ method: 'GET', url: '/api/consents?limit=2' });
    expect(response.statusCode).toBe(200);
    const records = response.json();
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record).toEqual({
        id: expect.any(String),
        websiteId: busy.id,
        timestamp: daysAgo(0, 0),
        consentChoice: expect.stringMatching(/^(accepted|declined)$/),
        country: 'DE',
        city: 'Berlin',
        email: null,
        ipAddress: '203.0.113.7',
        offeredPurposes: ['preferences', 'analytics', 'marketing'],
        grantedPurposes: record.consentChoice === 'accepted' ? ['preferences', 'analytics', 'marketing'] : [],
        method: record.consentChoice === 'accepted' ? 'accept_all' : 'reject_all',
        rule: 'opt_in',
        region: 'EU',
      });
    }
  });

  it('answers 50 at most by default, and every record of the owner', async () => {
    const records = (await owner.request({ method: 'GET', url: '/api/consents' })).json();
    expect(records).toHaveLength(6);
    expect(records.map((record: { timestamp: string }) => record.timestamp)).toEqual([...records.map((record: { timestamp: string }) => record.timestamp)].sort().reverse());
  });

  it.each(['0', '1001', 'ten'])('refuses limit=%s with 400', async (limit) => {
    expect((await owner.request({ method: 'GET', url: `/api/consents?limit=${limit}` })).statusCode).toBe(400);
  });
});

describe('GET /api/subscription/usage', () => {
  it('answers the plan, its limits and this month’s use', async () => {
    const response = await owner.request({ method: 'GET', url: '/api/subscription/usage' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { maxWebsites: 10, maxConsentsPerMonth: 100_000, subscriptionStatus: 'active' },
      subscriptionPlan: { displayName: 'Pro', price: 4_900, features: expect.arrayContaining(['Up to 10 websites']), perResolutionCents: 25, dataTypes: ['b2b', 'b2c'] },
      currentWebsites: 3,
      currentMonthConsents: consents().filter((consent) => inThisMonth(consent.receivedAt)).length,
      resolutionsThisMonth: 0,
      consentQuotaExceeded: false,
    });
  });

  it('starts a new owner on the free plan', async () => {
    const newcomer = await registerOwner(api.app);
    expect((await newcomer.request({ method: 'GET', url: '/api/subscription/usage' })).json()).toEqual({
      user: { maxWebsites: 1, maxConsentsPerMonth: 10_000, subscriptionStatus: 'active' },
      subscriptionPlan: { displayName: 'Free', price: 0, features: expect.arrayContaining(['Up to 10,000 consents per month']), perResolutionCents: null, dataTypes: ['b2c'] },
      currentWebsites: 0,
      currentMonthConsents: 0,
      resolutionsThisMonth: 0,
      consentQuotaExceeded: false,
    });
  });

  it('past the monthly quota: keeps every consent, counts it everywhere, and flags the owner (and to admins)', async () => {
    const small = await registerOwner(api.app);
    const website = await addWebsiteAs(small, 'Small shop', 'small.example.com');
    const limits = { subscriptionTier: 'free', subscriptionStatus: 'active', maxWebsites: 1, maxConsentsPerMonth: 2, isActive: true };
    expect((await admin.request({ method: 'PUT', url: `/api/admin/users/${small.id}`, payload: limits })).statusCode).toBe(200);
    const now = new Date().toISOString();
    await recordConsents(db.pool, [
      { websiteId: website.id, choice: 'accepted', receivedAt: now },
      { websiteId: website.id, choice: 'declined', receivedAt: now },
    ]);
    expect((await small.request({ method: 'GET', url: '/api/subscription/usage' })).json()).toMatchObject({ currentMonthConsents: 2, consentQuotaExceeded: false });

    await recordConsents(db.pool, [{ websiteId: website.id, choice: 'accepted', receivedAt: now }]);
    const usage = (await small.request({ method: 'GET', url: '/api/subscription/usage' })).json();
    expect(usage).toMatchObject({ currentMonthConsents: 3, consentQuotaExceeded: true, user: { maxConsentsPerMonth: 2 } });
    // Nothing past the quota is dropped or left out of the statistics.
    expect((await small.request({ method: 'GET', url: '/api/consents' })).json()).toHaveLength(3);
    expect((await small.request({ method: 'GET', url: '/api/stats/consents' })).json()).toMatchObject({ totalConsents: 3 });
    const managed = (await admin.request({ method: 'GET', url: '/api/admin/users' })).json().find((user: { id: string }) => user.id === small.id);
    expect(managed).toMatchObject({ currentMonthConsents: 3, consentQuotaExceeded: true });
  });

  it("counts this month's resolutions of the owner's websites only, not last month's", async () => {
    const thisMonth = `${today.toISOString().slice(0, 7)}-01`;
    const lastMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    const other = await registerOwner(api.app);
    const theirs = await addWebsiteAs(other, 'Other shop', 'other.example.com');
    await db.pool.query(
      `INSERT INTO lead_resolutions (website_id, visitor_id, month, resolved_at)
       VALUES ($1, 'r1', $3, now()), ($2, 'r2', $3, now()), ($1, 'r3', $4, now() - interval '35 days'), ($5, 'r4', $3, now())`,
      [busy.id, quiet.id, thisMonth, lastMonth, theirs.id],
    );
    expect((await owner.request({ method: 'GET', url: '/api/subscription/usage' })).json()).toMatchObject({ resolutionsThisMonth: 2 });
    expect((await other.request({ method: 'GET', url: '/api/subscription/usage' })).json()).toMatchObject({ resolutionsThisMonth: 1 });
    await db.pool.query(`DELETE FROM lead_resolutions WHERE visitor_id IN ('r1', 'r2', 'r3', 'r4')`);
  });

  it('needs an owner: 401 for nobody, 403 for an admin', async () => {
    expect((await api.app.inject({ method: 'GET', url: '/api/subscription/usage' })).statusCode).toBe(401);
    expect((await admin.request({ method: 'GET', url: '/api/subscription/usage' })).statusCode).toBe(403);
  });
});

describe('the subscription plans', () => {
  it('are free, basic, pro and business, cheapest first, for everyone', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/api/subscription-plans' });
    expect(response.statusCode).toBe(200);
    const plans = response.json();
    expect(plans.map((plan: { name: string }) => plan.name)).toEqual(['free', 'basic', 'pro', 'business']);
    expect(plans[0]).toEqual({
      id: 'free',
      name: 'free',
      displayName: 'Free',
      description: expect.any(String),
      price: 0,
      maxWebsites: 1,
      maxConsentsPerMonth: 10_000,
      features: expect.arrayContaining(['Up to 10,000 consents per month']),
      perResolutionCents: null,
      dataTypes: ['b2c'],
    });
    // The pricing page's per-resolution rates (spec section 9) and data types come from the catalogue.
    expect(plans.map((plan: { perResolutionCents: number | null; dataTypes: string[] }) => [plan.perResolutionCents, plan.dataTypes])).toEqual([
      [null, ['b2c']],
      [29, ['b2c']],
      [25, ['b2b', 'b2c']],
      [20, ['b2b', 'b2c']],
    ]);
    for (const plan of plans) expect(plan.features.length).toBeGreaterThanOrEqual(4);
    expect((await admin.request({ method: 'GET', url: '/api/admin/subscription-plans' })).json()).toEqual(plans);
  });

  it('are published once, however often they are seeded', async () => {
    await seedSubscriptionPlans(db.pool);
    await Promise.all([seedSubscriptionPlans(db.pool), seedSubscriptionPlans(db.pool)]);
    const { rows } = await db.pool.query("SELECT count(*)::int AS n FROM events WHERE type = 'SubscriptionPlanPublished'");
    expect(rows[0].n).toBe(4);
  });
});

describe('purposes', () => {
  const none = { preferences: false, analytics: false, marketing: false, identification: false };
  let partial: { id: string };

  beforeAll(async () => {
    partial = await addWebsiteAs(owner, 'Partial shop', 'partial.example.com');
    await recordConsents(db.pool, [
      { websiteId: partial.id, choice: 'accepted', receivedAt: daysAgo(1), purposes: { ...none, analytics: true } },
      { websiteId: partial.id, choice: 'accepted', receivedAt: daysAgo(1), purposes: { ...none, analytics: true, marketing: true } },
      { websiteId: partial.id, choice: 'accepted', receivedAt: daysAgo(1) },
      { websiteId: partial.id, choice: 'declined', receivedAt: daysAgo(50) },
    ]);
  });

  it('GET /api/stats/purposes answers acceptance per purpose and the split by method for one website', async () => {
    const response = await owner.request({ method: 'GET', url: `/api/stats/purposes?websiteId=${partial.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      choices: 4,
      byMethod: { accept_all: 1, reject_all: 1, custom: 2, gpc: 0, jurisdiction_default: 0 },
      purposes: [
        { purpose: 'preferences', offered: 4, granted: 1, acceptanceRate: 25 },
        { purpose: 'analytics', offered: 4, granted: 3, acceptanceRate: 75 },
        { purpose: 'marketing', offered: 4, granted: 2, acceptanceRate: 50 },
        { purpose: 'identification', offered: 0, granted: 0, acceptanceRate: null },
      ],
    });
  });

  it('counts only the last `days` days when asked, and every website of the owner without websiteId', async () => {
    const recent = (await owner.request({ method: 'GET', url: `/api/stats/purposes?websiteId=${partial.id}&days=7` })).json();
    expect([recent.choices, recent.byMethod.reject_all]).toEqual([3, 0]);
    const all = (await owner.request({ method: 'GET', url: '/api/stats/purposes' })).json();
    expect(all.choices).toBe(10);
  });

  it('answers 404 for another owner’s website and 400 for a malformed one', async () => {
    const stranger = await registerOwner(api.app);
    expect((await stranger.request({ method: 'GET', url: `/api/stats/purposes?websiteId=${partial.id}` })).statusCode).toBe(404);
    expect((await owner.request({ method: 'GET', url: '/api/stats/purposes?websiteId=nope' })).statusCode).toBe(400);
    expect((await admin.request({ method: 'GET', url: `/api/stats/purposes?websiteId=${partial.id}` })).json().choices).toBe(4);
  });

  it('GET /api/consents names the purposes of a partial consent', async () => {
    const records = (await owner.request({ method: 'GET', url: '/api/consents?limit=1000' })).json() as Array<Record<string, unknown>>;
    const custom = records.filter((record) => record.websiteId === partial.id && record.method === 'custom');
    expect(custom.map((record) => record.grantedPurposes).sort()).toEqual([['analytics'], ['analytics', 'marketing']]);
    expect(custom.every((record) => record.consentChoice === 'accepted')).toBe(true);
  });
});
