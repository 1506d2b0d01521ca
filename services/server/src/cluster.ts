// `consentry start` across the cores of one machine (node:cluster). The primary process prepares
// the database (the embedded one too), runs the background roles asked for (relay, projectors,
// jobs), and forks HTTP_WORKERS workers that serve ingest and api on the one PORT (the cluster
// module shares the listening socket). Projectors and the relay thus never share an event loop with
// HTTP. A worker that dies is replaced; Prometheus scrapes the primary, which adds up every
// worker's metrics with its own. Across machines, each machine runs `--role` (docs/deploy.md).
//
// The primary forks its workers before it loads the product's code (system.ts and what it imports,
// most of a start's time), so that the workers load theirs at the same time on the other cores:
// only light modules are imported statically here (issue 35).
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Config } from '@consentry/infra';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { httpRoles, type Role } from './roles';
import type { RunningSystem } from './system';

const workerRolesVariable = 'CONSENTRY_WORKER_ROLES';

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];
type WorkerMessage = { type: 'consentry:metrics'; id: number; metrics: MetricsJson } | { type: 'consentry:database-request' } | { type: 'consentry:ready' };
type PrimaryMessage = { type: 'consentry:metrics-request'; id: number } | { type: 'consentry:database'; connectionString: string };

/**
 * How many HTTP worker processes to fork: HTTP_WORKERS, or with `auto` one per core when there are
 * several, but one core left to the primary when it runs background roles too (relay, projectors,
 * jobs). On 2 cores with everything, 2 workers beside the primary were slower and dearer per consent
 * than 1 (bench:e2e at 50 connections: 0.77× the naive server's throughput at 1.58× its CPU, against
 * 0.99× at 1.20×): the projectors, the workers and PostgreSQL fought over the cores.
 */
export function httpWorkerCount(config: Pick<Config, 'HTTP_WORKERS'>, roles: readonly Role[], cores = availableParallelism()): number {
  if (config.HTTP_WORKERS !== 'auto') return config.HTTP_WORKERS;
  if (cores <= 1) return 0;
  const background = roles.some((role) => !httpRoles.includes(role));
  return background ? cores - 1 : cores;
}

/**
 * Node options for the HTTP workers: this process's own, plus a larger young generation unless one
 * is set already. Each request allocates many objects that live for a millisecond or two; with room
 * for more of them, fewer survive to be copied by a scavenge (bench:e2e: about a tenth less CPU per
 * consent with 64 MB; the young generation only grows that large under load).
 */
export function withYoungGeneration(execArgv: readonly string[], nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const set = [...execArgv, ...nodeOptions.split(/\s+/)].some((option) => option.startsWith('--max-semi-space-size'));
  return set ? [...execArgv] : [...execArgv, '--max-semi-space-size=64'];
}

export interface StartedProduct {
  /** This process's own part (the primary's, or the single process's). */
  readonly system: RunningSystem;
  readonly workers: number;
  readonly metricsUrl: string | undefined;
  stop(): Promise<void>;
}

/** This process is an HTTP worker forked by a primary (runStart hands it to runWorker). */
export const isClusterWorker = () => cluster.isWorker && process.env[workerRolesVariable] !== undefined;

/**
 * Starts the roles asked for on this machine: in this process alone when no HTTP role is asked
 * for or HTTP_WORKERS is 0, else as a primary with HTTP workers.
 */
export async function startProduct(config: Config, roles: readonly Role[]): Promise<StartedProduct> {
  const http = roles.filter((role) => httpRoles.includes(role));
  const workers = http.length > 0 ? httpWorkerCount(config, roles) : 0;
  if (workers === 0) {
    const { startSystem } = await import('./system');
    const system = await startSystem(config, { roles });
    return { system, workers: 0, metricsUrl: system.metricsUrl, stop: () => system.stop() };
  }

  const background = roles.filter((role) => !httpRoles.includes(role));
  // Written to before the logger is loaded (a worker that dies at once): the same line on stderr.
  const toStderr = (fields: object, message: string) => void process.stderr.write(`${message} ${JSON.stringify(fields)}\n`);
  let log: { error(fields: object, message: string): void; warn(fields: object, message: string): void } = { error: toStderr, warn: toStderr };
  let stopping = false;
  // The workers are forked first and load their code while this process prepares the database; each
  // asks for the database's address and starts serving once it is prepared (runWorker).
  let preparedDatabase: string | undefined;
  const waitingForDatabase = new Set<Worker>();
  const answer = (worker: Worker, connectionString: string) => {
    if (worker.isConnected()) worker.send({ type: 'consentry:database', connectionString } satisfies PrimaryMessage);
  };

  cluster.setupPrimary({ execArgv: withYoungGeneration(process.execArgv) });
  const fork = () => {
    const worker = cluster.fork({ [workerRolesVariable]: http.join(',') });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type !== 'consentry:database-request') return;
      if (preparedDatabase) answer(worker, preparedDatabase);
      else waitingForDatabase.add(worker);
    });
    return worker;
  };
  const replaced = new Map<number, number>();
  cluster.on('exit', (worker, code, signal) => {
    waitingForDatabase.delete(worker);
    // Exit code 0 without a signal: it was asked to stop (Ctrl+C reaches every process of the group).
    if (stopping || (code === 0 && !signal)) return;
    // A worker that died is replaced; one that keeps dying at once is replaced at most every 5 s.
    const restarts = (replaced.get(worker.id) ?? 0) + 1;
    replaced.delete(worker.id);
    log.error({ workerPid: worker.process.pid, code, signal }, 'An HTTP worker exited; starting another');
    setTimeout(() => {
      if (!stopping) replaced.set(fork().id, restarts);
    }, Math.min(5000, 100 * 2 ** Math.min(restarts, 6))).unref();
  });

  const ready = Array.from({ length: workers }, () => {
    const worker = fork();
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'consentry:ready') resolve();
      });
      worker.once('exit', (code) => reject(new Error(`An HTTP worker exited while starting (exit code ${code}); its log says why`)));
    });
  });
  // Whichever fails first is reported; the others are awaited below or no longer matter.
  for (const worker of ready) worker.catch(() => undefined);

  const stopWorkers = async () => {
    stopping = true;
    const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    await Promise.all(
      running.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            const killer = setTimeout(() => {
              log.warn({ workerPid: worker.process.pid }, 'An HTTP worker did not stop within 10 s of being asked; killing it');
              worker.process.kill('SIGKILL');
            }, 10_000);
            worker.once('exit', () => {
              clearTimeout(killer);
              resolve();
            });
            worker.process.kill('SIGTERM');
          }),
      ),
    );
  };

  // Only now, with the workers forked, the product's code (the workers load theirs meanwhile).
  const [{ startSystem }, { createLogger }, { buildMetricsServer }, { AggregatorRegistry, Registry }] = await Promise.all([
    import('./system'),
    import('@consentry/infra'),
    import('@consentry/api'),
    import('prom-client'),
  ]);
  log = createLogger({ level: config.LOG_LEVEL, format: config.LOG_FORMAT }).child({ component: 'cluster' });

  // The primary prepares the database (the first admin too when api is served), then lets the workers
  // serve while it starts its own roles.
  let system: RunningSystem;
  try {
    system = await startSystem(config, {
      roles: background,
      metricsServer: false,
      bootstrap: { admin: http.includes('api') },
      onDatabaseReady: (connectionString) => {
        preparedDatabase = connectionString;
        for (const worker of waitingForDatabase) answer(worker, connectionString);
        waitingForDatabase.clear();
      },
    });
  } catch (error) {
    await stopWorkers();
    throw error;
  }

  try {
    await Promise.all(ready);
  } catch (error) {
    await stopWorkers();
    await system.stop();
    throw error;
  }

  // Prometheus: this process's metrics and every worker's, added up (prom-client's cluster rules).
  const registry = new Registry();
  let nextRequest = 0;
  registry.metrics = async () => {
    const id = nextRequest++;
    const fromWorkers = await Promise.all(
      Object.values(cluster.workers ?? {}).map((worker) =>
        worker && worker.isConnected()
          ? new Promise<MetricsJson>((resolve) => {
              const timer = setTimeout(() => finish([]), 2000);
              const listener = (message: WorkerMessage) => {
                if (message.type === 'consentry:metrics' && message.id === id) finish(message.metrics);
              };
              function finish(metrics: MetricsJson) {
                clearTimeout(timer);
                worker?.off('message', listener);
                resolve(metrics);
              }
              worker.on('message', listener);
              worker.send({ type: 'consentry:metrics-request', id } satisfies PrimaryMessage);
            })
          : Promise.resolve([]),
      ),
    );
    const own = await system.metricsRegistry.getMetricsAsJSON();
    return AggregatorRegistry.aggregate([own as MetricsJson, ...fromWorkers]).metrics();
  };
  const metricsServer = await buildMetricsServer({ registry, ...(config.METRICS_TOKEN ? { token: config.METRICS_TOKEN } : {}) });
  const metricsAddress = await metricsServer.listen({ port: config.METRICS_PORT, host: config.METRICS_HOST }).catch(async (error: unknown) => {
    await stopWorkers();
    await system.stop();
    throw error;
  });

  return {
    system,
    workers,
    metricsUrl: `${metricsAddress}/metrics`,
    async stop() {
      await stopWorkers();
      await metricsServer.close();
      await system.stop();
    },
  };
}

/**
 * An HTTP worker: waits for the primary to prepare the database, then serves its roles until the
 * primary tells it to stop (SIGTERM) or goes away.
 */
export async function runWorker(config: Config): Promise<number> {
  const roles = (process.env[workerRolesVariable] ?? '').split(',').filter((role): role is Role => httpRoles.includes(role as Role));
  // Loaded while the primary prepares the database.
  const loading = import('./system');
  loading.catch(() => undefined);
  const connectionString = await new Promise<string | undefined>((resolve) => {
    const listener = (message: PrimaryMessage) => {
      if (message.type !== 'consentry:database') return;
      process.off('message', listener);
      resolve(message.connectionString);
    };
    process.on('message', listener);
    // The primary failed or was killed before the database was ready.
    process.once('disconnect', () => resolve(undefined));
    process.send?.({ type: 'consentry:database-request' } satisfies WorkerMessage);
  });
  if (connectionString === undefined) return 0;
  const { startSystem } = await loading;
  const system = await startSystem({ ...config, DATABASE_URL: connectionString }, { roles, bootstrap: false, metricsServer: false, statusMetrics: false });
  process.on('message', (message: PrimaryMessage) => {
    if (message.type !== 'consentry:metrics-request') return;
    void system.metricsRegistry.getMetricsAsJSON().then((metrics) => process.send?.({ type: 'consentry:metrics', id: message.id, metrics } satisfies WorkerMessage));
  });
  process.send?.({ type: 'consentry:ready' } satisfies WorkerMessage);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
    // The primary died (kill -9): stop serving rather than live on as an orphan.
    process.once('disconnect', () => resolve());
  });
  await system.stop();
  // The IPC channel to the primary is the last thing keeping this process alive: closing it lets the
  // process end by itself (otherwise the primary kills it after 10 s, and Ctrl+C waits that long).
  cluster.worker?.disconnect();
  return 0;
}
