// `npm run bench:e2e` — issue 15's measurement of the whole product under load, against the naive
// one-INSERT Fastify server (ingest-server.ts, MODE=naive), in the same run with the same load:
//   - each server is a process of its own on a fresh database of the machine's PostgreSQL
//     (DATABASE_URL): `consentry start` as a user deploys it (ingest, api, relay, every async
//     projector, the sealer; the in-memory bus, or NATS JetStream when NATS_URL is set), and the
//     naive server;
//   - the load comes from this process (infra/src/bench/http-load.ts): keep-alive connections, one
//     request in flight on each, for --duration seconds after a warm-up; every request a new visitor
//     and event id in a body as today's widget sends it (Reject All, Accept All, a custom choice);
//   - CPU per consent is the server's process tree (every thread and child, /proc/<pid>/stat) plus
//     PostgreSQL's processes for that database and the cluster's shared ones (infra/src/bench/
//     postgres-cpu.ts says how they are found), read before and after. The product's work does not
//     end with the load: its CPU is counted until every projection and the sealer have caught up,
//     and the lag at the end of the load and the time to catch up are printed;
//   - afterwards, every acknowledged consent is in the log, and consent stats and records count
//     each exactly once.
// With --capture, a third system in each run: the product capturing consents into the log and
// nothing more (`consentry start --role ingest`: the HTTP workers and the group commit, no relay,
// projectors or sealer; NATS_URL, or the machine's NATS, only because a split start requires it). It
// is the floor under the whole product's figures: what the work downstream of the log adds is the
// difference.
// Profiling: `--cpu-prof DIR` writes a V8 CPU profile of each server process (HTTP workers
// included) at its exit; BENCH_NODE_ARGS adds Node options to
// both servers (e.g. `--prof --logfile=/tmp/v8-%p.log --no-logfile-per-isolate`, one tick log per
// process, workers included, for `node --prof-process`).
// Targets (issue 15, at 50 connections): ≥ 1.5× the naive server's throughput, ≤ 0.6× its CPU per
// consent, every projection caught up.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  formatNumber,
  ownCpuTicks,
  printVerdicts,
  readMachineCpu,
  readProcessTable,
  sleep,
  startPostgresCpuMeter,
  ticksToMicros,
  treeCpuTicks,
  type PostgresCpu,
  type ProcessTable,
  type Verdict,
} from './harness/harness';
import { createFreshUuidRequests, runHttpLoad, serialiseRequest, type HttpLoadResult } from './harness/http-load';
import { createTestDatabase, deleteNatsStream, freePort, natsUrl as testNatsUrl, testServerUrl, uniqueBusConfig, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, consentBodyFor, type TestWebsite } from '@consentry/ingest/testing';
import { httpWorkerCount } from '@consentry/server';
import { roles } from '@consentry/server';
import { countBehind, readerNames, readLogHead, waitUntilCaughtUp, type LogKey } from './e2e-catch-up';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '10,50' },
    warmup: { type: 'string', default: '3' },
    'catch-up-timeout': { type: 'string', default: '300' },
    capture: { type: 'boolean', default: false },
    // Writes a V8 CPU profile of every server process (.cpuprofile, for Chrome DevTools) to this folder.
    'cpu-prof': { type: 'string' },
  },
});
const durationMs = Number(args.duration) * 1000;
const warmupMs = Number(args.warmup) * 1000;
const catchUpTimeoutMs = Number(args['catch-up-timeout']) * 1000;
const connectionCounts = args.connections.split(',').map(Number);
if (!(durationMs > 0) || !(warmupMs >= 0) || connectionCounts.some((count) => !Number.isInteger(count) || count < 1)) {
  process.stderr.write('usage: e2e.bench.ts [--duration SECONDS] [--connections 10,50] [--warmup SECONDS] [--catch-up-timeout SECONDS] [--capture] [--cpu-prof DIR]\n');
  process.exit(2);
}
const natsUrl = process.env.NATS_URL;
const targetConnections = connectionCounts.includes(50) ? 50 : Math.max(...connectionCounts);

type SystemKind = 'naive' | 'product' | 'capture';
const systemLabels: Record<SystemKind, string> = { naive: 'naive one-INSERT server', product: 'consentry start', capture: 'capture only' };
const systemKinds: readonly SystemKind[] = args.capture ? ['naive', 'product', 'capture'] : ['naive', 'product'];

// ---------------------------------------------------------------------------------------------
// The servers, each a process of its own, its output in a log file (as under systemd), ready once
// it has said so there.

interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  readonly logFile: string;
  stop(): Promise<void>;
}

const cliScript = fileURLToPath(new URL('../../services/server/src/cli.ts', import.meta.url));
const naiveScript = fileURLToPath(new URL('./ingest-server.ts', import.meta.url));

const startArguments: Record<SystemKind, string[]> = { naive: [], product: ['start'], capture: ['start', '--role', 'ingest'] };

async function startServerProcess(kind: SystemKind, db: TestDatabase, website: TestWebsite, workDir: string, bus: { stream: string; subjectPrefix: string } | null) {
  const port = await freePort();
  const logFile = path.join(workDir, `${kind}.log`);
  const env: Record<string, string> =
    kind === 'naive'
      ? { DATABASE_URL: db.connectionString, PORT: String(port), MODE: 'naive', WEBSITE_ID: website.id }
      : {
          DATABASE_URL: db.connectionString,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: workDir,
          ADMIN_USERNAME: 'bench',
          ADMIN_PASSWORD: 'bench admin password',
          // As behind a reverse proxy on the same machine: the visitor's address from X-Forwarded-For,
          // which the naive server trusts from 127.0.0.1 too.
          TRUSTED_PROXIES: '127.0.0.1',
          // 256 visitor addresses send thousands of consents a second: the limit must not refuse them.
          INGEST_RATE_LIMIT_PER_MINUTE: '10000000',
          METRICS_PORT: '0',
          // A split start needs NATS; capture alone never publishes to it.
          NATS_URL: natsUrl ?? (kind === 'capture' ? testNatsUrl : ''),
          ...(bus ? { NATS_STREAM: bus.stream, NATS_SUBJECT_PREFIX: bus.subjectPrefix } : {}),
        };
  const output = openSync(logFile, 'w');
  const profile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'], kind)}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', kind === 'naive' ? naiveScript : cliScript, ...startArguments[kind]], {
    env: { ...process.env, ...env },
    stdio: ['ignore', output, output],
  });
  closeSync(output);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const ready = kind === 'naive' ? 'READY' : 'Consentry is running at';
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  const deadline = Date.now() + 120_000;
  while (!readFileSync(logFile, 'utf8').includes(ready)) {
    if (hasExited || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${systemLabels[kind]} did not start; the end of ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-3000)}`);
    }
    await sleep(100);
  }
  return {
    pid: child.pid!,
    port,
    logFile,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  } satisfies ServerProcess;
}

// ---------------------------------------------------------------------------------------------
// The load: consents as today's widget sends them, a new visitor and event id in each.

const offered = ['preferences', 'analytics', 'marketing'];
const none = { preferences: false, analytics: false, marketing: false, identification: false };
/** Reject All, Accept All and a custom choice in turn, as bench:ingest sends them. */
const widgetChoices = [
  { offered, purposes: none, method: 'reject_all' },
  { offered, purposes: { ...none, preferences: true, analytics: true, marketing: true }, method: 'accept_all' },
  { offered, purposes: { ...none, analytics: true }, method: 'custom' },
];
const visitorAddresses = Array.from({ length: 256 }, (_, index) => `81.2.${index}.${(index * 7) % 250}`);

/** Request number `index`: each choice from each of 256 addresses in turn (768 templates). */
function consentRequests(port: number, website: TestWebsite): (index: number) => Buffer {
  const templates = Array.from({ length: widgetChoices.length * visitorAddresses.length }, (_, index) => {
    const body = consentBodyFor(website, { choice: undefined, shownLanguage: 'en', textsHash: 'c'.repeat(64), ...widgetChoices[index % widgetChoices.length] });
    const request = serialiseRequest({
      method: 'POST',
      host: `127.0.0.1:${port}`,
      path: '/api/collect/consent',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        origin: `https://www.${website.domain}`,
        'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
        'x-forwarded-for': visitorAddresses[index % visitorAddresses.length]!,
      },
      body: JSON.stringify(body),
    });
    return createFreshUuidRequests(request, [body.eventId, body.visitorId]);
  });
  return (index) => templates[index % templates.length]!();
}

// ---------------------------------------------------------------------------------------------
// One run: one system at one connection count, on its own database.

interface CpuWindow {
  /** The server's process tree (and nats-server when the product uses it), µs. */
  readonly serverMicros: number;
  readonly postgres: PostgresCpu;
}

interface RunResult {
  readonly kind: SystemKind;
  readonly connections: number;
  readonly load: HttpLoadResult;
  readonly loadGeneratorMicrosPerRequest: number;
  /** The share of the machine's CPU that processes other than these (other tests, …) used during the load. */
  readonly othersShare: number;
  /** CPU during the load. */
  readonly duringLoad: CpuWindow;
  /** CPU from the start of the load until every reader caught up (the product); = duringLoad for the naive server. */
  readonly total: CpuWindow;
  readonly catchUp: { readonly behindAtLoadEnd: ReadonlyMap<string, number>; readonly reachedAtMs: ReadonlyMap<string, number> | null; readonly failure: string | null } | null;
  /** 2xx answers, warm-up included. */
  readonly acknowledged: number;
  readonly consentsInLog: number;
  readonly statsTotal: number | null;
  readonly consentRecords: number | null;
  /** The product's own diagnostics for the load: where its server CPU went and how it batched. */
  readonly productDetail: ProductDetail | null;
}

interface ProductDetail {
  /** µs during the load: the primary process itself, and its HTTP workers (and nats-server). */
  readonly primaryMicros: number;
  readonly workersMicros: number;
  /** Group-commit batches written during the load and their events, from /metrics (null without it). */
  readonly batches: { readonly count: number; readonly events: number; readonly commitSeconds: number } | null;
}

/** The group-commit histograms' sums and counts on the product's /metrics (its URL from the log). */
async function readBatchMetrics(logFile: string): Promise<{ count: number; events: number; commitSeconds: number } | null> {
  const url = /metrics: (http:\/\/\S+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
  if (!url) return null;
  const text = await (await fetch(url)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { count: value('consentry_ingest_batch_size_count'), events: value('consentry_ingest_batch_size_sum'), commitSeconds: value('consentry_ingest_batch_commit_seconds_sum') };
}

const consentTypes = ['ConsentGiven', 'ConsentDeclined'];

/** nats-server's CPU, when the product's bus is a NATS server on this machine (0 otherwise), in ticks. */
function natsServerTicks(table: ProcessTable): number {
  if (!natsUrl) return 0;
  let ticks = 0;
  for (const stat of table.values()) if (stat.comm === 'nats-server') ticks += stat.utime + stat.stime;
  return ticks;
}

async function count(db: TestDatabase, sql: string, values: unknown[] = []): Promise<number> {
  const { rows } = await db.pool.query<{ n: number | null }>(sql, values);
  return Number(rows[0]?.n ?? 0);
}

async function measure(kind: SystemKind, connections: number): Promise<RunResult> {
  const db = await createTestDatabase(`e2e_${kind}_${connections}`, { poolSize: 2 });
  const workDir = mkdtempSync(path.join(tmpdir(), `consentry-bench-e2e-${kind}-`));
  // Its own stream and subjects on a shared NATS server (capture never publishes to it).
  const bus = kind === 'product' && natsUrl ? uniqueBusConfig('e2e') : kind === 'capture' ? uniqueBusConfig('e2e_capture') : null;
  let server: ServerProcess | undefined;
  try {
    const website = await addTestWebsite(db.pool);
    server = await startServerProcess(kind, db, website, workDir, bus);
    const requests = consentRequests(server.port, website);
    const load = (ms: number) => runHttpLoad({ host: '127.0.0.1', port: server!.port, connections, requests, durationMs: ms });

    const warmup = warmupMs > 0 ? await load(warmupMs) : null;
    if (kind === 'product') await waitUntilCaughtUp(db.pool, { transactionId: 0, position: 0 }, { timeoutMs: catchUpTimeoutMs });
    const since: LogKey = await readLogHead(db.pool);

    // The bench's own connections to this database are not the system's.
    const { rows } = await db.pool.query<{ name: string }>(`SELECT current_setting('application_name') AS name`);
    const postgresMeter = await startPostgresCpuMeter({ serverUrl: testServerUrl, database: db.name, excludeApplicationNames: [rows[0]!.name] });
    const serverTicks = () => {
      const table = readProcessTable();
      return treeCpuTicks(server!.pid, table) + (kind !== 'naive' ? natsServerTicks(table) : 0);
    };
    const primaryTicks = () => {
      const primary = readProcessTable([server!.pid]).get(server!.pid);
      return primary ? ownCpuTicks(primary) : 0;
    };
    try {
      const batchesStart = kind !== 'naive' ? await readBatchMetrics(server.logFile) : null;
      const primaryStart = primaryTicks();
      const serverStart = serverTicks();
      const machineStart = readMachineCpu();
      const clientStart = process.cpuUsage();
      const result = await load(durationMs);
      const client = process.cpuUsage(clientStart);
      const machineEnd = readMachineCpu();
      const duringLoad = { serverMicros: ticksToMicros(serverTicks() - serverStart), postgres: await postgresMeter.read() };
      const primaryMicros = ticksToMicros(primaryTicks() - primaryStart);
      const batchesEnd = kind !== 'naive' ? await readBatchMetrics(server.logFile) : null;
      const productDetail: ProductDetail | null =
        kind !== 'naive'
          ? {
              primaryMicros,
              workersMicros: duringLoad.serverMicros - primaryMicros,
              batches:
                batchesStart && batchesEnd
                  ? { count: batchesEnd.count - batchesStart.count, events: batchesEnd.events - batchesStart.events, commitSeconds: batchesEnd.commitSeconds - batchesStart.commitSeconds }
                  : null,
            }
          : null;
      const machineMicros = ticksToMicros(machineEnd.busyTicks - machineStart.busyTicks);
      const ours = totalMicros(duringLoad) + client.user + client.system;
      const othersShare = Math.max(0, machineMicros - ours) / ticksToMicros(machineEnd.totalTicks - machineStart.totalTicks);

      let total = duringLoad;
      let catchUp: RunResult['catchUp'] = null;
      if (kind === 'product') {
        const behindAtLoadEnd = await countBehind(db.pool, since);
        let reachedAtMs: ReadonlyMap<string, number> | null = null;
        let failure: string | null = null;
        try {
          reachedAtMs = await waitUntilCaughtUp(db.pool, since, { timeoutMs: catchUpTimeoutMs });
        } catch (error) {
          failure = error instanceof Error ? error.message : String(error);
        }
        total = { serverMicros: ticksToMicros(serverTicks() - serverStart), postgres: await postgresMeter.read() };
        catchUp = { behindAtLoadEnd, reachedAtMs, failure };
      }

      return {
        kind,
        connections,
        load: result,
        loadGeneratorMicrosPerRequest: (client.user + client.system) / (result.ok + result.non2xx + result.errors),
        othersShare,
        duringLoad,
        total,
        catchUp,
        acknowledged: (warmup?.ok ?? 0) + result.ok,
        consentsInLog: await count(db, 'SELECT count(*)::int8 AS n FROM events WHERE type = ANY($1::text[])', [consentTypes]),
        statsTotal: kind === 'product' ? await count(db, 'SELECT sum(accepted + declined)::int8 AS n FROM consent_stats_daily') : null,
        consentRecords: kind === 'product' ? await count(db, 'SELECT count(*)::int8 AS n FROM consent_records') : null,
        productDetail,
      };
    } finally {
      await postgresMeter.close();
    }
  } catch (error) {
    if (server) process.stderr.write(`the end of ${server.logFile}:\n${readFileSync(server.logFile, 'utf8').slice(-3000)}\n`);
    throw error;
  } finally {
    await server?.stop();
    await db.drop();
    if (bus) await deleteNatsStream(bus.stream, natsUrl ?? testNatsUrl);
    rmSync(workDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The report.

const perConsent = (micros: number, run: RunResult) => micros / run.load.ok;
const postgresMicros = (window: CpuWindow) => window.postgres.databaseMicros + window.postgres.sharedMicros;
const totalMicros = (window: CpuWindow) => window.serverMicros + postgresMicros(window);
const micros = (value: number) => formatNumber(value, 1);

/** One line of the table: a label, then right-aligned cells. */
const columns = [26, 11, 8, 8, 9, 8, 10, 11, 10, 15];
const tableRow = (label: string, ...cells: string[]) =>
  `  ${label.padEnd(columns[0]!)}${cells.map((cell, index) => cell.padStart(columns[index + 1]!)).join('')}`.trimEnd() + '\n';

function printRun(run: RunResult) {
  const { load } = run;
  process.stdout.write(
    tableRow(
      systemLabels[run.kind],
      formatNumber(load.perSecond),
      load.p50.toFixed(1),
      load.p99.toFixed(1),
      String(load.non2xx),
      String(load.errors),
      micros(perConsent(run.total.serverMicros, run)),
      micros(perConsent(postgresMicros(run.total), run)),
      micros(perConsent(totalMicros(run.total), run)),
      run.kind === 'product' ? micros(perConsent(totalMicros(run.duringLoad), run)) : '',
    ),
  );
}

function printDetails(run: RunResult) {
  const { postgres } = run.total;
  const label = `${systemLabels[run.kind]}, ${run.connections} connections`;
  process.stdout.write(
    `  ${label}: ${formatNumber(run.load.ok)} consents in ${run.load.durationSeconds.toFixed(1)} s; ` +
      `PostgreSQL ${micros(perConsent(postgres.databaseMicros, run))} µs/consent in its database's backends + ${micros(perConsent(postgres.sharedMicros, run))} shared ` +
      `(whole cluster: ${micros(perConsent(postgres.clusterMicros, run))}); this process (load generator, meters) ${micros(run.loadGeneratorMicrosPerRequest)} µs/request; ` +
      `other processes used ${(run.othersShare * 100).toFixed(0)}% of the machine's CPU during the load\n`,
  );
  if (run.productDetail) {
    const { primaryMicros, workersMicros, batches } = run.productDetail;
    process.stdout.write(
      `    server CPU during the load: HTTP workers${natsUrl ? ' and nats-server' : ''} ${micros(perConsent(workersMicros, run))} µs/consent, the primary${run.kind === 'product' ? ' (relay, projectors, sealer)' : ''} ${micros(perConsent(primaryMicros, run))}` +
        (batches && batches.count > 0
          ? `; group commit: ${formatNumber(batches.count)} batches of ${(batches.events / batches.count).toFixed(1)} events on average, ${((batches.commitSeconds / batches.count) * 1000).toFixed(1)} ms each`
          : '') +
        '\n',
    );
  }
  if (run.catchUp) {
    const { behindAtLoadEnd, reachedAtMs, failure } = run.catchUp;
    const behind = readerNames.map((name) => `${name} ${formatNumber(behindAtLoadEnd.get(name) ?? 0)}`).join(', ');
    process.stdout.write(`    events behind when the load ended: ${behind}\n`);
    if (reachedAtMs) {
      const projections = readerNames.filter((name) => name !== 'sealer' && name !== 'relay');
      const slowest = Math.max(...projections.map((name) => reachedAtMs.get(name) ?? 0));
      process.stdout.write(
        `    caught up after the load: relay ${((reachedAtMs.get('relay') ?? 0) / 1000).toFixed(1)} s, every projection ${(slowest / 1000).toFixed(1)} s, ` +
          `sealer ${((reachedAtMs.get('sealer') ?? 0) / 1000).toFixed(1)} s (it seals every SEAL_INTERVAL_SECONDS, 5 s)\n`,
      );
    } else process.stdout.write(`    NOT caught up: ${failure}\n`);
  }
  process.stdout.write(
    `    acknowledged ${formatNumber(run.acknowledged)} (warm-up included), consents in the log ${formatNumber(run.consentsInLog)}` +
      (run.statsTotal === null ? '' : `, consent stats total ${formatNumber(run.statsTotal)}, consent records ${formatNumber(run.consentRecords ?? 0)}`) +
      '\n',
  );
}

const bus = natsUrl ? 'NATS JetStream at NATS_URL' : 'the in-memory bus';
process.stdout.write(
  `\nbench:e2e — the whole product (consentry start: ingest and api in HTTP_WORKERS=${process.env.HTTP_WORKERS || 'auto'} worker processes (auto: one per core but the primary's, ${httpWorkerCount({ HTTP_WORKERS: 'auto' }, roles)} here), ` +
    `relay, ${readerNames.length - 2} projectors and the sealer in the primary; ${bus}) ` +
    `vs the naive one-INSERT Fastify server, each its own process and fresh database on ${new URL(testServerUrl).host}.\n` +
    (args.capture ? 'And capture only: consentry start --role ingest, the same HTTP workers writing the log with nothing downstream of it (no relay, projectors or sealer).\n' : '') +
    `Each run: ${warmupMs / 1000} s warm-up, then ${durationMs / 1000} s of load from this process (http-load.ts), a new visitor and event id per request.\n` +
    `CPU per consent = server process tree (/proc, all threads and children${natsUrl ? ', plus nats-server' : ''}) + PostgreSQL ` +
    `(this database's backends + the cluster's shared processes); the product's until every projection and the sealer caught up.\n`,
);

const runs: RunResult[] = [];
for (const connections of connectionCounts) {
  for (const kind of systemKinds) {
    process.stdout.write(`  … ${systemLabels[kind]}, ${connections} connections\n`);
    runs.push(await measure(kind, connections));
  }
}

process.stdout.write(`\n${''.padEnd(columns[0]! + 2 + columns[1]! + columns[2]! + columns[3]! + columns[4]! + columns[5]!)}   CPU µs per consent\n`);
process.stdout.write(tableRow('', 'consents/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'server', 'PostgreSQL', 'total', 'during load'));
const ratios = new Map<number, { throughput: number; cpu: number }>();
for (const connections of connectionCounts) {
  const naive = runs.find((run) => run.kind === 'naive' && run.connections === connections)!;
  const product = runs.find((run) => run.kind === 'product' && run.connections === connections)!;
  process.stdout.write(`${connections} connections\n`);
  printRun(naive);
  printRun(product);
  const throughput = product.load.perSecond / naive.load.perSecond;
  const cpu = perConsent(totalMicros(product.total), product) / perConsent(totalMicros(naive.total), naive);
  ratios.set(connections, { throughput, cpu });
  process.stdout.write(tableRow('product / naive', `${throughput.toFixed(2)}×`, '', '', '', '', '', '', `${cpu.toFixed(2)}×`));
  const capture = runs.find((run) => run.kind === 'capture' && run.connections === connections);
  if (capture) {
    printRun(capture);
    const captureCpu = perConsent(totalMicros(capture.total), capture) / perConsent(totalMicros(naive.total), naive);
    process.stdout.write(tableRow('capture / naive', `${(capture.load.perSecond / naive.load.perSecond).toFixed(2)}×`, '', '', '', '', '', '', `${captureCpu.toFixed(2)}×`));
  }
}
process.stdout.write('\n');
for (const run of runs) printDetails(run);

const target = ratios.get(targetConnections)!;
const products = runs.filter((run) => run.kind === 'product');
const verdicts: Verdict[] = [
  { name: `throughput, product / naive, ${targetConnections} connections`, value: `${target.throughput.toFixed(2)}×`, target: '≥ 1.5×', pass: target.throughput >= 1.5 },
  { name: `CPU per consent (server + PostgreSQL), product / naive, ${targetConnections} connections`, value: `${target.cpu.toFixed(2)}×`, target: '≤ 0.6×', pass: target.cpu <= 0.6 },
  {
    name: 'every projection and the sealer caught up after the load',
    value: products.map((run) => (run.catchUp?.reachedAtMs ? 'yes' : 'no')).join(', '),
    target: 'yes in every run',
    pass: products.every((run) => run.catchUp?.reachedAtMs),
  },
  {
    // A request whose connection failed may have been stored without its answer arriving.
    name: 'every acknowledged consent in the log',
    value: runs.map((run) => `${formatNumber(run.consentsInLog)} of ${formatNumber(run.acknowledged)}`).join(', '),
    target: 'all, and no more than were sent',
    pass: runs.every((run) => run.consentsInLog >= run.acknowledged && run.consentsInLog <= run.acknowledged + run.load.errors),
  },
  {
    name: 'consent stats and records count each consent once',
    value: products.map((run) => `${formatNumber(run.statsTotal ?? 0)} / ${formatNumber(run.consentRecords ?? 0)} for ${formatNumber(run.consentsInLog)}`).join(', '),
    target: 'equal to the log',
    pass: products.every((run) => run.statsTotal === run.consentsInLog && run.consentRecords === run.consentsInLog),
  },
];
process.exitCode = printVerdicts('bench:e2e', verdicts) ? 0 : 1;
