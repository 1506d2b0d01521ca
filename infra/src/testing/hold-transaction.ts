// A process that opens a transaction on a pooled connection, takes a lock in it and waits, for
// pool-vanish.int.test.ts to run on a host that vanishes mid-transaction (an ingest machine losing
// its power during an append): prints `locked` once it holds the lock. DATABASE_URL and KEEPALIVE
// (a TcpKeepalive as JSON) say where and how.
import { createPool, type TcpKeepalive } from '../db/pool';

const connectionString = process.env.DATABASE_URL;
if (!connectionString || !process.env.KEEPALIVE) {
  process.stderr.write('hold-transaction: DATABASE_URL and KEEPALIVE are required\n');
  process.exit(2);
}
const pool = createPool(connectionString, { max: 1, keepalive: JSON.parse(process.env.KEEPALIVE) as TcpKeepalive });
const client = await pool.connect();
await client.query('BEGIN');
await client.query('SELECT pg_advisory_xact_lock(4242)');
process.stdout.write('locked\n');
// Held until the process is killed: the transaction never ends on its own.
await new Promise(() => undefined);
