// Test databases: each test file gets its own freshly migrated database on the machine's real
// Postgres (DATABASE_URL, default 127.0.0.1:5432), dropped when the file is done.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateDatabase } from '../db/migrate';
import { createPool, type Db } from '../db/pool';

export const testServerUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  readonly name: string;
  readonly connectionString: string;
  readonly pool: Db;
  drop(): Promise<void>;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testServerUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(label: string, options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const name = `consentry_test_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const connectionString = withDatabase(testServerUrl, name);
  const pool = createPool(connectionString, { max: options.poolSize ?? 10, applicationName: `test-${label}` });
  await migrateDatabase(pool);
  return {
    name,
    connectionString,
    pool,
    async drop() {
      await pool.end();
      await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
