// The owner's websites through app.inject() on a real database: the contract of spec section 7, the
// plan's website limit (also when adds race), domains as owners type them, and removal.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { shippedTexts } from '@consentry/events';
import { getWebsiteByEmbedCode } from '@consentry/projections';
import { saveAdmin } from '../auth/admins';
import { createPasswordHasher } from '../auth/passwords';
import { addWebsiteAs, buildTestApi, registerOwner, signInAdmin, type Client, type TestApi } from '../testing/api-app';

let db: TestDatabase;
let api: TestApi;
let admin: Client;

beforeAll(async () => {
  db = await createTestDatabase('api_websites', { poolSize: 16 });
  api = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  admin = await signInAdmin(api.app, 'root', 'admin password 1');
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

async function setWebsiteLimit(userId: string, maxWebsites: number): Promise<void> {
  const response = await admin.request({
    method: 'PUT',
    url: `/api/admin/users/${userId}`,
    payload: { subscriptionTier: 'pro', subscriptionStatus: 'active', maxWebsites, maxConsentsPerMonth: 100_000, isActive: true },
  });
  expect(response.statusCode).toBe(200);
}

describe('when an owner adds a website', () => {
  it('answers 201 with the website, and lists it', async () => {
    const owner = await registerOwner(api.app);
    expect((await owner.request({ method: 'GET', url: '/api/websites' })).json()).toEqual([]);
    const response = await owner.request({ method: 'POST', url: '/api/websites', payload: { name: '  Bakery ', domain: 'https://www.Bakery.example.com/menu' } });
    expect(response.statusCode).toBe(201);
    const website = response.json();
    expect(website).toEqual({
      id: expect.any(String),
      name: 'Bakery',
      domain: 'bakery.example.com',
      isActive: true,
      embedCode: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      createdAt: expect.any(String),
    });
    expect(Math.abs(Date.parse(website.createdAt) - Date.now())).toBeLessThan(60_000);
    expect((await owner.request({ method: 'GET', url: '/api/websites' })).json()).toEqual([website]);
    // Ingest finds it by its embed code at once (inline projection).
    expect((await getWebsiteByEmbedCode(db.pool, website.embedCode))?.ownerId).toBe(owner.id);
    const { rows } = await db.pool.query('SELECT type, stream_version FROM events WHERE stream_id = $1', [`website-${website.id}`]);
    expect(rows).toEqual([{ type: 'WebsiteAdded', stream_version: 1 }]);
  });

  it('gives every website its own unguessable embed code', async () => {
    const owner = await registerOwner(api.app);
    await setWebsiteLimit(owner.id, 25);
    const codes = await Promise.all(Array.from({ length: 20 }, (_, index) => addWebsiteAs(owner, `Site ${index}`, `site${index}.example.com`)));
    expect(new Set(codes.map((website) => website.embedCode)).size).toBe(20);
  });

  it.each([
    ['a domain that is not a hostname', { name: 'Shop', domain: 'not a domain' }, 'INVALID_DOMAIN', 'Enter a domain such as example.com'],
    ['a javascript: URL', { name: 'Shop', domain: 'javascript:alert(1)' }, 'INVALID_DOMAIN', 'Enter a domain such as example.com'],
    ['a blank name', { name: '   ', domain: 'shop.example.com' }, 'INVALID_REQUEST', 'Name cannot be empty'],
    ['a name of 101 characters', { name: 'x'.repeat(101), domain: 'shop.example.com' }, 'INVALID_REQUEST', 'Name must be at most 100 characters'],
    ['no domain', { name: 'Shop' }, 'INVALID_REQUEST', 'Domain is required'],
  ])('refuses %s with 400', async (_label, payload, code, message) => {
    const owner = await registerOwner(api.app);
    const response = await owner.request({ method: 'POST', url: '/api/websites', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code, message: expect.stringContaining(message) } });
    expect((await owner.request({ method: 'GET', url: '/api/websites' })).json()).toEqual([]);
  });

  it('needs someone signed in: 401 for nobody', async () => {
    const anonymous = await api.app.inject({ method: 'POST', url: '/api/websites', payload: { name: 'Shop', domain: 'shop.example.com' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('when an admin adds a website', () => {
  it('adds it for the owner the admin chooses, within that owner’s plan, recorded as the admin’s doing', async () => {
    const owner = await registerOwner(api.app); // free plan: 1 website
    const added = await admin.request({ method: 'POST', url: '/api/websites', payload: { name: 'Florist', domain: 'florist.example.com', ownerId: owner.id.toUpperCase() } });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ name: 'Florist', domain: 'florist.example.com', embedCode: expect.any(String) });
    expect((await owner.request({ method: 'GET', url: '/api/websites' })).json()).toEqual([expect.objectContaining({ id: added.json().id })]);
    const { rows } = await db.pool.query(`SELECT data->>'ownerId' AS owner, metadata->>'actor' AS actor FROM events WHERE type = 'WebsiteAdded' AND data->>'websiteId' = $1`, [added.json().id]);
    expect(rows).toEqual([{ owner: owner.id, actor: 'root' }]);

    const overLimit = await admin.request({ method: 'POST', url: '/api/websites', payload: { name: 'Second', domain: 'second.example.com', ownerId: owner.id } });
    expect(overLimit.statusCode).toBe(403);
    expect(overLimit.json().error.code).toBe('WEBSITE_LIMIT_REACHED');
  });

  it('asks which owner (400) when the admin names none and has no owner account; 404 for no such owner', async () => {
    const none = await admin.request({ method: 'POST', url: '/api/websites', payload: { name: 'Shop', domain: 'shop.example.com' } });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ error: { code: 'OWNER_REQUIRED', message: 'Choose the owner this website is for' } });
    const unknown = await admin.request({ method: 'POST', url: '/api/websites', payload: { name: 'Shop', domain: 'shop.example.com', ownerId: randomUUID() } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('OWNER_NOT_FOUND');
  });

  it('does not let an owner add a website to someone else’s account', async () => {
    const [owner, other] = [await registerOwner(api.app), await registerOwner(api.app)];
    const response = await owner.request({ method: 'POST', url: '/api/websites', payload: { name: 'Shop', domain: 'shop.example.com', ownerId: other.id } });
    expect(response.statusCode).toBe(403);
    expect((await other.request({ method: 'GET', url: '/api/websites' })).json()).toEqual([]);
    expect((await owner.request({ method: 'POST', url: '/api/websites', payload: { name: 'Mine', domain: 'mine.example.com', ownerId: owner.id } })).statusCode).toBe(201);
  });
});

describe('when the website limit is reached', () => {
  it('refuses another website with 403 "Website limit reached"', async () => {
    const owner = await registerOwner(api.app); // free plan: 1 website
    await addWebsiteAs(owner, 'First');
    const response = await owner.request({ method: 'POST', url: '/api/websites', payload: { name: 'Second', domain: 'second.example.com' } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: { code: 'WEBSITE_LIMIT_REACHED', message: 'Website limit reached' } });
    expect((await owner.request({ method: 'GET', url: '/api/websites' })).json()).toHaveLength(1);
  });

  it('allows a new one once a website is removed', async () => {
    const owner = await registerOwner(api.app);
    const first = await addWebsiteAs(owner, 'First');
    expect((await owner.request({ method: 'DELETE', url: `/api/websites/${first.id}` })).statusCode).toBe(204);
    expect((await owner.request({ method: 'POST', url: '/api/websites', payload: { name: 'Second', domain: 'second.example.com' } })).statusCode).toBe(201);
  });

  it('lets exactly as many of many simultaneous adds through as the plan allows', async () => {
    const owner = await registerOwner(api.app);
    await setWebsiteLimit(owner.id, 3);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => owner.request({ method: 'POST', url: '/api/websites', payload: { name: `Racer ${index}`, domain: `racer${index}.example.com` } })),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 403)).toHaveLength(7);
    expect((await owner.request({ method: 'GET', url: '/api/websites' })).json()).toHaveLength(3);
  });
});

describe('when an owner removes a website', () => {
  it('answers 204, forgets it, and answers 404 the second time', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Gone soon');
    const removed = await owner.request({ method: 'DELETE', url: `/api/websites/${website.id}` });
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await owner.request({ method: 'GET', url: '/api/websites' })).json()).toEqual([]);
    expect(await getWebsiteByEmbedCode(db.pool, website.embedCode)).toBeNull();
    const again = await owner.request({ method: 'DELETE', url: `/api/websites/${website.id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: { code: 'WEBSITE_NOT_FOUND', message: 'Website not found' } });
  });

  it('answers 404 for an id that never existed and 400 for one that is not an id', async () => {
    const owner = await registerOwner(api.app);
    expect((await owner.request({ method: 'DELETE', url: `/api/websites/${randomUUID()}` })).statusCode).toBe(404);
    const malformed = await owner.request({ method: 'DELETE', url: '/api/websites/not-an-id' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('INVALID_REQUEST');
  });
});

describe('when an admin looks at websites', () => {
  it('sees every owner’s websites and may remove any', async () => {
    const [first, second] = [await registerOwner(api.app), await registerOwner(api.app)];
    const [a, b] = [await addWebsiteAs(first, 'First owner'), await addWebsiteAs(second, 'Second owner')];
    const listed = (await admin.request({ method: 'GET', url: '/api/websites' })).json() as Array<{ id: string; owner?: { id: string; email: string } | null }>;
    expect(listed.map((website) => website.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    // Each names its owner, for the admin only.
    const [firstUser, secondUser] = [(await first.request({ method: 'GET', url: '/api/auth/user' })).json(), (await second.request({ method: 'GET', url: '/api/auth/user' })).json()];
    expect(listed.find((website) => website.id === a.id)?.owner).toMatchObject({ id: firstUser.id, email: firstUser.email });
    expect(listed.find((website) => website.id === b.id)?.owner).toMatchObject({ id: secondUser.id, email: secondUser.email });
    expect((await first.request({ method: 'GET', url: '/api/websites' })).json()[0]).not.toHaveProperty('owner');
    expect((await admin.request({ method: 'DELETE', url: `/api/websites/${a.id}` })).statusCode).toBe(204);
    expect((await first.request({ method: 'GET', url: '/api/websites' })).json()).toEqual([]);
  });
});

describe("when an owner changes a website's settings", () => {
  it('starts from the defaults: 24 months, truncated IP addresses, banner at the bottom in light, three purposes for 12 months', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const response = await owner.request({ method: 'GET', url: `/api/websites/${website.id}/settings` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      retentionMonths: 24,
      ipAddressMode: 'truncated',
      bannerPosition: 'bottom',
      bannerTheme: 'light',
      policyVersion: expect.any(String),
      privacyPolicyUrl: null,
      purposes: ['preferences', 'analytics', 'marketing'],
      services: [],
      consentLifetimeMonths: 12,
      defaultLanguage: 'en',
      textOverrides: {},
      regionRules: {},
      forceOptIn: false,
      scanIntervalDays: 30,
      identification: false,
      identificationForms: 'all',
      monthlyResolutionCap: null,
      keepPageQueryStrings: false,
    });
  });

  it("sets the banner's default language, the owner's texts per language and the rules per region", async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const change = {
      defaultLanguage: 'de',
      textOverrides: { de: { title: 'Cookies bei {company}', acceptAll: 'Alles erlauben' }, fr: { rejectAll: 'Non merci' } },
      regionRules: { 'US-CA': 'opt_in', BR: 'notice_only' },
      forceOptIn: true,
      scanIntervalDays: 7,
      keepPageQueryStrings: true,
    };
    const response = await owner.request({ method: 'PATCH', url: `/api/websites/${website.id}/settings`, payload: change });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject(change);
    expect(await getWebsiteByEmbedCode(db.pool, website.embedCode)).toMatchObject(change);
  });

  it('sets the purposes the banner asks for, the services under them and the consent lifetime', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const services = [{ purpose: 'analytics', name: 'Matomo', description: 'Counts visits', cookies: ['_pk_id', '_pk_ses'] }];
    const change = { purposes: ['analytics', 'identification'], services, consentLifetimeMonths: 6 };
    const response = await owner.request({ method: 'PATCH', url: `/api/websites/${website.id}/settings`, payload: change });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject(change);
    const reread = await owner.request({ method: 'GET', url: `/api/websites/${website.id}/settings` });
    expect(reread.json()).toMatchObject(change);
  });

  it('switches Lead identification on and off: the identification purpose is added and removed, the others stay', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const settings = `/api/websites/${website.id}/settings`;
    const on = await owner.request({ method: 'PATCH', url: settings, payload: { identification: true, identificationForms: 'marked' } });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ identification: true, identificationForms: 'marked', purposes: ['preferences', 'analytics', 'marketing', 'identification'] });
    expect((await owner.request({ method: 'GET', url: settings })).json()).toMatchObject({ identification: true, identificationForms: 'marked' });

    // The switch decides about identification whatever `purposes` says; the other purposes come from `purposes`.
    const both = await owner.request({ method: 'PATCH', url: settings, payload: { purposes: ['analytics', 'identification'], identification: false } });
    expect(both.json()).toMatchObject({ identification: false, purposes: ['analytics'] });
    const off = await owner.request({ method: 'PATCH', url: settings, payload: { identification: true } });
    expect(off.json()).toMatchObject({ identification: true, purposes: ['analytics', 'identification'] });

    const { rows } = await db.pool.query(`SELECT data FROM events WHERE stream_id = $1 AND type = 'WebsiteSettingsChanged' ORDER BY position`, [`website-${website.id}`]);
    expect(rows.map((row) => row.data)).toEqual([
      { websiteId: website.id, purposes: ['preferences', 'analytics', 'marketing', 'identification'], identificationForms: 'marked', changedAt: expect.any(String) },
      { websiteId: website.id, purposes: ['analytics'], changedAt: expect.any(String) },
      { websiteId: website.id, purposes: ['analytics', 'identification'], changedAt: expect.any(String) },
    ]);
  });

  it('a switch that changes nothing records nothing (no visitor is asked again)', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const response = await owner.request({ method: 'PATCH', url: `/api/websites/${website.id}/settings`, payload: { identification: false } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ identification: false, purposes: ['preferences', 'analytics', 'marketing'] });
    const { rows } = await db.pool.query(`SELECT type FROM events WHERE stream_id = $1`, [`website-${website.id}`]);
    expect(rows.map((row) => row.type)).toEqual(['WebsiteAdded']);
  });

  it('refuses switching identification off when it is the only purpose left, and an unknown form mode', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const settings = `/api/websites/${website.id}/settings`;
    expect((await owner.request({ method: 'PATCH', url: settings, payload: { purposes: ['identification'] } })).statusCode).toBe(200);
    const refused = await owner.request({ method: 'PATCH', url: settings, payload: { identification: false } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('Choose at least one purpose to ask for');
    const forms = await owner.request({ method: 'PATCH', url: settings, payload: { identificationForms: 'some' } });
    expect(forms.statusCode).toBe(400);
    expect(forms.json().error.message).toContain('Identification forms');
    expect((await owner.request({ method: 'GET', url: settings })).json()).toMatchObject({ identification: true, purposes: ['identification'], identificationForms: 'all' });
  });

  it("switches nothing on another owner's website: 404", async () => {
    const owner = await registerOwner(api.app);
    const stranger = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const response = await stranger.request({ method: 'PATCH', url: `/api/websites/${website.id}/settings`, payload: { identification: true } });
    expect(response.statusCode).toBe(404);
    expect((await owner.request({ method: 'GET', url: `/api/websites/${website.id}/settings` })).json().identification).toBe(false);
  });

  it.each([
    [{ purposes: [] }, 'Choose at least one purpose to ask for'],
    [{ purposes: ['marketing', 'analytics'] }, 'Expected each purpose once, in the order preferences, analytics, marketing, identification'],
    [{ consentLifetimeMonths: 36 }, 'Consent lifetime months must be at most 24'],
    [{ defaultLanguage: 'ja' }, "Expected one of the banner's languages"],
    [{ textOverrides: { de: { title: '  ' } } }, 'Must not be blank'],
    [{ textOverrides: { de: { headline: 'x' } } }, 'headline'],
    [{ regionRules: { California: 'opt_out' } }, 'Expected EU, a country code (GB) or a subdivision (US-CA)'],
    [{ regionRules: { 'US-CA': 'maybe' } }, 'opt_in'],
    [{ scanIntervalDays: 400 }, 'Scan interval days must be at most 365'],
  ])('refuses %j with a clear message', async (change, message) => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const response = await owner.request({ method: 'PATCH', url: `/api/websites/${website.id}/settings`, payload: change });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(message);
  });

  it('changes only what was sent, records one event, and ingest reads the new value', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const response = await owner.request({ method: 'PATCH', url: `/api/websites/${website.id}/settings`, payload: { retentionMonths: 6, ipAddressMode: 'full' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ retentionMonths: 6, ipAddressMode: 'full', bannerPosition: 'bottom' });
    const stored = await getWebsiteByEmbedCode(db.pool, website.embedCode);
    expect(stored).toMatchObject({ retentionMonths: 6, ipAddressMode: 'full' });
    const { rows } = await db.pool.query('SELECT type, data FROM events WHERE stream_id = $1 ORDER BY position', [`website-${website.id}`]);
    expect(rows.map((row) => row.type)).toEqual(['WebsiteAdded', 'WebsiteSettingsChanged']);
    expect(rows[1].data).toEqual({ websiteId: website.id, retentionMonths: 6, ipAddressMode: 'full', changedAt: expect.any(String) });
  });

  it.each([
    [{ retentionMonths: 0 }, 'Retention months must be at least 1'],
    [{ retentionMonths: 121 }, 'Retention months must be at most 120'],
    [{ retentionMonths: 2.5 }, 'Retention months must be a whole number'],
    [{ ipAddressMode: 'hashed' }, 'IP address mode must be one of'],
    [{}, 'at least one setting'],
    [{ retentionMonths: 12, owner: 'someone else' }, 'owner'],
  ])('refuses %j with 400 naming the problem', async (payload, named) => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    const response = await owner.request({ method: 'PATCH', url: `/api/websites/${website.id}/settings`, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(named);
    expect((await owner.request({ method: 'GET', url: `/api/websites/${website.id}/settings` })).json().retentionMonths).toBe(24);
  });

  it("answers 404 for another owner's website and changes nothing; an admin may change any", async () => {
    const owner = await registerOwner(api.app);
    const stranger = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Shop');
    for (const method of ['GET', 'PATCH'] as const) {
      const response = await stranger.request({ method, url: `/api/websites/${website.id}/settings`, ...(method === 'PATCH' ? { payload: { retentionMonths: 1 } } : {}) });
      expect(response.statusCode).toBe(404);
    }
    expect((await admin.request({ method: 'PATCH', url: `/api/websites/${website.id}/settings`, payload: { retentionMonths: 12 } })).statusCode).toBe(200);
    expect((await owner.request({ method: 'GET', url: `/api/websites/${website.id}/settings` })).json().retentionMonths).toBe(12);
  });
});

describe('our banner texts', () => {
  it('are served per language, for the settings to show as the defaults of an owner\'s wording', async () => {
    const german = await api.app.inject({ method: 'GET', url: '/api/banner-texts/de' });
    expect(german.statusCode).toBe(200);
    expect(german.headers['cache-control']).toBe('public, max-age=3600');
    expect(german.json()).toEqual({ language: 'de', dir: 'ltr', texts: shippedTexts.de });
    expect((await api.app.inject({ method: 'GET', url: '/api/banner-texts/ar' })).json()).toMatchObject({ dir: 'rtl' });
  });

  it('refuse a language the banner does not speak with a clear 400', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/api/banner-texts/ja' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain("Expected one of the banner's languages");
  });
});
