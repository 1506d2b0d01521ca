// An ingest app on a real test database, with websites registered the way the api registers them
// (events appended with the inline websites projection), for ingest's tests and benchmarks.
import { randomBytes, randomUUID } from 'node:crypto';
import { brandingStreamId, type WebsiteSettingsChangedData } from '@consentry/events';
import { appendToStream, createGroupCommitAppender, type Db, type GroupCommitAppender } from '@consentry/infra';
import { brandingProjection, websitesProjection } from '@consentry/projections';
import Fastify, { type FastifyInstance } from 'fastify';
import { ingestPlugin } from '../app';
import { createGeoLocator, type GeoSource } from '../enrich/geo';

export interface TestWebsite {
  readonly id: string;
  readonly ownerId: string;
  readonly embedCode: string;
  readonly domain: string;
}

export async function addTestWebsite(
  pool: Db,
  options: {
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
    ownerId: randomUUID(),
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

export interface TestIngest {
  readonly app: FastifyInstance;
  readonly appender: GroupCommitAppender;
  close(): Promise<void>;
}

export async function buildTestIngest(
  pool: Db,
  options: { rateLimitPerMinute?: number; geo?: GeoSource; widgetScriptPath?: string; trustProxy?: string[] } = {},
): Promise<TestIngest> {
  const appender = createGroupCommitAppender(pool);
  const app = Fastify({ trustProxy: options.trustProxy ?? ['127.0.0.1'] });
  await app.register(ingestPlugin, {
    pool,
    appender,
    geo: createGeoLocator(options.geo ?? 'database'),
    publicUrl: 'http://consentry.test',
    widgetScriptPath: options.widgetScriptPath ?? '/nonexistent/widget.js',
    rateLimitPerMinute: options.rateLimitPerMinute ?? 100_000,
    websiteCacheTtlMs: 50,
  });
  await app.ready();
  return {
    app,
    appender,
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
