// `consentry status`'s figures against real Postgres: a log of consents on two websites in two
// partitions, the relay's and the projections' checkpoints (one partitioned, one not, a leftover of
// an older layout), dead letters, a seal, and process rows; then the same figures on /metrics.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createGroupCommitAppender, createPool, sealAll, signerFromPrivateKey, type Db } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, freePort, type TestDatabase } from '@consentry/infra/testing';
import { partitionOfWebsite } from '@consentry/projections';
import { createStatusMetrics } from './status-metrics';
import { readSystemStatus, type ReadSystemStatusOptions } from './system-status';

let db: TestDatabase;

/** Two test projections over real event types: all choices, split in two partitions; declines, whole. */
const projections: ReadSystemStatusOptions['projections'] = [
  { name: 'choices', canHandle: ['ConsentGiven', 'ConsentDeclined'] },
  { name: 'declines', canHandle: ['ConsentDeclined'] },
];

/** A website id whose events go to `partition` of 2. */
function websiteIn(partition: number): string {
  for (;;) {
    const id = randomUUID();
    if (partitionOfWebsite(id, 2) === partition) return id;
  }
}
const siteA = websiteIn(0);
const siteB = websiteIn(1);

/** Appends one consent at a time, so the log's order is the order of the calls. */
async function appendInOrder(pool: Db, choices: ReadonlyArray<{ websiteId: string; choice: 'accepted' | 'declined' }>): Promise<string[]> {
  const appender = createGroupCommitAppender(pool);
  const ids: string[] = [];
  for (const choice of choices) ids.push((await appender.append(consentAppendRequest(choice))).eventId);
  await appender.close();
  return ids;
}

async function setCheckpoint(name: string, eventId: string, secondsAgo: number): Promise<void> {
  await db.pool.query(
    `INSERT INTO checkpoints (name, transaction_id, position, updated_at)
     SELECT $1, transaction_id, position, now() - make_interval(secs => $3) FROM events WHERE event_id = $2`,
    [name, eventId, secondsAgo],
  );
}

async function positionOf(eventId: string): Promise<number> {
  const { rows } = await db.pool.query<{ position: number }>('SELECT position FROM events WHERE event_id = $1', [eventId]);
  return rows[0]!.position;
}

async function insertProcess(fields: { host: string; secondsAgo: number; roles: string[]; leaderships: string[] }): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO processes (id, host, pid, roles, started_at, seen_at, leaderships, version)
     VALUES ($1, $2, 1000, $3, now() - interval '1 hour', now() - make_interval(secs => $4), $5, '1.0.0')`,
    [id, fields.host, fields.roles, fields.secondsAgo, fields.leaderships],
  );
  return id;
}

let phase1: string[];
let liveProcess: string;
let silentProcess: string;

beforeAll(async () => {
  db = await createTestDatabase('system_status');
  // Phase 1: A, A, B(declined), A, B(declined), A.
  phase1 = await appendInOrder(db.pool, [
    { websiteId: siteA, choice: 'accepted' },
    { websiteId: siteA, choice: 'accepted' },
    { websiteId: siteB, choice: 'declined' },
    { websiteId: siteA, choice: 'accepted' },
    { websiteId: siteB, choice: 'declined' },
    { websiteId: siteA, choice: 'accepted' },
  ]);
  // The seal covers phase 1 (and is itself an event after it).
  await sealAll(db.pool, signerFromPrivateKey(generateKeyPairSync('ed25519').privateKey));
  // Phase 2, not sealed: A, B(declined), A.
  await appendInOrder(db.pool, [
    { websiteId: siteA, choice: 'accepted' },
    { websiteId: siteB, choice: 'declined' },
    { websiteId: siteA, choice: 'accepted' },
  ]);

  await setCheckpoint('relay', phase1[2]!, 1);
  await setCheckpoint('projection:choices/p0of2', phase1[1]!, 3); // partition 1 has no row: not started
  await setCheckpoint('projection:choices', phase1[0]!, 600); // an older, whole layout
  await setCheckpoint('projection:declines', phase1[4]!, 7);

  const [poisoned, retried] = [phase1[3]!, phase1[5]!];
  await db.pool.query(
    `INSERT INTO projection_dead_letters (projection, event_id, transaction_id, position, stream_id, type, error, resolved_at)
     SELECT 'choices', event_id, transaction_id, position, stream_id, type, 'cannot apply', NULL FROM events WHERE event_id = $1
     UNION ALL
     SELECT 'choices', event_id, transaction_id, position, stream_id, type, 'was fixed', now() FROM events WHERE event_id = $2`,
    [poisoned, retried],
  );

  liveProcess = await insertProcess({ host: 'worker-1', secondsAgo: 1, roles: ['projectors', 'relay'], leaderships: ['relay', 'sealer', 'projection:choices/p0of2'] });
  // A silent process still claiming a lock someone alive holds, and one nobody else holds.
  await insertProcess({ host: 'worker-0', secondsAgo: 60, roles: ['projectors'], leaderships: ['projection:choices/p0of2'] });
  silentProcess = await insertProcess({ host: 'worker-2', secondsAgo: 30, roles: ['projectors'], leaderships: ['projection:declines'] });
  await insertProcess({ host: 'web-1', secondsAgo: 2, roles: ['ingest', 'api'], leaderships: [] });
});
afterAll(async () => {
  await db?.drop();
});

describe('reading the status', () => {
  it('counts the lag of each checkpoint exactly: the relay every event, a partition its types and websites', async () => {
    const status = await readSystemStatus(db.pool, { projections });
    const { rows } = await db.pool.query<{ head: number; after_relay: number }>(
      `SELECT max(position) AS head,
              count(*) FILTER (WHERE (transaction_id, position) > (SELECT transaction_id, position FROM checkpoints WHERE name = 'relay'))::int AS after_relay
         FROM events`,
    );
    const head = rows[0]!.head;
    expect(status.headPosition).toBe(head);
    // Phase 1 after its third event (3), the seal (1), phase 2 (3).
    expect(rows[0]!.after_relay).toBe(7);
    expect(status.relay).toMatchObject({
      name: 'relay',
      partition: null,
      exists: true,
      position: await positionOf(phase1[2]!),
      lag: { events: 7, exact: true, positions: head - (await positionOf(phase1[2]!)) },
      leader: { processId: liveProcess, host: 'worker-1', alive: true },
    });
    expect(status.relay.ageSeconds).toBeGreaterThanOrEqual(1);

    const [choices, declines] = status.projections;
    expect(choices!.name).toBe('choices');
    expect(choices!.checkpoints.map((checkpoint) => [checkpoint.name, checkpoint.partition, checkpoint.exists, checkpoint.lag.events, checkpoint.lag.exact])).toEqual([
      // Partition 0 (website A) after A's second event: A's third and fourth, and phase 2's two.
      ['projection:choices/p0of2', { index: 0, count: 2 }, true, 4, true],
      // Partition 1 (website B) never started: every B choice.
      ['projection:choices/p1of2', { index: 1, count: 2 }, false, 3, true],
    ]);
    expect(choices!.checkpoints[0]).toMatchObject({ position: await positionOf(phase1[1]!), leader: { processId: liveProcess, alive: true } });
    expect(choices!.checkpoints[0]!.ageSeconds).toBeGreaterThanOrEqual(3);
    expect(choices!.checkpoints[1]).toMatchObject({ position: 0, updatedAt: null, ageSeconds: null, leader: null, lag: { positions: head } });
    expect(choices!.otherCheckpoints).toEqual(['projection:choices']);
    expect(choices!.openDeadLetters).toBe(1);

    // Declines after B's second: phase 2's one decline; the accepted ones are not its types.
    expect(declines).toMatchObject({
      name: 'declines',
      otherCheckpoints: [],
      openDeadLetters: 0,
      checkpoints: [{ name: 'projection:declines', partition: null, exists: true, lag: { events: 1, exact: true }, leader: { processId: silentProcess, host: 'worker-2', alive: false } }],
    });
  });

  it('reports the processes, dead letters and the last seal', async () => {
    const status = await readSystemStatus(db.pool, { projections });
    expect(status.processes.map((record) => [record.host, record.alive])).toEqual([
      ['web-1', true],
      ['worker-1', true],
      ['worker-0', false],
      ['worker-2', false],
    ]);
    expect(status.deadLetters).toEqual({ open: 1, byProjection: { choices: 1 } });
    const sealedUpTo = await positionOf(phase1[5]!);
    expect(status.lastSeal).toMatchObject({
      sequence: 1,
      covers: { position: sealedUpTo },
      // Phase 2's three; the seal event itself is not counted.
      since: { events: 3, exact: true, positions: status.headPosition - sealedUpTo },
      leader: { processId: liveProcess },
    });
    expect(status.lastSeal!.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(status.lastSeal!.ageSeconds).toBeLessThan(60);
    expect(Date.parse(status.generatedAt)).toBeGreaterThan(Date.parse(status.lastSeal!.sealedAt) - 1000);
  });

  it('gives a lower bound, marked inexact, for checkpoints older than the counted window', async () => {
    const status = await readSystemStatus(db.pool, { projections, countLimit: 2 });
    // The window is phase 2's last two events.
    expect(status.relay.lag).toMatchObject({ events: 2, exact: false });
    expect(status.projections[1]!.checkpoints[0]!.lag).toMatchObject({ events: 1, exact: false });
    expect(status.lastSeal!.since).toMatchObject({ events: 2, exact: false });
    expect(status.relay.lag.positions).toBeGreaterThanOrEqual(7);
  });

  it('shows a projection without any checkpoint as one whole reader, not started', async () => {
    const status = await readSystemStatus(db.pool, { projections: [{ name: 'never-ran', canHandle: ['ConsentGiven'] }] });
    expect(status.projections).toEqual([
      expect.objectContaining({
        name: 'never-ran',
        otherCheckpoints: [],
        checkpoints: [expect.objectContaining({ name: 'projection:never-ran', exists: false, partition: null, lag: expect.objectContaining({ events: 6, exact: true }) })],
      }),
    ]);
  });
});

describe('the status metrics', () => {
  it('serve the same figures on the registry, read once per cache period', async () => {
    const registry = new Registry();
    createStatusMetrics(registry, db.pool, { projections, cacheMs: 60_000 });
    const text = await registry.metrics();
    expect(text).toContain('consentry_projection_checkpoint_lag_events{projection="choices",partition="p0of2"} 4');
    expect(text).toContain('consentry_projection_checkpoint_lag_events{projection="choices",partition="p1of2"} 3');
    expect(text).toContain('consentry_projection_checkpoint_lag_events{projection="declines",partition=""} 1');
    expect(text).toContain('consentry_projection_partition_leaders{projection="choices",partition="p0of2"} 1');
    expect(text).toContain('consentry_projection_partition_leaders{projection="declines",partition=""} 0');
    expect(text).toContain('consentry_relay_lag_events 7');
    expect(text).toContain('consentry_ledger_unsealed_events 3');
    expect(text).toMatch(/consentry_ledger_last_seal_age_seconds \d/);
    expect(text).toContain('consentry_processes_alive{role="projectors"} 1');
    expect(text).toContain('consentry_processes_alive{role="ingest"} 1');
    expect(text).toContain('consentry_processes_alive{role="jobs"} 0');
    expect(text).not.toContain('consentry_projection_dead_letters');

    // Within the cache period a new event changes nothing; a fresh reading sees it.
    await appendInOrder(db.pool, [{ websiteId: siteB, choice: 'declined' }]);
    expect(await registry.metrics()).toContain('consentry_relay_lag_events 7');
    const fresh = new Registry();
    createStatusMetrics(fresh, db.pool, { projections, cacheMs: 0 });
    const after = await fresh.metrics();
    expect(after).toContain('consentry_relay_lag_events 8');
    expect(after).toContain('consentry_projection_checkpoint_lag_events{projection="declines",partition=""} 2');
  });

  it('leave the gauges empty, without failing the scrape, when the database is away', async () => {
    // A port nothing listens on.
    const away = createPool(`postgres://postgres@127.0.0.1:${await freePort()}/consentry`, { max: 1 });
    const registry = new Registry();
    createStatusMetrics(registry, away, { projections });
    const text = await registry.metrics();
    await away.end();
    expect(text).toContain('# TYPE consentry_relay_lag_events gauge');
    expect(text).not.toMatch(/^consentry_relay_lag_events /m);
  });
});
