// Classifying what the scanner finds by the Open Cookie Database: real entries from the checked-in
// data (exact names, prefixes, storage keys, names shared by several platforms), the ranking rules
// on small made-up databases, and the speed a 25-page scan needs.
import { describe, expect, it } from 'vitest';
import { classifyCookie, createCookieClassifier, getDefaultCookieClassifier, hostsOfDomainField, normalizeHost, prefixOf } from './classify';
import type { CookieDatabaseEntry } from './database';
import { describeClassification, purposeDescriptions } from './descriptions';

const cookie = (name: string, domain?: string) => classifyCookie({ name, domain, kind: 'cookie' });

describe('classifying by the checked-in database', () => {
  it('knows Google Analytics by its exact name and by its prefix', () => {
    expect(cookie('_ga')).toMatchObject({ purpose: 'analytics', category: 'Analytics', platform: 'Google Analytics', controller: 'Google', match: 'exact', databaseName: '_ga' });
    expect(cookie('_ga_XXXX', '.example.com')).toMatchObject({ purpose: 'analytics', platform: 'Google Analytics', match: 'prefix', databaseName: '_ga_' });
    expect(cookie('_ga_ABC123')).toMatchObject({ databaseId: 'd7496a0e-7f4b-4e20-b288-9d5e4852fa79' });
  });

  it('knows Meta and Google Ads marketing cookies, also when set first-party on the site', () => {
    expect(cookie('_fbp', '.example.com')).toMatchObject({ purpose: 'marketing', platform: 'Facebook', controller: 'Facebook', retention: '4 months' });
    expect(cookie('_gcl_au')).toMatchObject({ purpose: 'marketing', platform: 'Google', category: 'Marketing' });
  });

  it('classifies session and security cookies as necessary', () => {
    expect(cookie('__cf_bm', '.example.com')).toMatchObject({ purpose: 'necessary', category: 'Functional', platform: 'Cloudflare' });
    expect(cookie('PHPSESSID')).toMatchObject({ purpose: 'necessary', platform: 'PHP.net' });
    expect(cookie('XSRF-TOKEN')).toMatchObject({ purpose: 'necessary', category: 'Security', platform: null });
    expect(cookie('_rails_session')).toMatchObject({ purpose: 'necessary', category: 'Necessary', platform: 'Ruby on Rails' });
  });

  it('maps Personalization to preferences', () => {
    expect(cookie('sidebarPinned')).toMatchObject({ purpose: 'preferences', category: 'Personalization', platform: 'Salesforce' });
  });

  it('classifies storage keys the same way', () => {
    expect(classifyCookie({ name: 'ab.storage.deviceId.6a1c1b6e-0d5c', domain: 'shop.example.com', kind: 'localStorage' })).toMatchObject({
      purpose: 'analytics',
      platform: 'Braze',
      match: 'prefix',
    });
    expect(classifyCookie({ name: 'recently_viewed_product', kind: 'localStorage' })).toMatchObject({ purpose: 'necessary', platform: 'Magento' });
    expect(classifyCookie({ name: '_hjSessionStorageTest', kind: 'sessionStorage' })).toMatchObject({ platform: 'Hotjar' });
  });

  it('returns null for a name the database does not know', () => {
    expect(cookie('consentry_unknown_cookie', '.example.com')).toBeNull();
    expect(cookie('')).toBeNull();
  });

  it('prefers the longest prefix', () => {
    expect(cookie('_gac_gb_UA-1234')).toMatchObject({ databaseName: '_gac_gb_', platform: 'Google Ads' });
    expect(cookie('_gac_UA-1234')).toMatchObject({ databaseName: '_gac_', platform: 'Google Analytics' });
  });

  it('treats names as case-sensitive: the database lists different cookies that differ only in case', () => {
    expect(cookie('SSID')).toMatchObject({ platform: 'Google' });
    expect(cookie('ssid')).toMatchObject({ platform: 'Springserve' });
    expect(cookie('phpsessid')).toBeNull();
  });

  describe('when a name belongs to two platforms', () => {
    it('picks the one whose host matches the domain, with or without a leading dot, subdomains too', () => {
      expect(cookie('token', '.adnxs.com')).toMatchObject({ platform: 'Xandr', purpose: 'necessary' });
      expect(cookie('token', 'ib.adnxs.com')).toMatchObject({ platform: 'Xandr' });
      expect(cookie('token', 'adform.net')).toMatchObject({ platform: 'Adform', purpose: 'marketing' });
      expect(cookie('token', '.track.adform.net')).toMatchObject({ platform: 'Adform' });
      expect(cookie('DSID', '.doubleclick.net')).toMatchObject({ platform: 'DoubleClick/Google Marketing' });
    });

    it('takes the lowest database id when the domain says nothing', () => {
      expect(cookie('token')).toMatchObject({ platform: 'Adform', databaseId: '256c5196-d881-11e9-8a34-2a2ae2dbcce4' });
      expect(cookie('token', 'www.example.com')).toMatchObject({ platform: 'Adform' });
    });

    it('lets a prefix on its own host beat an exact name on another host', () => {
      // "_s" is Shopify's exact name on shopify.com and Marfeel's prefix on events.newsroom.bi.
      expect(cookie('_s', 'shopify.com')).toMatchObject({ platform: 'Shopify', match: 'exact' });
      expect(cookie('_s', 'events.newsroom.bi')).toMatchObject({ platform: 'Marfeel' });
      expect(cookie('_s123', 'events.newsroom.bi')).toMatchObject({ platform: 'Marfeel', match: 'prefix' });
    });
  });

  describe('when a prefix is short and ends without a separator', () => {
    it('claims names only on its own host, so "_session" and "captcha" stay unclassified', () => {
      expect(cookie('_session_id', '.example.com')).toBeNull(); // not Marfeel's "_s"
      expect(cookie('captcha_token')).toBeNull(); // not Adhese's "cap"
      expect(cookie('SRV_ID')).toBeNull(); // not Adform's "SR"
      expect(cookie('SR_abc', '.adform.net')).toMatchObject({ platform: 'Adform', databaseName: 'SR' });
    });
  });

  it('reads the prefixes the database writes without setting Wildcard match', () => {
    expect(cookie('Hm_lvt_0123abcd')).toMatchObject({ platform: 'Baidu', match: 'prefix', databaseName: 'Hm_lvt_' });
    expect(cookie('pm_sess_123')).toMatchObject({ platform: 'Google AdSense', databaseName: 'pm_sess_NNN' });
    expect(cookie('UID_EXT_42', '.undertone.com')).toMatchObject({ platform: 'Undertone', databaseName: 'UID_EXT_*' });
  });

  it('looks past the __Secure- and __Host- name prefixes browsers enforce', () => {
    expect(cookie('__Secure-next-auth.session-token')).toMatchObject({ platform: 'NextAuth.js', purpose: 'necessary' });
    expect(cookie('__Host-next-auth.csrf-token')).toMatchObject({ platform: 'NextAuth.js' });
  });

  // How fast (around 10 ms for these 10,000 here) is not asserted: tests check results, never time.
  it('classifies 10,000 names of every kind', () => {
    const classifier = getDefaultCookieClassifier();
    const kinds = [(i: number) => `_ga_${i}`, () => '_fbp', (i: number) => `unknown_${i}`, (i: number) => `Hm_lvt_${i}`, () => 'token', (i: number) => `intercom-session-${i}`, (i: number) => `x${i}`];
    const known = new Set<number>();
    for (let index = 0; index < 10_000; index++) {
      const kind = index % kinds.length;
      const name = kinds[kind]!(index);
      if (classifier.classify({ name, domain: index % 2 ? '.example.com' : null, kind: 'cookie' })) known.add(kind);
    }
    // The patterns of the database match whatever the suffix; made-up names match nothing.
    expect([...known].sort()).toEqual([0, 1, 3, 4, 5]);
  });
});

describe('createCookieClassifier', () => {
  const entry = (overrides: Partial<CookieDatabaseEntry> & Pick<CookieDatabaseEntry, 'id' | 'name'>): CookieDatabaseEntry => ({
    platform: `platform ${overrides.id}`,
    category: 'Analytics',
    domain: null,
    retention: null,
    controller: null,
    privacyPortal: null,
    wildcard: false,
    ...overrides,
  });

  it('breaks ties by the lowest id, not by the order of the list', () => {
    const classifier = createCookieClassifier([entry({ id: 'b', name: 'same' }), entry({ id: 'a', name: 'same' })]);
    expect(classifier.classify({ name: 'same', kind: 'cookie' })).toMatchObject({ databaseId: 'a' });
  });

  it('prefers an entry without a host to one naming another host', () => {
    const classifier = createCookieClassifier([entry({ id: 'a', name: 'n', domain: 'vendor.com' }), entry({ id: 'b', name: 'n' })]);
    expect(classifier.classify({ name: 'n', domain: 'example.com', kind: 'cookie' })).toMatchObject({ databaseId: 'b' });
    expect(classifier.classify({ name: 'n', domain: 'cdn.vendor.com', kind: 'cookie' })).toMatchObject({ databaseId: 'a' });
  });

  it('prefers an exact name to a prefix that covers it', () => {
    const classifier = createCookieClassifier([entry({ id: 'a', name: 'abc_', wildcard: true }), entry({ id: 'b', name: 'abc_def' })]);
    expect(classifier.classify({ name: 'abc_def', kind: 'cookie' })).toMatchObject({ databaseId: 'b', match: 'exact' });
    expect(classifier.classify({ name: 'abc_xyz', kind: 'cookie' })).toMatchObject({ databaseId: 'a', match: 'prefix' });
  });

  it('counts its entries', () => {
    expect(createCookieClassifier([entry({ id: 'a', name: 'x' })]).entryCount).toBe(1);
    expect(getDefaultCookieClassifier().entryCount).toBe(2264);
  });
});

describe('reading the database fields', () => {
  it('reads the hosts of a Domain field in the shapes the database writes', () => {
    expect(hostsOfDomainField('.linkedin.com')).toEqual(['linkedin.com']);
    expect(hostsOfDomainField('Inspectlet.com (3rd party)')).toEqual(['inspectlet.com']);
    expect(hostsOfDomainField('.bing.com (3rd party) or .microsoft.com (3rd party)')).toEqual(['bing.com', 'microsoft.com']);
    expect(hostsOfDomainField('google-analytics.com (3rd party) or')).toEqual(['google-analytics.com']);
    expect(hostsOfDomainField('.amplitude.com.')).toEqual(['amplitude.com']);
    expect(hostsOfDomainField('ads-[account].adhese.com')).toEqual(['adhese.com']);
    expect(hostsOfDomainField('ut')).toEqual([]);
    expect(hostsOfDomainField(null)).toEqual([]);
  });

  it('normalizes a cookie domain or host', () => {
    expect(normalizeHost(' .Example.COM. ')).toBe('example.com');
    expect(normalizeHost('localhost:8080')).toBe('localhost');
    expect(normalizeHost('.')).toBeNull();
  });

  it('finds the prefix of an entry', () => {
    expect(prefixOf({ name: '_ga_', wildcard: true })).toBe('_ga_');
    expect(prefixOf({ name: '_ga', wildcard: false })).toBeNull();
    expect(prefixOf({ name: 'SSPR_*', wildcard: false })).toBe('SSPR_');
    expect(prefixOf({ name: 'aboutads_sessNNN', wildcard: false })).toBe('aboutads_sess');
    expect(prefixOf({ name: 'wp-settings-', wildcard: false })).toBe('wp-settings-');
  });
});

describe('descriptions', () => {
  it('has our own sentence for every category and for unclassified items', () => {
    expect(describeClassification(cookie('_ga'))).toMatch(/statistics/);
    expect(describeClassification(null)).toBe(purposeDescriptions.unclassified);
  });
});
