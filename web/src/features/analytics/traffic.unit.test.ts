// How analytics figures are shown: paths cut at 40 characters, referrers named and grouped, device
// classes in a fixed order, the daily trend summed and put in words.
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../lib/format';
import {
  describeTrafficTrend,
  getBusiestDay,
  getDevices,
  getTrafficSources,
  getTrendPageviews,
  groupTrafficSources,
  truncatePath,
} from './traffic';

describe('truncatePath', () => {
  it('keeps paths of up to 40 characters and cuts longer ones with an ellipsis', () => {
    const forty = `/${'a'.repeat(39)}`;
    expect(truncatePath(forty)).toBe(forty);
    expect(truncatePath(`${forty}b`)).toBe(`${forty}…`);
  });
});

describe('traffic sources', () => {
  const analytics = {
    topReferrers: [
      { domain: 'google', visits: 5 },
      { domain: 'Direct', visits: 4 },
      { domain: 'facebook.com', visits: 3 },
      { domain: 'bing', visits: 1 },
    ],
    deviceBreakdown: { desktop: 10, mobile: 5 },
  };

  it('names search engines and keeps Direct and other domains as given', () => {
    expect(getTrafficSources(analytics).map((source) => [source.label, source.group])).toEqual([
      ['Google', 'Search engines'],
      ['Direct', 'Direct'],
      ['facebook.com', 'Other websites'],
      ['Bing', 'Search engines'],
    ]);
  });

  it('groups visits so the groups add up to every visit', () => {
    expect(groupTrafficSources(analytics)).toEqual([
      { group: 'Direct', visits: 4 },
      { group: 'Search engines', visits: 6 },
      { group: 'Other websites', visits: 3 },
      { group: 'Other referrers', visits: 2 },
    ]);
    expect(groupTrafficSources({ topReferrers: [], deviceBreakdown: {} })).toEqual([]);
  });
});

describe('getDevices', () => {
  it('orders desktop, mobile, tablet, bots, unknown and leaves out empty classes', () => {
    expect(getDevices({ deviceBreakdown: { unknown: 1, tablet: 2, mobile: 0, desktop: 3, bot: 4 } }).map((device) => device.label)).toEqual([
      'Desktop',
      'Tablet',
      'Bots',
      'Unknown',
    ]);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [45, '45s'],
    [70, '1m 10s'],
    [155, '2m 35s'],
    [3725, '1h 2m'],
  ])('%d s → %s', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});

describe('the daily trend', () => {
  const day = (date: string, uniqueVisitors: number, pageviews: number) => ({ day: date, uniqueVisitors, pageviews, visits: uniqueVisitors });
  const week = [
    day('2026-04-28', 0, 0),
    day('2026-04-29', 3, 5),
    day('2026-04-30', 4, 9),
    day('2026-05-01', 2, 9),
    day('2026-05-02', 0, 0),
  ];

  it('adds up the page views and finds the busiest day, the earliest of equals', () => {
    expect(getTrendPageviews(week)).toBe(23);
    expect(getBusiestDay(week)).toEqual(day('2026-04-30', 4, 9));
    expect(getBusiestDay([day('2026-04-28', 0, 0)])).toBeNull();
  });

  it('says the days, the total and the busiest day in one sentence', () => {
    expect(describeTrafficTrend(week)).toBe(
      'Visitors and page views per day, Apr 28, 2026 to May 2, 2026: 23 page views in total; busiest day Apr 30, 2026 with 4 visitors and 9 page views',
    );
    expect(describeTrafficTrend([day('2026-05-02', 1, 1)])).toBe(
      'Visitors and page views per day, May 2, 2026: 1 page view in total; busiest day May 2, 2026 with 1 visitor and 1 page view',
    );
    expect(describeTrafficTrend([day('2026-05-02', 0, 0)])).toBe('Visitors and page views per day, May 2, 2026: no page views');
    expect(describeTrafficTrend([])).toBe('Visitors and page views per day: no days');
  });
});
