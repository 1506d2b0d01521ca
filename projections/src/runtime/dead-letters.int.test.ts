// Dead letters against real Postgres: an event a projection cannot apply (written into the log
// before the edge refused such data, or by a projection bug) is set aside, and every other event —
// of every website, before and after it — is projected; the projector never wedges. Then retry and
// replay resolve it once the projection can apply it.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, createLogger, createMemoryBus, readCheckpoint, readCommittedEvents, startOfLog, type DbTransaction, type StoredEvent } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, uniqueBusConfig, waitFor, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { consentRecordsProjection } from '../consent-records/projection';
import { checkpointNameOf, type Projection } from '../projection';
import { startRelay } from '../relay/relay';
import { applyProjectionBatch, startProjector } from './projector';
import { countOpenDeadLetters, listDeadLetters, retryDeadLetters } from './dead-letters';
import { replayProjection } from './replay';

const logger = createLogger({ level: 'silent' });
let db: TestDatabase;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  db = await createTestDatabase('dead_letters');
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  for (const table of ['consent_records', 'checkpoints', 'projection_dead_letters']) await db.pool.query(`DELETE FROM ${table}`);
  await db.pool.query(`ALTER TABLE events DISABLE TRIGGER events_append_only`);
  await db.pool.query(`DELETE FROM events`);
  await db.pool.query(`ALTER TABLE events ENABLE TRIGGER events_append_only`);
});
afterAll(async () => {
  await db?.drop();
});

async function appendConsents(websiteIds: readonly string[], perWebsite: number): Promise<void> {
  const appender = createGroupCommitAppender(db.pool);
  await Promise.all(websiteIds.flatMap((websiteId) => Array.from({ length: perWebsite }, () => appender.append(consentAppendRequest({ websiteId })))));
  await appender.close();
}

/**
 * A ConsentGiven whose website id is not a uuid, written straight into the log (the edge refuses
 * it; an older version or a hand-made import might not have). consent_records cannot store it.
 */
async function appendPoisonedConsent(): Promise<string> {
  const eventId = randomUUID();
  const valid = consentAppendRequest({ websiteId: randomUUID() });
  await db.pool.query(
    `INSERT INTO events (event_id, stream_id, type, schema_version, data) VALUES ($1, $2, 'ConsentGiven', 1, $3)`,
    [eventId, `consent-poisoned`, JSON.stringify({ ...valid.event.data, websiteId: 'not-a-website' })],
  );
  return eventId;
}

const recordCount = async (websiteId: string) =>
  (await db.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM consent_records WHERE website_id = $1', [websiteId])).rows[0]!.count;

/** The projection as it would be once fixed: it skips what it cannot store, instead of failing. */
const fixedConsentRecords: Projection = {
  ...consentRecordsProjection,
  apply: (events: readonly StoredEvent[], tx: DbTransaction) =>
    consentRecordsProjection.apply(
      events.filter((event) => 'websiteId' in event.data && /^[0-9a-f-]{36}$/.test(String(event.data.websiteId))),
      tx,
    ),
};

describe('a live projector meeting an event it cannot apply', () => {
  it('projects every good event of every website before and after it, parks the bad one once, and moves its checkpoint past it', async () => {
    const [websiteA, websiteB] = [randomUUID(), randomUUID()];
    await appendConsents([websiteA, websiteB], 20); // caught up from the log
    const poisoned = await appendPoisonedConsent();

    const bus = createMemoryBus(uniqueBusConfig('deadletters'));
    const parked: string[] = [];
    const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix: 'test.dl', logger });
    const projector = startProjector({
      connectionString: db.connectionString,
      bus,
      subjectPrefix: 'test.dl',
      projection: consentRecordsProjection,
      logger,
      batchSize: 50,
      onParked: (event) => parked.push(event.eventId),
    });
    cleanups.push(() => bus.close(), () => relay.stop(), () => projector.stop());

    await waitFor(async () => (await recordCount(websiteA)) === 20 && (await recordCount(websiteB)) === 20, { message: 'the events before the poisoned one' });
    await appendConsents([websiteA, websiteB], 15); // after it, delivered by the bus
    await appendPoisonedConsent(); // a second one, arriving live
    await appendConsents([websiteB], 5);
    await waitFor(async () => (await recordCount(websiteA)) === 35 && (await recordCount(websiteB)) === 40, { message: 'the events after the poisoned ones' });
    await waitFor(async () => parked.length === 2, { message: 'both poisoned events parked' });

    const letters = await listDeadLetters(db.pool);
    expect(letters.map((letter) => letter.eventId)).toContain(poisoned);
    expect(letters).toHaveLength(2);
    expect(letters[0]).toMatchObject({ projection: 'consent-records', type: 'ConsentGiven', attempts: 1, resolvedAt: null });
    expect(letters[0]!.error).toMatch(/uuid.*SQLSTATE 22P02/);
    expect(await countOpenDeadLetters(db.pool)).toEqual(new Map([['consent-records', 2]]));
    const checkpoint = await readCheckpoint(db.pool, checkpointNameOf(consentRecordsProjection));
    const { rows } = await db.pool.query<{ position: number }>('SELECT max(position)::int8 AS position FROM events');
    expect(checkpoint.position).toBe(rows[0]!.position);
  });
});

describe('applying a batch', () => {
  it('rethrows a failure of the database itself and parks nothing: the batch is retried as it is', async () => {
    await appendConsents([randomUUID()], 3);
    await waitForLogVisible(db.pool);
    const { rows } = await db.pool.query(`SELECT event_id FROM events`);
    expect(rows).toHaveLength(3);
    const unreachable: Projection = {
      ...consentRecordsProjection,
      apply: async () => {
        throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      },
    };
    const events = await readCommittedEvents(db.pool, startOfLog, { limit: 10 });
    const client = await db.pool.connect();
    try {
      await expect(applyProjectionBatch(client, unreachable, events)).rejects.toThrow(/administrator command/);
    } finally {
      client.release();
    }
    expect(await listDeadLetters(db.pool)).toEqual([]);
    expect((await readCheckpoint(db.pool, checkpointNameOf(unreachable))).position).toBe(0);
  });
});

describe('once the projection is fixed', () => {
  it('retry applies the parked events and resolves them; a retry that still fails keeps them open', async () => {
    const websiteId = randomUUID();
    await appendConsents([websiteId], 5);
    const poisoned = await appendPoisonedConsent();
    const summary = await replayProjection(db.pool, consentRecordsProjection, { batchSize: 4 });
    expect(summary.parked).toBe(1);
    expect(await recordCount(websiteId)).toBe(5);

    const stillFailing = await retryDeadLetters(db.pool, [consentRecordsProjection]);
    expect(stillFailing).toEqual([expect.objectContaining({ eventId: poisoned, outcome: 'failed' })]);
    expect((await listDeadLetters(db.pool))[0]).toMatchObject({ eventId: poisoned, attempts: 2, resolvedAt: null });

    const retried = await retryDeadLetters(db.pool, [fixedConsentRecords]);
    expect(retried).toEqual([{ projection: 'consent-records', eventId: poisoned, outcome: 'applied' }]);
    expect(await listDeadLetters(db.pool)).toEqual([]);
    expect(await listDeadLetters(db.pool, { includeResolved: true })).toEqual([expect.objectContaining({ eventId: poisoned, resolvedAt: expect.any(String) })]);
    expect(await countOpenDeadLetters(db.pool)).toEqual(new Map());
  });

  it('a replay resolves what now applies and parks again what still fails', async () => {
    const websiteId = randomUUID();
    await appendConsents([websiteId], 3);
    const poisoned = await appendPoisonedConsent();
    await appendConsents([websiteId], 3);

    expect((await replayProjection(db.pool, consentRecordsProjection)).parked).toBe(1);
    expect((await replayProjection(db.pool, consentRecordsProjection)).parked).toBe(1);
    expect(await listDeadLetters(db.pool)).toEqual([expect.objectContaining({ eventId: poisoned, attempts: 2 })]);
    expect(await recordCount(websiteId)).toBe(6);

    expect((await replayProjection(db.pool, fixedConsentRecords)).parked).toBe(0);
    expect(await listDeadLetters(db.pool)).toEqual([]);
    expect(await recordCount(websiteId)).toBe(6);
  });
});
