// The owner's monthly resolution cap through app.inject() on a real database (docs/identification.md,
// "Limits"): set, read and lifted in the website's settings as a WebsiteSettingsChanged; refused out
// of range; and the alert of the leads summary, from 80 % of the cap and when reached, counting each
// person once. The read model's rows are written directly (ingest and the leads projection have tests
// of their own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { saveAdmin } from '../auth/admins';
import { createPasswordHasher } from '../auth/passwords';
import { addWebsiteAs, buildTestApi, registerOwner, signInAdmin, type SignedInUser, type TestApi } from '../testing/api-app';

let db: TestDatabase;
let api: TestApi;
let owner: SignedInUser;
let stranger: SignedInUser;

beforeAll(async () => {
  db = await createTestDatabase('api_resolution_cap', { poolSize: 6 });
  api = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  const admin = await signInAdmin(api.app, 'root', 'admin password 1');
  owner = await registerOwner(api.app);
  // Room for the several websites of these tests.
  await admin.request({
    method: 'PUT',
    url: `/api/admin/users/${owner.id}`,
    payload: { subscriptionTier: 'pro', subscriptionStatus: 'active', maxWebsites: 10, maxConsentsPerMonth: 100_000, isActive: true },
  });
  stranger = await registerOwner(api.app);
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

const settingsOf = (website: { id: string }) => `/api/websites/${website.id}/settings`;
const thisMonth = () => `${new Date().toISOString().slice(0, 7)}-01`;

describe('when an owner sets a monthly resolution cap', () => {
  it('is unlimited until set, recorded as a settings change, and lifted with null', async () => {
    const website = await addWebsiteAs(owner, 'Capped', 'capped.example.com');
    expect((await owner.request({ method: 'GET', url: settingsOf(website) })).json()).toMatchObject({ monthlyResolutionCap: null });
    const set = await owner.request({ method: 'PATCH', url: settingsOf(website), payload: { monthlyResolutionCap: 500 } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ monthlyResolutionCap: 500 });
    expect((await owner.request({ method: 'GET', url: settingsOf(website) })).json()).toMatchObject({ monthlyResolutionCap: 500 });
    const lifted = await owner.request({ method: 'PATCH', url: settingsOf(website), payload: { monthlyResolutionCap: null } });
    expect(lifted.json()).toMatchObject({ monthlyResolutionCap: null });
    const { rows } = await db.pool.query(`SELECT data FROM events WHERE stream_id = $1 AND type = 'WebsiteSettingsChanged' ORDER BY position`, [`website-${website.id}`]);
    expect(rows.map((row) => row.data)).toEqual([
      { websiteId: website.id, monthlyResolutionCap: 500, changedAt: expect.any(String) },
      { websiteId: website.id, monthlyResolutionCap: null, changedAt: expect.any(String) },
    ]);
  });

  it('refuses a cap that is not a whole number from 1 to 10,000,000, and another owner’s website', async () => {
    const website = await addWebsiteAs(owner, 'Refused', 'refused.example.com');
    for (const cap of [0, -5, 2.5, 10_000_001, '100']) {
      const response = await owner.request({ method: 'PATCH', url: settingsOf(website), payload: { monthlyResolutionCap: cap } });
      expect(response.statusCode, String(cap)).toBe(400);
      expect(response.json().error.message).toContain('Monthly resolution cap');
    }
    expect((await stranger.request({ method: 'PATCH', url: settingsOf(website), payload: { monthlyResolutionCap: 5 } })).statusCode).toBe(404);
    expect((await owner.request({ method: 'GET', url: settingsOf(website) })).json()).toMatchObject({ monthlyResolutionCap: null });
  });
});

describe('the cap alert', () => {
  it('warns from 80 % of the cap, says when it is reached, and counts each person once', async () => {
    const near = await addWebsiteAs(owner, 'Near', 'near.example.com');
    const reached = await addWebsiteAs(owner, 'Reached', 'reached.example.com');
    const below = await addWebsiteAs(owner, 'Below', 'below.example.com');
    for (const website of [near, reached, below]) {
      expect((await owner.request({ method: 'PATCH', url: settingsOf(website), payload: { monthlyResolutionCap: 10 } })).statusCode).toBe(200);
    }
    const resolve = (website: { id: string }, people: number, visitorsEach = 1) =>
      db.pool.query(
        `INSERT INTO lead_resolutions (website_id, visitor_id, month, resolved_at, person_key)
         SELECT $1, 'v-' || person || '-' || visitor, $2, now(), 'e:' || person FROM generate_series(1, $3::int) AS person, generate_series(1, $4::int) AS visitor`,
        [website.id, thisMonth(), people, visitorsEach],
      );
    await resolve(near, 8, 3); // 8 people, each from three browsers: 24 visitors, 8 resolutions
    await resolve(reached, 6);
    // Ingest admitted 10 people on `reached` (the bill has not caught up): new people are refused there already.
    await db.pool.query(`INSERT INTO resolution_tallies (website_id, period, people) VALUES ($1, $2, 10)`, [reached.id, thisMonth()]);
    await resolve(below, 7);

    const summary = (await owner.request({ method: 'GET', url: '/api/leads/summary' })).json();
    expect(summary.capAlerts).toEqual([
      { websiteId: near.id, websiteName: 'Near', cap: 10, resolutions: 8, level: 'near' },
      { websiteId: reached.id, websiteName: 'Reached', cap: 10, resolutions: 6, level: 'reached' },
    ]);
    expect(summary.resolutionsThisMonth).toBe(8 + 6 + 7);
    // One website's summary, and nothing of them for another owner.
    expect((await owner.request({ method: 'GET', url: `/api/leads/summary?websiteId=${below.id}` })).json().capAlerts).toEqual([]);
    expect((await stranger.request({ method: 'GET', url: '/api/leads/summary' })).json().capAlerts).toEqual([]);
  });
});
