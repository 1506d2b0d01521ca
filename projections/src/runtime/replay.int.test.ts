// Replay beside live readers: the replay's long transaction never appends events, so it must not
// hold back the read horizon — the relay and the other projectors keep going while it runs.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, readCommittedEvents, startOfLog, type DbTransaction, type StoredEvent } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { consentStatsProjection } from '../consent-stats/projection';
import { getConsentStats } from '../consent-stats/queries';
import type { Projection } from '../projection';
import { replayProjection } from './replay';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('replay');
});
afterAll(async () => {
  await db?.drop();
});

async function appendConsents(count: number, websiteId: string): Promise<string[]> {
  const appender = createGroupCommitAppender(db.pool);
  const results = await Promise.all(Array.from({ length: count }, () => appender.append(consentAppendRequest({ websiteId }))));
  await appender.close();
  return results.map((result) => result.eventId);
}

describe('while a replay is in the middle of its transaction', () => {
  it('readers still see newly committed events, and the replay covers what it read', async () => {
    const websiteId = randomUUID();
    await appendConsents(30, websiteId);
    await waitForLogVisible(db.pool);

    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let stalled = () => undefined as void;
    const isStalled = new Promise<void>((resolve) => (stalled = resolve));
    let batches = 0;
    const slow: Projection = {
      ...consentStatsProjection,
      async apply(events: readonly StoredEvent[], tx: DbTransaction) {
        await consentStatsProjection.apply(events, tx);
        if (++batches === 1) {
          stalled();
          await released;
        }
      },
    };
    const replaying = replayProjection(db.pool, slow, { batchSize: 10 });
    await isStalled;

    // The replay now holds a transaction with writes; a new event must still be readable.
    const [fresh] = await appendConsents(1, websiteId);
    const readable = await readCommittedEvents(db.pool, startOfLog, { limit: 1000 });
    expect(readable.map((event) => event.eventId)).toContain(fresh);

    release();
    const summary = await replaying;
    expect(summary.events).toBeGreaterThanOrEqual(30);
    expect((await getConsentStats(db.pool, { websiteIds: [websiteId] })).totalConsents).toBe(summary.events);
    const { rows } = await db.pool.query(`SELECT application_name FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'consentry replay writer'`);
    expect(rows).toHaveLength(0); // the pooled connection got its name back
  });
});
