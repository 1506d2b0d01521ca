// The caller's mistakes are never our failures: whatever body, path or query arrives at the api's
// routes, the answer is below 500 and in the one error shape (fast-check fuzz against a real
// database), and a failure on our side is a 500 that does not leak its message.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { saveAdmin } from './auth/admins';
import { createPasswordHasher } from './auth/passwords';
import { addWebsiteAs, buildTestApi, registerOwner, signInAdmin, type Client, type SignedInUser, type TestApi } from './testing/api-app';

let db: TestDatabase;
let api: TestApi;
let admin: Client;
let owner: SignedInUser;

beforeAll(async () => {
  db = await createTestDatabase('api_errors', { poolSize: 12 });
  api = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  admin = await signInAdmin(api.app, 'root', 'admin password 1');
  owner = await registerOwner(api.app);
  await addWebsiteAs(owner, 'Fuzzed');
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

const writes = [
  ['POST', '/api/auth/register'],
  ['POST', '/api/auth/login'],
  ['POST', '/api/admin/login'],
  ['POST', '/api/websites'],
  ['PUT', '/api/branding'],
  ['PUT', '/api/admin/branding'],
  ['PUT', '/api/admin/website-content'],
  ['PUT', `/api/admin/users/${randomUUID()}`],
  ['POST', '/api/admin/users/invite'],
] as const;

describe('whatever a caller sends', () => {
  it('answers below 500, as JSON in the api’s error shape (the admin sign-in in its own)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...writes),
        fc.oneof(fc.anything(), fc.dictionary(fc.constantFrom('email', 'password', 'name', 'domain', 'companyName', 'primaryColor', 'logoUrl', 'maxWebsites', 'isActive'), fc.anything())),
        fc.constantFrom(admin, owner),
        async ([method, url], body, client) => {
          const response = await client.request({ method, url, payload: JSON.stringify(body) ?? 'null', headers: { 'content-type': 'application/json' } });
          expect(response.statusCode, `${method} ${url} ${response.body}`).toBeLessThan(500);
          if (response.statusCode >= 400) {
            const answer = response.json();
            if (url === '/api/admin/login') expect(answer).toEqual({ success: false, error: expect.any(String) });
            else expect(answer).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers a made-up path or query below 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/websites/', '/api/admin/users/', '/api/consents?limit=', '/api/stats/consents/daily?days='),
        fc.string({ maxLength: 60 }),
        async (prefix, tail) => {
          const method = prefix.startsWith('/api/admin/users/') || prefix === '/api/websites/' ? 'DELETE' : 'GET';
          const response = await admin.request({ method, url: `${prefix}${encodeURIComponent(tail)}` });
          expect(response.statusCode, `${method} ${prefix}${tail}`).toBeLessThan(500);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('when something fails on our side', () => {
  it('answers 500 without the internal message, and logs it', async () => {
    // The api on a database whose read of the public site's content fails with an internal message.
    const failingPool = new Proxy(db.pool, {
      get(pool, property) {
        if (property === 'query') {
          return (query: { name?: string }, ...rest: unknown[]) =>
            query?.name === 'get-site-content'
              ? Promise.reject(new Error('connection to 10.0.0.5 refused: password authentication failed'))
              : (pool.query as (...args: unknown[]) => unknown)(query, ...rest);
        }
        const value: unknown = Reflect.get(pool, property, pool);
        return typeof value === 'function' ? value.bind(pool) : value;
      },
    }) as Db;
    const broken = await buildTestApi(failingPool);
    try {
      const response = await broken.app.inject({ method: 'GET', url: '/api/site/content' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong on our side' } });
      expect(response.body).not.toContain('10.0.0.5');
      expect(broken.logs.join('')).toContain('api request failed');
    } finally {
      await broken.close();
    }
  });
});
