// npm run bench:start — how soon a started or restarted process serves (issue 35).
//
// Against a warm PostgreSQL (its own database, migrated and bootstrapped by a first start), each
// variant is started RUNS times, interleaved so that the machine's noise falls on all alike:
//   compiled     `node services/server/bin/consentry.mjs start` (the `npm run build` output)
//   tsx (warm)   `node --import tsx services/server/src/cli.ts start`, as production ran before,
//                with tsx's transform cache (in the temporary folder) filled by earlier starts
//   tsx (cold)   the same with that cache off (TSX_DISABLE_CACHE=1): a first start after a deploy
// with HTTP_WORKERS=0 and 1. From the spawn, one poller asks /healthz and one sender posts a consent
// every 10 ms; their first successes are the figures. A second later, the resident memory of the
// process and its workers. Then the fault: 16 senders post consents as the widget's outbox does
// (each retries until acknowledged), the product is killed -9 with its workers and started again;
// the figure is the time from the kill until consents are acknowledged again, and every consent
// acknowledged must be in the log.
//
// Targets: /healthz within 1.5 s and the first consent within 2 s (compiled, any worker count); the
// compiled start at least 4× faster than the tsx start; idle memory no higher than tsx's.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createTestDatabase, freePort, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, consentBodyFor, type TestWebsite } from '@consentry/ingest/testing';
import { formatNumber, percentile, printVerdicts, sleep, treeRssBytes, type Verdict } from './harness/harness';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 50) {
  process.stderr.write('bench:start: --runs takes a whole number from 1 to 50\n');
  process.exit(2);
}

const bin = fileURLToPath(new URL('../../services/server/bin/consentry.mjs', import.meta.url));
const sources = fileURLToPath(new URL('../../services/server/src/cli.ts', import.meta.url));

interface Variant {
  readonly name: string;
  readonly argv: readonly string[];
  readonly env: Record<string, string>;
}
const variants: readonly Variant[] = [
  { name: 'compiled', argv: [bin, 'start'], env: {} },
  { name: 'tsx (warm)', argv: ['--import', 'tsx', sources, 'start'], env: {} },
  { name: 'tsx (cold)', argv: ['--import', 'tsx', sources, 'start'], env: { TSX_DISABLE_CACHE: '1' } },
];

interface Started {
  readonly child: ChildProcess;
  readonly port: number;
  readonly exited: Promise<void>;
  readonly log: string;
}

function spawnProduct(variant: Variant, db: TestDatabase, workDir: string, workers: number, port: number): Started {
  const log = path.join(workDir, `${variant.name.replace(/\W+/g, '-')}-${workers}-${randomUUID().slice(0, 8)}.log`);
  const output = openSync(log, 'w');
  const child = spawn(process.execPath, [...variant.argv], {
    env: {
      ...process.env,
      ...variant.env,
      DATABASE_URL: db.connectionString,
      NATS_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: workDir,
      HTTP_WORKERS: String(workers),
      ADMIN_USERNAME: 'bench',
      ADMIN_PASSWORD: 'bench admin password',
      INGEST_RATE_LIMIT_PER_MINUTE: '10000000',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', output, output],
    // Its own process group, so that kill -9 reaches the workers too.
    detached: true,
  });
  closeSync(output);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, port, exited, log };
}

async function stop(started: Started): Promise<void> {
  try {
    process.kill(-started.child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => killGroup(started), 20_000);
  await started.exited;
  clearTimeout(timer);
}

function killGroup(started: Started): void {
  try {
    process.kill(-started.child.pid!, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** One request on a connection of its own; the status, or 0 when nothing answered. */
function request(port: number, method: 'GET' | 'POST', pathName: string, body?: string, origin?: string): Promise<number> {
  return new Promise((resolve) => {
    const outgoing = http.request(
      { host: '127.0.0.1', port, method, path: pathName, agent: false, headers: body ? { 'content-type': 'text/plain;charset=UTF-8', ...(origin ? { origin } : {}) } : {} },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(0));
      },
    );
    outgoing.on('error', () => resolve(0));
    outgoing.setTimeout(5000, () => outgoing.destroy());
    outgoing.end(body);
  });
}

const consent = (website: TestWebsite) => JSON.stringify(consentBodyFor(website, { eventId: randomUUID(), visitorId: randomUUID() }));
const acknowledged = (status: number) => status >= 200 && status < 300;

/** Tries every 10 ms until `attempt` succeeds; the milliseconds since `from`. */
async function firstSuccess(from: number, attempt: () => Promise<boolean>, deadline: number): Promise<number> {
  while (performance.now() < deadline) {
    if (await attempt()) return performance.now() - from;
    await sleep(10);
  }
  throw new Error('no success before the deadline');
}

interface StartFigures {
  readonly healthzMs: number;
  readonly consentMs: number;
  readonly rssMb: number;
}

async function measureStart(variant: Variant, db: TestDatabase, website: TestWebsite, workDir: string, workers: number): Promise<StartFigures> {
  const port = await freePort();
  const from = performance.now();
  const started = spawnProduct(variant, db, workDir, workers, port);
  const deadline = from + 60_000;
  try {
    const origin = `https://www.${website.domain}`;
    const [healthzMs, consentMs] = await Promise.all([
      firstSuccess(from, async () => (await request(port, 'GET', '/healthz')) === 200, deadline),
      firstSuccess(from, async () => acknowledged(await request(port, 'POST', '/api/collect/consent', consent(website), origin)), deadline),
    ]);
    await sleep(1000);
    return { healthzMs, consentMs, rssMb: treeRssBytes(started.child.pid!) / (1024 * 1024) };
  } catch (error) {
    throw new Error(`${variant.name} with ${workers} HTTP workers did not serve within 60 s (${(error as Error).message}); the end of its log:\n${readFileSync(started.log, 'utf8').slice(-2000)}`);
  } finally {
    await stop(started);
  }
}

interface FaultFigures {
  readonly downMs: number;
  readonly retries: number;
  readonly acknowledged: number;
  readonly missing: number;
}

/** kill -9 of the product (default worker count) under 16 senders, then a start: how long nobody was acknowledged. */
async function measureRestartUnderLoad(variant: Variant, db: TestDatabase, website: TestWebsite, workDir: string): Promise<FaultFigures> {
  const port = await freePort();
  let current = spawnProduct(variant, db, workDir, 1, port);
  const origin = `https://www.${website.domain}`;
  await firstSuccess(performance.now(), async () => (await request(port, 'GET', '/healthz')) === 200, performance.now() + 60_000);
  let sending = true;
  let retries = 0;
  let firstAfterKill = 0;
  let killedAt = Number.POSITIVE_INFINITY;
  const acknowledgedIds: string[] = [];
  const sender = async () => {
    while (sending) {
      const eventId = randomUUID();
      const body = JSON.stringify(consentBodyFor(website, { eventId, visitorId: randomUUID() }));
      // As the widget's outbox: the same consent again until it is acknowledged.
      for (;;) {
        const sentAt = performance.now();
        const status = await request(port, 'POST', '/api/collect/consent', body, origin);
        if (acknowledged(status)) {
          acknowledgedIds.push(eventId);
          // Only a consent sent after the kill tells that the new process serves.
          if (sentAt > killedAt && firstAfterKill === 0) firstAfterKill = performance.now();
          break;
        }
        retries++;
        if (!sending) break;
        await sleep(20);
      }
    }
  };
  const senders = Array.from({ length: 16 }, sender);
  await sleep(2000);
  killedAt = performance.now();
  killGroup(current);
  await current.exited;
  current = spawnProduct(variant, db, workDir, 1, port);
  await firstSuccess(killedAt, async () => firstAfterKill > 0, killedAt + 60_000).catch(() => undefined);
  await sleep(1000);
  sending = false;
  await Promise.all(senders);
  await stop(current);
  const { rows } = await db.pool.query<{ missing: number }>(
    `SELECT count(*)::int AS missing FROM unnest($1::uuid[]) AS acknowledged(id) WHERE NOT EXISTS (SELECT 1 FROM events WHERE event_id = acknowledged.id)`,
    [acknowledgedIds],
  );
  return { downMs: firstAfterKill - killedAt, retries, acknowledged: acknowledgedIds.length, missing: rows[0]!.missing };
}

const median = (values: readonly number[]) => percentile([...values].sort((a, b) => a - b), 50);

async function main(): Promise<boolean> {
  const db = await createTestDatabase('bench_start');
  const workDir = mkdtempSync(path.join(tmpdir(), 'consentry-bench-start-'));
  try {
    const website = await addTestWebsite(db.pool, {});
    // A first start prepares the database (plans, the admin) and fills tsx's cache, as any
    // installation that has run before: every measured start finds them done.
    for (const variant of variants.slice(0, 2)) await measureStart(variant, db, website, workDir, 0);

    const figures = new Map<string, StartFigures[]>();
    for (let run = 0; run < runs; run++) {
      for (const workers of [0, 1]) {
        for (const variant of variants) {
          const result = await measureStart(variant, db, website, workDir, workers);
          const key = `${variant.name}|${workers}`;
          figures.set(key, [...(figures.get(key) ?? []), result]);
        }
      }
    }

    process.stdout.write(`\nStart to serving (median of ${runs} runs; warm PostgreSQL, migrations applied)\n`);
    process.stdout.write(`  ${'variant'.padEnd(12)} ${'HTTP workers'.padStart(12)} ${'/healthz 200'.padStart(13)} ${'first consent'.padStart(14)} ${'idle RSS'.padStart(10)}\n`);
    const medianOf = (name: string, workers: number, pick: (figures: StartFigures) => number) => median((figures.get(`${name}|${workers}`) ?? []).map(pick));
    for (const workers of [0, 1]) {
      for (const variant of variants) {
        process.stdout.write(
          `  ${variant.name.padEnd(12)} ${String(workers).padStart(12)} ${`${formatNumber(medianOf(variant.name, workers, (f) => f.healthzMs))} ms`.padStart(13)} ${`${formatNumber(medianOf(variant.name, workers, (f) => f.consentMs))} ms`.padStart(14)} ${`${formatNumber(medianOf(variant.name, workers, (f) => f.rssMb))} MB`.padStart(10)}\n`,
        );
      }
    }

    process.stdout.write('\nkill -9 under 16 senders, then a start (HTTP_WORKERS=1)\n');
    const faults = new Map<string, FaultFigures>();
    for (const variant of variants.slice(0, 2)) {
      const fault = await measureRestartUnderLoad(variant, db, website, workDir);
      faults.set(variant.name, fault);
      process.stdout.write(
        `  ${variant.name.padEnd(12)} no consent acknowledged for ${formatNumber(fault.downMs)} ms; ${formatNumber(fault.retries)} retries; ${formatNumber(fault.acknowledged)} acknowledged, ${fault.missing} of them missing from the log\n`,
      );
    }

    const verdicts: Verdict[] = [];
    for (const workers of [0, 1]) {
      const healthz = medianOf('compiled', workers, (f) => f.healthzMs);
      const first = medianOf('compiled', workers, (f) => f.consentMs);
      verdicts.push({ name: `compiled, ${workers} HTTP workers: /healthz 200 after`, value: `${formatNumber(healthz)} ms`, target: '≤ 1,500 ms', pass: healthz <= 1500 });
      verdicts.push({ name: `compiled, ${workers} HTTP workers: first consent acknowledged after`, value: `${formatNumber(first)} ms`, target: '≤ 2,000 ms', pass: first <= 2000 });
      for (const baseline of ['tsx (warm)', 'tsx (cold)']) {
        const ratio = medianOf(baseline, workers, (f) => f.healthzMs) / healthz;
        verdicts.push({ name: `${workers} HTTP workers: ${baseline} start / compiled start`, value: `${formatNumber(ratio, 2)}×`, target: '≥ 4×', pass: ratio >= 4 });
      }
      const rss = medianOf('compiled', workers, (f) => f.rssMb);
      const tsxRss = medianOf('tsx (warm)', workers, (f) => f.rssMb);
      verdicts.push({ name: `${workers} HTTP workers: idle RSS, compiled vs tsx`, value: `${formatNumber(rss)} MB vs ${formatNumber(tsxRss)} MB`, target: 'no higher', pass: rss <= tsxRss });
    }
    const compiledFault = faults.get('compiled')!;
    const tsxFault = faults.get('tsx (warm)')!;
    verdicts.push({ name: 'kill -9 under load: tsx down time / compiled down time', value: `${formatNumber(tsxFault.downMs / compiledFault.downMs, 2)}×`, target: '> 1×', pass: compiledFault.downMs < tsxFault.downMs });
    verdicts.push({ name: 'acknowledged consents missing from the log', value: String(compiledFault.missing + tsxFault.missing), target: '0', pass: compiledFault.missing + tsxFault.missing === 0 });
    return printVerdicts('Targets', verdicts);
  } finally {
    await db.drop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().then(
  (pass) => process.exit(pass ? 0 : 1),
  (error: unknown) => {
    process.stderr.write(`bench:start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
