// The whole product in one process: Postgres (external, or embedded when DATABASE_URL is unset),
// migrations, the bus (NATS JetStream, or in-memory when NATS_URL is unset), the relay, one
// projector per async projection, the work queues (scans, enrichment, webhooks), and the HTTP
// services on one port.
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import path from 'node:path';
import {
  createGroupCommitAppender,
  createLogger,
  createMemoryBus,
  createNatsBus,
  createMemoryNotifier,
  createNatsNotifier,
  createPool,
  loadOrCreateSealSigner,
  migrateDatabase,
  startEmbeddedPostgres,
  startSealer,
  type Bus,
  type Config,
  type Db,
  type Logger,
  type ProjectionNotifier,
  type StoredEvent,
} from '@consentry/infra';
import {
  apiPlugin,
  buildMetricsServer,
  createLedgerMetrics,
  createMetricsRegistry,
  createSmtpMailer,
  ensureInitialAdmin,
  exportRoutes,
  liveRoutes,
  metricsPlugin,
  receiptRoutes,
  verificationRoutes,
  webAppPlugin,
} from '@consentry/api';
import { createGeoLocator, ingestPlugin } from '@consentry/ingest';
import { asyncProjections, countOpenDeadLetters, getInstallationBranding, getUser, startProjector, startRelay, type Projector, type Relay } from '@consentry/projections';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { enrichmentProviderFromConfig, startEnrichmentWorker } from './enrichment';
import { newFindingsEmail } from './scanner/scan-notification';
import { installationScanOptions, startScanRunner } from './scanner/scan-runner';
import { startWebhookDeliveryWorker } from './webhooks';

export interface RunningSystem {
  readonly url: string;
  readonly pool: Db;
  readonly bus: Bus;
  readonly notifier: ProjectionNotifier;
  readonly logger: Logger;
  readonly http: FastifyInstance;
  /** Where Prometheus scrapes (METRICS_HOST:METRICS_PORT), e.g. http://127.0.0.1:9464/metrics. */
  readonly metricsUrl: string;
  stop(): Promise<void>;
}

export interface Database {
  readonly connectionString: string;
  readonly embedded: boolean;
  stop(): Promise<void>;
}

export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  if (config.DATABASE_URL) {
    return { connectionString: config.DATABASE_URL, embedded: false, stop: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    port: config.EMBEDDED_POSTGRES_PORT,
    log: (message) => logger.info(message),
  });
  return { connectionString: embedded.connectionString, embedded: true, stop: () => embedded.stop() };
}

export async function openBus(config: Config, logger?: Logger): Promise<Bus> {
  const busConfig = { stream: config.NATS_STREAM, subjectPrefix: config.NATS_SUBJECT_PREFIX };
  return config.NATS_URL
    ? createNatsBus({ ...busConfig, url: config.NATS_URL, replicas: config.NATS_STREAM_REPLICAS, ...(logger ? { logger: logger.child({ component: 'bus' }) } : {}) })
    : createMemoryBus(busConfig);
}

/** Projection-advanced notices: in-process, or across instances over NATS core pub/sub. */
export async function openNotifier(config: Config): Promise<ProjectionNotifier> {
  return config.NATS_URL
    ? createNatsNotifier({ url: config.NATS_URL, subject: `${config.NATS_SUBJECT_PREFIX}-live.projection-advanced` })
    : createMemoryNotifier();
}

/** The websites a batch of events touched (what a dashboard needs to know to refresh). */
function websitesOf(events: readonly StoredEvent[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    const data = event.data as { websiteId?: unknown };
    if (typeof data.websiteId === 'string') ids.add(data.websiteId);
  }
  return [...ids];
}

export async function startSystem(config: Config): Promise<RunningSystem> {
  const logger = createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const database = await openDatabase(config, logger);
  const pool = createPool(database.connectionString, { max: config.DATABASE_POOL_SIZE });
  await migrateDatabase(pool);
  // The first admin: ADMIN_USERNAME / ADMIN_PASSWORD, or a generated password printed once.
  await ensureInitialAdmin(pool, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD });
  const metricsRegistry = createMetricsRegistry();
  const ledgerMetrics = createLedgerMetrics(metricsRegistry, { openDeadLetters: () => countOpenDeadLetters(pool) });
  const bus = await openBus(config, logger);
  const notifier = await openNotifier(config);
  const signer = await loadOrCreateSealSigner(config.sealKeyFile);

  const relay: Relay = startRelay({
    connectionString: database.connectionString,
    bus,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    logger,
  });
  const projectors: Projector[] = asyncProjections.map((projection) =>
    startProjector({
      connectionString: database.connectionString,
      bus,
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
      projection,
      logger,
      onParked: () => ledgerMetrics.observeParked(projection.name),
      onAdvanced: (_checkpoint, applied) => {
        ledgerMetrics.observeProjected(projection.name, applied);
        const websiteIds = websitesOf(applied);
        if (websiteIds.length > 0) notifier.publish({ projection: projection.name, websiteIds });
      },
    }),
  );

  // Tamper evidence: closes the committed log into signed seals every few seconds (docs/compliance.md).
  const sealer = startSealer(pool, signer, {
    intervalMs: config.SEAL_INTERVAL_SECONDS * 1000,
    onError: (error) => logger.error({ err: error, component: 'sealer' }, 'Sealing failed; retrying on the next round'),
  });

  const mailer = config.SMTP_URL ? createSmtpMailer({ url: config.SMTP_URL, from: config.mailFrom }) : undefined;

  // Cookie scans, one at a time (docs/scanner.md): the queue is the scans read model.
  const scanRunner = config.SCANNER === 'off' ? { stop: async () => undefined } : startScanRunner({
    pool,
    runnerId: `${hostname()}:${process.pid}`,
    ...installationScanOptions(config),
    notifyNewFindings: async (website, findings) => {
      const owner = await getUser(pool, website.ownerId);
      if (!owner || !mailer) {
        logger.warn({ component: 'scanner', websiteId: website.id, findings: findings.length }, 'A scheduled scan found something new; no email sent (no SMTP_URL or no owner)');
        return;
      }
      const { companyName } = await getInstallationBranding(pool);
      await mailer.send(newFindingsEmail({ to: owner.email, domain: website.domain, findings, appUrl: config.publicUrl, productName: companyName }));
    },
    onOutcome: (outcome) =>
      logger.info({ component: 'scanner', scanId: outcome.scan.scanId, websiteId: outcome.scan.websiteId, status: outcome.status }, 'Scan finished'),
    onError: (error) => logger.error({ err: error, component: 'scanner' }, 'The scan runner could not record a scan; retrying'),
  });

  // Lead enrichment (docs/identification.md): the queue the enrichment-queue reactor fills, worked at
  // ENRICHMENT_RATE_PER_MINUTE across every process; with ENRICHMENT_PROVIDER=off it only ends jobs
  // at their deadline and records cancellations.
  const enrichmentWorker = startEnrichmentWorker({
    pool,
    workerId: `${hostname()}:${process.pid}`,
    provider: enrichmentProviderFromConfig(config),
    ratePerMinute: config.ENRICHMENT_RATE_PER_MINUTE,
    concurrency: config.ENRICHMENT_CONCURRENCY,
    onOutcome: (outcome) => {
      const entry = { component: 'enrichment', jobId: outcome.jobId, websiteId: outcome.websiteId, provider: outcome.provider, outcome: outcome.outcome, attempts: outcome.attempts, detail: outcome.detail };
      if (outcome.outcome === 'rejected') logger.error(entry, 'The enrichment provider refused a job for good');
      else if (outcome.outcome === 'retry') logger.warn({ ...entry, nextAttemptAt: outcome.nextAttemptAt }, 'An enrichment call failed; retrying');
      else logger.info(entry, 'Enrichment finished');
    },
    onError: (error) => logger.error({ err: error, component: 'enrichment' }, 'The enrichment worker could not record a job; retrying'),
  });

  // The owners' webhooks (Standard Webhooks), through the same address rules as installation checks.
  const webhookWorker = config.WEBHOOKS === 'off' ? { stop: async () => undefined } : startWebhookDeliveryWorker({
    pool,
    workerId: `${hostname()}:${process.pid}`,
    allowHosts: config.VERIFY_ALLOWED_HOSTS,
    onTry: (attempt) => {
      if (attempt.outcome === 'delivered') return;
      logger.warn(
        { component: 'webhooks', deliveryId: attempt.deliveryId, endpointId: attempt.endpointId, attempt: attempt.attempt, statusCode: attempt.statusCode, error: attempt.error, outcome: attempt.outcome },
        attempt.outcome === 'failed' ? 'A webhook delivery failed for good' : 'A webhook delivery failed; retrying',
      );
    },
    onError: (error) => logger.error({ err: error, component: 'webhooks' }, 'The webhook worker could not record a delivery; retrying'),
  });

  // The consent path's writer: one per process, shared by every ingest request.
  const appender = createGroupCommitAppender(pool, { onBatchCommitted: ledgerMetrics.observeIngestBatch });

  const http: FastifyInstance = Fastify({
    // pino's and fastify's logger types differ only in generics; the instance is a pino logger.
    loggerInstance: logger.child({ component: 'http' }) as FastifyBaseLogger,
    // Client addresses come from X-Forwarded-For only when the connection is from a trusted proxy.
    trustProxy: config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : false,
  });
  // At the root and first, so every route of the server is counted.
  await http.register(metricsPlugin, { registry: metricsRegistry });
  await http.register(ingestPlugin, {
    pool,
    appender,
    geo: createGeoLocator(config.GEOIP),
    publicUrl: config.publicUrl,
    widgetScriptPath: widgetScriptPath(),
    rateLimitPerMinute: config.INGEST_RATE_LIMIT_PER_MINUTE,
  });
  await http.register(apiPlugin, {
    pool,
    publicUrl: config.publicUrl,
    ...(mailer ? { mailer } : {}),
    sessionSecret: config.SESSION_SECRET,
    metricsRegistry,
    // Webhook endpoints obey the installation check's address rules.
    webhookUrls: { allowHosts: config.VERIFY_ALLOWED_HOSTS },
    // Behind the api's sessions, Origin check and error handler, and in /api/docs.
    extraRoutes: async ({ app, resolveScope }) => {
      await app.register(exportRoutes, { pool, resolveScope });
      await app.register(verificationRoutes, { pool, resolveScope, fetch: { allowHosts: config.VERIFY_ALLOWED_HOSTS } });
      await app.register(liveRoutes, { notifier, resolveScope });
      await app.register(receiptRoutes, { pool, resolveScope, publicUrl: config.publicUrl, sealKey: signer });
    },
  });
  await http.register(webAppPlugin, { distDir: webAppDir(), publicUrl: config.publicUrl });
  await http.listen({ port: config.PORT, host: config.HOST });
  const metricsServer = await buildMetricsServer({ registry: metricsRegistry, ...(config.METRICS_TOKEN ? { token: config.METRICS_TOKEN } : {}) });
  const metricsAddress = await metricsServer.listen({ port: config.METRICS_PORT, host: config.METRICS_HOST }).catch(async (error: unknown) => {
    await http.close();
    throw error;
  });
  if (!isLoopback(config.METRICS_HOST) && !config.METRICS_TOKEN) {
    logger.warn({ component: 'metrics', host: config.METRICS_HOST }, 'Metrics are served beyond this machine without METRICS_TOKEN: anyone who reaches the port can read them');
  }

  let stopped = false;
  return {
    url: config.publicUrl,
    pool,
    bus,
    notifier,
    logger,
    http,
    metricsUrl: `${metricsAddress}/metrics`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all([http.close(), metricsServer.close()]);
      mailer?.close();
      await appender.close();
      await Promise.all([
        relay.stop(),
        sealer.stop(),
        scanRunner.stop(),
        enrichmentWorker.stop(),
        webhookWorker.stop(),
        ...projectors.map((projector) => projector.stop()),
      ]);
      await bus.close();
      await notifier.close();
      await pool.end();
      await database.stop();
    },
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Where the built widget is (widget/dist/widget.js, built by `npm run build -w @consentry/widget`). */
export function widgetScriptPath(): string {
  const widgetPackage = createRequire(import.meta.url).resolve('@consentry/widget/package.json');
  return path.join(path.dirname(widgetPackage), 'dist', 'widget.js');
}

/** Where the built web app is (web/dist, built by `npm run build -w @consentry/web`). */
export function webAppDir(): string {
  const webPackage = createRequire(import.meta.url).resolve('@consentry/web/package.json');
  return path.join(path.dirname(webPackage), 'dist');
}
