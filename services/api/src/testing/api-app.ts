// The api on a real test database for the api's integration tests: an app built with app.inject()
// in mind (cheap password hashing, generous or chosen sign-in limits, every log line captured), and
// helpers to sign people in and to put consents into the read models.
import { Writable } from 'node:stream';
import { createGroupCommitAppender, createMemoryNotifier, readStream, withTransaction, type Db } from '@consentry/infra';
import { consentAppendRequest } from '@consentry/infra/testing';
import { consentPurposesProjection, consentRecordsProjection, consentStatsProjection, websiteActivityProjection } from '@consentry/projections';
import type { GrantedPurposes } from '@consentry/events';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { apiPlugin, sessionCookieName, type ApiOptions } from '../app';
import { metricsPlugin, createMetricsRegistry } from '../metrics';
import { defaultSignInThrottle } from '../auth/sign-in-throttle';

export const testPublicUrl = 'http://consentry.test';
export const testPassword = 'correct horse battery';
/** The seal key receipts name; no seal is signed with it in the api's tests. */
export const testSealKey = { keyId: 'test-key', publicKeyPem: 'none' };

export interface TestApi {
  readonly app: FastifyInstance;
  /** Every log line the app wrote, as JSON text. */
  readonly logs: string[];
  /** What the metrics server would answer a scrape with (Prometheus text). */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

export async function buildTestApi(pool: Db, options: Partial<Omit<ApiOptions, 'pool'>> & { trustProxy?: boolean } = {}): Promise<TestApi> {
  const { trustProxy = false, ...apiOptions } = options;
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = Fastify({
    // pino's and fastify's logger types differ only in generics (as in the composition root).
    loggerInstance: pino({ level: 'trace' }, destination) as FastifyBaseLogger,
    trustProxy,
  });
  const registry = createMetricsRegistry();
  // Live updates hear from a notifier of their own unless the test brings one to publish on.
  const notifier = apiOptions.notifier ?? createMemoryNotifier();
  if (!apiOptions.notifier) app.addHook('onClose', () => notifier.close());
  await app.register(metricsPlugin, { registry });
  await app.register(apiPlugin, {
    pool,
    publicUrl: testPublicUrl,
    passwordHashing: { memoryCost: 1024, timeCost: 1 },
    // The throttle's tallies live in the database: every app built on it counts against the same ones.
    signInLimits: {
      failures: { ...defaultSignInThrottle, freePerAccountAndAddress: 10_000, freePerAddress: 10_000, freePerAccount: 10_000 },
      registrationsPerAddress: { max: 10_000, windowMs: 60_000 },
    },
    metricsRegistry: registry,
    notifier,
    sealKey: testSealKey,
    ...apiOptions,
  });
  await app.ready();
  return { app, logs, metrics: () => registry.metrics(), close: () => app.close() };
}

/** The session cookie a response set, as a Cookie header value (undefined when none was set). */
export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.find((candidate) => candidate.name === sessionCookieName);
  return cookie && cookie.value !== '' ? `${sessionCookieName}=${cookie.value}` : undefined;
}

export interface Client {
  readonly cookie: string;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** A browser with a session cookie: every request sends it and the app's own Origin on writes. */
export function clientWith(app: FastifyInstance, cookie: string): Client {
  return {
    cookie,
    request: (options) =>
      app.inject({
        ...options,
        headers: {
          ...(options.method && options.method !== 'GET' ? { origin: testPublicUrl } : {}),
          ...options.headers,
          cookie,
        },
      }),
  };
}

export interface SignedInUser extends Client {
  readonly id: string;
  readonly email: string;
}

let registrations = 0;

/** Registers a new owner (unique email) and returns their signed-in client. */
export async function registerOwner(app: FastifyInstance, overrides: { email?: string; password?: string } = {}): Promise<SignedInUser> {
  registrations += 1;
  const email = overrides.email ?? `owner-${Date.now()}-${registrations}@example.com`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: { origin: testPublicUrl },
    payload: { email, password: overrides.password ?? testPassword, firstName: 'Test', lastName: `Owner ${registrations}` },
  });
  if (response.statusCode !== 201) throw new Error(`Registering ${email} failed: ${response.statusCode} ${response.body}`);
  const cookie = sessionCookieOf(response);
  if (!cookie) throw new Error('Registering set no session cookie');
  const { user } = response.json<{ user: { id: string } }>();
  return { ...clientWith(app, cookie), id: user.id, email };
}

/** Signs an admin in (the admin must exist) and returns the signed-in client. */
export async function signInAdmin(app: FastifyInstance, username: string, password: string): Promise<Client> {
  const response = await app.inject({ method: 'POST', url: '/api/admin/login', headers: { origin: testPublicUrl }, payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`Admin sign-in failed: ${response.statusCode} ${response.body}`);
  const cookie = sessionCookieOf(response);
  if (!cookie) throw new Error('Admin sign-in set no session cookie');
  return clientWith(app, cookie);
}

/** Adds a website through the api and returns its id and embed code. */
export async function addWebsiteAs(client: Client, name: string, domain = 'shop.example.com'): Promise<{ id: string; embedCode: string; domain: string }> {
  const response = await client.request({ method: 'POST', url: '/api/websites', payload: { name, domain } });
  if (response.statusCode !== 201) throw new Error(`Adding ${name} failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/**
 * Records consents for websites through the group-commit appender (as ingest does), then applies
 * exactly those events to the consent read models, as the projectors would. (Not a replay: the
 * gap-safe reader waits for every older transaction of the whole server, and other test files run
 * transactions of their own.)
 */
export async function recordConsents(
  pool: Db,
  consents: ReadonlyArray<{ websiteId: string; choice: 'accepted' | 'declined'; receivedAt?: string; purposes?: GrantedPurposes }>,
): Promise<void> {
  const appender = createGroupCommitAppender(pool);
  const requests = consents.map((consent) => consentAppendRequest(consent));
  try {
    await Promise.all(requests.map((request) => appender.append(request)));
  } finally {
    await appender.close();
  }
  const events = (await Promise.all(requests.map((request) => readStream(pool, request.streamId)))).flat();
  await withTransaction(pool, async (tx) => {
    for (const projection of [consentStatsProjection, consentRecordsProjection, consentPurposesProjection, websiteActivityProjection]) {
      await projection.apply(
        events.filter((event) => projection.canHandle.includes(event.type)),
        tx,
      );
    }
  });
}
