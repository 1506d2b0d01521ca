// The Origin check on requests that change data: same origin is never cross-site, whatever host name
// the browser used to reach the server (PUBLIC_URL says localhost; the user opened 127.0.0.1 or the
// machine's LAN address), and every other origin is still refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { buildTestApi, testPassword, testPublicUrl, type TestApi } from '../testing/api-app';

let db: TestDatabase;
let api: TestApi;
let proxied: TestApi;
let registrations = 0;

beforeAll(async () => {
  db = await createTestDatabase('origin_guard');
  api = await buildTestApi(db.pool);
  proxied = await buildTestApi(db.pool, { trustProxy: true });
});
afterAll(async () => {
  await api?.close();
  await proxied?.close();
  await db?.drop();
});

function register(app: TestApi, headers: Record<string, string>) {
  registrations += 1;
  return app.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers,
    payload: { email: `origin-${registrations}@example.com`, password: testPassword, firstName: 'Origin', lastName: 'Test' },
  });
}

const refusal = { error: { code: 'FOREIGN_ORIGIN', message: 'Requests that change data must come from this app' } };

describe('when the app is reached under another name than PUBLIC_URL', () => {
  it.each([
    ['127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['192.168.1.20:3000', 'http://192.168.1.20:3000'],
    ['[::1]:3000', 'http://[::1]:3000'],
    ['Consent.Example.COM', 'http://consent.example.com'],
  ])('accepts a write whose Origin is its own (Host %s)', async (host, origin) => {
    const response = await register(api, { host, origin });
    expect(response.statusCode, response.body).toBe(201);
  });

  it.each([
    ['127.0.0.1:3000', 'http://127.0.0.1:3001', 'another port'],
    ['127.0.0.1:3000', 'https://127.0.0.1:3000', 'another scheme'],
    ['127.0.0.1:3000', 'http://localhost:3000', 'another host name'],
    ['127.0.0.1:3000', 'https://evil.example', 'another site'],
    ['127.0.0.1:3000', 'null', 'an opaque origin'],
    ['evil.example', 'null', 'an opaque origin'],
  ])('refuses a write from %s with Origin %s (%s)', async (host, origin) => {
    const response = await register(api, { host, origin });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(refusal);
  });

  it('still accepts PUBLIC_URL’s origin on any Host', async () => {
    expect((await register(api, { host: '10.0.0.5:8080', origin: testPublicUrl })).statusCode).toBe(201);
  });
});

describe('behind a trusted reverse proxy', () => {
  it('compares the Origin with the scheme and host the proxy forwarded', async () => {
    const forwarded = { host: 'app-internal:3000', 'x-forwarded-host': 'consent.example.org', 'x-forwarded-proto': 'https' };
    expect((await register(proxied, { ...forwarded, origin: 'https://consent.example.org' })).statusCode).toBe(201);
    expect((await register(proxied, { ...forwarded, origin: 'http://app-internal:3000' })).statusCode).toBe(403);
  });

  it('does not believe forwarded headers from an untrusted client', async () => {
    const forwarded = { host: 'app-internal:3000', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    expect((await register(api, { ...forwarded, origin: 'https://evil.example' })).statusCode).toBe(403);
  });
});
