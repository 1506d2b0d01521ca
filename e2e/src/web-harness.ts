// Shared by the web app's end-to-end tests (web-*.e2e.test.ts) and the screenshot script
// (e2e/src/screens.ts): the whole system on its own test database, serving the built web
// app, and the few things a test does through the api directly (with a browser context's cookies,
// so the pages of that context are signed in too).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { APIRequestContext } from 'playwright-core';
import { loadConfig } from '@consentry/infra';
import { createTestDatabase, freePort, type TestDatabase } from '@consentry/infra/testing';
import { startSystem, webAppDir, type RunningSystem } from '@consentry/server';

export const adminCredentials = { username: 'admin', password: 'admin-password-e2e' } as const;

/** Fails with what to do when web/dist was not built (the system would serve JSON 404s instead). */
export function assertWebAppBuilt(): void {
  const index = path.join(webAppDir(), 'index.html');
  if (!existsSync(index)) {
    throw new Error(`The web app is not built (${index} is missing): run \`npm run build -w @consentry/web\` first (npm test does it in pretest).`);
  }
}

export interface WebSystem {
  readonly db: TestDatabase;
  readonly system: RunningSystem;
  /** The app's origin (PUBLIC_URL): the api's Origin check accepts writes from it only. */
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts the whole product on a fresh test database, with the e2e admin; `env` adds settings (SCANNER: 'off'). */
export async function startWebSystem(label: string, env: Record<string, string> = {}): Promise<WebSystem> {
  assertWebAppBuilt();
  const db = await createTestDatabase(label);
  const port = await freePort();
  const url = `http://localhost:${port}`;
  let system: RunningSystem;
  try {
    system = await startSystem(
      loadConfig({
        DATABASE_URL: db.connectionString,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        PUBLIC_URL: url,
        LOG_LEVEL: 'warn',
        GEOIP: 'none',
        ADMIN_USERNAME: adminCredentials.username,
        ADMIN_PASSWORD: adminCredentials.password,
        ...env,
      }),
    );
  } catch (error) {
    await db.drop();
    throw error;
  }
  return {
    db,
    system,
    url,
    async stop() {
      await system.stop();
      await db.drop();
    },
  };
}

export interface Owner {
  readonly id: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
}

async function expectOk(response: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<void> {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
}

/** Creates an owner account through the api; the request context (and its pages) is signed in as it. */
export async function registerOwner(
  request: APIRequestContext,
  baseUrl: string,
  owner: { email: string; firstName: string; lastName: string; password?: string },
): Promise<Owner> {
  const response = await request.post(`${baseUrl}/api/auth/register`, {
    data: { email: owner.email, password: owner.password ?? 'owner-password-e2e', firstName: owner.firstName, lastName: owner.lastName },
  });
  await expectOk(response, 'POST /api/auth/register');
  const { user } = (await response.json()) as { user: { id: string } };
  return { id: user.id, email: owner.email, firstName: owner.firstName, lastName: owner.lastName };
}

/** Signs the request context in as the e2e admin. */
export async function signInAdmin(request: APIRequestContext, baseUrl: string): Promise<void> {
  const response = await request.post(`${baseUrl}/api/admin/login`, { data: adminCredentials });
  await expectOk(response, 'POST /api/admin/login');
}

export interface CreatedWebsite {
  readonly id: string;
  readonly name: string;
  readonly domain: string;
  readonly embedCode: string;
}

export async function addWebsite(request: APIRequestContext, baseUrl: string, website: { name: string; domain: string }): Promise<CreatedWebsite> {
  const response = await request.post(`${baseUrl}/api/websites`, { data: website });
  await expectOk(response, 'POST /api/websites');
  return (await response.json()) as CreatedWebsite;
}

/** Gives an owner a plan with room for more websites (an admin's change, as in User Management). */
export async function setOwnerPlan(
  adminRequest: APIRequestContext,
  baseUrl: string,
  userId: string,
  plan: { subscriptionTier: string; maxWebsites: number; maxConsentsPerMonth: number },
): Promise<void> {
  const response = await adminRequest.put(`${baseUrl}/api/admin/users/${userId}`, {
    data: { ...plan, subscriptionStatus: 'active', isActive: true },
  });
  await expectOk(response, `PUT /api/admin/users/${userId}`);
}

/**
 * The whole server in this process with one owner and one website, reached by `inject` (no browser):
 * what the int tests of the composed server (headers, compression) start from.
 */
export async function startWebSystemWithWebsite(
  label: string,
  owner: { email: string; firstName: string; lastName: string },
  website: { name: string; domain: string },
): Promise<{ web: WebSystem; http: FastifyInstance; cookie: string; embedCode: string }> {
  const web = await startWebSystem(label);
  const http = web.system.http;
  if (!http) throw new Error('startSystem served no HTTP');
  const registered = await http.inject({ method: 'POST', url: '/api/auth/register', headers: { origin: web.url }, payload: { ...owner, password: 'owner-password-e2e' } });
  if (registered.statusCode >= 300) throw new Error(`registering ${owner.email} answered ${registered.statusCode}: ${registered.body}`);
  const cookie = registered.cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
  const added = await http.inject({ method: 'POST', url: '/api/websites', headers: { origin: web.url, cookie }, payload: website });
  if (added.statusCode >= 300) throw new Error(`adding ${website.domain} answered ${added.statusCode}: ${added.body}`);
  return { web, http, cookie, embedCode: (added.json() as { embedCode: string }).embedCode };
}
