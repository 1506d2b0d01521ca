// The consent-records projection: what each record carries, newest first per owner's websites, and
// that applying the same events again (redelivery, replay) changes nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, readCommittedEvents, startOfLog } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { replayProjection } from '../runtime/replay';
import { consentRecordsProjection } from './projection';
import { getLastConsentAt, listConsentRecords } from './queries';

let db: TestDatabase;
const [websiteA, websiteB] = [randomUUID(), randomUUID()];

beforeAll(async () => {
  db = await createTestDatabase('consent_records');
  const appender = createGroupCommitAppender(db.pool);
  for (let minute = 0; minute < 6; minute++) {
    const receivedAt = new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString();
    await appender.append(consentAppendRequest({ websiteId: minute % 2 === 0 ? websiteA : websiteB, choice: minute === 4 ? 'declined' : 'accepted', receivedAt }));
  }
  await appender.close();
  await waitForLogVisible(db.pool);
});
afterAll(async () => {
  await db?.drop();
});

describe('when consents are projected', () => {
  it('lists each website’s records newest first, with the choice and location', async () => {
    await replayProjection(db.pool, consentRecordsProjection);
    const records = await listConsentRecords(db.pool, { websiteIds: [websiteA], limit: 10 });
    expect(records.map((record) => record.timestamp)).toEqual([
      '2026-11-20T10:04:00.000Z',
      '2026-11-20T10:02:00.000Z',
      '2026-11-20T10:00:00.000Z',
    ]);
    expect(records[0]).toMatchObject({ websiteId: websiteA, consentChoice: 'declined', country: 'DE', city: 'Berlin', email: null, ipAddress: '203.0.113.7' });
    expect(records[1]?.consentChoice).toBe('accepted');
    expect(await listConsentRecords(db.pool, { websiteIds: [], limit: 10 })).toEqual([]);
    expect(await listConsentRecords(db.pool, { websiteIds: null, limit: 4 })).toHaveLength(4);
    expect(await getLastConsentAt(db.pool, websiteB)).toBe('2026-11-20T10:05:00.000Z');
    expect(await getLastConsentAt(db.pool, randomUUID())).toBeNull();
  });

  it('stores a redelivered event once', async () => {
    const events = await readCommittedEvents(db.pool, startOfLog, { limit: 100 });
    const client = await db.pool.connect();
    try {
      await consentRecordsProjection.apply(events, client);
      await consentRecordsProjection.apply(events, client);
    } finally {
      client.release();
    }
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM consent_records');
    expect(rows[0].n).toBe(6);
  });
});
