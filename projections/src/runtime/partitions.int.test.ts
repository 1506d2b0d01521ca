// Partitioned projectors against real Postgres and NATS: the per-website projections split into P
// partitions, two "processes" (sets of projector instances) sharing them, one of them stopping
// mid-stream and the other taking its partitions over, with the read model equal to the log at
// the end; a projector configured for another partition count refusing to run; and a replay
// moving a projection to a new count.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, createLogger, createNatsBus, type Db } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, deleteNatsStream, natsUrl, uniqueBusConfig, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { consentStatsProjection } from '../consent-stats/projection';
import { startRelay } from '../relay/relay';
import { consentStatsFromLog, consentStatsRows, countConsentEvents, projectedConsentTotal } from '../testing/pipeline';
import { filterSubjectFor, subjectOf, toBusMessage } from './bus-encoding';
import {
  checkPartitionLayout,
  lockProjectionCheckpoints,
  parseCheckpointName,
  partitionCheckpointName,
  partitionOfWebsite,
  partitionsOf,
  PartitionLayoutError,
} from './partitions';
import { startProjector, type Projector } from './projector';
import { replayProjection } from './replay';

const logger = createLogger({ level: 'silent' });
const websites = Array.from({ length: 24 }, () => randomUUID());
let db: TestDatabase;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  db = await createTestDatabase('partitions', { poolSize: 12 });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  await db.pool.query('DELETE FROM consent_stats_daily');
  await db.pool.query('DELETE FROM checkpoints');
});
afterAll(async () => {
  await db?.drop();
});

async function appendSpread(pool: Db, count: number, offset = 0): Promise<void> {
  const appender = createGroupCommitAppender(pool);
  await Promise.all(
    Array.from({ length: count }, (_, index) => {
      const n = index + offset;
      const receivedAt = new Date(Date.UTC(2026, 10, 1 + (n % 4), 9, n % 60)).toISOString();
      return appender.append(consentAppendRequest({ websiteId: websites[n % websites.length]!, choice: n % 4 === 0 ? 'declined' : 'accepted', receivedAt }));
    }),
  );
  await appender.close();
}

async function expectStatsToMatchLog(): Promise<void> {
  const expected = await countConsentEvents(db.pool);
  await waitFor(async () => (await projectedConsentTotal(db.pool)) >= expected, { timeoutMs: 40_000, message: `consent stats to reach ${expected}` });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await projectedConsentTotal(db.pool)).toBe(expected);
  expect(await consentStatsRows(db.pool)).toEqual(await consentStatsFromLog(db.pool));
}

describe('the partition of a website', () => {
  it('is the same every time, within range, and spreads websites over every partition', () => {
    const counts = new Array<number>(4).fill(0);
    for (let i = 0; i < 400; i++) {
      const id = randomUUID();
      const partition = partitionOfWebsite(id, 4);
      expect(partition).toBe(partitionOfWebsite(id, 4));
      expect(partition).toBeGreaterThanOrEqual(0);
      expect(partition).toBeLessThan(4);
      counts[partition]!++;
    }
    // 400 random websites over 4 partitions: each gets a fair share (100 expected; 50 is ~6 sigma off).
    for (const count of counts) expect(count).toBeGreaterThan(50);
    expect(partitionOfWebsite(websites[0], 1)).toBe(0);
    expect(partitionOfWebsite(undefined, 8)).toBe(0);
  });

  it('travels in the subject, and a partition filter receives only its own', () => {
    const event = { type: 'ConsentGiven', data: { websiteId: websites[0] } };
    const partition = partitionOfWebsite(websites[0], 4);
    expect(subjectOf('p.x', 'ConsentGiven', partition)).toBe(`p.x.consent.ConsentGiven.p${partition}`);
    expect(toBusMessage('p.x', { ...event, eventId: randomUUID() } as never, 4).subject).toBe(`p.x.consent.ConsentGiven.p${partition}`);
    expect(filterSubjectFor('p.x', ['ConsentGiven', 'ConsentDeclined'], { index: 2, count: 4 })).toBe('p.x.consent.*.p2');
    expect(filterSubjectFor('p.x', ['ConsentGiven', 'PageViewed'], { index: 1, count: 4 })).toBe('p.x.*.*.p1');
    // A whole projection keeps the family filter, which also covers subjects without a partition token.
    expect(filterSubjectFor('p.x', ['ConsentGiven'], { index: 0, count: 1 })).toBe('p.x.consent.>');
  });

  it('is named in the checkpoint, and read back from it', () => {
    expect(partitionCheckpointName(consentStatsProjection, { index: 3, count: 8 })).toBe('projection:consent-stats/p3of8');
    expect(partitionCheckpointName(consentStatsProjection, { index: 0, count: 1 })).toBe('projection:consent-stats');
    expect(parseCheckpointName('projection:consent-stats/p3of8')).toEqual({ projection: 'consent-stats', partition: { index: 3, count: 8 } });
    expect(parseCheckpointName('projection:consent-stats')).toEqual({ projection: 'consent-stats', partition: { index: 0, count: 1 } });
    expect(parseCheckpointName('projection:consent-stats/p8of8')).toBeNull();
    expect(parseCheckpointName('relay')).toBeNull();
  });
});

describe('partitioned projectors over NATS', () => {
  it('two processes share the partitions; when one stops, the other takes its partitions over and nothing is lost or counted twice', async () => {
    const config = uniqueBusConfig('partitions');
    const bus = await createNatsBus({ ...config, url: natsUrl });
    cleanups.push(() => deleteNatsStream(config.stream));
    cleanups.push(() => bus.close());
    const partitions = partitionsOf(consentStatsProjection, 3);
    expect(partitions).toHaveLength(3);
    const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix: config.subjectPrefix, logger, partitions: 3 });
    cleanups.push(() => relay.stop());
    const startProcess = (): Projector[] => {
      const projectors = partitions.map((partition) =>
        startProjector({ connectionString: db.connectionString, bus, subjectPrefix: config.subjectPrefix, projection: consentStatsProjection, partition, logger, batchSize: 100 }),
      );
      cleanups.push(() => Promise.all(projectors.map((projector) => projector.stop())));
      return projectors;
    };

    await appendSpread(db.pool, 600);
    const first = startProcess();
    await waitFor(async () => first.filter((projector) => projector.isLeader()).length === 3, { timeoutMs: 10_000, message: 'the first process to lead every partition' });
    const second = startProcess();
    const appending = appendSpread(db.pool, 3000, 600);
    await waitFor(async () => (await projectedConsentTotal(db.pool)) > 1200, { timeoutMs: 20_000, message: 'projection under way' });
    // The first process goes away mid-stream: its locks go with its connections.
    await Promise.all(first.map((projector) => projector.stop()));
    await waitFor(async () => second.filter((projector) => projector.isLeader()).length === 3, { timeoutMs: 15_000, message: 'the second process to take every partition' });
    await appending;
    await expectStatsToMatchLog();

    // One checkpoint per partition, and no whole-projection checkpoint.
    const { rows } = await db.pool.query<{ name: string }>(`SELECT name FROM checkpoints WHERE name LIKE 'projection:consent-stats%' ORDER BY name`);
    expect(rows.map((row) => row.name)).toEqual(['projection:consent-stats/p0of3', 'projection:consent-stats/p1of3', 'projection:consent-stats/p2of3']);
    // Every event is at or before its own partition's checkpoint.
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      const checkpoints = await lockProjectionCheckpoints(client, consentStatsProjection);
      expect(checkpoints.count).toBe(3);
      const { rows: events } = await client.query<{ data: { websiteId: string }; transactionId: number; position: number }>(
        `SELECT data, transaction_id::text::int8 AS "transactionId", position FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined')`,
      );
      expect(checkpoints.firstUnapplied(events)).toBeUndefined();
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });
});

describe('the partition layout', () => {
  it('a projector configured for another count refuses to run, and replay moves the projection to the new count', async () => {
    const config = uniqueBusConfig('layout');
    const bus = await createNatsBus({ ...config, url: natsUrl });
    cleanups.push(() => deleteNatsStream(config.stream));
    cleanups.push(() => bus.close());
    await appendSpread(db.pool, 400);
    // Built in 2 partitions.
    await replayProjection(db.pool, consentStatsProjection, { partitions: 2 });
    await expectStatsToMatchLog();
    const built = await projectedConsentTotal(db.pool);

    // A process started with PROJECTOR_PARTITIONS=4 finds checkpoints of 2 and applies nothing.
    const client = await db.pool.connect();
    try {
      await expect(checkPartitionLayout(client, consentStatsProjection, { index: 0, count: 4 })).rejects.toBeInstanceOf(PartitionLayoutError);
      await expect(checkPartitionLayout(client, consentStatsProjection, { index: 1, count: 2 })).resolves.toBeUndefined();
    } finally {
      client.release();
    }
    const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix: config.subjectPrefix, logger, partitions: 4 });
    cleanups.push(() => relay.stop());
    const wrong = partitionsOf(consentStatsProjection, 4).map((partition) =>
      startProjector({ connectionString: db.connectionString, bus, subjectPrefix: config.subjectPrefix, projection: consentStatsProjection, partition, logger }),
    );
    cleanups.push(() => Promise.all(wrong.map((projector) => projector.stop())));
    await appendSpread(db.pool, 200, 400);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await projectedConsentTotal(db.pool)).toBe(built);
    const { rows: beforeReplay } = await db.pool.query<{ name: string }>(`SELECT name FROM checkpoints WHERE name LIKE 'projection:consent-stats%' ORDER BY name`);
    expect(beforeReplay.map((row) => row.name)).toEqual(['projection:consent-stats/p0of2', 'projection:consent-stats/p1of2']);

    // The way to change the count: replay under the new one. The old layout's checkpoints go.
    await Promise.all(wrong.map((projector) => projector.stop()));
    await replayProjection(db.pool, consentStatsProjection, { partitions: 4 });
    const { rows: afterReplay } = await db.pool.query<{ name: string }>(`SELECT name FROM checkpoints WHERE name LIKE 'projection:consent-stats%' ORDER BY name`);
    expect(afterReplay.map((row) => row.name)).toEqual([0, 1, 2, 3].map((index) => `projection:consent-stats/p${index}of4`));
    await expectStatsToMatchLog();

    // Now projectors of 4 partitions run, and carry on from the replay.
    const right = partitionsOf(consentStatsProjection, 4).map((partition) =>
      startProjector({ connectionString: db.connectionString, bus, subjectPrefix: config.subjectPrefix, projection: consentStatsProjection, partition, logger }),
    );
    cleanups.push(() => Promise.all(right.map((projector) => projector.stop())));
    await appendSpread(db.pool, 300, 600);
    await expectStatsToMatchLog();
  });
});
