// The enrichment-queue reactor against the real Postgres: one job per identification with an email
// and per company match, only for visitors whose latest choice allows identification, each queued
// once however often its event is applied; a withdrawal cancels the jobs still waiting, and only
// those queued before it, even when a replay applies it again.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCommittedEvents, startOfLog } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { appendLog, at, catchUp, leadVisitor, type LogEntry } from '../leads/testing';
import { replayProjection } from '../runtime/replay';
import { enrichmentJobIdOf, enrichmentQueueProjection } from './projection';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('enrichment_queue');
});
afterAll(async () => {
  await db?.drop();
});

interface JobRow {
  job_id: string;
  source_event_id: string;
  visitor_id: string;
  provider: string;
  input: unknown;
  status: string;
  deadline_at: Date;
  next_attempt_at: Date;
  last_error: string | null;
}

const jobsOf = async (visitorId: string): Promise<JobRow[]> =>
  (await db.pool.query<JobRow>('SELECT * FROM enrichment_jobs WHERE visitor_id = $1 ORDER BY deadline_at, job_id', [visitorId])).rows;
const countJobs = async (): Promise<number> => (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM enrichment_jobs')).rows[0]!.n;

describe('when visitors identify themselves', () => {
  const websiteId = randomUUID();
  const t0 = '2026-04-01T09:00:00.000Z';
  const ada = leadVisitor(websiteId);
  const bob = leadVisitor(websiteId); // never allows identification
  const frank = leadVisitor(websiteId); // an opt-out default granting everything
  let adaEvents: LogEntry[];

  beforeAll(async () => {
    adaEvents = [
      ada.allow(t0),
      ada.identify(at(t0, 1), { email: 'ada@gmail.com', company: 'Analytical Engines' }),
      ada.identify(at(t0, 2), { email: 'ada@analytical.example' }),
      ada.matchCompany(at(t0, 3), { asn: 64500, organisation: 'Analytical Engines Ltd' }),
    ];
    await appendLog(db.pool, [
      ...adaEvents,
      bob.refuse(t0),
      bob.identify(at(t0, 1), { email: 'bob@never.example' }),
      bob.matchCompany(at(t0, 1), { asn: 64501, organisation: 'Bob Inc' }),
      frank.choose(t0, { method: 'jurisdiction_default', granted: ['analytics', 'identification'] }),
      frank.identify(at(t0, 1), { email: 'frank@opt-out.example' }),
    ]);
    await catchUp(db.pool, enrichmentQueueProjection);
  });

  it('queues a job for each, keyed by its event, with what is known and a 24-hour deadline', async () => {
    const [, byGmail, byWork, byNetwork] = adaEvents;
    expect(await jobsOf(ada.visitorId)).toEqual([
      expect.objectContaining({
        job_id: enrichmentJobIdOf(byGmail!.eventId),
        source_event_id: byGmail!.eventId,
        provider: 'default',
        status: 'queued',
        // A free-mail domain says nothing about the company.
        input: { email: 'ada@gmail.com', domain: null, company: 'Analytical Engines' },
        deadline_at: new Date(at(t0, 1 + 24 * 60)),
      }),
      expect.objectContaining({
        job_id: enrichmentJobIdOf(byWork!.eventId),
        input: { email: 'ada@analytical.example', domain: 'analytical.example', company: null },
        deadline_at: new Date(at(t0, 2 + 24 * 60)),
      }),
      expect.objectContaining({
        job_id: enrichmentJobIdOf(byNetwork!.eventId),
        input: { email: null, domain: null, company: 'Analytical Engines Ltd' },
        deadline_at: new Date(at(t0, 3 + 24 * 60)),
      }),
    ]);
    for (const job of await jobsOf(ada.visitorId)) expect(job.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('queues nothing for visitors whose choice does not allow identification', async () => {
    expect(await jobsOf(bob.visitorId)).toEqual([]);
    expect(await jobsOf(frank.visitorId)).toEqual([]);
  });

  it('queues each job once when its events are applied again, or replayed', async () => {
    const before = await db.pool.query('SELECT * FROM enrichment_jobs ORDER BY job_id');
    const events = await readCommittedEvents(db.pool, startOfLog, { limit: 1000, types: enrichmentQueueProjection.canHandle });
    const client = await db.pool.connect();
    try {
      // Past the runtime's checkpoint, as a redelivery that slipped through would be.
      for (let round = 0; round < 2; round++) {
        await client.query('BEGIN');
        await enrichmentQueueProjection.apply(events, client);
        await client.query('COMMIT');
      }
    } finally {
      client.release();
    }
    await replayProjection(db.pool, enrichmentQueueProjection);
    expect((await db.pool.query('SELECT * FROM enrichment_jobs ORDER BY job_id')).rows).toEqual(before.rows);
    expect(await countJobs()).toBe(3);
  });
});

describe('when a visitor withdraws identification', () => {
  const websiteId = randomUUID();
  const t0 = '2026-04-02T09:00:00.000Z';

  it('cancels their waiting jobs, leaves finished ones, and keeps jobs of a later identification through a replay', async () => {
    const carol = leadVisitor(websiteId);
    const first = [carol.allow(t0), carol.identify(at(t0, 1), { email: 'carol@one.example' }), carol.identify(at(t0, 2), { email: 'carol@two.example' })];
    await appendLog(db.pool, first);
    await catchUp(db.pool, enrichmentQueueProjection);
    const [running, done] = await jobsOf(carol.visitorId);
    // The worker has one of them running and finished the other.
    await db.pool.query(`UPDATE enrichment_jobs SET status = 'running', claimed_by = 'worker-1', claimed_at = now() WHERE job_id = $1`, [running!.job_id]);
    await db.pool.query(`UPDATE enrichment_jobs SET status = 'done', finished_at = now() WHERE job_id = $1`, [done!.job_id]);

    await appendLog(db.pool, [carol.refuse(at(t0, 3))]);
    await catchUp(db.pool, enrichmentQueueProjection);
    expect((await jobsOf(carol.visitorId)).map((job) => [job.status, job.last_error])).toEqual([
      ['cancelled', 'Identification withdrawn'],
      ['done', null],
    ]);

    // An identification while withdrawn (ingest refuses it) queues nothing; after a new grant it does.
    await appendLog(db.pool, [carol.identify(at(t0, 4), { email: 'carol@withdrawn.example' }), carol.allow(at(t0, 5)), carol.identify(at(t0, 6), { email: 'carol@three.example' })]);
    await catchUp(db.pool, enrichmentQueueProjection);
    const afterGrant = await jobsOf(carol.visitorId);
    expect(afterGrant.map((job) => [(job.input as { email: string }).email, job.status])).toEqual([
      ['carol@one.example', 'cancelled'],
      ['carol@two.example', 'done'],
      ['carol@three.example', 'queued'],
    ]);

    // A replay applies the old withdrawal again: it reaches only the jobs queued before it.
    await replayProjection(db.pool, enrichmentQueueProjection);
    expect((await jobsOf(carol.visitorId)).map((job) => job.status)).toEqual(['cancelled', 'done', 'queued']);
  });

  it('queues a job already cancelled when the withdrawal comes in the same batch', async () => {
    const dave = leadVisitor(websiteId);
    await appendLog(db.pool, [
      dave.allow(t0),
      dave.identify(at(t0, 1), { email: 'dave@one.example' }),
      dave.decline(at(t0, 2)),
      dave.allow(at(t0, 3)),
      dave.identify(at(t0, 4), { email: 'dave@two.example' }),
    ]);
    await catchUp(db.pool, enrichmentQueueProjection, 1000);
    expect((await jobsOf(dave.visitorId)).map((job) => [(job.input as { email: string }).email, job.status])).toEqual([
      ['dave@one.example', 'cancelled'],
      ['dave@two.example', 'queued'],
    ]);
  });
});
