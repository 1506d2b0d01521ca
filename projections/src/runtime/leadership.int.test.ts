// A leader whose machine vanishes (power, network) rather than dies: nobody closes its connection, so
// only PostgreSQL's TCP keepalive, which every Consentry connection asks for (infra/src/db/pool.ts),
// releases its lock. On a private PostgreSQL, with the leader in a network namespace whose link the
// test pulls (infra/src/testing/vanishing-host.ts).
import { fileURLToPath } from 'node:url';
import type { TcpKeepalive } from '@consentry/infra';
import { startVanishingHost, type VanishingHost } from '@consentry/infra/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLeadership, sleep, type Leadership } from './leadership';

const holdLeadershipScript = fileURLToPath(new URL('../testing/hold-leadership.ts', import.meta.url));
// Short, so the test does not wait the production half minute (defaultTcpKeepalive): found dead
// after about 1 + 2 × 1 seconds of silence.
const keepalive: TcpKeepalive = { idleSeconds: 1, intervalSeconds: 1, count: 2 };

describe('a leader whose machine vanishes', () => {
  let host: VanishingHost;
  beforeAll(async () => {
    host = await startVanishingHost();
  });
  afterAll(async () => {
    await host?.close();
  });

  it('loses its lock to a waiting process once PostgreSQL finds its connection dead, and finds out when it is back', async () => {
    const lockName = 'consentry:test-vanishing-leader';
    const { child: leader, output } = host.runScript(holdLeadershipScript, {
      DATABASE_URL: host.connectionString,
      LOCK_NAME: lockName,
      KEEPALIVE: JSON.stringify(keepalive),
    });
    await expect.poll(output, { timeout: 30_000 }).toContain('leader\n');

    const stopContending = new AbortController();
    let taken: Leadership | null = null;
    const contending = acquireLeadership({ connectionString: host.connectionString, lockName, keepalive, signal: stopContending.signal, retryMs: 100 }).then(
      (leadership) => (taken = leadership),
    );
    try {
      // While the leader is there, nobody else gets its lock.
      await sleep(1500);
      expect(taken).toBeNull();

      await host.vanish();
      // Released by PostgreSQL, not by the leader: it still runs, cut off, and has not noticed.
      await expect.poll(() => taken, { timeout: 30_000, interval: 100 }).not.toBeNull();
      expect(leader.exitCode).toBeNull();
      expect(output()).not.toContain('lost');

      // Back on the network, its own keepalive finds the session gone: it is no longer the leader.
      await host.reappear();
      await expect.poll(output, { timeout: 30_000, interval: 100 }).toContain('lost\n');
    } finally {
      stopContending.abort();
      await contending;
      await (taken as Leadership | null)?.release();
      if (leader.exitCode === null) leader.kill('SIGKILL');
    }
  });
});
