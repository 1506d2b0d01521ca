// Single active instance per role (the relay, each projector): a Postgres session advisory lock held
// on a dedicated connection. The lock dies with the connection, so when a leader's process dies a
// waiting instance takes over; and the leader does its work on that same connection, so a leader
// that lost its lock cannot keep writing checkpoints. When the leader's whole machine vanishes, nobody
// closes the connection: PostgreSQL drops it once the TCP keepalive the connection asked for
// (defaultTcpKeepalive, infra/src/db/pool.ts) goes unanswered, and the lock with it.
import { createClient, type TcpKeepalive } from '@consentry/infra';
import type pg from 'pg';

export interface Leadership {
  readonly client: pg.Client;
  /** Settles (resolves) when the connection holding the lock is lost. */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

export interface AcquireOptions {
  readonly connectionString: string;
  readonly lockName: string;
  readonly signal: AbortSignal;
  readonly retryMs?: number;
  /**
   * False while another process should take this lock (balancer.ts): then only every fifth round
   * asks for it, so it is taken when nobody else does. Default: always ask.
   */
  readonly preferred?: () => boolean;
  /** How soon PostgreSQL drops the lock of a leader whose machine vanished; defaultTcpKeepalive by default. */
  readonly keepalive?: TcpKeepalive;
}

/** Waits until this instance holds the lock, or resolves null once `signal` aborts. */
export async function acquireLeadership(options: AcquireOptions): Promise<Leadership | null> {
  const retryMs = options.retryMs ?? 1000;
  let passed = 0;
  while (!options.signal.aborted) {
    if (options.preferred && !options.preferred() && passed < 4) {
      passed++;
      await sleep(retryMs, options.signal);
      continue;
    }
    passed = 0;
    const client = createClient(options.connectionString, {
      applicationName: `consentry ${options.lockName}`,
      ...(options.keepalive ? { keepalive: options.keepalive } : {}),
    });
    let lostConnection = () => undefined as void;
    const lost = new Promise<void>((resolve) => (lostConnection = resolve));
    client.on('error', () => lostConnection());
    client.on('end', () => lostConnection());
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
        [options.lockName],
      );
      if (rows[0]?.locked) {
        // The leader writes only derived state (a relay checkpoint; a read model with its
        // checkpoint, in one transaction), so it need not wait for its commits to reach disk: a
        // commit lost in a database crash is lost together with its checkpoint, and the work is
        // redone from the log (republished and deduplicated by event id, or re-applied). Not
        // flushing the WAL for every batch leaves the disk to the appends, which must wait.
        await client.query('SET synchronous_commit = off');
        return {
          client,
          lost,
          async release() {
            // Closing the session releases the lock.
            await client.end().catch(() => undefined);
          },
        };
      }
    } catch {
      // Postgres unreachable: wait and try again.
    }
    await client.end().catch(() => undefined);
    await sleep(retryMs, options.signal);
  }
  return null;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
