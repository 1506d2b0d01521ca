// The queue runner against real Postgres, on a queue table of the test's own, claimed as every
// worker's queue is (SKIP LOCKED, stale takeover in the claim): exclusive claims across runners,
// stale claims taken over, claims renewed while worked, stop, errors, wake-up. Work waits on gates
// the test opens; nothing sleeps a fixed time and nothing asserts how long anything took.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitFor, type TestDatabase } from '../testing';
import { startQueueRunner, type ClaimRequest, type QueueRunner, type QueueRunnerOptions } from './queue-runner';

let db: TestDatabase;
const runners: QueueRunner[] = [];

beforeAll(async () => {
  db = await createTestDatabase('queue_runner');
  await db.pool.query(`CREATE TABLE test_queue (
    queue      text        NOT NULL,
    item       integer     NOT NULL,
    status     text        NOT NULL DEFAULT 'queued',
    claimed_by text,
    claimed_at timestamptz,
    worked_by  text[]      NOT NULL DEFAULT '{}',
    PRIMARY KEY (queue, item))`);
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
});
afterAll(async () => {
  await db?.drop();
});

interface Item {
  readonly item: number;
  readonly runner: string;
}

/** A fresh queue (its own rows of the table) holding `count` queued items, numbered from 1. */
async function queueOf(count: number): Promise<string> {
  const queue = randomUUID();
  await db.pool.query(`INSERT INTO test_queue (queue, item) SELECT $1, n FROM generate_series(1, $2::int) AS n`, [queue, count]);
  return queue;
}

/** A worker's claim: stale claims first when sweeping, then queued items in order; SKIP LOCKED. */
async function claimFrom(queue: string, runner: string, request: ClaimRequest, staleAfterMs = 60_000): Promise<Item[]> {
  const claimed: Item[] = [];
  if (request.sweep && request.free > 0) {
    const { rows } = await db.pool.query<{ item: number }>(
      `UPDATE test_queue SET claimed_by = $2, claimed_at = now()
        WHERE queue = $1 AND item IN (
          SELECT item FROM test_queue WHERE queue = $1 AND status = 'running' AND claimed_at < now() - make_interval(secs => $3::float8 / 1000)
           ORDER BY claimed_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING item`,
      [queue, runner, staleAfterMs, request.free],
    );
    claimed.push(...rows.map((row) => ({ item: row.item, runner })));
  }
  if (claimed.length < request.free) {
    const { rows } = await db.pool.query<{ item: number }>(
      `UPDATE test_queue SET status = 'running', claimed_by = $2, claimed_at = now()
        WHERE queue = $1 AND item IN (
          SELECT item FROM test_queue WHERE queue = $1 AND status = 'queued' ORDER BY item LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING item`,
      [queue, runner, request.free - claimed.length],
    );
    claimed.push(...rows.map((row) => ({ item: row.item, runner })));
  }
  return claimed;
}

/** Records the item done, while its runner still holds the claim; true when recorded. */
async function finish(queue: string, { item, runner }: Item): Promise<boolean> {
  const { rowCount } = await db.pool.query(
    `UPDATE test_queue SET status = 'done', worked_by = worked_by || $3::text, claimed_by = NULL, claimed_at = NULL
      WHERE queue = $1 AND item = $2 AND claimed_by = $3 AND status = 'running'`,
    [queue, item, runner],
  );
  return rowCount === 1;
}

async function rowsOf(queue: string): Promise<{ item: number; status: string; claimed_by: string | null; claimed_at: Date | null; worked_by: string[] }[]> {
  const { rows } = await db.pool.query('SELECT item, status, claimed_by, claimed_at, worked_by FROM test_queue WHERE queue = $1 ORDER BY item', [queue]);
  return rows;
}

/** A gate work waits at until the test opens it (or the runner stops). */
function gate(): { open(): void; pass(signal: AbortSignal): Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    open,
    pass: (signal) =>
      Promise.race([opened, new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })))]),
  };
}

function start<T>(options: Partial<QueueRunnerOptions<T>> & Pick<QueueRunnerOptions<T>, 'claim' | 'work'>): QueueRunner {
  const runner = startQueueRunner<T>({ name: 'test', pollMs: 20, ...options });
  runners.push(runner);
  return runner;
}

describe('two runners on one queue', () => {
  it('claim each item exactly once, each holding at most its concurrency, both at once', async () => {
    const queue = await queueOf(40);
    const worked: Item[] = [];
    const held = new Map<string, Set<number>>([['A', new Set()], ['B', new Set()]]);
    const heldTwice: number[] = [];
    let mostHeld = 0;
    const bothFull = gate();
    for (const name of ['A', 'B']) {
      start<Item>({
        concurrency: 3,
        claim: (request) => claimFrom(queue, name, request),
        work: async (item, { signal }) => {
          const mine = held.get(name)!;
          if (held.get('A')!.has(item.item) || held.get('B')!.has(item.item)) heldTwice.push(item.item);
          mine.add(item.item);
          mostHeld = Math.max(mostHeld, mine.size);
          // The first items wait until both runners hold their full three: six items in hand at once.
          if (held.get('A')!.size + held.get('B')!.size === 6) bothFull.open();
          await bothFull.pass(signal);
          worked.push(item);
          await finish(queue, item);
          mine.delete(item.item);
        },
      });
    }
    await waitFor(async () => (await rowsOf(queue)).every((row) => row.status === 'done'), { timeoutMs: 20_000, message: 'every item done' });
    expect(worked.map((item) => item.item).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    expect(heldTwice).toEqual([]);
    expect(mostHeld).toBe(3);
    const rows = await rowsOf(queue);
    expect(rows.every((row) => row.worked_by.length === 1)).toBe(true);
    expect(new Set(rows.map((row) => row.worked_by[0]))).toEqual(new Set(['A', 'B']));
  });
});

describe('a claim whose worker died', () => {
  it('is taken over by a sweep; a claim still alive is not', async () => {
    const queue = await queueOf(2);
    await db.pool.query(`UPDATE test_queue SET status = 'running', claimed_by = 'dead', claimed_at = now() - interval '1 hour' WHERE queue = $1 AND item = 1`, [queue]);
    await db.pool.query(`UPDATE test_queue SET status = 'running', claimed_by = 'alive', claimed_at = now() WHERE queue = $1 AND item = 2`, [queue]);
    const sweeps: boolean[] = [];
    start<Item>({
      sweepEveryMs: 60_000,
      claim: (request) => {
        sweeps.push(request.sweep);
        return claimFrom(queue, 'runner', request);
      },
      work: async (item) => void (await finish(queue, item)),
    });
    await waitFor(async () => (await rowsOf(queue))[0]!.status === 'done', { message: 'the stale item done' });
    const [stale, alive] = await rowsOf(queue);
    expect(stale).toMatchObject({ status: 'done', worked_by: ['runner'] });
    expect(alive).toMatchObject({ status: 'running', claimed_by: 'alive', worked_by: [] });
    // The first claim sweeps, the next ones wait for sweepEveryMs.
    expect(sweeps[0]).toBe(true);
    expect(sweeps.slice(1).every((sweep) => !sweep)).toBe(true);
  });
});

describe('an item worked longer than the stale limit', () => {
  it('keeps its claim, renewed, so another runner sweeping all the while never takes it over', async () => {
    const queue = await queueOf(1);
    const staleAfterMs = 3_000;
    const release = gate();
    let renewals = 0;
    start<Item>({
      claim: (request) => claimFrom(queue, 'slow', request, staleAfterMs),
      renew: {
        everyMs: 100,
        claim: async (item) => {
          renewals++;
          await db.pool.query(`UPDATE test_queue SET claimed_at = now() WHERE queue = $1 AND item = $2 AND claimed_by = $3`, [queue, item.item, item.runner]);
        },
      },
      work: async (item, { signal }) => {
        await release.pass(signal);
        await finish(queue, item);
      },
    });
    const [claimed] = await waitFor(async () => {
      const rows = await rowsOf(queue);
      return rows[0]!.claimed_by === 'slow' ? rows : null;
    });
    let sweepsSince = -1;
    const taken: Item[] = [];
    start<Item>({
      claim: async (request) => {
        if (sweepsSince >= 0) sweepsSince++;
        const items = await claimFrom(queue, 'other', request, staleAfterMs);
        taken.push(...items);
        return items;
      },
      work: async () => undefined,
    });
    // Renewed past the point where the first claim would have been stale, then swept a few more times.
    await waitFor(async () => (await rowsOf(queue))[0]!.claimed_at!.getTime() - claimed!.claimed_at!.getTime() > staleAfterMs, {
      timeoutMs: 20_000,
      message: 'a renewal past the stale limit',
    });
    sweepsSince = 0;
    await waitFor(() => sweepsSince >= 3, { message: 'three sweeps by the other runner' });
    expect(taken).toEqual([]);
    expect(renewals).toBeGreaterThan(1);
    release.open();
    await waitFor(async () => (await rowsOf(queue))[0]!.status === 'done', { message: 'the item done' });
    expect((await rowsOf(queue))[0]!.worked_by).toEqual(['slow']);
  });
});

describe('stopping', () => {
  it('aborts the work in hand, waits for it to give its item back, and claims nothing more', async () => {
    const queue = await queueOf(3);
    const release = gate();
    const events: string[] = [];
    let claims = 0;
    const runner = start<Item>({
      claim: (request) => {
        claims++;
        return claimFrom(queue, 'stopping', request);
      },
      work: async (item, { signal }) => {
        events.push(`started ${item.item}`);
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        events.push('saw the stop');
        // Still busy when the stop came: the item goes back only once the gate opens.
        await release.pass(new AbortController().signal);
        await db.pool.query(`UPDATE test_queue SET status = 'queued', claimed_by = NULL, claimed_at = NULL WHERE queue = $1 AND item = $2`, [queue, item.item]);
        events.push('gave it back');
      },
    });
    await waitFor(() => events.includes('started 1'), { message: 'the first item in hand' });
    const stopped = runner.stop().then(() => events.push('stopped'));
    await waitFor(() => events.includes('saw the stop'), { message: 'the work to see the stop' });
    expect(events).not.toContain('stopped');
    const claimsAtStop = claims;
    release.open();
    await stopped;
    expect(events).toEqual(['started 1', 'saw the stop', 'gave it back', 'stopped']);
    expect(claims).toBe(claimsAtStop);
    expect((await rowsOf(queue)).map((row) => row.status)).toEqual(['queued', 'queued', 'queued']);
  });

  it('follows its signal as it follows stop()', async () => {
    const queue = await queueOf(1);
    const controller = new AbortController();
    const seen: string[] = [];
    const runner = start<Item>({
      signal: controller.signal,
      claim: (request) => claimFrom(queue, 'signalled', request),
      work: async (_item, { signal }) => {
        seen.push('started');
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        seen.push(`stopped: ${(signal.reason as Error).message}`);
      },
    });
    await waitFor(() => seen.length > 0, { message: 'the item in hand' });
    controller.abort();
    await runner.stop();
    expect(seen).toEqual(['started', 'stopped: The test runner is stopping']);
  });
});

describe('errors', () => {
  it('in one item’s work go to onError, and the loop goes on with the others', async () => {
    const queue = await queueOf(5);
    const errors: unknown[] = [];
    const failure = new Error('item 2 failed');
    start<Item>({
      concurrency: 2,
      onError: (error) => errors.push(error),
      claim: (request) => claimFrom(queue, 'runner', request),
      work: async (item) => {
        if (item.item === 2) throw failure;
        await finish(queue, item);
      },
    });
    await waitFor(async () => (await rowsOf(queue)).filter((row) => row.status === 'done').length === 4, { message: 'the four other items done' });
    expect(errors).toEqual([failure]);
    expect((await rowsOf(queue)).map((row) => row.status)).toEqual(['done', 'running', 'done', 'done', 'done']);
  });

  it('in a claim go to onError, and the next claim is tried', async () => {
    const queue = await queueOf(1);
    const errors: unknown[] = [];
    let claims = 0;
    start<Item>({
      onError: (error) => errors.push(error),
      claim: async (request) => {
        if (++claims === 1) throw new Error('database gone');
        return claimFrom(queue, 'runner', request);
      },
      work: async (item) => void (await finish(queue, item)),
    });
    await waitFor(async () => (await rowsOf(queue))[0]!.status === 'done', { message: 'the item done after the failed claim' });
    expect(errors).toEqual([new Error('database gone')]);
  });
});

describe('an idle runner', () => {
  it('claims at once when woken, rather than at its next poll', async () => {
    const queue = randomUUID();
    let claims = 0;
    const runner = start<Item>({
      pollMs: 3_600_000,
      claim: async (request) => {
        claims++;
        return claimFrom(queue, 'runner', request);
      },
      work: async (item) => void (await finish(queue, item)),
    });
    await waitFor(() => claims === 1, { message: 'the first, empty claim' });
    await db.pool.query(`INSERT INTO test_queue (queue, item) VALUES ($1, 1)`, [queue]);
    runner.wake();
    await waitFor(async () => (await rowsOf(queue))[0]?.status === 'done', { message: 'the item done after wake()' });
  });

  it('claims again as soon as a slot frees, without waiting for its poll', async () => {
    const queue = await queueOf(4);
    start<Item>({
      concurrency: 2,
      pollMs: 3_600_000,
      claim: (request) => claimFrom(queue, 'runner', request),
      work: async (item) => void (await finish(queue, item)),
    });
    await waitFor(async () => (await rowsOf(queue)).filter((row) => row.status === 'done').length === 4, { message: 'all four done without a poll' });
  });
});
