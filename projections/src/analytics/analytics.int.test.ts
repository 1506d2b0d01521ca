// The analytics and consent-dimensions projections against the real Postgres: a realistic sequence
// of widget events gives exactly the Site analytics docs/analytics.md defines; and replay, live
// application in batches of any size, and the live projector over the bus all build the same read
// model.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendToStream,
  createLogger,
  createMemoryBus,
  readCommittedEvents,
  startOfLog,
  type Checkpoint,
  type Db,
  type NewEvent,
} from '@consentry/infra';
import { createTestDatabase, uniqueBusConfig, waitFor, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { consentDimensionsProjection } from '../consent-dimensions/projection';
import { getConsentCountsByDimension, getDailyBannerChoices, getDailyBannerImpressions } from '../consent-dimensions/queries';
import { checkpointNameOf, resetReadModel, type Projection } from '../projection';
import { startRelay } from '../relay/relay';
import { applyProjectionBatch, startProjector } from '../runtime/projector';
import { replayProjection } from '../runtime/replay';
import { analyticsProjection } from './projection';
import { getDailyAnalytics, getSiteAnalytics } from './queries';
import { at, bannerShown, visitor } from './testing';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('analytics', { poolSize: 8 });
});
afterAll(async () => {
  await db?.drop();
});

/** Appends events in this order (one transaction per chunk, so log order is array order). */
async function appendInOrder(pool: Db, events: readonly NewEvent[]): Promise<void> {
  const stream = `analytics-test-${randomUUID()}`;
  for (let offset = 0; offset < events.length; offset += 500) {
    await appendToStream(pool, stream, events.slice(offset, offset + 500));
  }
}

async function replayBoth(): Promise<void> {
  await waitForLogVisible(db.pool);
  await replayProjection(db.pool, analyticsProjection);
  await replayProjection(db.pool, consentDimensionsProjection);
}

describe('when visitors browse a website over two days', () => {
  const websiteId = randomUUID();
  const day1 = '2026-03-02T09:00:00.000Z';
  const day2 = '2026-03-03T08:00:00.000Z';

  beforeAll(async () => {
    const alice = visitor(websiteId); // desktop, two visits on day 1, one on day 2
    const bob = visitor(websiteId); // mobile, one engaged visit
    const carol = visitor(websiteId); // declined; her stale widget still sends page views
    const dave = visitor(websiteId); // tablet, day 2

    const aliceHome = alice.view('/', at(day1, 0), { referrer: 'https://www.google.de/search?q=bakery' });
    const aliceMenu = alice.view('/menu', at(day1, 5), { referrer: 'https://www.shop.example.com/' });
    const aliceBack = alice.view('/', at(day1, 60), { referrer: 'https://duckduckgo.com/' });
    const bobContact = bob.view('/contact', at(day1, 10), { deviceClass: 'mobile', referrer: 'https://news.ycombinator.com/item?id=1' });
    const carolSecret = carol.view('/secret', at(day1, 1), { deviceClass: 'mobile', referrer: 'https://www.bing.com/' });
    const daveViews = [dave.view('/', at(day2, 0), { deviceClass: 'tablet' }), dave.view('/menu', at(day2, 10), { deviceClass: 'tablet' }), dave.view('/', at(day2, 20), { deviceClass: 'tablet' })];
    const aliceDay2 = alice.view('/menu', at(day2, 240));

    await appendInOrder(db.pool, [
      bannerShown(websiteId, at(day1, -1)),
      bannerShown(websiteId, at(day1, -1), { deviceClass: 'mobile' }),
      bannerShown(websiteId, at(day1, -1), { deviceClass: 'mobile' }),
      alice.choose('accepted', at(day1, 0)),
      aliceHome,
      carol.choose('declined', at(day1, 0), { deviceClass: 'mobile' }),
      carolSecret,
      carol.hide(carolSecret.pageviewId, 50_000, at(day1, 2)),
      carol.engage(carolSecret.pageviewId, 'tap_to_call', at(day1, 2)),
      // Alice's tab is hidden twice: running totals 10 s, then 25 s.
      alice.hide(aliceHome.pageviewId, 10_000, at(day1, 1)),
      alice.hide(aliceHome.pageviewId, 25_000, at(day1, 4)),
      aliceMenu,
      bob.choose('accepted', at(day1, 9), { deviceClass: 'mobile' }),
      bobContact,
      alice.engage(aliceMenu.pageviewId, 'tap_to_call', at(day1, 5.5)),
      alice.hide(aliceMenu.pageviewId, 30_000, at(day1, 6)),
      bob.engage(bobContact.pageviewId, 'contact_form_submit', at(day1, 11)),
      bob.engage(bobContact.pageviewId, 'location_map_view', at(day1, 12)),
      bob.hide(bobContact.pageviewId, 40_000, at(day1, 12)),
      // 54 minutes after Alice's last activity: a second visit, which bounces.
      aliceBack,
      alice.hide(aliceBack.pageviewId, 20_000, at(day1, 61)),
      bannerShown(websiteId, at(day2, -1), { position: 'top', theme: 'dark', deviceClass: 'tablet' }),
      dave.choose('accepted', at(day2, 0), { deviceClass: 'tablet' }),
      daveViews[0]!,
      dave.hide(daveViews[0]!.pageviewId, 10_000, at(day2, 9)),
      daveViews[1]!,
      dave.hide(daveViews[1]!.pageviewId, 20_000, at(day2, 19)),
      daveViews[2]!,
      dave.hide(daveViews[2]!.pageviewId, 30_000, at(day2, 25)),
      aliceDay2,
      alice.hide(aliceDay2.pageviewId, 15_000, at(day2, 241)),
      carol.choose('declined', at(day2, 300), { source: 'reopened', deviceClass: 'mobile' }),
    ]);
    await replayBoth();
  });

  it('gives the exact Site analytics of both days', async () => {
    expect(await getSiteAnalytics(db.pool, { websiteId, fromDay: '2026-03-02', toDay: '2026-03-03' })).toEqual({
      uniqueVisitors: 3, // Alice counted once over both days; Carol never
      totalPageviews: 8,
      pagesPerVisit: 1.6, // 8 page views / 5 visits
      avgTimeOnSite: 38, // (25 + 30) + 20 + 40 + (10 + 20 + 30) + 15 = 190 s / 5 visits
      bounceRate: 40, // Alice's second visit and her day-2 visit
      topPages: [
        { url: '/', views: 4 },
        { url: '/menu', views: 3 },
        { url: '/contact', views: 1 },
      ],
      topReferrers: [
        { domain: 'Direct', visits: 2 },
        { domain: 'duckduckgo', visits: 1 },
        { domain: 'google', visits: 1 },
        { domain: 'news.ycombinator.com', visits: 1 },
      ],
      mobileEngagement: { locationMapViews: 1, hoursOperationViews: 0, contactFormSubmissions: 1, tapToCallActions: 1 },
      deviceBreakdown: { desktop: 3, mobile: 1, tablet: 1 },
    });
  });

  it('gives the same figures for any range around the two days (rolled-up buckets of 1, 7 and 28 days)', async () => {
    const twoDays = await getSiteAnalytics(db.pool, { websiteId, fromDay: '2026-03-02', toDay: '2026-03-03' });
    for (const [fromDay, toDay] of [['2026-01-01', '2026-03-31'], ['2026-02-26', '2026-03-05'], ['2026-03-02', '2026-05-30']] as const) {
      expect(await getSiteAnalytics(db.pool, { websiteId, fromDay, toDay }), `${fromDay}..${toDay}`).toEqual(twoDays);
    }
  });

  it('gives each day on its own, and the daily series', async () => {
    expect(await getSiteAnalytics(db.pool, { websiteId, fromDay: '2026-03-02', toDay: '2026-03-02' })).toMatchObject({
      uniqueVisitors: 2,
      totalPageviews: 4,
      pagesPerVisit: 1.33,
      avgTimeOnSite: 38, // 115 s / 3
      bounceRate: 33.3,
      deviceBreakdown: { desktop: 2, mobile: 1 },
    });
    expect(await getSiteAnalytics(db.pool, { websiteId, fromDay: '2026-03-03', toDay: '2026-03-03' })).toMatchObject({
      uniqueVisitors: 2,
      totalPageviews: 4,
      pagesPerVisit: 2,
      avgTimeOnSite: 38, // 75 s / 2 = 37.5, rounded
      bounceRate: 50,
      topReferrers: [{ domain: 'Direct', visits: 2 }],
    });
    expect(await getDailyAnalytics(db.pool, { websiteId, fromDay: '2026-03-01', toDay: '2026-03-04' })).toEqual([
      { day: '2026-03-01', uniqueVisitors: 0, pageviews: 0, visits: 0 },
      { day: '2026-03-02', uniqueVisitors: 2, pageviews: 4, visits: 3 },
      { day: '2026-03-03', uniqueVisitors: 2, pageviews: 4, visits: 2 },
      { day: '2026-03-04', uniqueVisitors: 0, pageviews: 0, visits: 0 },
    ]);
  });

  it('gives zeros for a range without data', async () => {
    expect(await getSiteAnalytics(db.pool, { websiteId, fromDay: '2026-04-01', toDay: '2026-04-30' })).toEqual({
      uniqueVisitors: 0,
      totalPageviews: 0,
      pagesPerVisit: 0,
      avgTimeOnSite: 0,
      bounceRate: 0,
      topPages: [],
      topReferrers: [],
      mobileEngagement: { locationMapViews: 0, hoursOperationViews: 0, contactFormSubmissions: 0, tapToCallActions: 0 },
      deviceBreakdown: {},
    });
  });

  it('counts choices per device class and source, and impressions per position and theme', async () => {
    const range = { websiteId, fromDay: '2026-03-02', toDay: '2026-03-03' };
    expect(await getConsentCountsByDimension(db.pool, range)).toEqual([
      { deviceClass: 'desktop', source: 'banner', accepted: 1, declined: 0 },
      { deviceClass: 'mobile', source: 'banner', accepted: 1, declined: 1 },
      { deviceClass: 'mobile', source: 'reopened', accepted: 0, declined: 1 },
      { deviceClass: 'tablet', source: 'banner', accepted: 1, declined: 0 },
    ]);
    expect(await getDailyBannerImpressions(db.pool, range)).toEqual([
      { day: '2026-03-02', position: 'bottom', theme: 'light', impressions: 3 },
      { day: '2026-03-03', position: 'top', theme: 'dark', impressions: 1 },
    ]);
    expect(await getDailyBannerChoices(db.pool, range)).toEqual([
      { day: '2026-03-02', accepted: 2, declined: 1 },
      { day: '2026-03-03', accepted: 1, declined: 0 },
    ]);
  });

  it('stores no visitor id in the analytics tables', async () => {
    const { rows } = await db.pool.query<{ visitor_key: string; visit_pages: unknown }>(
      'SELECT visitor_key, visit_pages FROM analytics_visitors WHERE website_id = $1',
      [websiteId],
    );
    expect(rows).toHaveLength(4); // Alice, Bob, Dave, and Carol's decline
    const dump = JSON.stringify(await db.pool.query('SELECT * FROM analytics_visitors').then((result) => result.rows));
    const { rows: visitorIds } = await db.pool.query<{ id: string }>(
      `SELECT DISTINCT data->>'visitorId' AS id FROM events WHERE data->>'websiteId' = $1 AND data ? 'visitorId'`,
      [websiteId],
    );
    for (const { id } of visitorIds) expect(dump).not.toContain(id);
  });
});

describe('when a website has more than 8 pages', () => {
  it('lists the 8 most viewed, ties by path', async () => {
    const websiteId = randomUUID();
    const v = visitor(websiteId);
    const events: NewEvent[] = [];
    for (let page = 0; page < 10; page++) {
      for (let view = 0; view <= page % 5; view++) events.push(v.view(`/page-${page}`, at('2026-05-01T10:00:00.000Z', page + view / 10)));
    }
    await appendInOrder(db.pool, events);
    await waitForLogVisible(db.pool);
    await replayProjection(db.pool, analyticsProjection);
    const { topPages, totalPageviews } = await getSiteAnalytics(db.pool, { websiteId, fromDay: '2026-05-01', toDay: '2026-05-01' });
    expect(totalPageviews).toBe(30);
    expect(topPages).toEqual([
      { url: '/page-4', views: 5 },
      { url: '/page-9', views: 5 },
      { url: '/page-3', views: 4 },
      { url: '/page-8', views: 4 },
      { url: '/page-2', views: 3 },
      { url: '/page-7', views: 3 },
      { url: '/page-1', views: 2 },
      { url: '/page-6', views: 2 },
    ]);
  });
});

describe('when the same log is applied in different ways', () => {
  const tables = [
    'analytics_daily',
    'analytics_pages',
    'analytics_referrers',
    'analytics_daily_devices',
    'analytics_visitor_days',
    'analytics_visitors',
    'consent_dimensions_daily',
    'banner_impressions_daily',
  ];

  async function readModel(): Promise<Record<string, unknown[]>> {
    const model: Record<string, unknown[]> = {};
    for (const table of tables) {
      const { rows } = await db.pool.query(`SELECT * FROM ${table}`);
      model[table] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return model;
  }

  async function resetProjection(projection: Projection): Promise<void> {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await resetReadModel(projection, client);
      await client.query('DELETE FROM checkpoints WHERE name = $1', [checkpointNameOf(projection)]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }

  /** Applies the log the way the projector does, `batchSize` events per transaction. */
  async function applyLive(projection: Projection, batchSize: number): Promise<void> {
    await resetProjection(projection);
    const client = await db.pool.connect();
    try {
      let checkpoint: Checkpoint = startOfLog;
      for (;;) {
        const events = await readCommittedEvents(client, checkpoint, { limit: batchSize, types: projection.canHandle });
        if (events.length === 0) break;
        await applyProjectionBatch(client, projection, events);
        const last = events.at(-1)!;
        checkpoint = { transactionId: last.transactionId, position: last.position };
      }
    } finally {
      client.release();
    }
  }

  /** Three days of traffic on two websites: 60 visitors, choices, impressions, hides, engagement. */
  function traffic(): NewEvent[] {
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const websites = [randomUUID(), randomUUID()];
    const visitors = Array.from({ length: 60 }, (_, i) => visitor(websites[i % 2]!));
    const pagesOf = new Map<string, string[]>();
    const referrers = [null, 'https://www.google.com/', 'https://www.google.fr/', 'https://duckduckgo.com/', 'https://www.facebook.com/'];
    const devices = ['desktop', 'mobile', 'tablet'] as const;
    const events: NewEvent[] = [];
    let minute = 0;
    for (let i = 0; i < 3000; i++) {
      minute += random() * 1.5;
      const time = at('2026-06-01T00:00:00.000Z', minute);
      const index = Math.floor(random() * visitors.length);
      const v = visitors[index]!;
      const device = devices[index % 3]!;
      const pages = pagesOf.get(v.visitorId) ?? [];
      const roll = random();
      if (roll < 0.05) {
        events.push(bannerShown(websites[index % 2]!, time, { position: random() < 0.5 ? 'top' : 'bottom', deviceClass: device }));
      } else if (roll < 0.1) {
        events.push(v.choose(random() < 0.6 ? 'accepted' : 'declined', time, { deviceClass: device, source: random() < 0.1 ? 'gpc' : 'banner' }));
      } else if (roll < 0.55 || pages.length === 0) {
        const view = v.view(`/p${Math.floor(random() * 20)}`, time, { deviceClass: device, referrer: referrers[Math.floor(random() * referrers.length)]! });
        pages.push(view.pageviewId);
        pagesOf.set(v.visitorId, pages);
        events.push(view);
      } else if (roll < 0.85) {
        events.push(v.hide(pages[Math.floor(random() * pages.length)]!, Math.floor(random() * 300_000), time));
      } else {
        const kinds = ['tap_to_call', 'contact_form_submit', 'location_map_view', 'opening_hours_view'] as const;
        events.push(v.engage(pages[Math.floor(random() * pages.length)]!, kinds[Math.floor(random() * 4)]!, time));
      }
    }
    return events;
  }

  it('replay, live batches of 1, 13 and 700 events, and the live projector all build the same read model', async () => {
    await appendInOrder(db.pool, traffic());
    await replayBoth();
    const replayed = await readModel();
    expect(replayed['analytics_daily']!.length).toBeGreaterThan(0);

    await replayProjection(db.pool, analyticsProjection, { batchSize: 97 });
    await replayProjection(db.pool, consentDimensionsProjection, { batchSize: 97 });
    expect(await readModel()).toEqual(replayed);

    for (const batchSize of [1, 13, 700]) {
      await applyLive(analyticsProjection, batchSize);
      await applyLive(consentDimensionsProjection, batchSize);
      expect(await readModel(), `batches of ${batchSize}`).toEqual(replayed);
    }

    // The projector over the bus: catch-up from the log, then events the relay delivers.
    await resetProjection(analyticsProjection);
    await resetProjection(consentDimensionsProjection);
    const logger = createLogger({ level: 'silent' });
    const config = uniqueBusConfig('analytics');
    const bus = createMemoryBus(config);
    const relay = startRelay({ connectionString: db.connectionString, bus, subjectPrefix: config.subjectPrefix, logger });
    const projectors = [analyticsProjection, consentDimensionsProjection].map((projection) =>
      startProjector({ connectionString: db.connectionString, bus, subjectPrefix: config.subjectPrefix, projection, logger, batchSize: 64 }),
    );
    try {
      // Each projector's checkpoint ends at the last event of the types it handles.
      const lastOf = async (projection: Projection) => {
        const { rows } = await db.pool.query<{ position: number }>('SELECT max(position)::int8 AS position FROM events WHERE type = ANY($1)', [
          projection.canHandle,
        ]);
        return rows[0]!.position;
      };
      const targets = [
        [checkpointNameOf(analyticsProjection), await lastOf(analyticsProjection)],
        [checkpointNameOf(consentDimensionsProjection), await lastOf(consentDimensionsProjection)],
      ] as const;
      await waitFor(
        async () => {
          const { rows } = await db.pool.query<{ name: string; position: number }>('SELECT name, position FROM checkpoints');
          return targets.every(([name, position]) => rows.some((row) => row.name === name && row.position >= position));
        },
        { timeoutMs: 30_000, message: 'both projectors to reach the end of the log' },
      );
      expect(await readModel()).toEqual(replayed);
    } finally {
      await Promise.all(projectors.map((projector) => projector.stop()));
      await relay.stop();
      await bus.close();
    }
  });
});
