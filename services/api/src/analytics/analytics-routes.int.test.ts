// The analytics and recommendations endpoints through the api with real sessions: the spec's
// shapes, built from the projections, and another owner's website refused like a missing one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream } from '@consentry/infra';
import { createTestDatabase, waitForLogVisible, type TestDatabase } from '@consentry/infra/testing';
import { analyticsProjection, consentDimensionsProjection, consentStatsProjection, replayProjection } from '@consentry/projections';
import { visitor } from '@consentry/projections/analytics-testing';
import { addWebsiteAs, buildTestApi, registerOwner, type SignedInUser, type TestApi } from '../testing/api-app';

let db: TestDatabase;
let api: TestApi;
let owner: SignedInUser;
let stranger: SignedInUser;
let website: { id: string };
const today = new Date().toISOString().slice(0, 10);
const todayAt = (time: string) => `${today}T${time}.000Z`;

beforeAll(async () => {
  db = await createTestDatabase('analytics_routes');
  api = await buildTestApi(db.pool);
  owner = await registerOwner(api.app);
  stranger = await registerOwner(api.app);
  website = await addWebsiteAs(owner, 'Trattoria', 'trattoria.example.com');
  const guest = visitor(website.id);
  const first = guest.view('/', todayAt('00:01:00'), { referrer: 'https://www.google.de/search?q=pasta', deviceClass: 'mobile' });
  const second = guest.view('/menu', todayAt('00:02:00'), { deviceClass: 'mobile' });
  const events = [
    guest.choose('accepted', todayAt('00:00:30'), { deviceClass: 'mobile' }),
    first,
    guest.hide(first.type === 'PageViewed' ? first.data.pageviewId : '', 40_000, todayAt('00:01:40')),
    second,
    guest.engage(second.type === 'PageViewed' ? second.data.pageviewId : '', 'tap_to_call', todayAt('00:02:30')),
    visitor(website.id).choose('declined', todayAt('00:03:00')),
  ];
  await appendToStream(db.pool, `visits-${website.id}`, events);
  await waitForLogVisible(db.pool);
  for (const projection of [analyticsProjection, consentDimensionsProjection, consentStatsProjection]) await replayProjection(db.pool, projection);
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

describe('GET /api/analytics/website/:websiteId', () => {
  it('answers the site analytics of the range from the projections', async () => {
    const response = await owner.request({ method: 'GET', url: `/api/analytics/website/${website.id}?startDate=${today}&endDate=${today}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      uniqueVisitors: 1,
      totalPageviews: 2,
      pagesPerVisit: 2,
      bounceRate: 0,
      topPages: [
        { url: '/', views: 1 },
        { url: '/menu', views: 1 },
      ],
      topReferrers: [{ domain: 'google', visits: 1 }],
      mobileEngagement: { locationMapViews: 0, hoursOperationViews: 0, contactFormSubmissions: 0, tapToCallActions: 1 },
      deviceBreakdown: { mobile: 1 },
    });
  });

  it('defaults to the last 30 days and refuses a range that makes no sense', async () => {
    expect((await owner.request({ method: 'GET', url: `/api/analytics/website/${website.id}` })).json().totalPageviews).toBe(2);
    const backwards = await owner.request({ method: 'GET', url: `/api/analytics/website/${website.id}?startDate=2026-02-01&endDate=2026-01-01` });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.message).toContain('startDate must not be after endDate');
    expect((await owner.request({ method: 'GET', url: `/api/analytics/website/${website.id}?startDate=2020-01-01&endDate=2026-01-01` })).statusCode).toBe(400);
    expect((await owner.request({ method: 'GET', url: `/api/analytics/website/${website.id}?startDate=yesterday` })).statusCode).toBe(400);
    for (const query of ['startDate=0000-01-01&endDate=0000-01-20', 'startDate=0000-12-31&endDate=0001-01-01', 'endDate=0000-01-01']) {
      const yearZero = await owner.request({ method: 'GET', url: `/api/analytics/website/${website.id}?${query}` });
      expect(yearZero.statusCode, query).toBe(400);
      expect(yearZero.json().error.message).toContain('0001 to 9999');
    }
  });

  it('refuses another owner’s website and anonymous callers', async () => {
    expect((await stranger.request({ method: 'GET', url: `/api/analytics/website/${website.id}` })).statusCode).toBe(404);
    expect((await stranger.request({ method: 'GET', url: `/api/analytics?websiteId=${website.id}&period=7` })).statusCode).toBe(404);
    expect((await api.app.inject({ method: 'GET', url: `/api/analytics/website/${website.id}` })).statusCode).toBe(401);
  });
});

describe('GET /api/analytics/website/:websiteId/daily', () => {
  const daysBefore = (days: number) => new Date(Date.parse(today) - days * 86_400_000).toISOString().slice(0, 10);
  const daily = (user: SignedInUser, query: string) => user.request({ method: 'GET', url: `/api/analytics/website/${website.id}/daily?${query}` });

  it('answers every day of the range, days without traffic as zeros', async () => {
    const response = await daily(owner, `startDate=${daysBefore(6)}&endDate=${today}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      days: [6, 5, 4, 3, 2, 1, 0].map((ago) =>
        ago === 0
          ? { day: today, uniqueVisitors: 1, pageviews: 2, visits: 1 }
          : { day: daysBefore(ago), uniqueVisitors: 0, pageviews: 0, visits: 0 },
      ),
    });
  });

  it('agrees with the site analytics of the same range, and defaults to the same 30 days', async () => {
    const series = (await daily(owner, '')).json().days as { day: string; uniqueVisitors: number; pageviews: number }[];
    expect(series).toHaveLength(30);
    expect(series[0]!.day).toBe(daysBefore(29));
    expect(series.at(-1)!.day).toBe(today);
    const report = (await owner.request({ method: 'GET', url: `/api/analytics/website/${website.id}` })).json();
    expect(series.reduce((sum, day) => sum + day.pageviews, 0)).toBe(report.totalPageviews);
    expect(Math.max(...series.map((day) => day.uniqueVisitors))).toBe(report.uniqueVisitors);
  });

  it('refuses a range the report would refuse, another owner’s website and anonymous callers', async () => {
    expect((await daily(owner, `startDate=${today}&endDate=${daysBefore(1)}`)).statusCode).toBe(400);
    expect((await daily(owner, `startDate=${daysBefore(366)}&endDate=${today}`)).statusCode).toBe(400);
    expect((await daily(owner, 'startDate=soon')).statusCode).toBe(400);
    expect((await daily(owner, `startDate=${daysBefore(365)}&endDate=${today}`)).json().days).toHaveLength(366);
    expect((await daily(stranger, '')).statusCode).toBe(404);
    expect((await api.app.inject({ method: 'GET', url: `/api/analytics/website/${website.id}/daily` })).statusCode).toBe(401);
  });
});

describe('GET /api/recommendations', () => {
  it('answers a report for one website and one per website for all', async () => {
    const response = await owner.request({ method: 'GET', url: `/api/recommendations/website/${website.id}?days=30` });
    expect(response.statusCode).toBe(200);
    const report = response.json();
    expect(report).toMatchObject({ totalConsents: 2, consentRate: 50, mobileConsentRate: 100, desktopConsentRate: 0 });
    expect(Array.isArray(report.recommendations)).toBe(true);
    for (const item of report.recommendations) expect(item.id).toMatch(new RegExp(`:${website.id}$`));
    const all = (await owner.request({ method: 'GET', url: '/api/recommendations/all' })).json();
    expect(all).toEqual([expect.objectContaining({ website: { id: website.id, name: 'Trattoria', domain: 'trattoria.example.com' }, totalConsents: 2 })]);
    expect((await stranger.request({ method: 'GET', url: '/api/recommendations/all' })).json()).toEqual([]);
  });

  it('accepts only the periods 7, 30 and 90, and refuses another owner’s website', async () => {
    expect((await owner.request({ method: 'GET', url: `/api/recommendations/website/${website.id}?days=15` })).statusCode).toBe(400);
    expect((await stranger.request({ method: 'GET', url: `/api/recommendations/website/${website.id}` })).statusCode).toBe(404);
    expect((await api.app.inject({ method: 'GET', url: '/api/recommendations/all' })).statusCode).toBe(401);
  });
});
