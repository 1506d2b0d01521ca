// The Postgres connection pool. int8 and xid8 come back as JavaScript numbers: positions, counts
// and transaction ids stay far below 2^53 for the life of a ledger, and numbers keep the hot paths
// free of BigInt arithmetic.
import pg from 'pg';

const INT8_OID = 20;
const XID8_OID = 5069;

const parseInteger = (value: string) => Number.parseInt(value, 10);

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === XID8_OID) return parseInteger;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export type Db = pg.Pool;
export type DbClient = pg.PoolClient;
/** A connection inside a transaction, pooled or dedicated: what projections write with. */
export type DbTransaction = pg.ClientBase;
/** Anything that can run a query: the pool or a client inside a transaction. */
export type Queryable = pg.Pool | pg.ClientBase;

export interface PoolOptions {
  readonly max?: number;
  readonly applicationName?: string;
}

export function createPool(connectionString: string, options: PoolOptions = {}): Db {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'consentry',
    types,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection (Postgres restarted) must not crash the process; the
  // pool replaces it on next use.
  pool.on('error', () => undefined);
  return pool;
}

/** A single client outside the pool, for sessions that hold advisory locks or LISTEN. */
export function createClient(connectionString: string, applicationName = 'consentry'): pg.Client {
  const client = new pg.Client({ connectionString, application_name: applicationName, types });
  client.on('error', () => undefined);
  return client;
}

/** Runs `work` in a transaction on a pooled client, committing on success and rolling back on error. */
export async function withTransaction<T>(pool: Db, work: (tx: DbClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
