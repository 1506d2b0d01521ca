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

/**
 * How soon PostgreSQL finds a connection dead when the machine at its other end vanished (power lost,
 * network gone) rather than closed it: TCP keepalive probes after `idleSeconds` of silence, every
 * `intervalSeconds`, and the connection is dropped after `count` unanswered ones. A dropped session
 * releases its advisory locks (the relay's and each projector partition's leadership) and rolls back
 * its transaction with the row locks it held, so another process takes over. With Linux's defaults
 * PostgreSQL would wait about two hours and eleven minutes.
 */
export interface TcpKeepalive {
  readonly idleSeconds: number;
  readonly intervalSeconds: number;
  readonly count: number;
}

/** 10 s, then every 5 s, 3 times: a vanished machine's sessions are dropped within half a minute. */
export const defaultTcpKeepalive: TcpKeepalive = { idleSeconds: 10, intervalSeconds: 5, count: 3 };

/**
 * Each connection sets PostgreSQL's side of the keepalive for its own session (the settings are the
 * session's, so no postgresql.conf change is needed), by a SET run on the new connection before anyone
 * else uses it, rather than as a startup option, which connection poolers such as PgBouncer refuse.
 * Our side probes too (the socket's keepalive), so an idle connection to a vanished server ends
 * instead of hanging.
 */
function keepaliveSettings(keepalive: TcpKeepalive) {
  for (const [name, value] of Object.entries(keepalive)) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`TCP keepalive ${name} must be a whole number of at least 1, got ${value}`);
  }
  return {
    clientConfig: { keepAlive: true, keepAliveInitialDelayMillis: keepalive.idleSeconds * 1000 },
    statement:
      `SET tcp_keepalives_idle = ${keepalive.idleSeconds}; SET tcp_keepalives_interval = ${keepalive.intervalSeconds}; ` +
      `SET tcp_keepalives_count = ${keepalive.count}`,
  };
}

/** A dedicated client whose connect() settles once its session is set up as well. */
class SessionClient extends pg.Client {
  readonly #setup: string;
  constructor(config: pg.ClientConfig, setup: string) {
    super(config);
    this.#setup = setup;
  }
  override connect(): Promise<pg.Client>;
  override connect(callback: ((err: Error) => void) | ((err: null, client: pg.Client) => void)): void;
  override connect(callback?: ((err: Error) => void) | ((err: null, client: pg.Client) => void)): Promise<pg.Client> | void {
    const ready = super.connect().then(async () => {
      await this.query(this.#setup);
      return this;
    });
    if (!callback) return ready;
    const done = callback as (err: Error | null, client?: pg.Client) => void;
    ready.then((client) => done(null, client), (error: Error) => done(error));
  }
}

export interface PoolOptions {
  readonly max?: number;
  readonly applicationName?: string;
  readonly keepalive?: TcpKeepalive;
}

export function createPool(connectionString: string, options: PoolOptions = {}): Db {
  const keepalive = keepaliveSettings(options.keepalive ?? defaultTcpKeepalive);
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'consentry',
    types,
    connectionTimeoutMillis: 10_000,
    ...keepalive.clientConfig,
    // Awaited by the pool before it hands the new connection to anyone.
    onConnect: (client) => client.query(keepalive.statement),
  });
  // An idle client losing its connection (Postgres restarted) must not crash the process; the
  // pool replaces it on next use.
  pool.on('error', () => undefined);
  return pool;
}

export interface ClientOptions {
  readonly applicationName?: string;
  readonly keepalive?: TcpKeepalive;
}

/** A single client outside the pool, for sessions that hold advisory locks or LISTEN. */
export function createClient(connectionString: string, options: ClientOptions = {}): pg.Client {
  const keepalive = keepaliveSettings(options.keepalive ?? defaultTcpKeepalive);
  const client = new SessionClient({ connectionString, application_name: options.applicationName ?? 'consentry', types, ...keepalive.clientConfig }, keepalive.statement);
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
