// The enrichment queue's claim is fair across websites (issue 27, item 4; docs/identification.md,
// "Enrichment"), against the real Postgres: one website's thousand queued jobs do not hold another's
// few (they are claimed in the first rounds, not after the thousand), each round goes round robin
// across websites starting with the one served longest ago, parallel claimers never take a job
// twice, and the claim and the sweeps read through their indexes rather than the whole table.
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claimDueJobs, markWebsitesServed, recordCancelledJobs, type ClaimedJob } from './jobs';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('enrichment_fair_claim', { poolSize: 8 });
});
afterAll(async () => {
  await db?.drop();
});
beforeEach(async () => {
  await db.pool.query(`DELETE FROM enrichment_jobs`);
  await db.pool.query(`DELETE FROM queue_turns`);
});

/** Queues `count` jobs of one website, due `dueAgoMs` ago and a millisecond apart (as the reactor queues them). */
async function queueJobs(websiteId: string, count: number, dueAgoMs: number, status = 'queued'): Promise<void> {
  await db.pool.query(
    `INSERT INTO enrichment_jobs (job_id, source_event_id, website_id, visitor_id, provider, input, status, next_attempt_at, deadline_at, created_at,
                                  finished_at)
     SELECT gen_random_uuid(), gen_random_uuid(), $1, 'visitor-' || n, 'default', '{"email":"x@example.com"}', $4,
            now() - make_interval(secs => ($2::float8 - n) / 1000), now() + interval '1 day', now(),
            CASE WHEN $4 = 'queued' THEN NULL ELSE now() END
       FROM generate_series(1, $3::int) AS n`,
    [websiteId, dueAgoMs, count, status],
  );
}

/** Claims as the worker does, one round after another, each round's websites served once claimed. */
async function claimRounds(rounds: number, limit: number): Promise<ClaimedJob[][]> {
  const claimed: ClaimedJob[][] = [];
  for (let round = 0; round < rounds; round++) {
    const jobs = await claimDueJobs(db.pool, 'worker-1', new Date(), limit);
    await markWebsitesServed(db.pool, jobs.map((job) => job.websiteId), new Date(Date.now() + round));
    claimed.push(jobs);
  }
  return claimed;
}

describe("when one website has queued a thousand jobs before another's few", () => {
  it("claims the others' jobs within the first rounds, not after the thousand", async () => {
    const flooded = randomUUID();
    const genuine = randomUUID();
    const alsoGenuine = randomUUID();
    await queueJobs(flooded, 1_000, 60_000);
    await queueJobs(genuine, 2, 1_000);
    await queueJobs(alsoGenuine, 1, 500);
    // One job a round (a worker whose provider budget allows one call at a time).
    const rounds = await claimRounds(6, 1);
    const order = rounds.flat().map((job) => job.websiteId);
    // The genuine websites' three jobs are among the first five claims (FIFO would claim them 1,001st to 1,003rd).
    expect(order.slice(0, 5).filter((websiteId) => websiteId !== flooded)).toHaveLength(3);
    expect(order.filter((websiteId) => websiteId === genuine)).toHaveLength(2);
    expect(order.filter((websiteId) => websiteId === alsoGenuine)).toHaveLength(1);
  });

  it('takes every website’s earliest job before any website’s second, longest-unserved website first', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await queueJobs(a, 50, 60_000);
    await queueJobs(b, 50, 30_000);
    await queueJobs(c, 50, 10_000);
    // b was served most recently, a before it; c never.
    await markWebsitesServed(db.pool, [a], new Date(Date.now() - 10_000));
    await markWebsitesServed(db.pool, [b], new Date(Date.now() - 5_000));
    const [round] = await claimRounds(1, 5);
    // In that order, so a worker with fewer rate-limit tokens than jobs sends the first ones.
    expect(round!.map((job) => job.websiteId)).toEqual([c, a, b, c, a]);
    // Within a website, the earliest due first.
    expect(round!.filter((job) => job.websiteId === a).map((job) => job.visitorId)).toEqual(['visitor-1', 'visitor-2']);
  });

  it('lets one website use the whole budget when nobody else is waiting', async () => {
    const alone = randomUUID();
    await queueJobs(alone, 10, 1_000);
    const [round] = await claimRounds(1, 4);
    expect(round).toHaveLength(4);
  });

  it('never hands a job to two claimers at once', async () => {
    for (let n = 0; n < 6; n++) await queueJobs(randomUUID(), 60, 10_000 + n);
    const claimer = async (workerId: string) => {
      const mine: string[] = [];
      for (;;) {
        const jobs = await claimDueJobs(db.pool, workerId, new Date(), 4);
        if (jobs.length === 0) {
          const { rows } = await db.pool.query<{ left: number }>(`SELECT count(*)::int AS left FROM enrichment_jobs WHERE status = 'queued'`);
          if (rows[0]!.left === 0) return mine;
          continue;
        }
        mine.push(...jobs.map((job) => job.jobId));
      }
    };
    const claimed = (await Promise.all(['w1', 'w2', 'w3', 'w4'].map(claimer))).flat();
    expect(claimed).toHaveLength(360);
    expect(new Set(claimed).size).toBe(360);
  });
});

describe('with many finished jobs in the table', () => {
  it('claims and sweeps through their partial indexes, never reading the whole table', async () => {
    const busy = randomUUID();
    await queueJobs(busy, 20_000, 60_000, 'done');
    await queueJobs(randomUUID(), 2_000, 60_000, 'cancelled');
    await queueJobs(busy, 50, 1_000);
    for (let n = 0; n < 20; n++) await queueJobs(randomUUID(), 300, 2_000);
    await db.pool.query('ANALYZE enrichment_jobs');
    const plan = async (sql: string, values: readonly unknown[]) =>
      (await db.pool.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${sql}`, values: [...values] })).rows.map((row) => row['QUERY PLAN']).join('\n');
    // The claim statement itself, as claimDueJobs sends it (planned, not run).
    let claimStatement: { text: string; values: readonly unknown[] } | undefined;
    const capture = {
      query: async (config: { text: string; values?: readonly unknown[] }) => {
        claimStatement = { text: config.text, values: config.values ?? [] };
        return { rows: [], rowCount: 0 };
      },
    } as unknown as Queryable;
    await claimDueJobs(capture, 'worker-1', new Date(), 4);
    const claim = await plan(claimStatement!.text, claimStatement!.values);
    expect(claim).toContain('enrichment_jobs_queued_by_website');
    expect(claim).not.toMatch(/Seq Scan on enrichment_jobs/);
    const cancelled = await plan(`SELECT job_id FROM enrichment_jobs WHERE status = 'cancelled' AND finished_at >= now() - interval '7 days' LIMIT 100`, []);
    expect(cancelled).toContain('enrichment_jobs_cancelled');
    const stale = await plan(`SELECT job_id FROM enrichment_jobs WHERE status = 'running' AND claimed_at < now() - interval '2 minutes' ORDER BY claimed_at LIMIT 4`, []);
    expect(stale).toContain('enrichment_jobs_running');
  });

  it('sweeps the reactor’s cancellations through enrichment_jobs_cancelled, as the worker sends the sweep, planned for its values or not', async () => {
    await queueJobs(randomUUID(), 20_000, 60_000, 'done');
    // Cancellations long recorded, outside the sweep's window, and a few recent ones.
    const old = randomUUID();
    await queueJobs(old, 3_000, 60_000, 'cancelled');
    await db.pool.query(`UPDATE enrichment_jobs SET finished_at = now() - interval '30 days' WHERE website_id = $1`, [old]);
    await queueJobs(randomUUID(), 50, 60_000, 'cancelled');
    await db.pool.query('ANALYZE enrichment_jobs');
    // The sweep's statement itself, as recordCancelledJobs sends it (planned, not run).
    let sweep: { text: string; values: readonly unknown[] } | undefined;
    const capture = {
      query: async (config: { text: string; values?: readonly unknown[] }) => {
        sweep ??= { text: config.text, values: config.values ?? [] };
        return { rows: [], rowCount: 0 };
      },
    } as unknown as Db;
    await recordCancelledJobs(capture, 'http', new Date(), { limit: 100, withinMs: 7 * 24 * 3_600_000 });
    const custom = (await db.pool.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${sweep!.text}`, values: [...sweep!.values] })).rows;
    // The worker's statement is named, so after a few runs Postgres may plan it once for any values.
    const client = await db.pool.connect();
    let generic: { 'QUERY PLAN': string }[];
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE sweep_probe AS ${sweep!.text}`);
      generic = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE sweep_probe(now(), 604800000, 100)`)).rows;
      await client.query('DEALLOCATE sweep_probe');
    } finally {
      client.release(true);
    }
    for (const rows of [custom, generic]) {
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toContain('Index Scan using enrichment_jobs_cancelled on enrichment_jobs');
      expect(plan).not.toMatch(/Seq Scan on enrichment_jobs/);
    }
  });
});
