// The product's parts in one process: Postgres (external, or embedded when DATABASE_URL is unset),
// migrations, the bus (NATS JetStream, or in-memory when NATS_URL is unset), and the roles asked
// for — `relay`; `projectors` (one per projection partition); `jobs` (the sealer and the work
// queues: scans, enrichment, webhooks); `ingest` and `api` (HTTP on one port). All of them by
// default. cluster.ts spreads them over processes: `consentry start` on one machine, or
// `--role` on many (docs/deploy.md).
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import path from 'node:path';
import {
  createGroupCommitAppender,
  createLogger,
  createSmtpMailer,
  createMemoryBus,
  createNatsBus,
  createMemoryNotifier,
  createNatsNotifier,
  createPool,
  createPostgresNotifier,
  startProcessHeartbeat,
  migrateDatabase,
  startEmbeddedPostgres,
  startSealer,
  startTimestamper,
  createRecentDigests,
  type RecentDigests,
  type Bus,
  type Config,
  type Db,
  type EmbeddedPostgresMode,
  type Logger,
  type ProjectionNotifier,
  type SealSigner,
  type StoredEvent,
  type Mailer,
} from '@consentry/infra';
import {
  apiPlugin,
  buildMetricsServer,
  createLedgerMetrics,
  createMetricsRegistry,
  createStatusMetrics,
  ensureInitialAdmin,
  metricsPlugin,
  seedSubscriptionPlans,
  webAppPlugin,
} from '@consentry/api';
import { createGeoLocator, ingestPlugin } from '@consentry/ingest';
import {
  asyncProjections,
  countOpenDeadLetters,
  getInstallationBranding,
  getUser,
  partitionsOf,
  startPartitionBalancer,
  startProjector,
  startRelay,
  type Projector,
  type Relay,
} from '@consentry/projections';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { enrichmentProviderFromConfig, startEnrichmentWorker } from '@consentry/jobs';
import { newFindingsEmail } from '@consentry/jobs';
import { receiptSignerFor, sealSignerFor } from './seal-key';
import { RoleError, roles, type Role } from './roles';
import { installationScanOptions, scanRunnerCount, startScanRunner } from '@consentry/jobs';
import { startWebhookDeliveryWorker } from '@consentry/jobs';

export { parseRoles, RoleError, roles, type Role } from './roles';

export interface SystemOptions {
  /** The parts this process runs (default: all). ingest and api serve HTTP on PORT. */
  readonly roles?: readonly Role[];
  /**
   * Whether this process prepares the database (migrations, plans, and the first admin when `admin`
   * — by default when it serves the api). Cluster workers leave it to the primary, which has done
   * it before forking them.
   */
  readonly bootstrap?: false | { readonly admin: boolean };
  /**
   * Whether this process serves Prometheus on METRICS_PORT (default true). Cluster workers do not:
   * the primary serves everyone's metrics together (cluster.ts).
   */
  readonly metricsServer?: boolean;
  /**
   * Whether this process's metrics include the installation's status (lag, processes, seals),
   * which every process reads alike from the database (default true). Cluster workers leave it to
   * the primary, whose sum of everyone's metrics would otherwise count it once per worker.
   */
  readonly statusMetrics?: boolean;
  /**
   * Called once the database is prepared (bootstrap done), with its address, while the rest of this
   * process still starts: the cluster's primary lets its HTTP workers start serving then (cluster.ts).
   */
  readonly onDatabaseReady?: (connectionString: string) => void;
}

export interface RunningSystem {
  readonly url: string;
  readonly roles: readonly Role[];
  /** Where the database is (the embedded one's address too), for processes forked from this one. */
  readonly databaseUrl: string;
  readonly pool: Db;
  /** The bus, when this process runs the relay or projectors. */
  readonly bus: Bus | undefined;
  readonly notifier: ProjectionNotifier;
  readonly logger: Logger;
  /** The HTTP server, when this process runs ingest or api. */
  readonly http: FastifyInstance | undefined;
  readonly metricsRegistry: Registry;
  /** Where Prometheus scrapes (METRICS_HOST:METRICS_PORT), e.g. http://127.0.0.1:9464/metrics; undefined when not served here. */
  readonly metricsUrl: string | undefined;
  /** The leadership locks this process holds now (the relay, projector partitions). */
  leaderships(): string[];
  stop(): Promise<void>;
}

export interface Database {
  readonly connectionString: string;
  readonly embedded: boolean;
  stop(): Promise<void>;
}

/**
 * DATABASE_URL, or the embedded PostgreSQL: `start` may start it, `prepare` (migrate, admin create)
 * only when none runs and for its own run, `connect` never (infra/src/embedded/embedded-postgres.ts).
 */
export async function openDatabase(config: Config, logger: Logger, mode: EmbeddedPostgresMode): Promise<Database> {
  if (config.DATABASE_URL) {
    return { connectionString: config.DATABASE_URL, embedded: false, stop: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    port: config.EMBEDDED_POSTGRES_PORT,
    mode,
    log: (message) => logger.info(message),
  });
  return { connectionString: embedded.connectionString, embedded: true, stop: () => embedded.stop() };
}

/**
 * Prepares the installation's database: migrations, then the plan catalogue (published once; a
 * start that finds it published appends nothing). Run by whichever process bootstraps (`start`'s
 * primary, whatever its roles and HTTP workers) and by `consentry migrate`.
 */
export async function prepareDatabase(pool: Db): Promise<void> {
  await migrateDatabase(pool);
  await seedSubscriptionPlans(pool);
}

export async function openBus(config: Config, logger?: Logger): Promise<Bus> {
  const busConfig = { stream: config.NATS_STREAM, subjectPrefix: config.NATS_SUBJECT_PREFIX };
  return config.NATS_URL
    ? createNatsBus({ ...busConfig, url: config.NATS_URL, replicas: config.NATS_STREAM_REPLICAS, ...(logger ? { logger: logger.child({ component: 'bus' }) } : {}) })
    : createMemoryBus(busConfig);
}

/**
 * Projection-advanced notices: over NATS when NATS_URL is set (every machine); without it, in
 * this process when it runs everything, else through PostgreSQL between this machine's processes.
 */
export async function openNotifier(config: Config, options: { connectionString: string; withinProcess: boolean }): Promise<ProjectionNotifier> {
  if (config.NATS_URL) return createNatsNotifier({ url: config.NATS_URL, subject: `${config.NATS_SUBJECT_PREFIX}-live.projection-advanced` });
  if (options.withinProcess) return createMemoryNotifier();
  return createPostgresNotifier({ connectionString: options.connectionString, channel: `${config.NATS_SUBJECT_PREFIX}.projection-advanced` });
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


export async function startSystem(config: Config, options: SystemOptions = {}): Promise<RunningSystem> {
  const running = new Set<Role>(options.roles ?? roles);
  const everything = roles.every((role) => running.has(role));
  // Without NATS the relay and the projectors meet on an in-memory bus: they must share a process.
  if (!config.NATS_URL && running.has('relay') !== running.has('projectors')) {
    throw new RoleError('The relay and the projectors share the in-memory bus: without NATS_URL they run in one process (set NATS_URL to run them apart; docs/deploy.md)');
  }
  const logger = createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const database = await openDatabase(config, logger, 'start');
  const pool = createPool(database.connectionString, { max: config.DATABASE_POOL_SIZE });
  const cleanup: Array<() => Promise<unknown>> = [() => database.stop(), async () => pool.end()];
  const undo = async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  };
  try {
    return await startParts();
  } catch (error) {
    await undo();
    throw error;
  }

  async function startParts(): Promise<RunningSystem> {
    const bootstrap = options.bootstrap ?? { admin: running.has('api') };
    if (bootstrap) {
      await prepareDatabase(pool);
      // The first admin: ADMIN_USERNAME / ADMIN_PASSWORD, or a generated password printed once.
      if (bootstrap.admin) await ensureInitialAdmin(pool, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD });
    }
    options.onDatabaseReady?.(database.connectionString);
    const metricsRegistry = createMetricsRegistry();
    const ledgerMetrics = createLedgerMetrics(metricsRegistry, { openDeadLetters: () => countOpenDeadLetters(pool) });
    if (options.statusMetrics ?? true) createStatusMetrics(metricsRegistry, pool);
    const notifier = await openNotifier(config, { connectionString: database.connectionString, withinProcess: everything });
    cleanup.push(() => notifier.close());
    // The seal key signs in the jobs role, which makes it for a ledger not sealed yet (never for a
    // sealed one: sealSignerFor); api only reads it (receipts name its key), never makes one. Either
    // refuses a key that is not the one the ledger's seals are signed with.
    const signer = running.has('jobs') ? await sealSignerFor(config, pool) : running.has('api') ? await receiptSignerFor(config, pool) : undefined;

    const bus = running.has('relay') || running.has('projectors') ? await openBus(config, logger) : undefined;
    if (bus) cleanup.push(() => bus.close());
    const leaders: Array<{ readonly name: string; isLeader(): boolean }> = [];

    // What runs where, for `consentry status`: this process's roles and the locks it holds.
    const heartbeat = startProcessHeartbeat(pool, {
      roles: roles.filter((role) => running.has(role)),
      leaderships: () => leaders.filter((leader) => leader.isLeader()).map((leader) => leader.name),
      onError: (error) => logger.warn({ err: error, component: 'heartbeat' }, 'Could not record this process in the processes table; retrying'),
    });
    cleanup.push(() => heartbeat.stop());

    // With the relay and the sealer in this process, the sealer takes the digests of what the relay
    // read rather than reading the log again.
    const recentDigests = running.has('relay') && running.has('jobs') ? createRecentDigests() : undefined;
    if (running.has('relay') && bus) {
      const relay: Relay = startRelay({
        connectionString: database.connectionString,
        bus,
        subjectPrefix: config.NATS_SUBJECT_PREFIX,
        partitions: config.PROJECTOR_PARTITIONS,
        logger,
        recentDigests,
      });
      leaders.push({ name: 'relay', isLeader: relay.isLeader });
      cleanup.push(() => relay.stop());
    }

    if (running.has('projectors') && bus) {
      // One projector per partition of each projection: the per-website ones in PROJECTOR_PARTITIONS,
      // shared with the other projector processes (each leads the partitions it is preferred for).
      const balancer = startPartitionBalancer({ pool, processId: heartbeat.id });
      cleanup.push(() => balancer.stop());
      const projectors: Projector[] = asyncProjections.flatMap((projection) =>
        partitionsOf(projection, config.PROJECTOR_PARTITIONS).map((partition) =>
          startProjector({
            connectionString: database.connectionString,
            bus,
            subjectPrefix: config.NATS_SUBJECT_PREFIX,
            projection,
            partition,
            logger,
            preferred: balancer.prefers,
            onParked: () => ledgerMetrics.observeParked(projection.name),
            onAdvanced: (_checkpoint, applied) => {
              ledgerMetrics.observeProjected(projection.name, applied);
              const websiteIds = websitesOf(applied);
              if (websiteIds.length > 0) notifier.publish({ projection: projection.name, websiteIds });
            },
          }),
        ),
      );
      leaders.push(...projectors);
      cleanup.push(() => Promise.all(projectors.map((projector) => projector.stop())));
    }

    const mailer = config.SMTP_URL ? createSmtpMailer({ url: config.SMTP_URL, from: config.mailFrom }) : undefined;
    if (mailer) cleanup.push(async () => mailer.close());

    if (running.has('jobs') && signer) startJobs(signer, mailer, recentDigests);

    const http = running.has('ingest') || running.has('api') ? await startHttp(signer, mailer, metricsRegistry, ledgerMetrics, notifier) : undefined;

    let metricsUrl: string | undefined;
    if (options.metricsServer ?? true) {
      const metricsServer = await buildMetricsServer({ registry: metricsRegistry, ...(config.METRICS_TOKEN ? { token: config.METRICS_TOKEN } : {}) });
      const metricsAddress = await metricsServer.listen({ port: config.METRICS_PORT, host: config.METRICS_HOST });
      cleanup.push(() => metricsServer.close());
      metricsUrl = `${metricsAddress}/metrics`;
      if (!isLoopback(config.METRICS_HOST) && !config.METRICS_TOKEN) {
        logger.warn({ component: 'metrics', host: config.METRICS_HOST }, 'Metrics are served beyond this machine without METRICS_TOKEN: anyone who reaches the port can read them');
      }
    }


    let stopped = false;
    return {
      url: config.publicUrl,
      roles: roles.filter((role) => running.has(role)),
      databaseUrl: database.connectionString,
      pool,
      bus,
      notifier,
      logger,
      http,
      metricsRegistry,
      metricsUrl,
      leaderships: () => leaders.filter((leader) => leader.isLeader()).map((leader) => leader.name),
      async stop() {
        if (stopped) return;
        stopped = true;
        await undo();
      },
    };
  }

  function startJobs(signer: SealSigner, mailer: Mailer | undefined, recentDigests: RecentDigests | undefined): void {
    // Tamper evidence: closes the committed log into signed seals every few seconds (docs/compliance.md).
    // Sealers in several processes are safe: a seal's version is its sequence, so only one extends the chain.
    const sealer = startSealer(pool, signer, {
      recent: recentDigests,
      intervalMs: config.SEAL_INTERVAL_SECONDS * 1000,
      onError: (error) => logger.error({ err: error, component: 'sealer' }, 'Sealing failed; retrying on the next round'),
    });
    cleanup.push(() => sealer.stop());
    // Dates the head of the seal chain with each configured RFC 3161 authority (docs/compliance.md,
    // "Time-stamped seals"); an authority that is down is asked again later, and nothing waits on it.
    if (config.TSA_URL.length > 0) {
      const timestamper = startTimestamper(pool, {
        tsaUrls: config.TSA_URL,
        intervalMs: config.TSA_INTERVAL_SECONDS * 1000,
        onError: (error, tsaUrl) => logger.warn({ err: error, component: 'timestamper', tsa: tsaUrl }, 'Time-stamping the newest seal failed; asking again later'),
      });
      cleanup.push(() => timestamper.stop());
    }
    const workerId = `${hostname()}:${process.pid}`;

    // Cookie scans, SCAN_RUNNERS at a time per process, fairly across owners (docs/scanner.md): the
    // queue is the scans read model.
    if (config.SCANNER === 'on') {
      const scanRunner = startScanRunner({
        pool,
        runnerId: workerId,
        runners: scanRunnerCount(config.SCAN_RUNNERS),
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
      cleanup.push(() => scanRunner.stop());
    }

    // Lead enrichment (docs/identification.md): the queue the enrichment-queue reactor fills, worked at
    // ENRICHMENT_RATE_PER_MINUTE across every process; with ENRICHMENT_PROVIDER=off it only ends jobs
    // at their deadline and records cancellations.
    const enrichmentWorker = startEnrichmentWorker({
      pool,
      workerId,
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
    cleanup.push(() => enrichmentWorker.stop());

    // The owners' webhooks (Standard Webhooks), through the same address rules as installation checks.
    if (config.WEBHOOKS === 'on') {
      const webhookWorker = startWebhookDeliveryWorker({
        pool,
        workerId,
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
      cleanup.push(() => webhookWorker.stop());
    }
  }

  async function startHttp(
    signer: SealSigner | undefined,
    mailer: Mailer | undefined,
    metricsRegistry: Registry,
    ledgerMetrics: ReturnType<typeof createLedgerMetrics>,
    notifier: ProjectionNotifier,
  ): Promise<FastifyInstance> {
    const http: FastifyInstance = Fastify({
      // pino's and fastify's logger types differ only in generics; the instance is a pino logger.
      loggerInstance: logger.child({ component: 'http' }) as FastifyBaseLogger,
      // Client addresses come from X-Forwarded-For only when the connection is from a trusted proxy.
      trustProxy: config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : false,
    });
    // Closed before anything it uses (registered last, undone first).
    cleanup.push(() => http.close());
    // At the root and first, so every route of the server is counted.
    await http.register(metricsPlugin, { registry: metricsRegistry });
    if (running.has('ingest')) {
      // The consent path's writer: one per process, shared by every ingest request.
      const appender = createGroupCommitAppender(pool, { onBatchCommitted: ledgerMetrics.observeIngestBatch });
      cleanup.splice(cleanup.length - 1, 0, () => appender.close());
      await http.register(ingestPlugin, {
        pool,
        appender,
        geo: createGeoLocator(config.GEOIP),
        publicUrl: config.publicUrl,
        widgetScriptPath: widgetScriptPath(),
        rateLimitPerMinute: config.INGEST_RATE_LIMIT_PER_MINUTE,
        identifyRateLimits: { perIpPerMinute: config.IDENTIFY_RATE_LIMIT_PER_IP_PER_MINUTE, perWebsitePerMinute: config.IDENTIFY_RATE_LIMIT_PER_WEBSITE_PER_MINUTE },
      });
    }
    if (running.has('api') && signer) {
      await http.register(apiPlugin, {
        pool,
        publicUrl: config.publicUrl,
        ...(mailer ? { mailer } : {}),
        sessionSecret: config.SESSION_SECRET,
        metricsRegistry,
        // Published where the database is prepared (prepareDatabase), whatever this process's roles.
        seedPlans: false,
        // Webhook endpoints obey the installation check's address rules.
        webhookUrls: { allowHosts: config.VERIFY_ALLOWED_HOSTS },
        enrichmentOn: config.ENRICHMENT_PROVIDER !== 'off',
        // The installation check obeys the same address rules as webhooks.
        verification: { fetch: { allowHosts: config.VERIFY_ALLOWED_HOSTS } },
        notifier,
        sealKey: signer,
      });
      await http.register(webAppPlugin, { distDir: webAppDir(), publicUrl: config.publicUrl });
    } else {
      // An ingest-only process still answers the load balancer's health checks.
      http.get('/healthz', async () => ({ status: 'ok' as const }));
      http.get('/readyz', async (_request, reply) => {
        const database = await pool.query('SELECT 1').then(() => true, () => false);
        return reply.code(database ? 200 : 503).send({ status: database ? 'ready' : 'not ready', checks: { database } });
      });
    }
    await http.listen({ port: config.PORT, host: config.HOST });
    return http;
  }
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
