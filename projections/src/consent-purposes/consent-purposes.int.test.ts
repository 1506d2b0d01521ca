// Granular consent in the read models: a log that mixes version 1 choices (written before purposes
// existed, all or nothing) with version 2 ones (per purpose) projects live and replays to the same
// read models, and acceptance per purpose and the Accept All / Reject All / Customized split come out
// of both kinds.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, createLogger, createMemoryBus, type Db } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, uniqueBusConfig, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { consentRecordsProjection } from '../consent-records/projection';
import { consentStatsProjection } from '../consent-stats/projection';
import { getConsentStats } from '../consent-stats/queries';
import type { Projection } from '../projection';
import { startRelay } from '../relay/relay';
import { startProjector } from '../runtime/projector';
import { replayProjection } from '../runtime/replay';
import { consentPurposesProjection } from './projection';
import { getPurposeSummary } from './queries';

const logger = createLogger({ level: 'silent' });
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('purposes');
});
afterAll(async () => {
  await db?.drop();
});

const none = { preferences: false, analytics: false, marketing: false, identification: false };
const projections: Projection[] = [consentStatsProjection, consentRecordsProjection, consentPurposesProjection];

/** A choice as a build from before purposes wrote it: schema version 1, no purpose fields. */
async function appendVersion1(pool: Db, websiteId: string, type: 'ConsentGiven' | 'ConsentDeclined', source: 'banner' | 'gpc', receivedAt: string) {
  const visitorId = randomUUID();
  const data = {
    websiteId,
    visitorId,
    source,
    policyVersion: '1',
    language: 'de-DE',
    pageUrl: 'https://www.example.com/',
    ipAddress: '203.0.113.0',
    userAgent: 'Mozilla/5.0',
    deviceClass: 'desktop',
    country: 'DE',
    city: 'Berlin',
    email: null,
    occurredAt: receivedAt,
    receivedAt,
  };
  await pool.query(
    `INSERT INTO events (event_id, stream_id, type, schema_version, data, metadata) VALUES ($1, $2, $3, 1, $4, '{}')`,
    [randomUUID(), `consent-${websiteId}-${visitorId}`, type, data],
  );
}

async function appendVersion2(pool: Db, websiteId: string, receivedAt: string, choices: { purposes: typeof none; offered?: ('preferences' | 'analytics' | 'marketing' | 'identification')[] }[]) {
  const appender = createGroupCommitAppender(pool);
  for (const choice of choices) {
    const request = consentAppendRequest({ websiteId, receivedAt, purposes: choice.purposes, choice: Object.values(choice.purposes).some(Boolean) ? 'accepted' : 'declined' });
    if (choice.offered) Object.assign(request.event.data, { offered: choice.offered });
    await appender.append(request);
  }
  await appender.close();
}

async function readModel(pool: Db): Promise<Record<string, unknown[]>> {
  const tables = {
    consent_stats_daily: 'website_id, day',
    consent_records: 'event_id',
    consent_purposes_daily: 'website_id, day, method',
  };
  const result: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(tables)) result[table] = (await pool.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
  return result;
}

describe('a log of version 1 and version 2 choices', () => {
  const websiteId = randomUUID();
  const day = '2026-11-02T10:00:00.000Z';

  it('projects live and replays to the same read models, with purposes for both versions', async () => {
    // Before purposes: two acceptances, a decline on the banner and one by GPC.
    await appendVersion1(db.pool, websiteId, 'ConsentGiven', 'banner', day);
    await appendVersion1(db.pool, websiteId, 'ConsentGiven', 'banner', day);
    await appendVersion1(db.pool, websiteId, 'ConsentDeclined', 'banner', day);
    await appendVersion1(db.pool, websiteId, 'ConsentDeclined', 'gpc', day);
    // After: analytics only, marketing and identification on a banner that offers identification,
    // everything (Accept All through consentAppendRequest's default), and a decline.
    await appendVersion2(db.pool, websiteId, day, [
      { purposes: { ...none, analytics: true } },
      {
        purposes: { ...none, marketing: true, identification: true },
        offered: ['preferences', 'analytics', 'marketing', 'identification'],
      },
      { purposes: none },
    ]);
    const appender = createGroupCommitAppender(db.pool);
    await appender.append(consentAppendRequest({ websiteId, receivedAt: day }));
    await appender.close();

    const bus = createMemoryBus(uniqueBusConfig('purposes'));
    const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix: 'test.purposes', logger, name: 'relay-purposes' });
    const projectors = projections.map((projection) =>
      startProjector({ connectionString: db.connectionString, bus, subjectPrefix: 'test.purposes', projection, logger, batchSize: 3 }),
    );
    try {
      await waitFor(async () => (await getPurposeSummary(db.pool, { websiteIds: [websiteId], fromDay: null, toDay: null })).choices === 8, {
        timeoutMs: 20_000,
        message: 'the purposes read model to count 8 choices',
      });
      await waitFor(async () => (await db.pool.query('SELECT count(*)::int AS n FROM consent_records')).rows[0].n === 8, {
        timeoutMs: 20_000,
        message: 'consent records to hold 8 rows',
      });
      // Each projection has its own projector: the stats, read below, must be caught up too before
      // the projectors stop (they once stopped at 6 of the 8 choices on a busy machine).
      await waitFor(async () => (await getConsentStats(db.pool, { websiteIds: [websiteId] })).totalConsents === 8, {
        timeoutMs: 20_000,
        message: 'consent stats to count 8 choices',
      });
    } finally {
      for (const projector of projectors) await projector.stop();
      await relay.stop();
      await bus.close();
    }

    const summary = await getPurposeSummary(db.pool, { websiteIds: [websiteId], fromDay: '2026-11-02', toDay: '2026-11-02' });
    expect(summary.byMethod).toEqual({ accept_all: 3, reject_all: 2, custom: 2, gpc: 1, jurisdiction_default: 0 });
    expect(summary.purposes).toEqual([
      { purpose: 'preferences', offered: 8, granted: 3, acceptanceRate: 37.5 },
      { purpose: 'analytics', offered: 8, granted: 4, acceptanceRate: 50 },
      { purpose: 'marketing', offered: 8, granted: 4, acceptanceRate: 50 },
      { purpose: 'identification', offered: 1, granted: 1, acceptanceRate: 100 },
    ]);
    // The totals the dashboard has always shown are unchanged: 5 consents given, 3 declined.
    const stats = await getConsentStats(db.pool, { websiteIds: [websiteId] });
    expect([stats.totalConsents, stats.declinedConsents]).toEqual([8, 3]);

    const live = await readModel(db.pool);
    for (const projection of projections) await replayProjection(db.pool, projection);
    expect(await readModel(db.pool)).toEqual(live);
  });
});
