// The consent-records projection: what each record carries, newest first per owner's websites, and
// that applying the same events again (redelivery, replay) changes nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, eventColumns, readCommittedEvents, startOfLog, toStoredEvent, type EventRow } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { grantedList } from '@consentry/events';
import { appendLog, at, catchUp, leadVisitor } from '../leads/testing';
import { replayProjection } from '../runtime/replay';
import { projectionSpec } from '../testing/projection-spec';
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

  it('keeps every field the log recorded, in its column', async () => {
    await replayProjection(db.pool, consentRecordsProjection);
    const events = await readCommittedEvents(db.pool, startOfLog, { limit: 100 });
    const { rows } = await db.pool.query(
      `SELECT event_id, website_id, visitor_id, choice, source, policy_version, received_at, occurred_at, ip_address, user_agent,
              device_class, country, city, email, page_url, language, offered, purposes, method, rule, region
         FROM consent_records`,
    );
    expect(rows).toHaveLength(events.length);
    for (const event of events) {
      if (event.type !== 'ConsentGiven' && event.type !== 'ConsentDeclined') throw new Error(`unexpected ${event.type}`);
      const { data } = event;
      expect(rows.find((row) => row.event_id === event.eventId)).toEqual({
        event_id: event.eventId,
        website_id: data.websiteId,
        visitor_id: data.visitorId,
        choice: event.type === 'ConsentGiven' ? 'accepted' : 'declined',
        source: data.source,
        policy_version: data.policyVersion,
        received_at: new Date(data.receivedAt),
        occurred_at: new Date(data.occurredAt),
        ip_address: data.ipAddress,
        user_agent: data.userAgent,
        device_class: data.deviceClass,
        country: data.country,
        city: data.city,
        email: data.email,
        page_url: data.pageUrl,
        language: data.language,
        offered: data.offered,
        purposes: grantedList(data.purposes),
        method: data.method,
        rule: data.rule.rule,
        region: data.rule.region,
      });
    }
    expect(new Set(rows.map((row) => row.choice))).toEqual(new Set(['accepted', 'declined']));
  });

  it('stores a redelivered event once', async () => {
    const events = await readCommittedEvents(db.pool, startOfLog, { limit: 100 });
    const records = projectionSpec(consentRecordsProjection, db.pool);
    await records.given(events).thenRows('SELECT count(*)::int AS n FROM consent_records', [], [{ n: 6 }]);
    await records.given(events).thenRows('SELECT count(*)::int AS n FROM consent_records', [], [{ n: 6 }]);
  });
});

describe('when visitors identify themselves', () => {
  const websiteId = randomUUID();
  const t0 = '2026-11-21T10:00:00.000Z';
  const ada = leadVisitor(websiteId);
  const bob = leadVisitor(websiteId); // never allows identification
  const emailsOf = async (visitorId: string) =>
    (await db.pool.query<{ email: string | null }>('SELECT email FROM consent_records WHERE visitor_id = $1 ORDER BY received_at', [visitorId])).rows.map(
      (row) => row.email,
    );

  beforeAll(async () => {
    await appendLog(db.pool, [
      ada.refuse(t0),
      ada.allow(at(t0, 1)),
      ada.identify(at(t0, 2), { email: 'ada@example.com' }),
      ada.refuse(at(t0, 3)),
      bob.refuse(t0),
      bob.identify(at(t0, 1), { email: 'bob@never.example' }),
      bob.decline(at(t0, 2)),
    ]);
    await catchUp(db.pool, consentRecordsProjection, 2);
  });

  it('fills the email on the records received up to the identification', async () => {
    expect(await emailsOf(ada.visitorId)).toEqual(['ada@example.com', 'ada@example.com', null]);
    const [latest] = await listConsentRecords(db.pool, { websiteIds: [websiteId], limit: 10 });
    expect(latest?.email).toBeNull();
  });

  it('never fills it for a visitor whose choice did not allow identification', async () => {
    expect(await emailsOf(bob.visitorId)).toEqual([null, null]);
  });

  it('fills the same on a replay', async () => {
    await replayProjection(db.pool, consentRecordsProjection);
    expect(await emailsOf(ada.visitorId)).toEqual(['ada@example.com', 'ada@example.com', null]);
    expect(await emailsOf(bob.visitorId)).toEqual([null, null]);
  });

  it('empties it again when an erasure rewrites the identification', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL consentry.maintenance = erasure');
      const { rows } = await client.query<EventRow>({
        text: `UPDATE events SET data = data || '{"email": null, "name": null, "company": null, "pageUrl": null}'::jsonb
                WHERE type = 'VisitorIdentified' AND data->>'visitorId' = $1 RETURNING ${eventColumns}`,
        values: [ada.visitorId],
      });
      await consentRecordsProjection.rewritten!(rows.map(toStoredEvent), client);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await emailsOf(ada.visitorId)).toEqual([null, null, null]);
    await replayProjection(db.pool, consentRecordsProjection);
    expect(await emailsOf(ada.visitorId)).toEqual([null, null, null]);
  });
});
