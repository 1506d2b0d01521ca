// The `consentry` command's exit status on the embedded default (no DATABASE_URL): each command run
// as its own process beside the PostgreSQL that `npm start` runs, and against a fresh data
// directory. cli.e2e runs the same against DATABASE_URL.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, startEmbeddedPostgres, type Db, type DbClient, type RunningEmbeddedPostgres } from '@consentry/infra';
import { freePort, waitFor } from '@consentry/infra/testing';
import { appendConsents, consentry, tamperWith } from './cli-harness';

describe('on the embedded default (no DATABASE_URL)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let port: number;
  /** The running product's server (what `npm start` runs), started by the first test that needs it. */
  let server: RunningEmbeddedPostgres | undefined;
  let pool: Db;
  async function startServer(): Promise<void> {
    server ??= await startEmbeddedPostgres({ dataDir, port, mode: 'start' });
    pool ??= createPool(server.connectionString, { max: 2 });
  }
  const lockFile = () => path.join(dataDir, 'postgres', 'postmaster.pid');
  /** The pid in the running server's lock file: a command must leave it as it is. */
  const lockPid = async () => (await readFile(lockFile(), 'utf8')).split('\n', 1)[0];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'consentry-cli-embedded-'));
    // A port nothing listens on now (a random one can land on another test's socket).
    port = await freePort();
    env = { DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(port) };
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('prepares a fresh install with migrate, says why the server could not start, and leaves starting to `start`', async () => {
    // Nothing runs: migrate starts the server for itself, and stops it again. Its log is on stderr.
    const migrate = await consentry(['migrate'], { ...env, LOG_LEVEL: 'info' });
    expect(migrate).toMatchObject({ code: 0, stdout: 'Migrations applied.\n', stderr: expect.stringContaining('for this command') });
    expect(existsSync(lockFile())).toBe(false);

    // The package rejects with nothing when the server exits early: the server's own words are told.
    const conf = path.join(dataDir, 'postgres', 'postgresql.conf');
    const original = await readFile(conf, 'utf8');
    await writeFile(conf, `${original}\nthis is not a setting\n`);
    const broken = await consentry(['migrate'], env);
    await writeFile(conf, original);
    expect(broken).toMatchObject({ code: 1, stderr: expect.stringContaining('The embedded PostgreSQL could not start: ') });
    expect(broken.stderr).toContain('postgresql.conf');
    expect(broken.stderr).not.toContain('undefined');

    // Any other command connects to the running one, and nothing runs.
    const [seal, status] = await Promise.all([consentry(['seal'], env), consentry(['status'], env)]);
    const notRunning = `No Consentry is running with its embedded PostgreSQL on port ${port}`;
    expect(seal).toMatchObject({ code: 1, stderr: expect.stringContaining(notRunning) });
    expect(seal.stderr).toContain('npm start');
    expect(status).toMatchObject({ code: 1, stderr: expect.stringContaining(notRunning) });
    expect(existsSync(lockFile())).toBe(false);
  }, 240_000);

  it('keeps every exit status against the running server: 0, 1 for a tampered ledger, 2 and 78', async () => {
    await startServer();
    const pid = await lockPid();
    expect((await consentry(['migrate'], env)).code).toBe(0);
    const ids = await appendConsents(pool, 5);
    expect((await consentry(['seal'], env)).code).toBe(0);
    expect((await consentry(['verify'], env)).code).toBe(0);
    // Logs go to stderr: stdout stays one JSON document.
    const [status, verify] = await Promise.all([consentry(['status', '--json'], { ...env, LOG_LEVEL: 'info' }), consentry(['verify', '--json'], { ...env, LOG_LEVEL: 'debug' })]);
    expect(status.code).toBe(0);
    // Nothing relays here: every event in the log is the relay's lag.
    const { rows } = await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM events');
    expect(JSON.parse(status.stdout)).toMatchObject({ lastSeal: { sequence: 1, since: { events: 0, exact: true } }, relay: { lag: { events: rows[0]!.count, exact: true } } });
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true });
    await tamperWith(pool, ids[2]!);
    expect(await consentry(['verify'], env)).toMatchObject({ code: 1, stdout: expect.stringContaining('does NOT verify') });
    expect((await consentry(['replay', '--projection', 'no-such-projection'], env)).code).toBe(2);
    expect((await consentry(['frobnicate'], env)).code).toBe(2);
    expect((await consentry(['migrate'], { ...env, LOG_LEVEL: 'loud' })).code).toBe(78);
    expect(await lockPid()).toBe(pid);
  }, 240_000);

  it('a command with another EMBEDDED_POSTGRES_PORT fails, naming both ports, and leaves the running server alone', async () => {
    await startServer();
    const pid = await lockPid();
    const wrong = { ...env, EMBEDDED_POSTGRES_PORT: String(await freePort()) };
    const [status, seal, migrate] = await Promise.all([consentry(['status'], wrong), consentry(['seal'], wrong), consentry(['migrate'], wrong)]);
    for (const outcome of [status, seal, migrate]) {
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain(`An embedded PostgreSQL (pid ${pid}) is already running on ${path.join(dataDir, 'postgres')}, listening on port ${port}, but EMBEDDED_POSTGRES_PORT is ${wrong.EMBEDDED_POSTGRES_PORT}`);
    }
    expect(await lockPid()).toBe(pid);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  }, 240_000);

  it('a connect slower than 2 s is waited for, not taken for a server that is not there', async () => {
    await startServer();
    const pid = await lockPid();
    const slow = await startSlowProxy(port, 3_000);
    try {
      const status = await consentry(['status', '--json'], { ...env, EMBEDDED_POSTGRES_PORT: String(slow.port) });
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ relay: { name: 'relay' } });
    } finally {
      await slow.close();
    }
    expect(await lockPid()).toBe(pid);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  }, 240_000);

  it('while every connection slot is taken, a command waits for one and leaves the lock file alone', async () => {
    await startServer();
    const pid = await lockPid();
    const hogs = await takeEveryConnection(server!.connectionString);
    expect(hogs.count).toBeGreaterThan(10);
    // Its log (on stderr) says when it met the full server; the slots are given back only then.
    let stderr = '';
    let ended = false;
    const running = consentry(['status', '--json'], { ...env, LOG_LEVEL: 'info' }, (chunk) => (stderr += chunk)).finally(() => (ended = true));
    await waitFor(() => ended || stderr.includes('does not answer yet'), { timeoutMs: 90_000, message: 'the command to meet the full server' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    try {
      expect(await lockPid()).toBe(pid);
      expect(stderr).toContain('too many clients');
    } finally {
      await hogs.release();
    }
    const status = await running;
    expect(status.code, `consentry status said on stderr:\n${status.stderr}`).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ relay: { name: 'relay' } });
    expect(await lockPid()).toBe(pid);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  }, 240_000);
});

/** A loopback port that forwards to `targetPort` only `delayMs` after each connection arrives. */
async function startSlowProxy(targetPort: number, delayMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    client.pause();
    sockets.add(client);
    client.on('error', () => client.destroy());
    const timer = setTimeout(() => {
      const upstream = connect({ host: '127.0.0.1', port: targetPort });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    }, delayMs);
    client.once('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Connects until the server says "too many clients" (53300): every slot, the superuser's reserved ones too. */
async function takeEveryConnection(connectionString: string): Promise<{ count: number; release(): Promise<void> }> {
  const hogs = createPool(connectionString, { max: 10_000 });
  const clients: DbClient[] = [];
  const release = async () => {
    for (const client of clients) client.release();
    await hogs.end();
  };
  for (;;) {
    try {
      clients.push(await hogs.connect());
    } catch (error) {
      if ((error as { code?: string }).code === '53300') return { count: clients.length, release };
      await release();
      throw error;
    }
  }
}
