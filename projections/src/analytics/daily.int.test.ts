// The daily traffic series of the analytics read model (the Traffic view's visitors and page views
// chart): every day of the range, days without traffic as zeros, and figures that agree with the
// Site analytics of the same days, applied as a projector applies a batch (projectionSpec).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { projectionSpec } from '../testing/projection-spec';
import { analyticsProjection } from './projection';
import { getDailyAnalytics, getSiteAnalytics, type AnalyticsRange, type DailyAnalytics } from './queries';
import { at, visitor } from './testing';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('analytics_daily_series');
});
afterAll(async () => {
  await db?.drop();
});

const addDays = (day: string, days: number) => new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);

/** Every figure of the series is the report's for that day; the page views add up to the range's. */
async function expectSeriesAgreesWithReport(range: AnalyticsRange, series: readonly DailyAnalytics[]) {
  const report = await getSiteAnalytics(db.pool, range);
  expect(series.reduce((sum, day) => sum + day.pageviews, 0)).toBe(report.totalPageviews);
  // A visitor of several days counts once in the range and on each of their days.
  expect(Math.max(0, ...series.map((day) => day.uniqueVisitors))).toBeLessThanOrEqual(report.uniqueVisitors);
  expect(series.reduce((sum, day) => sum + day.uniqueVisitors, 0)).toBeGreaterThanOrEqual(report.uniqueVisitors);
  for (const day of series) {
    const oneDay = await getSiteAnalytics(db.pool, { websiteId: range.websiteId, fromDay: day.day, toDay: day.day });
    expect({ day: day.day, uniqueVisitors: day.uniqueVisitors, pageviews: day.pageviews }).toEqual({
      day: day.day,
      uniqueVisitors: oneDay.uniqueVisitors,
      pageviews: oneDay.totalPageviews,
    });
  }
}

describe('when a website has traffic on some days of a week', () => {
  const websiteId = randomUUID();
  const range = { websiteId, fromDay: '2026-05-01', toDay: '2026-05-07' };

  beforeAll(async () => {
    const alice = visitor(websiteId);
    const bob = visitor(websiteId);
    const carol = visitor(websiteId); // declined: her page views count nowhere
    const dave = visitor(websiteId);
    const aliceHome = alice.view('/', '2026-05-01T09:00:00.000Z');
    await projectionSpec(analyticsProjection, db.pool)
      .given([
        // The day before the range: not in the series, and Alice still counts once in the range.
        alice.view('/', '2026-04-30T09:00:00.000Z'),
        alice.choose('accepted', '2026-05-01T08:59:00.000Z'),
        aliceHome,
        alice.hide(aliceHome.pageviewId, 20_000, at('2026-05-01T09:00:00.000Z', 1)),
        alice.view('/menu', at('2026-05-01T09:00:00.000Z', 2)),
        carol.choose('declined', '2026-05-02T10:00:00.000Z'),
        carol.view('/secret', '2026-05-02T10:01:00.000Z'),
        alice.view('/', '2026-05-03T12:00:00.000Z'),
        bob.choose('accepted', '2026-05-03T12:30:00.000Z', { deviceClass: 'mobile' }),
        bob.view('/contact', '2026-05-03T12:31:00.000Z', { deviceClass: 'mobile' }),
        bob.view('/', '2026-05-03T12:35:00.000Z', { deviceClass: 'mobile' }),
        // A visit across midnight after the range's last day: its second page view is on the 8th.
        dave.choose('accepted', '2026-05-07T23:49:00.000Z'),
        dave.view('/', '2026-05-07T23:50:00.000Z'),
        dave.view('/menu', '2026-05-08T00:05:00.000Z'),
      ])
      .then(async () => {});
  });

  it('answers every day of the range in order, days without traffic as zeros', async () => {
    expect(await getDailyAnalytics(db.pool, range)).toEqual([
      { day: '2026-05-01', uniqueVisitors: 1, pageviews: 2, visits: 1 },
      { day: '2026-05-02', uniqueVisitors: 0, pageviews: 0, visits: 0 },
      { day: '2026-05-03', uniqueVisitors: 2, pageviews: 3, visits: 2 },
      { day: '2026-05-04', uniqueVisitors: 0, pageviews: 0, visits: 0 },
      { day: '2026-05-05', uniqueVisitors: 0, pageviews: 0, visits: 0 },
      { day: '2026-05-06', uniqueVisitors: 0, pageviews: 0, visits: 0 },
      { day: '2026-05-07', uniqueVisitors: 1, pageviews: 1, visits: 1 },
    ]);
  });

  it('agrees with the Site analytics of the same range and of each of its days', async () => {
    const series = await getDailyAnalytics(db.pool, range);
    await expectSeriesAgreesWithReport(range, series);
    const report = await getSiteAnalytics(db.pool, range);
    expect(report).toMatchObject({ uniqueVisitors: 3, totalPageviews: 6 });
  });

  it('answers one row for a one-day range and zeros for a range without traffic', async () => {
    expect(await getDailyAnalytics(db.pool, { websiteId, fromDay: '2026-05-08', toDay: '2026-05-08' })).toEqual([
      { day: '2026-05-08', uniqueVisitors: 1, pageviews: 1, visits: 0 },
    ]);
    const empty = await getDailyAnalytics(db.pool, { websiteId: randomUUID(), fromDay: '2026-05-01', toDay: '2026-05-30' });
    expect(empty).toHaveLength(30);
    expect(empty.every((day) => day.uniqueVisitors === 0 && day.pageviews === 0 && day.visits === 0)).toBe(true);
    expect(empty[0]!.day).toBe('2026-05-01');
    expect(empty[29]!.day).toBe('2026-05-30');
  });

  it('refuses a backwards range and one longer than 366 days instead of reading without bound', async () => {
    await expect(getDailyAnalytics(db.pool, { websiteId, fromDay: '2026-05-07', toDay: '2026-05-01' })).rejects.toThrow(RangeError);
    await expect(getDailyAnalytics(db.pool, { websiteId, fromDay: '2025-01-01', toDay: '2026-05-01' })).rejects.toThrow(RangeError);
    expect(await getDailyAnalytics(db.pool, { websiteId, fromDay: '2025-05-01', toDay: addDays('2025-05-01', 365) })).toHaveLength(366);
  });
});

describe('when many visitors come and go over a month, in several batches', () => {
  const websiteId = randomUUID();
  const range = { websiteId, fromDay: '2026-06-01', toDay: '2026-06-30' };

  beforeAll(async () => {
    // A small deterministic generator, so a failure reproduces.
    let seed = 42;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const events: NewEvent[] = [];
    const visitors = Array.from({ length: 25 }, () => visitor(websiteId));
    for (const [index, guest] of visitors.entries()) {
      // Each visitor's events in time order; some visitors decline part-way.
      let time = Date.parse('2026-05-30T00:00:00.000Z') + Math.floor(next() * 5 * 86_400_000);
      events.push(guest.choose('accepted', new Date(time).toISOString()));
      const views = 1 + Math.floor(next() * 12);
      for (let view = 0; view < views; view++) {
        time += Math.floor(next() * 4 * 86_400_000);
        const receivedAt = new Date(time).toISOString();
        if (index % 7 === 0 && view === 3) events.push(guest.choose('declined', receivedAt));
        events.push(guest.view(`/page-${Math.floor(next() * 5)}`, receivedAt));
      }
    }
    // Log order is time order, as the ingest service would record them; applied in three batches.
    events.sort((a, b) => Date.parse((a.data as { receivedAt: string }).receivedAt) - Date.parse((b.data as { receivedAt: string }).receivedAt));
    const spec = projectionSpec(analyticsProjection, db.pool);
    const third = Math.ceil(events.length / 3);
    for (let offset = 0; offset < events.length; offset += third) await spec.given(events.slice(offset, offset + third)).then(async () => {});
  });

  it('agrees with the Site analytics for the month, a week inside it, and a range past its end', async () => {
    for (const [fromDay, toDay] of [
      ['2026-06-01', '2026-06-30'],
      ['2026-06-08', '2026-06-14'],
      ['2026-06-20', '2026-07-20'],
    ] as const) {
      const series = await getDailyAnalytics(db.pool, { websiteId, fromDay, toDay });
      expect(series).toHaveLength((Date.parse(toDay) - Date.parse(fromDay)) / 86_400_000 + 1);
      await expectSeriesAgreesWithReport({ websiteId, fromDay, toDay }, series);
    }
    const month = await getDailyAnalytics(db.pool, range);
    expect(month.some((day) => day.pageviews > 0)).toBe(true);
    expect(month.some((day) => day.pageviews === 0)).toBe(true);
  });
});
