// Text no field may hold (a NUL character, an unpaired UTF-16 surrogate) is refused at the api's
// edge with a 400 that names the field, on every route: sign-up and sign-in (no account needed),
// website names and settings, branding, site content. These once reached Postgres and answered 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { saveAdmin } from './auth/admins';
import { fieldLabel } from './errors';
import { createPasswordHasher } from './auth/passwords';
import { addWebsiteAs, buildTestApi, registerOwner, signInAdmin, testPublicUrl, type Client, type SignedInUser, type TestApi } from './testing/api-app';

let db: TestDatabase;
let api: TestApi;
let owner: SignedInUser;
let admin: Client;
let websiteId: string;

beforeAll(async () => {
  db = await createTestDatabase('edge_text');
  api = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  owner = await registerOwner(api.app);
  admin = await signInAdmin(api.app, 'root', 'admin password 1');
  websiteId = (await addWebsiteAs(owner, 'Text Shop', 'text-shop.example.com')).id;
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

const nul = 'Bad\u0000Name';
const lone = 'Bad\ud800Name';
const anonymous = (url: string, payload: unknown) => api.app.inject({ method: 'POST', url, headers: { origin: testPublicUrl }, payload: payload as Record<string, unknown> });

describe.each([
  ['a NUL character', nul, 'NUL'],
  ['an unpaired surrogate', lone, 'surrogate'],
])('text with %s', (_label, bad, reason) => {
  it.each([
    ['POST /api/auth/register', 'firstName', () => anonymous('/api/auth/register', { email: 'new-person@example.com', password: 'long enough password', firstName: bad, lastName: 'X' })],
    ['POST /api/auth/register', 'email', () => anonymous('/api/auth/register', { email: `a${bad}@example.com`, password: 'long enough password' })],
    ['POST /api/auth/login', 'email', () => anonymous('/api/auth/login', { email: `a${bad}@example.com`, password: 'whatever it is' })],
    ['POST /api/auth/login', 'password', () => anonymous('/api/auth/login', { email: 'a@example.com', password: bad })],
    ['POST /api/websites', 'name', () => owner.request({ method: 'POST', url: '/api/websites', payload: { name: bad, domain: 'shop.example.com' } })],
    ['PATCH /api/websites/:id/settings', 'policyVersion', () => owner.request({ method: 'PATCH', url: `/api/websites/${websiteId}/settings`, payload: { policyVersion: bad } })],
    ['PUT /api/branding', 'companyName', () => owner.request({ method: 'PUT', url: '/api/branding', payload: { companyName: bad, primaryColor: '#123456' } })],
    ['PUT /api/admin/branding', 'companyName', () => admin.request({ method: 'PUT', url: '/api/admin/branding', payload: { companyName: bad, primaryColor: '#123456' } })],
  ])('%s refuses it in %s with a 400 naming the field', async (_route, field, send) => {
    const response = await send();
    expect(response.statusCode, response.body).toBe(400);
    const message: string = response.json().error.message;
    expect(message).toContain(fieldLabel([field], 'body'));
    expect(message).toContain(reason);
  });

  it('the admin sign-in answers { success: false } naming the field', async () => {
    const response = await anonymous('/api/admin/login', { username: `root${bad}`, password: 'admin password 1' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error: expect.stringContaining('username') });
  });
});

describe('a query string', () => {
  it('with a NUL character is refused naming the field', async () => {
    const response = await owner.request({ method: 'GET', url: `/api/analytics/website/${websiteId}?startDate=2026-01-01%00` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('Start date');
    expect(response.json().error.message).toContain('NUL');
  });
});

describe('text that is merely unusual', () => {
  it('is taken as it is (emoji, other scripts)', async () => {
    const another = await registerOwner(api.app);
    const response = await another.request({ method: 'POST', url: '/api/websites', payload: { name: 'Café 東京 🍪', domain: 'cafe.example.com' } });
    expect(response.statusCode).toBe(201);
    expect(response.json().name).toBe('Café 東京 🍪');
  });
});
