// How analytics figures are shown: paths cut at 40 characters, referrers named and grouped, device
// classes in a fixed order.
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../lib/format';
import { getDevices, getTrafficSources, groupTrafficSources, truncatePath } from './traffic';

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
