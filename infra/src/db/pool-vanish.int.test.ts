// A pooled connection whose machine vanishes in the middle of a transaction (an ingest machine
// losing its power during an append): its session's keepalive, set by createPool, lets PostgreSQL
// end the transaction and release what it locked, where Linux's defaults would keep it two hours.
// On a private PostgreSQL, with the holder in a network namespace whose link the test pulls
// (../testing/vanishing-host.ts).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVanishingHost, type VanishingHost } from '../testing/vanishing-host';
import { createPool, type TcpKeepalive } from './pool';

const holdTransactionScript = fileURLToPath(new URL('../testing/hold-transaction.ts', import.meta.url));
const keepalive: TcpKeepalive = { idleSeconds: 1, intervalSeconds: 1, count: 2 };

describe('a pooled connection whose machine vanishes mid-transaction', () => {
  let host: VanishingHost;
  beforeAll(async () => {
    host = await startVanishingHost();
  });
  afterAll(async () => {
    await host?.close();
  });

  it('has its transaction ended by PostgreSQL, and what it locked goes to the next one waiting', async () => {
    const { child: holder, output } = host.runScript(holdTransactionScript, { DATABASE_URL: host.connectionString, KEEPALIVE: JSON.stringify(keepalive) });
    await expect.poll(output, { timeout: 30_000 }).toContain('locked\n');

    const pool = createPool(host.connectionString, { max: 1, keepalive });
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      let granted = false;
      const waiting = client.query('SELECT pg_advisory_xact_lock(4242)').then(() => (granted = true));
      // While the holder is there, the lock stays with it.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(granted).toBe(false);

      await host.vanish();
      await expect.poll(() => granted, { timeout: 30_000, interval: 100 }).toBe(true);
      await waiting;
      // Taken from a holder that still runs, cut off: PostgreSQL gave up on it.
      expect(holder.exitCode).toBeNull();
      await client.query('COMMIT');
    } finally {
      client.release();
      await pool.end();
      if (holder.exitCode === null) holder.kill('SIGKILL');
    }
  });
});
