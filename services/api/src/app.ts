// The api service as a Fastify plugin: the owner and admin api, served from projections. The
// composition root registers it beside ingest on one server; only the root listens.
//
// Layers, in order: schema compilers and the error handler; security headers (security-headers.ts) and
// no-store on every JSON answer; the Origin check for requests that change data; cookies and
// Postgres-backed sessions; rate limiting (sign-ins); the OpenAPI document at /api/docs, which sees
// every route registered after it; the access check (access/: every route names its rule); then
// every route of the api, by area.
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySession from '@fastify/session';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { withSafeText, type Db, type ProjectionNotifier } from '@consentry/infra';
import type { FastifyPluginAsync } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { accessControl, sessionViewers, withAccessRules } from './access';
import { adminDeadLetterRoutes } from './admin/dead-letters-routes';
import { invitationRoutes } from './auth/invitation-routes';
import type { Mailer } from '@consentry/infra';
import { adminUserRoutes } from './admin/users-routes';
import { accountRoutes } from './auth/account-routes';
import { passwordResetRoutes } from './auth/password-reset-routes';
import { adminPasswordRoutes } from './auth/admin-password-routes';
import { createOriginGuard } from './auth/origin-guard';
import { createPasswordHasher, type PasswordHashing } from './auth/passwords';
import { authRoutes, defaultSignInLimits, type SignInLimits } from './auth/routes';
import { resolveSessionSecret } from './auth/session-secret';
import { createPostgresSessionStore, pruneExpiredSessions } from './auth/session-store';
import { brandingRoutes } from './branding/routes';
import { apiErrorHandler } from './errors';
import { securityHeaders } from './security-headers';
import { createSignInCounter } from './metrics';
import { seedSubscriptionPlans } from './plans/catalogue';
import { planRoutes } from './plans/routes';
import { siteContentRoutes } from './site-content/routes';
import { statsRoutes } from './stats/routes';
import { analyticsRoutes } from './analytics/routes';
import { websiteRoutes } from './websites/routes';
import { bannerTextRoutes } from './banner-texts/routes';
import { scanRoutes } from './scans/routes';
import { leadRoutes } from './leads/routes';
import { webhookRoutes } from './webhooks/routes';
import { exportRoutes } from './export/routes';
import { verificationRoutes, type VerificationOptions } from './verification/routes';
import { liveRoutes, type LiveOptions } from './live/routes';
import { receiptRoutes, type ReceiptRoutesOptions } from './receipts/routes';
import type { HostLookup } from '@consentry/infra';

export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<boolean> | boolean;
}

export interface ApiOptions {
  readonly pool: Db;
  /** PUBLIC_URL: the app's own origin (the Origin check) and whether cookies are Secure (https). */
  readonly publicUrl: string;
  /** SESSION_SECRET; unset: generated on first start and kept in the `secrets` table. */
  readonly sessionSecret?: string;
  /** How long a sign-in lasts (absolute, from sign-in). Default 7 days. */
  readonly sessionLifetimeMs?: number;
  readonly signInLimits?: SignInLimits;
  /** argon2id cost; the default is OWASP's minimum. Tests lower it. */
  readonly passwordHashing?: PasswordHashing;
  /** Publish the plan catalogue at start (idempotent). Default true. */
  readonly seedPlans?: boolean;
  /** Where sign-in counters go; the registry the root's metricsPlugin serves. */
  readonly metricsRegistry?: Registry;
  /** Extra readiness conditions (the relay and projectors running, the bus connected). */
  readonly readiness?: readonly ReadinessCheck[];
  /**
   * Sends invitation, registration, password reset and email change emails (SMTP_URL); without it the
   * admin copies invitation and reset links, registration is immediate and emails cannot be changed.
   */
  readonly mailer?: Mailer;
  /**
   * Where owners' webhook URLs may point: hosts exempt from the public-address rule
   * (VERIFY_ALLOWED_HOSTS, as for the installation check and scans), and the DNS lookup (tests).
   */
  readonly webhookUrls?: { readonly allowHosts?: readonly string[]; readonly lookup?: HostLookup };
  /** Whether an enrichment provider is configured (ENRICHMENT_PROVIDER is not `off`), told to owners on a lead. Default false. */
  readonly enrichmentOn?: boolean;
  /** Where projections say what they advanced: open dashboards hear of it (GET /api/events). */
  readonly notifier: ProjectionNotifier;
  /** Live updates' timings and per-account stream limit (tests shorten them). */
  readonly liveUpdates?: Omit<LiveOptions, 'pool' | 'notifier'>;
  /** The public half of the key that signs the ledger's seals: named in consent receipts, served for verifiers. */
  readonly sealKey: ReceiptRoutesOptions['sealKey'];
  /** The installation check's fetches: hosts exempt from the public-address rule (VERIFY_ALLOWED_HOSTS), and in tests the pages tried. */
  readonly verification?: Omit<VerificationOptions, 'pool'>;
}

export const sessionCookieName = 'consentry_session';
/** The hash of the inline style Swagger UI's bundle inserts (web-csp.e2e.test.ts fails if it changes). */
const swaggerUiStyleHash = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
const defaultSessionLifetimeMs = 7 * 24 * 60 * 60 * 1000;
const sessionPruneIntervalMs = 10 * 60 * 1000;

const healthAnswer = z.object({ status: z.literal('ok') });
const readinessAnswer = z.object({ status: z.enum(['ready', 'not ready']), checks: z.record(z.string(), z.boolean()) });

export const apiPlugin: FastifyPluginAsync<ApiOptions> = async (app, options) => {
  const { pool } = options;
  app.setValidatorCompiler(withSafeText(validatorCompiler));
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(apiErrorHandler);

  // Here, in the api's own context: the widget and collection endpoints beside it must stay embeddable.
  await app.register(fastifyHelmet, securityHeaders({ publicUrl: options.publicUrl }));
  // Api answers depend on who is signed in (the session cookie): no browser history or shared cache
  // may keep one. Answers that choose their own caching (downloads, event streams) keep it.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control') && /^application\/json\b/.test(String(reply.getHeader('content-type') ?? ''))) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });

  // JSON, CSV and the docs' pages compressed on the fly from 1 KB (Brotli at @fastify/compress's quick
  // default, else gzip); streamed downloads stay streamed, through the compressor. Live updates
  // (GET /api/events) take over the socket and are never compressed nor buffered. Request bodies
  // are not inflated. docs/architecture.md, "Compression and caching".
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'], globalDecompression: false });

  app.addHook('onRequest', createOriginGuard(options.publicUrl));

  const lifetimeMs = options.sessionLifetimeMs ?? defaultSessionLifetimeMs;
  const secureCookies = options.publicUrl.startsWith('https:');
  if (secureCookies) {
    // Browsers send Secure cookies over https only, and the session plugin sets none on a request it
    // sees as http: behind a TLS-terminating proxy that is not trusted, nobody could stay signed in.
    let warned = false;
    app.addHook('onRequest', async (request) => {
      if (warned || request.protocol === 'https') return;
      warned = true;
      request.log.warn('PUBLIC_URL is https but requests arrive as http: set TRUSTED_PROXIES so X-Forwarded-Proto is trusted, or sign-ins cannot keep a session');
    });
  }
  await app.register(fastifyCookie);
  const sessionSecret = await resolveSessionSecret(pool, options.sessionSecret);
  await app.register(fastifySession, {
    secret: sessionSecret,
    cookieName: sessionCookieName,
    store: createPostgresSessionStore(pool),
    // Nothing is stored for anonymous visitors, and a session is written only when it changes.
    saveUninitialized: false,
    rolling: false,
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies, maxAge: lifetimeMs },
  });
  const pruning = setInterval(() => void pruneExpiredSessions(pool).catch((error: unknown) => app.log.warn({ err: error }, 'pruning sessions failed')), sessionPruneIntervalMs);
  pruning.unref();
  app.addHook('onClose', async () => clearInterval(pruning));
  await pruneExpiredSessions(pool);

  await app.register(fastifyRateLimit, { global: false });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Consentry API',
        description: 'The owner and admin api. Errors answer `{ error: { code, message } }`, except the admin sign-in, which answers `{ success, error }`.',
        version: '1.0.0',
      },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: sessionCookieName } } },
      security: [{ session: [] }],
    },
    transform: withAccessRules(jsonSchemaTransform),
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    // Swagger UI's bundle inserts one fixed <style> element: allowed by its hash on these pages only.
    transformStaticCSP: (header) => header.replace("style-src 'self'", `style-src 'self' ${swaggerUiStyleHash}`),
  });

  // After the document's own routes (Swagger UI's pages are public): every route from here names a rule.
  await app.register(accessControl, { viewers: sessionViewers(pool) });

  if (options.seedPlans ?? true) await seedSubscriptionPlans(pool);

  app.get('/healthz', { config: { access: 'public' }, schema: { tags: ['health'], summary: 'The process is up', response: { 200: healthAnswer } } }, async () => ({ status: 'ok' as const }));

  app.get(
    '/readyz',
    { config: { access: 'public' }, schema: { tags: ['health'], summary: 'The database (and every other dependency) answers', response: { 200: readinessAnswer, 503: readinessAnswer } } },
    async (_request, reply) => {
      const checks: Record<string, boolean> = {};
      checks.database = await pool
        .query('SELECT 1')
        .then(() => true)
        .catch(() => false);
      for (const readiness of options.readiness ?? []) {
        checks[readiness.name] = await Promise.resolve(readiness.check()).catch(() => false);
      }
      const ready = Object.values(checks).every(Boolean);
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
    },
  );

  const hasher = createPasswordHasher(options.passwordHashing);
  await app.register(authRoutes, {
    pool,
    hasher,
    limits: options.signInLimits ?? defaultSignInLimits,
    cookieName: sessionCookieName,
    publicUrl: options.publicUrl,
    sessionSecret,
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.metricsRegistry ? { onSignIn: createSignInCounter(options.metricsRegistry) } : {}),
  });
  await app.register(adminPasswordRoutes, { pool, hasher });
  await app.register(accountRoutes, {
    pool,
    hasher,
    publicUrl: options.publicUrl,
    cookieName: sessionCookieName,
    ...(options.mailer ? { mailer: options.mailer } : {}),
  });
  await app.register(passwordResetRoutes, {
    pool,
    hasher,
    publicUrl: options.publicUrl,
    sessionSecret,
    throttle: (options.signInLimits ?? defaultSignInLimits).failures,
    ...(options.mailer ? { mailer: options.mailer } : {}),
  });
  await app.register(invitationRoutes, { pool, hasher });
  await app.register(websiteRoutes, { pool });
  await app.register(bannerTextRoutes);
  await app.register(scanRoutes, { pool });
  await app.register(leadRoutes, { pool, enrichmentOn: options.enrichmentOn ?? false });
  await app.register(webhookRoutes, { pool, ...(options.webhookUrls ? { urlCheck: options.webhookUrls } : {}) });
  await app.register(statsRoutes, { pool });
  await app.register(analyticsRoutes, { pool });
  await app.register(planRoutes, { pool });
  await app.register(brandingRoutes, { pool });
  await app.register(siteContentRoutes, { pool });
  await app.register(adminUserRoutes, { pool, publicUrl: options.publicUrl, ...(options.mailer ? { mailer: options.mailer } : {}) });
  await app.register(adminDeadLetterRoutes, { pool });
  await app.register(exportRoutes, { pool });
  await app.register(verificationRoutes, { pool, ...options.verification });
  await app.register(liveRoutes, { pool, notifier: options.notifier, ...options.liveUpdates });
  await app.register(receiptRoutes, { pool, publicUrl: options.publicUrl, sealKey: options.sealKey });
};
