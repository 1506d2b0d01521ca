// An ingest app on a real test database, with websites and their owners registered the way the api
// registers them (events appended with the inline websites and users projections), for ingest's
// tests and benchmarks.
import { randomBytes, randomUUID } from 'node:crypto';
import { brandingStreamId, userStreamId, type SubscriptionTier, type WebsiteSettingsChangedData } from '@consentry/events';
import { appendToStream, createGroupCommitAppender, type Db, type GroupCommitAppender } from '@consentry/infra';
import { brandingProjection, usersProjection, websitesProjection } from '@consentry/projections';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ingestPlugin } from '../app';
import { createBackgroundWork } from '../background';
import { createGeoLocator, type GeoSource } from '../enrich/geo';
import type { NetworkLookup } from '../enrich/network';
import type { IdentifyRateLimits } from '../identify/rate-limits';

export { findTextAnywhere, type TextFound } from './find-text';

export interface TestWebsite {
  readonly id: string;
  readonly ownerId: string;
  readonly embedCode: string;
  readonly domain: string;
}

export async function addTestWebsite(
  pool: Db,
  options: {
    /** The owner (see addTestOwner); a new id, with no account, by default. */
    ownerId?: string;
    domain?: string;
    ipAddressMode?: 'full' | 'truncated';
    active?: boolean;
    companyName?: string;
    logoUrl?: string | null;
    /** Other settings, as the owner would change them. */
    settings?: Omit<WebsiteSettingsChangedData, 'websiteId' | 'changedAt'>;
  } = {},
): Promise<TestWebsite> {
  const website = {
    id: randomUUID(),
    ownerId: options.ownerId ?? randomUUID(),
    embedCode: randomBytes(16).toString('base64url'),
    domain: options.domain ?? 'shop.example.test',
  };
  const now = new Date().toISOString();
  const inlineProjections = [websitesProjection, brandingProjection];
  await appendToStream(
    pool,
    `website-${website.id}`,
    [
      { type: 'WebsiteAdded', data: { websiteId: website.id, ownerId: website.ownerId, name: 'Test Shop', domain: website.domain, embedCode: website.embedCode, addedAt: now } },
      ...(options.ipAddressMode
        ? [{ type: 'WebsiteSettingsChanged' as const, data: { websiteId: website.id, ipAddressMode: options.ipAddressMode, changedAt: now } }]
        : []),
      ...(options.settings
        ? [{ type: 'WebsiteSettingsChanged' as const, data: { websiteId: website.id, ...options.settings, changedAt: now } }]
        : []),
      ...(options.active === false
        ? [{ type: 'WebsiteActivationChanged' as const, data: { websiteId: website.id, isActive: false, changedAt: now } }]
        : []),
    ],
    { inlineProjections },
  );
  if (options.companyName) {
    await appendToStream(
      pool,
      brandingStreamId(website.ownerId),
      [
        {
          type: 'BrandingChanged',
          data: { ownerId: website.ownerId, companyName: options.companyName, primaryColor: '#0f766e', logoUrl: options.logoUrl ?? null, changedBy: 'test', changedAt: now },
        },
      ],
      { inlineProjections },
    );
  }
  return website;
}

/** A website owner on a subscription tier, as an admin invites one (users read model included). */
export async function addTestOwner(
  pool: Db,
  options: { tier?: SubscriptionTier; status?: 'active' | 'cancelled' | 'expired' } = {},
): Promise<{ readonly id: string; readonly email: string }> {
  const owner = { id: randomUUID(), email: `owner-${randomBytes(4).toString('hex')}@owners.example.test` };
  const now = new Date().toISOString();
  const tier = options.tier ?? 'free';
  const limits = { maxWebsites: 10, maxConsentsPerMonth: 100_000 };
  await appendToStream(
    pool,
    userStreamId(owner.id),
    [
      { type: 'UserInvited', data: { userId: owner.id, email: owner.email, subscriptionTier: tier, ...limits, invitedBy: 'admin', invitedAt: now } },
      ...(options.status && options.status !== 'active'
        ? [{ type: 'UserSubscriptionChanged' as const, data: { userId: owner.id, subscriptionTier: tier, subscriptionStatus: options.status, ...limits, changedAt: now } }]
        : []),
    ],
    { inlineProjections: [usersProjection] },
  );
  return owner;
}

export interface TestIngest {
  readonly app: FastifyInstance;
  readonly appender: GroupCommitAppender;
  /** Resolves once the work answers did not wait for (company matches) has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function buildTestIngest(
  pool: Db,
  options: {
    rateLimitPerMinute?: number;
    /** Identify limits per address and per website (generous unless a test sets them). */
    identifyRateLimits?: IdentifyRateLimits;
    geo?: GeoSource;
    widgetScriptPath?: string;
    identifyScriptPath?: string;
    trustProxy?: string[];
    network?: NetworkLookup;
    /** Fastify's logger settings (e.g. a stream that captures what is logged). */
    logger?: FastifyServerOptions['logger'];
    /** A logger of our own (infra's createLogger), as the running product hands Fastify one. */
    loggerInstance?: FastifyBaseLogger;
  } = {},
): Promise<TestIngest> {
  const appender = createGroupCommitAppender(pool);
  const background = createBackgroundWork();
  const app = Fastify({
    trustProxy: options.trustProxy ?? ['127.0.0.1'],
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.loggerInstance === undefined ? {} : { loggerInstance: options.loggerInstance }),
  });
  await app.register(ingestPlugin, {
    pool,
    appender,
    geo: createGeoLocator(options.geo ?? 'database'),
    publicUrl: 'http://consentry.test',
    widgetScriptPath: options.widgetScriptPath ?? '/nonexistent/widget.js',
    ...(options.identifyScriptPath ? { identifyScriptPath: options.identifyScriptPath } : {}),
    ...(options.network ? { network: options.network } : {}),
    background,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 100_000,
    identifyRateLimits: options.identifyRateLimits ?? { perIpPerMinute: 100_000, perWebsitePerMinute: 100_000 },
    websiteCacheTtlMs: 50,
  });
  await app.ready();
  return {
    app,
    appender,
    idle: () => background.idle(),
    async close() {
      await app.close();
      await appender.close();
    },
  };
}

/** A valid consent body for a website (docs/ingest-protocol.md). */
export function consentBodyFor(website: TestWebsite, overrides: Record<string, unknown> = {}) {
  return {
    embedCode: website.embedCode,
    eventId: randomUUID(),
    visitorId: randomUUID(),
    choice: 'accepted',
    source: 'banner',
    policyVersion: '1',
    pageUrl: `https://www.${website.domain}/pricing`,
    language: 'en-GB',
    occurredAt: new Date().toISOString(),
    ...overrides,
  };
}
