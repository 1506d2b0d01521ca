// Issue 15's proof of the deployment shape (docs/deploy.md) on one machine: a 3-node NATS JetStream
// cluster (stream replicas 3) and the product as separate `consentry start --role …` processes —
// 2 ingest, 2 api, 2 projector processes (projectors, relay and jobs; PROJECTOR_PARTITIONS=4) —
// against one PostgreSQL, under steady consent load for several websites. It kills -9, in turn,
// the NATS node leading the stream, an ingest, a projector (the one holding the relay) and the api
// process the dashboard's live-update stream is connected to, restarting each. Afterwards: every
// acknowledged consent is in the log once, every read model equals a replay of the log, nothing
// is counted twice, the seals verify against the log, and the live-update stream kept receiving "projection advanced" notices
// through every phase (reconnecting, as a browser's EventSource does, when its process died).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { readSystemStatus, sessionCookieName } from '@consentry/api';
import { loadOrCreateSealSigner, verifyLedger } from '@consentry/infra';
import { asyncProjections, partitionsOf, replayProjection } from '@consentry/projections';
import { createTestDatabase, freePort, startNatsCluster, uniqueBusConfig, waitFor, type NatsCluster, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, consentBodyFor, type TestWebsite } from '@consentry/ingest/testing';
import { consentryBin } from './cli-harness';

const publicUrl = 'http://consentry.scale-out.test';
const admin = { username: 'scaleadmin', password: 'scale-out admin password' };
// Two partitions of each split projection: 12 partition locks for 2 processes to share. Every
// durable consumer is a replicated group of its own in JetStream; more would only load the machine.
const partitions = 2;

let workDir: string;
let failed = false;
let db: TestDatabase;
let nats: NatsCluster;
let bus: { stream: string; subjectPrefix: string };
const websites: TestWebsite[] = [];
const processes: ProductProcess[] = [];

// ---------------------------------------------------------------------------------------------
// The product's processes, each `consentry start --role …`, its output in a log file.

interface ProductProcess {
  readonly name: string;
  readonly port: number | undefined;
  readonly pid: number | undefined;
  start(): Promise<void>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
  logTail(): string;
}

async function productProcess(name: string, roles: string): Promise<ProductProcess> {
  const serves = roles.includes('ingest') || roles.includes('api');
  const port = serves ? await freePort() : undefined;
  const logFile = path.join(workDir, `${name}.log`);
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const env = {
    ...process.env,
    DATABASE_URL: db.connectionString,
    NATS_URL: nats.urls.join(','),
    NATS_STREAM: bus.stream,
    NATS_SUBJECT_PREFIX: bus.subjectPrefix,
    NATS_STREAM_REPLICAS: '3',
    PROJECTOR_PARTITIONS: String(partitions),
    HTTP_WORKERS: '0',
    ...(port === undefined ? {} : { PORT: String(port) }),
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    DATA_DIR: workDir,
    SESSION_SECRET: 'a session secret every api process shares, 48 chars',
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    TRUSTED_PROXIES: '127.0.0.1',
    INGEST_RATE_LIMIT_PER_MINUTE: '10000000',
    METRICS_PORT: '0',
    SCANNER: 'off',
    SEAL_INTERVAL_SECONDS: '2',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
  };
  const handle: ProductProcess = {
    name,
    port,
    get pid() {
      return child?.pid;
    },
    async start() {
      const before = safeRead(logFile).length;
      const output = openSync(logFile, 'a');
      const started = spawn(process.execPath, [consentryBin, 'start', '--role', roles], { env, stdio: ['ignore', output, output] });
      closeSync(output);
      child = started;
      let gone = false;
      exited = new Promise((resolve) => started.once('exit', () => resolve()));
      void exited.then(() => (gone = true));
      const deadline = Date.now() + 120_000;
      while (!safeRead(logFile).slice(before).includes('Consentry is running')) {
        if (gone) throw new Error(`${name} exited while starting:\n${handle.logTail()}`);
        if (Date.now() > deadline) throw new Error(`${name} did not start within 120 s:\n${handle.logTail()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (port !== undefined) {
        await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.ok === true, { timeoutMs: 30_000, message: `${name} to be ready` });
      }
    },
    async kill9() {
      child?.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
    logTail: () => safeRead(logFile).slice(-4000),
  };
  processes.push(handle);
  return handle;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------
// Steady load: a few senders, each a new visitor per request, spread over the websites and over
// whichever ingest processes are up. Only 2xx answers count as acknowledged.

interface Load {
  readonly acknowledged: Set<string>;
  failures(): number;
  stop(): Promise<void>;
}

function startLoad(ingestPorts: () => readonly number[], senders = 4): Load {
  const acknowledged = new Set<string>();
  let failures = 0;
  let stopping = false;
  let next = 0;
  const choices = [
    { choice: undefined, method: 'accept_all', offered: ['analytics', 'marketing'], purposes: { analytics: true, marketing: true, preferences: false, identification: false } },
    { choice: undefined, method: 'reject_all', offered: ['analytics', 'marketing'], purposes: { analytics: false, marketing: false, preferences: false, identification: false } },
    { choice: undefined, method: 'custom', offered: ['analytics', 'marketing'], purposes: { analytics: true, marketing: false, preferences: false, identification: false } },
  ];
  const send = async () => {
    while (!stopping) {
      const n = next++;
      const ports = ingestPorts();
      const website = websites[n % websites.length]!;
      const body = consentBodyFor(website, { shownLanguage: 'en', textsHash: 'd'.repeat(64), ...choices[n % choices.length] });
      const port = ports[n % ports.length]!;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/collect/consent`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain;charset=UTF-8', origin: `https://www.${website.domain}`, 'x-forwarded-for': `81.2.${n % 250}.${(n * 7) % 250}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        if (response.ok) acknowledged.add(body.eventId);
        else failures++;
        await response.arrayBuffer();
      } catch {
        failures++;
      }
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  };
  const running = Promise.all(Array.from({ length: senders }, send));
  return {
    acknowledged,
    failures: () => failures,
    async stop() {
      stopping = true;
      await running;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A dashboard's live-update stream (GET /api/events, what the web app keeps open), reconnecting to
// the next api process when its connection ends, as EventSource behind a load balancer does.

interface LiveStream {
  /** Times (ms) at which a "projection advanced" message arrived. */
  readonly notices: number[];
  readonly reconnects: number;
  close(): void;
}

function openLiveStream(apiPorts: () => readonly number[], cookie: string): LiveStream {
  const notices: number[] = [];
  let reconnects = 0;
  let closed = false;
  const controller = new AbortController();
  const run = async () => {
    let attempt = 0;
    while (!closed) {
      const ports = apiPorts();
      const port = ports[attempt++ % ports.length]!;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal });
        if (response.ok && response.body) {
          const decoder = new TextDecoder();
          let buffer = '';
          const reader = response.body.getReader();
          for (let read = await reader.read(); !read.done; read = await reader.read()) {
            buffer += decoder.decode(read.value, { stream: true });
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const message = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (message.startsWith('data: ') && message.includes('projection-advanced')) notices.push(Date.now());
            }
          }
        }
      } catch {
        // The process went away mid-stream, or refused: try the next one.
      }
      if (closed) return;
      reconnects++;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  void run();
  return {
    notices,
    get reconnects() {
      return reconnects;
    },
    close() {
      closed = true;
      controller.abort();
    },
  };
}

// ---------------------------------------------------------------------------------------------

/** Every row of a projection's tables, in a stable order: what "equal to a replay" compares. */
async function readModelSnapshot(tables: readonly string[]): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = await db.pool.query<{ rows: string }>(`SELECT coalesce(json_agg(t ORDER BY t::text), '[]')::text AS rows FROM ${table} t`);
    snapshot[table] = rows[0]!.rows;
  }
  return snapshot;
}

/** Whether both projector processes lead some partitions now (from the processes table). */
async function projectorsLeading(): Promise<boolean> {
  const { rows } = await db.pool.query<{ partitions: number }>(
    `SELECT count(*) FILTER (WHERE lock LIKE 'projection:%/p%')::int AS partitions
       FROM processes LEFT JOIN LATERAL unnest(leaderships) AS lock ON true
      WHERE 'projectors' = ANY(roles) AND seen_at > now() - interval '15 seconds'
      GROUP BY id`,
  );
  return rows.length === 2 && rows.every((row) => row.partitions > 0);
}

async function consentEventsInLog(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined')`);
  return rows[0]!.n;
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'consentry-scale-out-'));
  [db, nats] = await Promise.all([createTestDatabase('scale_out', { poolSize: 6 }), startNatsCluster({ nodes: 3, label: 'scale-out', readyTimeoutMs: 120_000 })]);
  bus = uniqueBusConfig('scaleout');
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((child) => child.stop().catch(() => undefined)));
  await nats?.stop();
  await db?.drop();
  // A failed run keeps the processes' logs for a look afterwards.
  if (failed) process.stderr.write(`\nThe processes' logs are kept in ${workDir}\n`);
  else rmSync(workDir, { recursive: true, force: true });
}, 120_000);

describe('the product as 2 ingest, 2 api and 2 projector processes on a 3-node NATS cluster', () => {
  it('loses no acknowledged consent, counts none twice, and keeps the dashboard live while a NATS node, an ingest, a projector and an api process are killed -9 in turn', async () => {
    onTestFailed(() => {
      failed = true;
      // What went wrong is usually in the warnings (CI keeps no files): print every process's.
      for (const child of processes) {
        const warnings = safeRead(path.join(workDir, `${child.name}.log`))
          .split('\n')
          .filter((line) => /"level":(40|50|60)/.test(line));
        process.stderr.write(`\n--- ${child.name}: ${warnings.length} warnings and errors ---\n${warnings.slice(-60).join('\n')}\n`);
      }
    });
    // The first projector process prepares the database; the websites exist before the load.
    const projector1 = await productProcess('projector-1', 'projectors,relay,jobs');
    await projector1.start();
    for (let i = 0; i < 8; i++) websites.push(await addTestWebsite(db.pool, { domain: `site${i}.scale-out.test` }));
    const projector2 = await productProcess('projector-2', 'projectors,relay,jobs');
    const api1 = await productProcess('api-1', 'api');
    const api2 = await productProcess('api-2', 'api');
    const ingest1 = await productProcess('ingest-1', 'ingest');
    const ingest2 = await productProcess('ingest-2', 'ingest');
    await api1.start(); // creates the first admin; the second api process finds it
    await Promise.all([projector2.start(), api2.start(), ingest1.start(), ingest2.start()]);
    const placement = await nats.waitForStreamReplicas(bus.stream, 60_000);
    expect(placement.replicaCount).toBe(3);

    const signIn = await fetch(`http://127.0.0.1:${api1.port}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: publicUrl },
      body: JSON.stringify(admin),
    });
    expect(signIn.status).toBe(200);
    const session = signIn.headers.getSetCookie().find((cookie) => cookie.startsWith(`${sessionCookieName}=`))!.split(';')[0]!;

    const liveApis = new Set([api1, api2]);
    const liveIngests = new Set([ingest1, ingest2]);
    const live = openLiveStream(() => [...liveApis].map((api) => api.port!), session);
    const load = startLoad(() => [...liveIngests].map((ingest) => ingest.port!));
    const phases: Array<{ name: string; from: number; to: number }> = [];
    const underLoad = async (name: string, fault: () => Promise<void>) => {
      const from = Date.now();
      const acknowledgedBefore = load.acknowledged.size;
      await fault();
      // Load goes on after the restart, and reaches the read models and the dashboard again.
      await waitFor(async () => load.acknowledged.size > acknowledgedBefore + 100, { timeoutMs: 60_000, message: `consents to be acknowledged after: ${name}` });
      await waitFor(async () => live.notices.some((at) => at > from), { timeoutMs: 60_000, message: `a live notice after: ${name}` });
      phases.push({ name, from, to: Date.now() });
    };

    try {
      // The two projector processes share the partitions: each leads some (balancer.ts).
      await underLoad('steady', async () => {
        await waitFor(() => projectorsLeading(), { timeoutMs: 60_000, message: 'both projector processes to lead partitions' });
      });

      await underLoad('kill -9 the NATS node leading the stream', async () => {
        const leader = (await nats.streamPlacement(bus.stream)).leader ?? 0;
        await nats.kill(leader, 'SIGKILL');
        await new Promise((resolve) => setTimeout(resolve, 4000));
        // Back and serving; the many consumers' replicas on it catch up meanwhile (slow on a busy machine).
        await nats.restart(leader, { until: 'leader-known' });
        await nats.waitForStreamReplicas(bus.stream, 120_000);
      });

      await underLoad('kill -9 an ingest process', async () => {
        liveIngests.delete(ingest1);
        await ingest1.kill9();
        await new Promise((resolve) => setTimeout(resolve, 3000));
        await ingest1.start();
        liveIngests.add(ingest1);
      });

      await underLoad('kill -9 the projector process that started first (the relay, partitions, the sealer)', async () => {
        await projector1.kill9();
        await new Promise((resolve) => setTimeout(resolve, 4000));
        await projector1.start();
        // It gets its share back from the process that took everything over.
        await waitFor(() => projectorsLeading(), { timeoutMs: 60_000, message: 'the restarted projector process to lead partitions again' });
      });

      await underLoad('kill -9 the api process serving the live-update stream', async () => {
        const reconnectsBefore = live.reconnects;
        liveApis.delete(api1);
        await api1.kill9();
        await waitFor(async () => live.reconnects > reconnectsBefore, { timeoutMs: 20_000, message: 'the live-update stream to reconnect' });
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await api1.start();
        liveApis.add(api1);
      });
    } catch (error) {
      for (const child of processes) process.stderr.write(`\n--- ${child.name} ---\n${child.logTail()}\n`);
      for (const node of nats.nodes) process.stderr.write(`\n--- NATS node ${node.index} ---\n${safeRead(node.logFile).slice(-3000)}\n`);
      throw error;
    } finally {
      await load.stop();
      live.close();
    }

    // Every acknowledged consent is in the log, once.
    const acknowledged = [...load.acknowledged];
    expect(acknowledged.length).toBeGreaterThan(500);
    const { rows: found } = await db.pool.query<{ n: number; distinct: number }>(
      'SELECT count(*)::int8 AS n, count(DISTINCT event_id)::int8 AS distinct FROM events WHERE event_id = ANY($1::uuid[])',
      [acknowledged],
    );
    expect(found[0]).toEqual({ n: acknowledged.length, distinct: acknowledged.length });

    // The projections catch up with the log: consent stats and records count each consent once.
    const inLog = await consentEventsInLog();
    await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ stats: number; records: number }>(
          `SELECT (SELECT coalesce(sum(accepted + declined), 0) FROM consent_stats_daily)::int8 AS stats, (SELECT count(*) FROM consent_records)::int8 AS records`,
        );
        return rows[0]!.stats === inLog && rows[0]!.records === inLog;
      },
      { timeoutMs: 120_000, message: `consent stats and records to reach ${inLog}` },
    );
    // And every other projection and partition has applied everything of its own (consentry status's figures).
    await waitFor(
      async () => {
        const status = await readSystemStatus(db.pool);
        return status.projections.every((projection) => projection.checkpoints.every((checkpoint) => checkpoint.exists && checkpoint.lag.exact && checkpoint.lag.events === 0));
      },
      { timeoutMs: 120_000, intervalMs: 500, message: 'every projection partition to catch up' },
    );
    // Each partition of each split projection has its checkpoint, and its leader among the survivors.
    const { rows: checkpoints } = await db.pool.query<{ name: string }>(`SELECT name FROM checkpoints WHERE name LIKE 'projection:consent-stats%' ORDER BY name`);
    expect(checkpoints.map((row) => row.name)).toEqual(partitionsOf(asyncProjections.find((p) => p.name === 'consent-stats')!, partitions).map((p) => `projection:consent-stats/p${p.index}of${partitions}`));

    // Every read model equals a replay of the log: stop the product, snapshot, replay, compare.
    await Promise.all(processes.map((child) => child.stop()));
    for (const projection of asyncProjections) {
      const live = await readModelSnapshot(projection.tables);
      await replayProjection(db.pool, projection, { partitions });
      expect(await readModelSnapshot(projection.tables), `${projection.name} equals a replay`).toEqual(live);
    }
    expect(phases.map((phase) => phase.name)).toHaveLength(5);

    // The seals written through all of it (by the sealer beside the relay, from the digests the relay
    // took, and by its successor after the kill) verify against the log.
    const { publicKey } = await loadOrCreateSealSigner(path.join(workDir, 'seal-key.pem'), { create: false });
    const ledger = await verifyLedger(db.pool, { publicKey });
    expect(ledger.findings).toEqual([]);
    expect(ledger.ok).toBe(true);
    expect(ledger.eventsChecked).toBeGreaterThan(500);
  }, 900_000);
});
