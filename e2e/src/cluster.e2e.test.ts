// `consentry start` on one machine with HTTP workers (cluster.ts), as a subprocess the way a user
// starts it, without NATS (the in-memory bus in the primary, notices over LISTEN/NOTIFY): the HTTP
// workers are separate processes from the one projecting; a consent sent to any worker reaches the
// read model and an open live-update stream; a worker killed -9 is replaced; the primary's /metrics
// adds up every process; SIGTERM stops them all. And `--role` without NATS says why it cannot split.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieName } from '@consentry/api';
import { createTestDatabase, freePort, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, consentBodyFor, type TestWebsite } from '@consentry/ingest/testing';
import { consentryBin } from './cli-harness';

const admin = { username: 'clusteradmin', password: 'cluster admin password' };

let db: TestDatabase;
let workDir: string;
let child: ChildProcess | undefined;
let exited: Promise<number | null>;
let port: number;
let metricsPort: number;
let logFile: string;
let website: TestWebsite;
const publicUrl = () => `http://127.0.0.1:${port}`;

/** The pids of a process's HTTP workers (its children running the CLI), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('consentry.mjs')) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

async function statsTotal(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT coalesce(sum(accepted + declined), 0)::int8 AS n FROM consent_stats_daily WHERE website_id = $1', [website.id]);
  return rows[0]!.n;
}

/** One consent on a connection of its own (as many visitors send them), so the workers share them. */
function sendConsent(): Promise<{ status: number }> {
  const body = consentBodyFor(website, { shownLanguage: 'en', textsHash: 'e'.repeat(64), choice: undefined, method: 'accept_all', offered: ['analytics'], purposes: { analytics: true, marketing: false, preferences: false, identification: false } });
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${publicUrl()}/api/collect/consent`,
      { method: 'POST', agent: false, headers: { 'content-type': 'text/plain;charset=UTF-8', origin: `https://www.${website.domain}` } },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on('error', reject);
    request.setTimeout(15_000, () => request.destroy(new Error('no answer within 15 s')));
    request.end(JSON.stringify(body));
  });
}

beforeAll(async () => {
  db = await createTestDatabase('cluster_start');
  workDir = mkdtempSync(path.join(tmpdir(), 'consentry-cluster-'));
  [port, metricsPort] = await Promise.all([freePort(), freePort()]);
  logFile = path.join(workDir, 'start.log');
  const output = openSync(logFile, 'w');
  child = spawn(process.execPath, [consentryBin, 'start'], {
    env: {
      ...process.env,
      DATABASE_URL: db.connectionString,
      NATS_URL: '',
      HTTP_WORKERS: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      DATA_DIR: workDir,
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      SCANNER: 'off',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', output, output],
  });
  closeSync(output);
  exited = new Promise((resolve) => child!.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 120_000;
  while (!readFileSync(logFile, 'utf8').includes('Consentry is running')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`consentry start did not start:\n${readFileSync(logFile, 'utf8').slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  website = await addTestWebsite(db.pool, { domain: 'cluster.example.test' });
}, 150_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
  await db?.drop();
  rmSync(workDir, { recursive: true, force: true });
});

describe('consentry start with HTTP workers', () => {
  it('serves HTTP from worker processes, projects in the primary, and tells a live-update stream on another process', async () => {
    expect(readFileSync(logFile, 'utf8')).toContain('2 HTTP worker processes');
    const workers = childrenOf(child!.pid!);
    expect(workers).toHaveLength(2);
    for (const worker of workers) expect(readFileSync(`/proc/${worker}/cmdline`, 'utf8').split('\0')).toContain('--max-semi-space-size=64');

    const signIn = await fetch(`${publicUrl()}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: publicUrl() },
      body: JSON.stringify(admin),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().find((value) => value.startsWith(`${sessionCookieName}=`))!.split(';')[0]!;
    // The stream is held by a worker; the projector that advances is in the primary.
    const stream = await fetch(`${publicUrl()}/api/events`, { headers: { cookie } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const noticed = (async () => {
      while (!received.includes('projection-advanced')) {
        const read = await reader.read();
        if (read.done) return false;
        received += decoder.decode(read.value, { stream: true });
      }
      return true;
    })();

    for (let i = 0; i < 10; i++) expect((await sendConsent()).status).toBe(201);
    await waitFor(async () => (await statsTotal()) === 10, { timeoutMs: 30_000, message: 'the 10 consents to be projected' });
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000));
    expect(await Promise.race([noticed, timeout])).toBe(true);
    await reader.cancel();
  });

  it('offers the four plans of the catalogue, though no process serving the api prepared the database', async () => {
    const response = await fetch(`${publicUrl()}/api/subscription-plans`);
    expect(response.status).toBe(200);
    const plans = (await response.json()) as Array<{ id: string; name: string }>;
    expect(plans.map((plan) => plan.id)).toEqual(['free', 'basic', 'pro', 'business']);
    for (const plan of plans) expect(plan.name).not.toBe('');
  });

  it('serves every process’s metrics, added up, on the primary’s metrics port', async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    // The 10 consents were answered by the two workers; the primary answered none: the sum is all of them.
    const collected = text
      .split('\n')
      .filter((line) => line.startsWith('consentry_http_requests_total') && line.includes('/api/collect/consent') && line.includes('status="201"'))
      .map((line) => Number(line.split(' ').at(-1)));
    expect(collected.reduce((sum, value) => sum + value, 0)).toBe(10);
    expect(text).toContain('consentry_projection_checkpoint_lag_events');
  });

  it('replaces a worker killed -9, and keeps answering meanwhile', async () => {
    const [victim, survivor] = childrenOf(child!.pid!);
    process.kill(victim!, 'SIGKILL');
    // Once the primary has seen it go, the other worker keeps the port answering while the
    // replacement starts. (A connection the primary hands over at the very moment a worker dies is
    // lost with it, as with any server process killed; the widget sends again.)
    await waitFor(async () => readFileSync(logFile, 'utf8').includes('An HTTP worker exited; starting another'), { timeoutMs: 10_000, message: 'the primary to see the worker go' });
    for (let i = 0; i < 5; i++) expect((await sendConsent()).status).toBe(201);
    await waitFor(async () => {
      const now = childrenOf(child!.pid!);
      return now.length === 2 && !now.includes(victim!) && now.includes(survivor!);
    }, { timeoutMs: 30_000, message: 'a new worker in place of the killed one' });
    await waitFor(async () => (await statsTotal()) === 15, { timeoutMs: 30_000, message: 'the 5 consents to be projected' });
  });

  it('stops every process on SIGTERM, with exit status 0', async () => {
    const workers = childrenOf(child!.pid!);
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    // Each worker ended by itself once stopped, rather than being killed at the end of its grace period.
    expect(readFileSync(logFile, 'utf8')).not.toContain('did not stop within');
  });
});

describe('consentry start --role without NATS', () => {
  it('says that splitting needs PostgreSQL and NATS, and exits 2', () => {
    const result = spawnSync(process.execPath, [consentryBin, 'start', '--role', 'ingest'], {
      env: { ...process.env, DATABASE_URL: '', NATS_URL: '', DATA_DIR: workDir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--role splits the product across processes and machines, which needs a PostgreSQL server (DATABASE_URL) and NATS JetStream (NATS_URL)');
  });

  it('refuses a role it does not know, with exit status 2', () => {
    const result = spawnSync(process.execPath, [consentryBin, 'start', '--role', 'ingest,cache'], { env: { ...process.env, DATA_DIR: workDir }, encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--role takes a comma-separated list of ingest, api, projectors, relay, jobs');
  });
});
