// What admins do, through app.inject() on a real database: branding (with logo checks), the public
// site's content, and user management (list, change, switch off, invite, delete).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '@consentry/events';
import { examplePngDataUrl } from '@consentry/events/examples';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { saveAdmin } from '../auth/admins';
import { planCatalogue, seedSubscriptionPlans } from '../plans/catalogue';
import { createPasswordHasher } from '../auth/passwords';
import {
  addWebsiteAs,
  buildTestApi,
  clientWith,
  recordConsents,
  registerOwner,
  sessionCookieOf,
  signInAdmin,
  testPassword,
  testPublicUrl,
  type Client,
  type TestApi,
} from '../testing/api-app';

let db: TestDatabase;
let api: TestApi;
let admin: Client;

beforeAll(async () => {
  db = await createTestDatabase('api_admin', { poolSize: 12 });
  api = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  admin = await signInAdmin(api.app, 'root', 'admin password 1');
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

const pngOfBytes = (bytes: number) =>
  `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(bytes - 8)]).toString('base64')}`;
const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
const twoMb = 2 * 1024 * 1024;

describe('the installation’s branding', () => {
  it('starts at the defaults, for admins and on the public site', async () => {
    const defaults = { companyName: 'Consentry', primaryColor: '#2563eb', logoUrl: null };
    expect((await admin.request({ method: 'GET', url: '/api/admin/branding' })).json()).toEqual(defaults);
    expect((await api.app.inject({ method: 'GET', url: '/api/site/branding' })).json()).toEqual(defaults);
  });

  it('is saved as a BrandingChanged and shown at once', async () => {
    const branding = { companyName: 'Acme Consent', primaryColor: '#0F766E', logoUrl: examplePngDataUrl };
    const response = await admin.request({ method: 'PUT', url: '/api/admin/branding', payload: branding });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(branding);
    expect((await api.app.inject({ method: 'GET', url: '/api/site/branding' })).json()).toEqual(branding);
    const { rows } = await db.pool.query("SELECT data FROM events WHERE type = 'BrandingChanged' ORDER BY position DESC LIMIT 1");
    expect(rows[0].data).toMatchObject({ ownerId: null, changedBy: 'root', companyName: 'Acme Consent' });
  });

  it('takes a logo of exactly 2 MB and a harmless SVG', async () => {
    for (const logoUrl of [pngOfBytes(twoMb), svgDataUrl('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 1"><rect width="4" height="1"/></svg>')]) {
      const response = await admin.request({ method: 'PUT', url: '/api/admin/branding', payload: { companyName: 'Acme', primaryColor: '#000000', logoUrl } });
      expect(response.statusCode).toBe(200);
    }
  });

  it.each([
    ['a logo 1 byte over 2 MB', pngOfBytes(twoMb + 1), 413, 'FILE_TOO_LARGE', 'File too large: please choose an image smaller than 2MB'],
    ['text posing as a PNG', `data:image/png;base64,${Buffer.from('just text, not an image').toString('base64')}`, 400, 'INVALID_FILE_TYPE', 'Invalid file type'],
    ['an SVG with a script', svgDataUrl('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 400, 'INVALID_FILE_TYPE', 'must not contain <script>'],
    ['an SVG with an event handler', svgDataUrl('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 400, 'INVALID_FILE_TYPE', 'event handler'],
    ['an SVG with a foreign object', svgDataUrl('<svg xmlns="http://www.w3.org/2000/svg"><foreignObject/></svg>'), 400, 'INVALID_FILE_TYPE', 'foreignObject'],
    ['a PDF', `data:application/pdf;base64,${Buffer.from('%PDF-1.7').toString('base64')}`, 400, 'INVALID_FILE_TYPE', 'Invalid file type'],
  ])('refuses %s', async (_label, logoUrl, status, code, message) => {
    const before = (await admin.request({ method: 'GET', url: '/api/admin/branding' })).json();
    const response = await admin.request({ method: 'PUT', url: '/api/admin/branding', payload: { companyName: 'Evil', primaryColor: '#000000', logoUrl } });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: { code, message: expect.stringContaining(message) } });
    expect((await admin.request({ method: 'GET', url: '/api/admin/branding' })).json()).toEqual(before);
  });

  it('refuses a body far over the limit with 413 before reading it', async () => {
    const response = await admin.request({
      method: 'PUT',
      url: '/api/admin/branding',
      payload: { companyName: 'Acme', primaryColor: '#000000', logoUrl: pngOfBytes(4 * 1024 * 1024) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('BODY_TOO_LARGE');
  });

  it.each([
    ['a colour that is not #rrggbb', { companyName: 'Acme', primaryColor: 'blue', logoUrl: null }],
    ['a blank company name', { companyName: '  ', primaryColor: '#000000', logoUrl: null }],
  ])('refuses %s with 400', async (_label, payload) => {
    expect((await admin.request({ method: 'PUT', url: '/api/admin/branding', payload })).statusCode).toBe(400);
  });
});

describe('an owner’s own branding', () => {
  it('is separate from the installation’s', async () => {
    const owner = await registerOwner(api.app);
    expect((await owner.request({ method: 'GET', url: '/api/branding' })).json()).toEqual({ companyName: 'Consentry', primaryColor: '#2563eb', logoUrl: null });
    const installation = (await api.app.inject({ method: 'GET', url: '/api/site/branding' })).json();
    const saved = await owner.request({ method: 'PUT', url: '/api/branding', payload: { companyName: 'Owner Co', primaryColor: '#123456', logoUrl: examplePngDataUrl } });
    expect(saved.json()).toEqual({ companyName: 'Owner Co', primaryColor: '#123456', logoUrl: examplePngDataUrl });
    expect((await api.app.inject({ method: 'GET', url: '/api/site/branding' })).json()).toEqual(installation);
    expect((await admin.request({ method: 'GET', url: '/api/branding' })).statusCode).toBe(403);
  });
});

describe('the public site’s content', () => {
  it('starts at the defaults', async () => {
    expect((await api.app.inject({ method: 'GET', url: '/api/site/content' })).json()).toEqual(defaultSiteContent);
    expect((await admin.request({ method: 'GET', url: '/api/admin/website-content' })).json()).toEqual(defaultSiteContent);
  });

  it('is saved with every field and shown on the public site', async () => {
    const content = { ...defaultSiteContent, heroTitle: 'Consent, done right', ctaButtonText: 'Start now', heroBackgroundImage: examplePngDataUrl };
    const response = await admin.request({ method: 'PUT', url: '/api/admin/website-content', payload: content });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(content);
    expect((await api.app.inject({ method: 'GET', url: '/api/site/content' })).json()).toEqual(content);
  });

  it('refuses a save that misses a field, or a hero image that is not one', async () => {
    const { heroTitle: _heroTitle, ...missing } = defaultSiteContent;
    expect((await admin.request({ method: 'PUT', url: '/api/admin/website-content', payload: missing })).statusCode).toBe(400);
    const notImage = await admin.request({
      method: 'PUT',
      url: '/api/admin/website-content',
      payload: { ...defaultSiteContent, heroBackgroundImage: `data:image/jpeg;base64,${Buffer.from('<html>').toString('base64')}` },
    });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().error.code).toBe('INVALID_FILE_TYPE');
  });
});

describe('the list of users', () => {
  it('has each user with their websites, consents and latest activity', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Counted');
    const now = new Date().toISOString();
    await recordConsents(db.pool, [
      { websiteId: website.id, choice: 'accepted', receivedAt: now },
      { websiteId: website.id, choice: 'declined', receivedAt: now },
    ]);
    const response = await admin.request({ method: 'GET', url: '/api/admin/users' });
    expect(response.statusCode).toBe(200);
    const listed = response.json().find((user: { id: string }) => user.id === owner.id);
    expect(listed).toEqual({
      id: owner.id,
      email: owner.email,
      firstName: 'Test',
      lastName: expect.stringMatching(/^Owner \d+$/),
      profileImageUrl: null,
      status: 'registered',
      subscriptionTier: 'free',
      subscriptionStatus: 'active',
      maxWebsites: 1,
      maxConsentsPerMonth: 10_000,
      isActive: true,
      websiteCount: 1,
      consentCount: 2,
      currentMonthConsents: 2,
      consentQuotaExceeded: false,
      lastActivity: expect.any(String),
    });
    expect(Math.abs(Date.parse(listed.lastActivity) - Date.now())).toBeLessThan(60_000);
  });
});

describe('when an admin changes a user', () => {
  it('answers the changed user, whose new limits apply at once', async () => {
    const owner = await registerOwner(api.app);
    await addWebsiteAs(owner, 'First');
    const change = { subscriptionTier: 'business', subscriptionStatus: 'active', maxWebsites: 2, maxConsentsPerMonth: 500_000, isActive: true };
    const response = await admin.request({ method: 'PUT', url: `/api/admin/users/${owner.id}`, payload: change });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: owner.id, ...change, websiteCount: 1 });
    expect((await owner.request({ method: 'POST', url: '/api/websites', payload: { name: 'Second', domain: 'second.example.com' } })).statusCode).toBe(201);
    expect((await owner.request({ method: 'POST', url: '/api/websites', payload: { name: 'Third', domain: 'third.example.com' } })).statusCode).toBe(403);
  });

  it('records nothing when nothing changed', async () => {
    const owner = await registerOwner(api.app);
    const same = { subscriptionTier: 'free', subscriptionStatus: 'active', maxWebsites: 1, maxConsentsPerMonth: 10_000, isActive: true };
    const before = (await db.pool.query('SELECT count(*)::int AS n FROM events WHERE stream_id = $1', [`user-${owner.id}`])).rows[0].n;
    expect((await admin.request({ method: 'PUT', url: `/api/admin/users/${owner.id}`, payload: same })).statusCode).toBe(200);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM events WHERE stream_id = $1', [`user-${owner.id}`])).rows[0].n).toBe(before);
  });

  it('switching the account off signs the user out and keeps them out', async () => {
    const owner = await registerOwner(api.app);
    const off = { subscriptionTier: 'free', subscriptionStatus: 'cancelled', maxWebsites: 1, maxConsentsPerMonth: 10_000, isActive: false };
    expect((await admin.request({ method: 'PUT', url: `/api/admin/users/${owner.id}`, payload: off })).json()).toMatchObject({ isActive: false });
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    const signIn = await api.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl }, payload: { email: owner.email, password: testPassword } });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().error.code).toBe('ACCOUNT_DISABLED');
    expect(sessionCookieOf(signIn)).toBeUndefined();
  });

  it('answers 404 for an unknown user and 400 for limits that are not whole numbers', async () => {
    const change = { subscriptionTier: 'pro', subscriptionStatus: 'active', maxWebsites: 10, maxConsentsPerMonth: 100_000, isActive: true };
    const unknown = await admin.request({ method: 'PUT', url: `/api/admin/users/${randomUUID()}`, payload: change });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'USER_NOT_FOUND', message: 'User not found' } });
    const owner = await registerOwner(api.app);
    for (const bad of [{ maxWebsites: 1.5 }, { maxConsentsPerMonth: -1 }, { subscriptionTier: 'gold' }, { subscriptionStatus: 'paused' }]) {
      expect((await admin.request({ method: 'PUT', url: `/api/admin/users/${owner.id}`, payload: { ...change, ...bad } })).statusCode).toBe(400);
    }
  });
});

describe('when an admin invites someone', () => {
  it('answers 201 with the invited user on the free plan’s limits, as a self-signed-up owner starts', async () => {
    const email = `invitee-${randomUUID()}@example.com`;
    const response = await admin.request({ method: 'POST', url: '/api/admin/users/invite', payload: { email } });
    expect(response.statusCode).toBe(201);
    const free = planCatalogue.find((plan) => plan.planId === 'free')!;
    expect(response.json()).toMatchObject({ email, status: 'invited', subscriptionTier: 'free', maxWebsites: free.maxWebsites, maxConsentsPerMonth: free.maxConsentsPerMonth, websiteCount: 0 });
    expect(free.maxConsentsPerMonth).toBe(10_000);
  });

  it('takes limits left out from the chosen tier’s published plan', async () => {
    await seedSubscriptionPlans(db.pool);
    const email = `invitee-${randomUUID()}@example.com`;
    const response = await admin.request({ method: 'POST', url: '/api/admin/users/invite', payload: { email, subscriptionTier: 'pro', maxWebsites: 4 } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ subscriptionTier: 'pro', maxWebsites: 4, maxConsentsPerMonth: 100_000 });
  });

  it('gives the admin a single-use link through which only the invited person completes sign-up, keeping the invited limits', async () => {
    const email = `invitee-${randomUUID()}@example.com`;
    const invited = await admin.request({ method: 'POST', url: '/api/admin/users/invite', payload: { email, subscriptionTier: 'pro', maxWebsites: 4, maxConsentsPerMonth: 40_000 } });
    const { inviteUrl, inviteEmailSent, id } = invited.json();
    expect(inviteUrl).toMatch(new RegExp(`^${testPublicUrl}/invitation#[A-Za-z0-9_-]{43}$`));
    expect(inviteEmailSent).toBe(false); // no SMTP here: the admin passes the link on
    const token = String(inviteUrl).split('#')[1]!;
    const { rows } = await db.pool.query('SELECT token_hash FROM invitation_tokens WHERE user_id = $1', [id]);
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0].token_hash).toString('base64url')).not.toBe(token); // only its hash is kept

    // Whoever registers the email first gets nothing; an invited account cannot be signed into.
    const squatter = await api.app.inject({ method: 'POST', url: '/api/auth/register', headers: { origin: testPublicUrl }, payload: { email: email.toUpperCase(), password: testPassword } });
    expect(squatter.statusCode).not.toBe(201);
    const early = await api.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl }, payload: { email, password: testPassword } });
    expect(early.statusCode).toBe(401);

    const shown = await api.app.inject({ method: 'POST', url: '/api/auth/invitation', headers: { origin: testPublicUrl }, payload: { token } });
    expect(shown.json()).toEqual({ email, expiresAt: expect.any(String) });
    const accepted = await api.app.inject({ method: 'POST', url: '/api/auth/invitation/accept', headers: { origin: testPublicUrl }, payload: { token, password: testPassword, firstName: 'Ines' } });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().user).toMatchObject({ id, email, firstName: 'Ines', subscriptionTier: 'pro', maxWebsites: 4, maxConsentsPerMonth: 40_000 });
    const owner = clientWith(api.app, sessionCookieOf(accepted)!);
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).json()).toMatchObject({ id });
    const listed = (await admin.request({ method: 'GET', url: '/api/admin/users' })).json().find((user: { id: string }) => user.id === id);
    expect(listed).toMatchObject({ status: 'registered', maxWebsites: 4 });

    // The link works once.
    const again = await api.app.inject({ method: 'POST', url: '/api/auth/invitation/accept', headers: { origin: testPublicUrl }, payload: { token, password: 'another password 2' } });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('INVITATION_INVALID');
    expect((await api.app.inject({ method: 'POST', url: '/api/auth/invitation', headers: { origin: testPublicUrl }, payload: { token } })).statusCode).toBe(400);
  });

  it('refuses an expired link and one replaced by a new invitation link', async () => {
    const email = `invitee-${randomUUID()}@example.com`;
    const first = (await admin.request({ method: 'POST', url: '/api/admin/users/invite', payload: { email } })).json();
    const renewed = await admin.request({ method: 'POST', url: `/api/admin/users/${first.id}/invitation` });
    expect(renewed.statusCode).toBe(200);
    const accept = (inviteUrl: string) =>
      api.app.inject({ method: 'POST', url: '/api/auth/invitation/accept', headers: { origin: testPublicUrl }, payload: { token: inviteUrl.split('#')[1], password: testPassword } });
    expect((await accept(first.inviteUrl)).statusCode).toBe(400);
    await db.pool.query(`UPDATE invitation_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [first.id]);
    expect((await accept(renewed.json().inviteUrl)).statusCode).toBe(400);
    const third = (await admin.request({ method: 'POST', url: `/api/admin/users/${first.id}/invitation` })).json();
    expect((await accept(third.inviteUrl)).statusCode).toBe(201);
    expect((await admin.request({ method: 'POST', url: `/api/admin/users/${first.id}/invitation` })).statusCode).toBe(409);
    expect((await api.app.inject({ method: 'POST', url: '/api/auth/invitation', headers: { origin: testPublicUrl }, payload: { token: 'short' } })).statusCode).toBe(400);
  });

  it('refuses an email that already has an account with 409, and one that is not an email with 400', async () => {
    const owner = await registerOwner(api.app);
    const taken = await admin.request({ method: 'POST', url: '/api/admin/users/invite', payload: { email: owner.email } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('EMAIL_TAKEN');
    expect((await admin.request({ method: 'POST', url: '/api/admin/users/invite', payload: { email: 'nope' } })).statusCode).toBe(400);
  });
});

describe('when an admin deletes a user', () => {
  it('removes their websites, ends their sessions and stops them signing in', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Doomed');
    const response = await admin.request({ method: 'DELETE', url: `/api/admin/users/${owner.id}` });
    expect(response.statusCode).toBe(204);
    expect((await owner.request({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    const signIn = await api.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl }, payload: { email: owner.email, password: testPassword } });
    expect(signIn.statusCode).toBe(401);
    const websites = (await admin.request({ method: 'GET', url: '/api/websites' })).json().map((site: { id: string }) => site.id);
    expect(websites).not.toContain(website.id);
    expect((await admin.request({ method: 'GET', url: '/api/admin/users' })).json().map((user: { id: string }) => user.id)).not.toContain(owner.id);
    const { rows } = await db.pool.query('SELECT type FROM events WHERE stream_id = ANY($1) ORDER BY position', [[`user-${owner.id}`, `website-${website.id}`]]);
    expect(rows.map((row) => row.type)).toEqual(['UserRegistered', 'UserSubscriptionChanged', 'WebsiteAdded', 'WebsiteRemoved', 'UserDeleted']);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [owner.id])).rows[0].n).toBe(0);
  });

  it('answers 404 the second time, and frees the email for a new account', async () => {
    const owner = await registerOwner(api.app);
    expect((await admin.request({ method: 'DELETE', url: `/api/admin/users/${owner.id}` })).statusCode).toBe(204);
    expect((await admin.request({ method: 'DELETE', url: `/api/admin/users/${owner.id}` })).statusCode).toBe(404);
    const again = await registerOwner(api.app, { email: owner.email });
    expect(again.id).not.toBe(owner.id);
  });
});

describe('events a projection set aside', () => {
  it('are listed for admins only, and a retry that still fails keeps them open', async () => {
    const eventId = randomUUID();
    // Parked by hand, as a projector does (projections/src/runtime/dead-letters.int.test.ts covers parking itself).
    await db.pool.query(
      `INSERT INTO projection_dead_letters (projection, event_id, transaction_id, position, stream_id, type, error)
       VALUES ('consent-records', $1, '1'::xid8, 1, 'consent-x', 'ConsentGiven', 'invalid input syntax for type uuid (SQLSTATE 22P02)')`,
      [eventId],
    );
    const listed = await admin.request({ method: 'GET', url: '/api/admin/dead-letters' });
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    expect(listed.json()).toEqual([
      expect.objectContaining({ projection: 'consent-records', eventId, eventType: 'ConsentGiven', attempts: 1, resolvedAt: null }),
    ]);
    expect((await admin.request({ method: 'GET', url: '/api/admin/dead-letters?projection=nonsense' })).statusCode).toBe(400);

    // The event is not in this log (as after a purge): the retry resolves it as gone.
    const retried = await admin.request({ method: 'POST', url: '/api/admin/dead-letters/retry', payload: {} });
    expect(retried.json()).toEqual({ applied: 0, gone: 1, stillFailing: [] });
    expect((await admin.request({ method: 'GET', url: '/api/admin/dead-letters' })).json()).toEqual([]);
    expect((await admin.request({ method: 'GET', url: '/api/admin/dead-letters?includeResolved=true' })).json()).toEqual([
      expect.objectContaining({ eventId, resolvedAt: expect.any(String) }),
    ]);

    const owner = await registerOwner(api.app);
    expect((await owner.request({ method: 'GET', url: '/api/admin/dead-letters' })).statusCode).toBe(403);
    expect((await api.app.inject({ method: 'GET', url: '/api/admin/dead-letters' })).statusCode).toBe(401);
  });
});
