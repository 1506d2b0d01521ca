// Known tracker hosts by the database's Domain column: the host or a parent domain, and what most
// of its entries are for.
import { describe, expect, it } from 'vitest';
import type { CookieDatabaseEntry } from './cookie-database';
import { createHostClassifier, getDefaultHostClassifier } from './known-hosts';

let nextId = 0;
const entry = (name: string, category: CookieDatabaseEntry['category'], domain: string | null, platform: string | null = null): CookieDatabaseEntry => ({
  id: String(++nextId).padStart(4, '0'),
  platform,
  category,
  name,
  domain,
  retention: null,
  controller: platform ? `${platform} Inc.` : null,
  privacyPortal: null,
  wildcard: false,
});

describe('a made-up database', () => {
  const classify = createHostClassifier([
    entry('a', 'Marketing', 'ads.test (3rd party)', 'AdCo'),
    entry('b', 'Marketing', '.ads.test', 'AdCo'),
    entry('c', 'Functional', 'ads.test', 'AdCo'),
    entry('d', 'Analytics', 'stats.test', 'Counter'),
    entry('e', 'Functional', 'stats.test', 'Counter'),
    entry('f', 'Marketing', 'mixed.test', 'M'),
    entry('g', 'Analytics', 'mixed.test', 'A'),
    entry('h', 'Security', 'pay.test', 'Pay'),
    entry('i', 'Personalization', 'prefs.test', 'Prefs'),
    entry('j', 'Marketing', null, 'NoHost'),
  ]);

  it('names hosts whose entries are mostly tracking as trackers, by the host or a parent domain', () => {
    expect(classify('ads.test')).toEqual({ purpose: 'marketing', platform: 'AdCo', controller: 'AdCo Inc.' });
    expect(classify('pixel.eu.ads.test')).toEqual({ purpose: 'marketing', platform: 'AdCo', controller: 'AdCo Inc.' });
    expect(classify('.STATS.test')).toEqual({ purpose: 'analytics', platform: 'Counter', controller: 'Counter Inc.' });
  });

  it('takes marketing over analytics on a tie, and the first platform by name on a tie', () => {
    expect(classify('mixed.test')).toEqual({ purpose: 'marketing', platform: 'A', controller: 'A Inc.' });
  });

  it('names other known hosts by their purpose, and knows nothing of unlisted ones', () => {
    expect(classify('checkout.pay.test')).toEqual({ purpose: 'necessary', platform: null, controller: null });
    expect(classify('prefs.test')).toEqual({ purpose: 'preferences', platform: null, controller: null });
    expect(classify('nothing.test')).toBeNull();
    expect(classify('test')).toBeNull();
  });
});

describe('the checked-in database', () => {
  const classify = getDefaultHostClassifier();

  it('knows the big trackers by their hosts', () => {
    expect(classify('region1.google-analytics.com')).toMatchObject({ purpose: 'analytics' });
    expect(classify('ad.doubleclick.net')).toMatchObject({ purpose: 'marketing' });
    expect(classify('www.facebook.com')).toMatchObject({ purpose: 'marketing' });
  });

  it('does not call a payment provider a tracker', () => {
    expect(classify('js.stripe.com')).toMatchObject({ purpose: 'necessary' });
  });
});
