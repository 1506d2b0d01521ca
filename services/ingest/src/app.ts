// The ingest service as a Fastify plugin: the public edge that browsers on owners' sites talk to.
// Bodies are JSON sent as text/plain (what sendBeacon sends) or application/json, at most 4 KB;
// every request is rate-limited per client IP (behind TRUSTED_PROXIES, the forwarded address).
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import { withSafeText, withTransaction, type Db, type GroupCommitAppender } from '@consentry/infra';
import type { FastifyPluginAsync } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { createBackgroundWork, type BackgroundWork } from './background';
import { clientIp, decorateClientIp } from './client-ip';
import { collectRoutes } from './collect/routes';
import type { GeoLocator } from './enrich/geo';
import { createNetworkLookup, type NetworkLookup } from './enrich/network';
import { IngestError, ingestErrorHandler } from './errors';
import { createCompanyMatcher } from './identify/company-match';
import { createIdentifyRateLimiter, defaultIdentifyRateLimits, type IdentifyRateLimits } from './identify/rate-limits';
import { admitResolution } from './identify/resolution-cap';
import { compressionThreshold } from './widget-assets/encoded-answers';
import { widgetAssetRoutes } from './widget-assets/routes';
import { cookieDeclarationRoutes } from './cookie-declaration/routes';
import { createWebsiteResolver } from './website-resolver';

export interface IngestOptions {
  readonly pool: Db;
  readonly appender: GroupCommitAppender;
  readonly geo: GeoLocator;
  readonly publicUrl: string;
  readonly widgetScriptPath: string;
  /** The built form capture (widget/dist/identify.js); by default beside widgetScriptPath. */
  readonly identifyScriptPath?: string;
  /** The offline IP-to-ASN lookup for B2B company matches; by default the shipped database, read on first use. */
  readonly network?: NetworkLookup;
  /** Where work that answers do not wait for runs (company matches); closing the app waits for it. */
  readonly background?: BackgroundWork;
  /** Requests per minute per client IP. */
  readonly rateLimitPerMinute: number;
  /** Identify requests per minute per visitor address and per website, across every process (default 10 and 120). */
  readonly identifyRateLimits?: IdentifyRateLimits;
  readonly websiteCacheTtlMs?: number;
}

export const maxBodyBytes = 4096;

export const ingestPlugin: FastifyPluginAsync<IngestOptions> = async (app, options) => {
  app.setValidatorCompiler(withSafeText(validatorCompiler));
  // Answers are built here from the service's own values: their zod schemas type them at compile
  // time, and at run time JSON.stringify is all they need. fastify-type-provider-zod's serializer
  // first encodes each answer through its schema (~8 µs of every consent request in the profile).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.setErrorHandler(ingestErrorHandler);
  decorateClientIp(app);

  // sendBeacon with a string sends text/plain: parse it as JSON, with the same 4 KB bound.
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: maxBodyBytes }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new IngestError(400, 'INVALID_JSON', 'Request body must be a JSON object'), undefined);
    }
  });

  await app.register(rateLimit, {
    max: options.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: clientIp,
    // Three x-ratelimit-* headers on every answer cost more than they tell a widget; 429s still
    // carry retry-after.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    errorResponseBuilder: () => new IngestError(429, 'RATE_LIMITED', 'Too many requests; try again later'),
  });

  // Answers of 1 KB and more (the cookie declaration, error pages) compressed on the fly, Brotli at
  // @fastify/compress's quick default; the widget's own assets come compressed already (routes.ts).
  // Request bodies are never inflated: the 4 KB bound is on what arrives.
  await app.register(fastifyCompress, { threshold: compressionThreshold, encodings: ['br', 'gzip'], globalDecompression: false });

  const websites = createWebsiteResolver(options.pool, { ttlMs: options.websiteCacheTtlMs ?? 5_000 });
  const background = options.background ?? createBackgroundWork();
  // Company matches still running finish before the server's appender is closed.
  app.addHook('onClose', async () => background.idle());
  const companyMatcher = createCompanyMatcher({
    websites,
    network: options.network ?? createNetworkLookup(),
    appender: options.appender,
    background,
    admitResolution: async (request) => (await withTransaction(options.pool, (tx) => admitResolution(tx, request))).admitted,
  });
  const identifyRateLimiter = createIdentifyRateLimiter(options.pool, options.identifyRateLimits ?? defaultIdentifyRateLimits, {
    onSweepFailed: (error) => app.log.warn({ err: error }, 'identify rate tallies could not be swept'),
  });
  await app.register(collectRoutes, {
    pool: options.pool,
    appender: options.appender,
    companyMatcher,
    identifyRateLimiter,
    websites,
    geo: options.geo,
    bodyLimit: maxBodyBytes,
  });
  await app.register(cookieDeclarationRoutes, { pool: options.pool });
  await app.register(widgetAssetRoutes, {
    pool: options.pool,
    websites,
    geo: options.geo,
    publicUrl: options.publicUrl,
    widgetScriptPath: options.widgetScriptPath,
    identifyScriptPath: options.identifyScriptPath ?? path.join(path.dirname(options.widgetScriptPath), 'identify.js'),
    configCacheTtlMs: options.websiteCacheTtlMs ?? 5_000,
  });
};
