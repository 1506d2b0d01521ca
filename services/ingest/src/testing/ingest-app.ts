// An ingest app on a real test database, for ingest's tests and benchmarks; websites and owners are
// registered by @consentry/projections/testing (re-exported here for ingest's own tests).
import { randomUUID } from 'node:crypto';
import { createGroupCommitAppender, type Db, type GroupCommitAppender } from '@consentry/infra';
import type { TestWebsite } from '@consentry/projections/testing';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ingestPlugin } from '../app';
import { createBackgroundWork } from '../background';
import { createGeoLocator, type GeoSource } from '../enrich/geo';
import type { NetworkLookup } from '../enrich/network';
import type { IdentifyRateLimits } from '../identify/rate-limits';

export { findTextAnywhere, type TextFound } from './find-text';
export { addTestOwner, addTestWebsite, type TestWebsite } from '@consentry/projections/testing';

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
