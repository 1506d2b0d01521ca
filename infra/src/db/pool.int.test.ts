// Every connection Consentry opens asks PostgreSQL for TCP keepalives on its session, so that a
// machine that vanishes has its sessions (locks, open transactions) dropped within half a minute
// (projections/src/runtime/leadership.int.test.ts shows that happen). Over TCP, as the tests connect:
// on a Unix socket PostgreSQL shows these settings as 0.
import { afterEach, describe, expect, it } from 'vitest';
import { testServerUrl } from '../testing/database';
import { createClient, createPool, defaultTcpKeepalive, type Db } from './pool';
import type pg from 'pg';

const settingsQuery = `SELECT current_setting('tcp_keepalives_idle') AS idle, current_setting('tcp_keepalives_interval') AS interval,
                              current_setting('tcp_keepalives_count') AS count`;
const asSettings = ({ idleSeconds, intervalSeconds, count }: { idleSeconds: number; intervalSeconds: number; count: number }) => ({
  idle: String(idleSeconds),
  interval: String(intervalSeconds),
  count: String(count),
});

describe('TCP keepalives on every connection', () => {
  const opened: Array<Db | pg.Client> = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((connection) => connection.end()));
  });

  it('are set on each of a pool’s connections before its first query', async () => {
    const pool = createPool(testServerUrl, { max: 2 });
    opened.push(pool);
    const [first, second] = await Promise.all([pool.connect(), pool.connect()]);
    try {
      for (const client of [first!, second!]) {
        const { rows } = await client.query(settingsQuery);
        expect(rows[0]).toEqual(asSettings(defaultTcpKeepalive));
      }
    } finally {
      first!.release();
      second!.release();
    }
  });

  it('are set on a dedicated client (a leadership lock’s, LISTEN’s), as asked for', async () => {
    const keepalive = { idleSeconds: 7, intervalSeconds: 2, count: 4 };
    const client = createClient(testServerUrl, { keepalive });
    opened.push(client);
    await client.connect();
    const { rows } = await client.query(settingsQuery);
    expect(rows[0]).toEqual(asSettings(keepalive));
  });

  it('refuses settings PostgreSQL would not take', () => {
    expect(() => createPool(testServerUrl, { keepalive: { idleSeconds: 0, intervalSeconds: 5, count: 3 } })).toThrow(RangeError);
    expect(() => createClient(testServerUrl, { keepalive: { idleSeconds: 10, intervalSeconds: 1.5, count: 3 } })).toThrow(/intervalSeconds/);
  });
});
