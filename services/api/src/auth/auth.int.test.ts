// Signing in and out through app.inject() on a real database: the contract of spec section 7 and the
// issue (owners and admins), and the security properties: session fixation, cookie attributes,
// expiry, foreign origins, brute-force limits (shared by every api process), and no secret in any
// answer or log line.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPool } from '@consentry/infra';
import { createTestDatabase, startTcpProxy, type TestDatabase } from '@consentry/infra/testing';
import { sessionCookieName } from '../app';
import {
  buildTestApi,
  clientWith,
  registerOwner,
  sessionCookieOf,
  signInAdmin,
  testPassword,
  testPublicUrl,
  type TestApi,
} from '../testing/api-app';
import { ensureInitialAdmin, saveAdmin, AdminInputError } from './admins';
import { createPasswordHasher } from './passwords';
import { resolveSessionSecret } from './session-secret';
import { hashSessionId, pruneExpiredSessions } from './session-store';
import { defaultSignInThrottle } from './sign-in-throttle';

let db: TestDatabase;
let api: TestApi;
const adminPassword = 'admin password 1';
const fastHasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1 });

beforeAll(async () => {
  db = await createTestDatabase('api_auth', { poolSize: 12 });
  api = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', adminPassword, fastHasher);
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  api.app.inject({
    method: 'POST',
    url,
    headers: { origin: testPublicUrl, ...(typeof payload === 'string' ? {} : { 'content-type': 'application/json' }), ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const get = (url: string, cookie?: string) => api.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

/** The raw session id inside a signed cookie value (`<id>.<signature>`). */
const sessionIdOf = (cookie: string) => cookie.slice(`${sessionCookieName}=`.length).split('.')[0] ?? '';

async function storedSessionCount(cookie: string): Promise<number> {
  const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM sessions WHERE id_hash = $1', [hashSessionId(sessionIdOf(cookie))]);
  return rows[0].n;
}

describe('GET /api/login', () => {
  it('redirects to the sign-in page of the web app', async () => {
    const response = await get('/api/login');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login');
  });
});

describe('when a person creates an account', () => {
  it('answers 201 { user } and signs them in with a session cookie', async () => {
    const email = `Ada.${randomUUID()}@Example.com`;
    const response = await post('/api/auth/register', { email, password: testPassword, firstName: 'Ada', lastName: 'Lovelace' });
    expect(response.statusCode).toBe(201);
    const { user } = response.json();
    expect(user).toEqual({
      id: expect.any(String),
      email: email.toLowerCase(),
      firstName: 'Ada',
      lastName: 'Lovelace',
      profileImageUrl: null,
      subscriptionTier: 'free',
      subscriptionStatus: 'active',
      maxWebsites: 1,
      maxConsentsPerMonth: 10_000,
      isActive: true,
    });
    const cookie = sessionCookieOf(response);
    expect(cookie).toBeDefined();
    const me = await get('/api/auth/user', cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(user);
    // UserRegistered (and the starting plan) are events of the user's stream.
    const { rows } = await db.pool.query('SELECT type FROM events WHERE stream_id = $1 ORDER BY position', [`user-${user.id}`]);
    expect(rows.map((row) => row.type)).toEqual(['UserRegistered', 'UserSubscriptionChanged']);
  });

  it('sets an httpOnly, SameSite=Lax cookie for the whole app that expires in 7 days', async () => {
    const response = await post('/api/auth/register', { email: `${randomUUID()}@example.com`, password: testPassword });
    const cookie = response.cookies.find((candidate) => candidate.name === sessionCookieName);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy(); // PUBLIC_URL is http here
    const expiresInDays = (new Date(String(cookie?.expires)).getTime() - Date.now()) / 86_400_000;
    expect(expiresInDays).toBeGreaterThan(6.9);
    expect(expiresInDays).toBeLessThanOrEqual(7);
  });

  it.each([
    ['a password of 7 characters', { password: 'x'.repeat(7) }, 'Password must be at least 8 characters'],
    ['a password of 129 characters', { password: 'x'.repeat(129) }, 'Password must be at most 128 characters'],
    ['an email that is not one', { email: 'not-an-email' }, 'Email must be a valid email address'],
    ['no password', { password: undefined }, 'Password is required'],
  ])('refuses %s with 400', async (_label, override, message) => {
    const response = await post('/api/auth/register', { email: `${randomUUID()}@example.com`, password: testPassword, ...override });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining(message) } });
    expect(sessionCookieOf(response)).toBeUndefined();
  });

  it('accepts a strong password of up to 128 characters; at 8 the length rule passes and the strength rule decides', async () => {
    // zxcvbn scores any 8 characters below 3 (about 10^8 guesses): in practice a password needs 9 or more.
    for (const password of ['Kx7#qZ2!a', 'seven purple ladders hum quietly '.repeat(4).slice(0, 128)]) {
      const response = await post('/api/auth/register', { email: `${randomUUID()}@example.com`, password });
      expect(response.statusCode, password.length.toString()).toBe(201);
    }
    const eight = await post('/api/auth/register', { email: `${randomUUID()}@example.com`, password: 'Kx7#qZ2!' });
    expect(eight.statusCode).toBe(400);
    expect(eight.json()).toMatchObject({ error: { code: 'WEAK_PASSWORD', message: expect.stringContaining('Choose a stronger password: ') } });
  });

  it('refuses an email that already has an account, whatever its case, with 409', async () => {
    const owner = await registerOwner(api.app);
    const response = await post('/api/auth/register', { email: owner.email.toUpperCase(), password: testPassword });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: { code: 'EMAIL_TAKEN', message: 'An account with this email already exists' } });
  });
});

describe('when the same email registers several times at once', () => {
  it('creates exactly one account', async () => {
    const email = `${randomUUID()}@example.com`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => post('/api/auth/register', { email, password: testPassword })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const { rows } = await db.pool.query("SELECT count(*)::int AS n FROM events WHERE type = 'UserRegistered' AND data->>'email' = $1", [email]);
    expect(rows[0].n).toBe(1);
  });
});

describe('when an owner signs in', () => {
  it('answers { user } with a new session cookie', async () => {
    const owner = await registerOwner(api.app);
    const response = await post('/api/auth/login', { email: owner.email.toUpperCase(), password: testPassword });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ id: owner.id, email: owner.email });
    const cookie = sessionCookieOf(response);
    expect(cookie).toBeDefined();
    expect((await get('/api/auth/user', cookie)).json().id).toBe(owner.id);
  });

  it('refuses a wrong password and an unknown email alike, with 401', async () => {
    const owner = await registerOwner(api.app);
    const wrong = await post('/api/auth/login', { email: owner.email, password: 'not the password' });
    const unknown = await post('/api/auth/login', { email: `${randomUUID()}@example.com`, password: testPassword });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' } });
      expect(sessionCookieOf(response)).toBeUndefined();
    }
  });

  it('refuses a body without a password with 400, and a body that is not JSON with 400', async () => {
    expect((await post('/api/auth/login', { email: 'a@example.com' })).statusCode).toBe(400);
    const broken = await post('/api/auth/login', '{"email":', { 'content-type': 'application/json' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: { code: 'INVALID_JSON', message: 'Request body must be valid JSON' } });
  });

  it('issues a new session id, and the one from before no longer works (no session fixation)', async () => {
    const owner = await registerOwner(api.app);
    const other = await registerOwner(api.app);
    // The attacker's session (here: another owner's) is planted in the victim's browser ...
    const planted = other.cookie;
    const response = await post('/api/auth/login', { email: owner.email, password: testPassword }, { cookie: planted });
    const fresh = sessionCookieOf(response);
    expect(fresh).toBeDefined();
    expect(sessionIdOf(fresh ?? '')).not.toBe(sessionIdOf(planted));
    // ... and after the victim signs in, the planted id leads nowhere.
    expect((await get('/api/auth/user', planted)).statusCode).toBe(401);
    expect(await storedSessionCount(planted)).toBe(0);
    expect((await get('/api/auth/user', fresh)).json().id).toBe(owner.id);
  });

  it('ignores a made-up session id and issues its own', async () => {
    const owner = await registerOwner(api.app);
    const madeUp = `${sessionCookieName}=attacker-chosen-id.signature`;
    const response = await post('/api/auth/login', { email: owner.email, password: testPassword }, { cookie: madeUp });
    expect(sessionIdOf(sessionCookieOf(response) ?? '')).not.toBe('attacker-chosen-id');
  });

  it('keeps session ids out of the database: rows are keyed by their hash', async () => {
    const owner = await registerOwner(api.app);
    const id = sessionIdOf(owner.cookie);
    const { rows } = await db.pool.query('SELECT id_hash, data::text AS data FROM sessions WHERE user_id = $1', [owner.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].id_hash).toBe(hashSessionId(id));
    expect(rows[0].id_hash).not.toContain(id);
    expect(rows[0].data).not.toContain(id);
  });
});

describe('when an owner signs out', () => {
  it('GET /api/logout only asks (a link or an image elsewhere cannot sign anyone out)', async () => {
    const owner = await registerOwner(api.app);
    const response = await get('/api/logout', owner.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<form method="post" action="/api/logout">');
    expect((await get('/api/auth/user', owner.cookie)).statusCode).toBe(200);
  });

  it('the confirm page’s form ends the session and goes to /', async () => {
    const owner = await registerOwner(api.app);
    const response = await api.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie: owner.cookie, origin: testPublicUrl, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
    const cleared = response.cookies.find((cookie) => cookie.name === sessionCookieName);
    expect(cleared?.value).toBe('');
    expect((await get('/api/auth/user', owner.cookie)).statusCode).toBe(401);
    expect(await storedSessionCount(owner.cookie)).toBe(0);
  });

  it('the app’s POST ends the session with 200; from another site it is refused', async () => {
    const owner = await registerOwner(api.app);
    const crossSite = await api.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: owner.cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(crossSite.statusCode).toBe(403);
    expect((await get('/api/auth/user', owner.cookie)).statusCode).toBe(200);
    const response = await owner.request({ method: 'POST', url: '/api/logout' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect((await get('/api/auth/user', owner.cookie)).statusCode).toBe(401);
  });

  it('answers 401 to a visitor who never signed in', async () => {
    const response = await get('/api/auth/user');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Sign in to continue' } });
  });
});

describe('when a session expires', () => {
  it('is no longer accepted and is pruned', async () => {
    const owner = await registerOwner(api.app);
    await db.pool.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", [owner.id]);
    expect((await get('/api/auth/user', owner.cookie)).statusCode).toBe(401);
    expect(await pruneExpiredSessions(db.pool)).toBeGreaterThanOrEqual(1);
    expect(await storedSessionCount(owner.cookie)).toBe(0);
  });
});

describe('when PUBLIC_URL is https', () => {
  it('marks the session cookie Secure', async () => {
    const secure = await buildTestApi(db.pool, { publicUrl: 'https://consentry.test', trustProxy: true });
    try {
      const response = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { origin: 'https://consentry.test', 'x-forwarded-proto': 'https' },
        payload: { email: `${randomUUID()}@example.com`, password: testPassword },
      });
      expect(response.statusCode).toBe(201);
      expect(response.cookies.find((cookie) => cookie.name === sessionCookieName)?.secure).toBe(true);
      expect(secure.logs.join('')).not.toContain('TRUSTED_PROXIES');
      // Over plain http (an untrusted proxy) no Secure cookie can be set: the operator is told why.
      await secure.app.inject({ method: 'GET', url: '/api/auth/user' });
      expect(secure.logs.join('')).toContain('set TRUSTED_PROXIES');
    } finally {
      await secure.close();
    }
  });
});

describe('when an admin signs in', () => {
  it('answers { success: true }, and /api/admin/me the username', async () => {
    const response = await post('/api/admin/login', { username: 'root', password: adminPassword });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const cookie = sessionCookieOf(response);
    const me = await get('/api/admin/me', cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ username: 'root', mustChangePassword: false });
  });

  it.each([
    ['a wrong password', { username: 'root', password: 'wrong password' }],
    ['an unknown admin', { username: 'nobody', password: adminPassword }],
  ])('refuses %s with 401 { success: false, error: "Invalid credentials" }', async (_label, body) => {
    const response = await post('/api/admin/login', body);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, error: 'Invalid credentials' });
    expect(sessionCookieOf(response)).toBeUndefined();
  });

  it.each([
    ['a missing password', { username: 'root' }, undefined, 400],
    ['an empty username', { username: '', password: 'x' }, undefined, 400],
    ['broken JSON', '{"username":', 'application/json', 400],
    ['a form post', 'username=root&password=x', 'application/x-www-form-urlencoded', 415],
  ])('answers JSON { success: false } for %s', async (_label, body, contentType, status) => {
    const response = await post('/api/admin/login', body, contentType ? { 'content-type': contentType } : {});
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({ success: false, error: expect.any(String) });
  });

  it('signs out with { success: true }', async () => {
    const admin = await signInAdmin(api.app, 'root', adminPassword);
    const response = await admin.request({ method: 'POST', url: '/api/admin/logout' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect((await get('/api/admin/me', admin.cookie)).statusCode).toBe(401);
  });

  it('answers 401 to /api/admin/me without an admin session, also for a signed-in owner', async () => {
    const owner = await registerOwner(api.app);
    expect((await get('/api/admin/me')).statusCode).toBe(401);
    expect((await get('/api/admin/me', owner.cookie)).statusCode).toBe(401);
  });

  it('shares the browser session with an owner sign-in; signing out of one keeps the other', async () => {
    const owner = await registerOwner(api.app);
    const response = await post('/api/admin/login', { username: 'root', password: adminPassword }, { cookie: owner.cookie });
    const both = sessionCookieOf(response) ?? '';
    expect(sessionIdOf(both)).not.toBe(sessionIdOf(owner.cookie));
    expect((await get('/api/auth/user', both)).json().id).toBe(owner.id);
    expect((await get('/api/admin/me', both)).json()).toEqual({ username: 'root', mustChangePassword: false });
    await clientWith(api.app, both).request({ method: 'POST', url: '/api/admin/logout' });
    expect((await get('/api/admin/me', both)).statusCode).toBe(401);
    expect((await get('/api/auth/user', both)).json().id).toBe(owner.id);
  });
});

describe('when a request that changes data comes from another origin', () => {
  it.each([
    ['POST /api/auth/login', 'POST', '/api/auth/login', { email: 'a@example.com', password: testPassword }],
    ['POST /api/websites', 'POST', '/api/websites', { name: 'Evil', domain: 'evil.example' }],
    ['DELETE /api/websites/:id', 'DELETE', `/api/websites/${randomUUID()}`, undefined],
    ['PUT /api/admin/branding', 'PUT', '/api/admin/branding', { companyName: 'Evil', primaryColor: '#000000', logoUrl: null }],
  ] as const)('refuses %s with 403 and changes nothing', async (_label, method, url, payload) => {
    const owner = await registerOwner(api.app);
    const before = await db.pool.query('SELECT count(*)::int AS n FROM events');
    for (const origin of ['https://evil.example', 'null', `${testPublicUrl}.evil.example`]) {
      const response = await api.app.inject({ method, url, headers: { origin, cookie: owner.cookie }, ...(payload ? { payload } : {}) });
      expect(response.statusCode, origin).toBe(403);
      expect(response.json()).toEqual({ error: { code: 'FOREIGN_ORIGIN', message: 'Requests that change data must come from this app' } });
    }
    expect((await db.pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses an admin sign-in from another origin with a JSON { success: false }', async () => {
    const response = await post('/api/admin/login', { username: 'root', password: adminPassword }, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, error: 'Requests that change data must come from this app' });
  });

  it('lets reads from anywhere and writes without an Origin header through', async () => {
    const owner = await registerOwner(api.app);
    const read = await api.app.inject({ method: 'GET', url: '/api/websites', headers: { origin: 'https://evil.example', cookie: owner.cookie } });
    expect(read.statusCode).toBe(200);
    const write = await api.app.inject({ method: 'POST', url: '/api/websites', headers: { cookie: owner.cookie }, payload: { name: 'Mine', domain: 'mine.example' } });
    expect(write.statusCode).toBe(201);
  });
});

describe('when someone guesses passwords', () => {
  /** Limits small enough to reach in a test; the waits are real (a second, doubling). */
  const limits = (free: { pair?: number; address?: number; account?: number }) => ({
    signInLimits: {
      failures: {
        ...defaultSignInThrottle,
        freePerAccountAndAddress: free.pair ?? 1000,
        freePerAddress: free.address ?? 1000,
        freePerAccount: free.account ?? 1000,
      },
      registrationsPerAddress: { max: 1000, windowMs: 60_000 },
    },
    trustProxy: true,
  });
  const internalError = { error: { code: 'INTERNAL', message: 'Something went wrong on our side' } };

  // The tallies are in the database, shared by every app on it as by every process of an
  // installation: each case starts from none.
  beforeEach(async () => {
    await db.pool.query('DELETE FROM sign_in_tallies');
  });

  it('strangers guessing from many addresses never lock the owner out, and each guessing address is slowed down', async () => {
    const limited = await buildTestApi(db.pool, limits({ pair: 3, account: 5 }));
    try {
      const owner = await registerOwner(limited.app);
      const attempt = (password: string, ip: string, email = owner.email) =>
        limited.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl, 'x-forwarded-for': ip }, payload: { email, password } });
      // Each address's first guess is answered (an address that has not failed is never held back)…
      for (let stranger = 0; stranger < 8; stranger++) expect((await attempt('guess', `198.51.100.${stranger}`)).statusCode).toBe(401);
      // …but past the account's free failures, an address that has failed at it waits.
      const slowed = await attempt('guess 2', '198.51.100.0');
      expect(slowed.statusCode).toBe(429);
      expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(slowed.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many sign-in attempts; try again in \d+ (seconds?|minutes?)$/) } });
      // The owner, from an address that has not failed, signs in with the right password.
      expect((await attempt(testPassword, '192.0.2.44')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('backs off progressively: the wait doubles with each further failure', async () => {
    const limited = await buildTestApi(db.pool, limits({ pair: 1 }));
    try {
      const owner = await registerOwner(limited.app);
      const attempt = () =>
        limited.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl, 'x-forwarded-for': '203.0.113.8' }, payload: { email: owner.email, password: 'wrong' } });
      expect((await attempt()).statusCode).toBe(401);
      const first = await attempt();
      expect(first.statusCode).toBe(429);
      expect(first.headers['retry-after']).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 1050));
      expect((await attempt()).statusCode).toBe(401);
      const second = await attempt();
      expect(second.statusCode).toBe(429);
      expect(second.headers['retry-after']).toBe('2');
    } finally {
      await limited.close();
    }
  });

  it('slows an address that tries many accounts', async () => {
    const limited = await buildTestApi(db.pool, limits({ address: 4 }));
    try {
      const attempt = (email: string, ip = '203.0.113.50') =>
        limited.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl, 'x-forwarded-for': ip }, payload: { email, password: 'guess' } });
      for (let guess = 0; guess < 4; guess++) expect((await attempt(`victim${guess}@example.com`)).statusCode).toBe(401);
      expect((await attempt('victim9@example.com')).statusCode).toBe(429);
      expect((await attempt('victim9@example.com', '192.0.2.9')).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('keeps the admin reachable: guesses at `admin` slow the guesser, not the admin; a slowed admin sign-in answers 429 { success: false, error }', async () => {
    const limited = await buildTestApi(db.pool, limits({ pair: 2, account: 2 }));
    try {
      const attempt = (password: string, ip: string) =>
        limited.app.inject({ method: 'POST', url: '/api/admin/login', headers: { origin: testPublicUrl, 'x-forwarded-for': ip }, payload: { username: 'root', password } });
      expect((await attempt('wrong 1', '198.51.100.20')).statusCode).toBe(401);
      expect((await attempt('wrong 2', '198.51.100.20')).statusCode).toBe(401);
      const blocked = await attempt(adminPassword, '198.51.100.20');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ success: false, error: expect.stringMatching(/^Too many sign-in attempts/) });
      expect((await attempt(adminPassword, '192.0.2.20')).json()).toEqual({ success: true });
      const metrics = await limited.metrics();
      expect(metrics).toContain('consentry_sign_in_attempts_total{kind="admin",outcome="rate_limited"} 1');
      expect(metrics).toContain('consentry_sign_in_attempts_total{kind="admin",outcome="failure"} 2');
    } finally {
      await limited.close();
    }
  });
  it('counts guesses sent to different api processes against the same tallies', async () => {
    // Another process: its own app and its own connections to the same database.
    const elsewhere = createPool(db.connectionString, { max: 4, applicationName: 'test-api_auth-elsewhere' });
    const first = await buildTestApi(db.pool, limits({ pair: 3 }));
    const second = await buildTestApi(elsewhere, limits({ pair: 3 }));
    try {
      const owner = await registerOwner(first.app);
      const guess = (instance: TestApi) =>
        instance.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl, 'x-forwarded-for': '203.0.113.77' }, payload: { email: owner.email, password: 'guess' } });
      const burst = await Promise.all([first, second, first, second, first, second, first, second].map(guess));
      expect(burst.map((response) => response.statusCode).sort()).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
      expect((await guess(second)).statusCode).toBe(429);
    } finally {
      await first.close();
      await second.close();
      await elsewhere.end();
    }
  });

  it('when the database is away, fails a sign-in as it always has: 500, nothing internal in the answer', async () => {
    const url = new URL(db.connectionString);
    const proxy = await startTcpProxy({ targetHost: url.hostname, targetPort: Number(url.port || 5432) });
    url.host = `${proxy.host}:${proxy.port}`;
    const pool = createPool(url.toString(), { max: 4 });
    const flaky = await buildTestApi(pool);
    try {
      const owner = await registerOwner(flaky.app);
      const signIn = () => flaky.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl }, payload: { email: owner.email, password: testPassword } });
      proxy.cut();
      const away = await signIn();
      expect(away.statusCode).toBe(500);
      expect(away.json()).toEqual(internalError);
      expect(sessionCookieOf(away)).toBeUndefined();
      const admin = await flaky.app.inject({ method: 'POST', url: '/api/admin/login', headers: { origin: testPublicUrl }, payload: { username: 'root', password: adminPassword } });
      expect(admin.statusCode).toBe(500);
      expect(admin.json()).toEqual({ success: false, error: 'Something went wrong on our side' });
      proxy.restore();
      expect((await signIn()).statusCode).toBe(200);
    } finally {
      await flaky.close();
      await pool.end();
      await proxy.close();
    }
  });

  it('tries no password while the tallies cannot be read, not even the right one', async () => {
    const owner = await registerOwner(api.app);
    await db.pool.query('ALTER TABLE sign_in_tallies RENAME TO sign_in_tallies_away');
    try {
      const response = await post('/api/auth/login', { email: owner.email, password: testPassword });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual(internalError);
      expect(sessionCookieOf(response)).toBeUndefined();
      const admin = await post('/api/admin/login', { username: 'root', password: adminPassword });
      expect(admin.statusCode).toBe(500);
      expect(admin.json()).toEqual({ success: false, error: 'Something went wrong on our side' });
      expect(sessionCookieOf(admin)).toBeUndefined();
    } finally {
      await db.pool.query('ALTER TABLE sign_in_tallies_away RENAME TO sign_in_tallies');
    }
    expect((await post('/api/auth/login', { email: owner.email, password: testPassword })).statusCode).toBe(200);
  });
});

describe('what the logs and answers never contain', () => {
  it('has no password, password hash, cookie or session id in any log line or answer', async () => {
    const logged = await buildTestApi(db.pool);
    try {
      const secretPassword = `Sup3r-secret-${randomUUID()}`;
      const email = `${randomUUID()}@example.com`;
      const answers: string[] = [];
      const send = async (options: InjectOptions) => {
        const response = await logged.app.inject(options);
        answers.push(JSON.stringify(response.headers), response.body);
        return response;
      };
      const registered = await send({ method: 'POST', url: '/api/auth/register', headers: { origin: testPublicUrl }, payload: { email, password: secretPassword } });
      const cookie = sessionCookieOf(registered) ?? '';
      await send({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl }, payload: { email, password: `${secretPassword}-wrong` } });
      const signedIn = await send({ method: 'POST', url: '/api/auth/login', headers: { origin: testPublicUrl, cookie }, payload: { email, password: secretPassword } });
      const signedInCookie = sessionCookieOf(signedIn) ?? '';
      await send({ method: 'GET', url: '/api/auth/user', headers: { cookie: signedInCookie } });
      await send({ method: 'POST', url: '/api/admin/login', headers: { origin: testPublicUrl }, payload: { username: 'root', password: secretPassword } });
      await send({ method: 'POST', url: '/api/admin/login', headers: { origin: testPublicUrl }, payload: { username: 'root', password: adminPassword } });
      await send({ method: 'POST', url: '/api/logout', headers: { cookie: signedInCookie, origin: testPublicUrl } });

      const { rows } = await db.pool.query('SELECT password_hash FROM user_credentials WHERE email = $1', [email]);
      const passwordHash: string = rows[0].password_hash;
      expect(passwordHash).toMatch(/^\$argon2id\$/);
      const logText = logged.logs.join('');
      expect(logged.logs.length).toBeGreaterThan(10); // the requests were logged
      for (const secret of [secretPassword, adminPassword, passwordHash, cookie, signedInCookie, sessionIdOf(cookie), sessionIdOf(signedInCookie)]) {
        expect(secret.length).toBeGreaterThan(10);
        expect(logText).not.toContain(secret);
      }
      const answerText = answers.join('\n');
      for (const secret of [secretPassword, adminPassword, passwordHash, '$argon2id$']) expect(answerText).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });
});

describe('the session secret', () => {
  it('is generated once and shared by every instance on the same database', async () => {
    const first = await resolveSessionSecret(db.pool, undefined);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(await resolveSessionSecret(db.pool, undefined)).toBe(first);
    expect(await resolveSessionSecret(db.pool, 'c'.repeat(32))).toBe('c'.repeat(32));
    // A cookie issued by one instance works on another.
    const owner = await registerOwner(api.app);
    const second = await buildTestApi(db.pool);
    try {
      expect((await second.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: owner.cookie } })).json().id).toBe(owner.id);
    } finally {
      await second.close();
    }
  });

  it('from SESSION_SECRET makes cookies of another secret worthless', async () => {
    const owner = await registerOwner(api.app);
    const other = await buildTestApi(db.pool, { sessionSecret: 'another secret of at least 32 characters' });
    try {
      expect((await other.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: owner.cookie } })).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('the first admin', () => {
  it('comes from ADMIN_USERNAME and ADMIN_PASSWORD, once', async () => {
    const printed: string[] = [];
    const options = { username: 'ops', password: 'ops password 1', print: (text: string) => printed.push(text), hasher: fastHasher };
    expect(await ensureInitialAdmin(db.pool, options)).toBe('created-from-environment');
    expect(await ensureInitialAdmin(db.pool, options)).toBe('exists');
    expect(printed).toEqual([]);
    expect((await signInAdmin(api.app, 'ops', 'ops password 1')).cookie).toBeDefined();
  });

  it('is generated and printed once when nothing is configured and there is no admin', async () => {
    const empty = await createTestDatabase('api_admin_bootstrap');
    try {
      const printed: string[] = [];
      const print = (text: string) => printed.push(text);
      expect(await ensureInitialAdmin(empty.pool, { print, hasher: fastHasher })).toBe('generated');
      expect(await ensureInitialAdmin(empty.pool, { print, hasher: fastHasher })).toBe('admins-exist');
      expect(printed).toHaveLength(1);
      const password = /password: (\S+)/.exec(printed[0] ?? '')?.[1] ?? '';
      expect(password.length).toBeGreaterThanOrEqual(20);
      const fresh = await buildTestApi(empty.pool);
      try {
        expect((await signInAdmin(fresh.app, 'admin', password)).cookie).toBeDefined();
        expect(fresh.logs.join('')).not.toContain(password);
      } finally {
        await fresh.close();
      }
    } finally {
      await empty.drop();
    }
  });

  it('refuses a bad username or password in `admin create`', async () => {
    await expect(saveAdmin(db.pool, 'has space', 'long enough', fastHasher)).rejects.toBeInstanceOf(AdminInputError);
    await expect(saveAdmin(db.pool, 'ok', 'short', fastHasher)).rejects.toThrow('The password must be 8 to 128 characters');
  });
});
