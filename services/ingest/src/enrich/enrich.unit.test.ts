// The server-side enrichment of collected events: IP minimisation, device class, location and
// receive time, and the origin check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deviceClassOf } from './device-class';
import { createGeoLocator, toLocation } from './geo';
import { ipForStorage, normaliseIp, truncateIp } from './ip-address';
import { isoTimestamp } from './received-at';
import { createOriginCheck, isOriginAllowed } from '../origin';

describe('IP addresses', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0'],
    ['10.0.0.1', '10.0.0.0'],
    ['2001:db8:85a3::8a2e:370:7334', '2001:db8:85a3::'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8:0::'],
    ['::1', '0:0:0::'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0::'],
  ])('truncates %s to %s', (ip, truncated) => {
    expect(truncateIp(ip)).toBe(truncated);
  });

  it('unwraps IPv4-mapped IPv6 and refuses what is not an address', () => {
    expect(normaliseIp('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(normaliseIp('not an ip')).toBeNull();
    expect(normaliseIp(undefined)).toBeNull();
  });

  it('stores full or truncated addresses per website setting', () => {
    expect(ipForStorage('198.51.100.4', 'full')).toBe('198.51.100.4');
    expect(ipForStorage('198.51.100.4', 'truncated')).toBe('198.51.100.0');
    expect(ipForStorage(null, 'truncated')).toBeNull();
  });
});

describe('device classes', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'bot'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'desktop'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'desktop'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0', 'desktop'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bot'],
    ['curl/8.5.0', 'bot'],
    ['', 'unknown'],
  ])('%s is %s', (userAgent, deviceClass) => {
    expect(deviceClassOf(userAgent || undefined)).toBe(deviceClass);
  });
});

describe('origins', () => {
  const origins: Array<[string, boolean]> = [
    ['https://example.com', true],
    ['https://www.example.com', true],
    ['http://a.b.example.com', true],
    ['https://example.com:8443', true],
    ['https://EXAMPLE.com', true],
    ['https://notexample.com', false],
    ['https://example.com.evil.net', false],
    ['ftp://example.com', false],
    ['null', false],
    ['', false],
  ];
  it.each(origins)('%s for example.com: %s', (origin, allowed) => {
    expect(isOriginAllowed(origin || undefined, 'example.com')).toBe(allowed);
  });

  it('remembered answers are the same answers, per website domain', () => {
    const check = createOriginCheck({ maxEntries: 4 });
    for (let round = 0; round < 3; round++) {
      for (const [origin, allowed] of origins) {
        expect(check(origin || undefined, 'example.com'), origin).toBe(allowed);
        expect(check(origin || undefined, 'evil.net'), origin).toBe(origin === 'https://example.com.evil.net');
      }
    }
    const longOrigin = `https://${'a'.repeat(300)}.example.com`;
    expect(check(longOrigin, 'example.com')).toBe(true);
    expect(check(longOrigin, 'example.org')).toBe(false);
  });

  it('a remembered answer never differs from a fresh one', () => {
    const check = createOriginCheck({ maxEntries: 16 });
    const hosts = fc.constantFrom('example.com', 'www.example.com', 'EXAMPLE.com.', 'notexample.com', 'example.com.evil.net', 'evil.net');
    const origin = fc.tuple(fc.constantFrom('https://', 'http://', 'ftp://', ''), hosts, fc.constantFrom('', ':8443', '/')).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(origin, fc.constantFrom('example.com', 'evil.net')), { maxLength: 40 }), (checks) => {
        for (const [value, domain] of checks) expect(check(value, domain)).toBe(isOriginAllowed(value, domain));
      }),
    );
  });
});

describe('receive times', () => {
  it('are what Date#toISOString gives, across days, years and the epoch', () => {
    // Consecutive calls cross midnight both ways, so the remembered day is replaced each time.
    for (const instant of ['1970-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '2024-02-29T23:59:59.999Z', '2024-03-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '2026-05-01T12:34:56.789Z']) {
      expect(isoTimestamp(Date.parse(instant))).toBe(instant);
    }
    fc.assert(
      fc.property(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 }), (ms) => {
        expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 10_000 },
    );
  });

  it('default to now', () => {
    const before = Date.now();
    const stamp = Date.parse(isoTimestamp());
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
  });
});

describe('locations', () => {
  it('are the same for every lookup of an address, and of addresses in the same city', async () => {
    const geo = createGeoLocator('database');
    const first = await geo.locate('8.8.8.8', {});
    expect(first).toEqual({ country: 'US', city: 'Mountain View', subdivision: 'CA' });
    expect(await geo.locate('8.8.8.8', {})).toEqual(first);
    expect(await geo.locate('8.8.4.4', {})).toEqual(first);
    expect(await geo.locate('10.0.0.1', {})).toEqual({ country: null, city: null, subdivision: null });
    expect(await geo.locate(null, {})).toEqual({ country: null, city: null, subdivision: null });
  });

  it('keeps real country codes and cities, drops placeholders', () => {
    expect(toLocation('de', 'Berlin')).toEqual({ country: 'DE', city: 'Berlin', subdivision: null });
    expect(toLocation('XX', '')).toEqual({ country: null, city: null, subdivision: null });
    expect(toLocation('T1', 'x')).toEqual({ country: null, city: 'x', subdivision: null });
    expect(toLocation('US', 'San%20Francisco')).toEqual({ country: 'US', city: 'San Francisco', subdivision: null });
    expect(toLocation(undefined, 'a'.repeat(300)).city).toHaveLength(128);
  });

  it('tell US states apart, by name (the database) or by code (CDN headers), and nothing else', () => {
    expect(toLocation('US', 'Austin', 'Texas').subdivision).toBe('TX');
    expect(toLocation('US', null, 'ca').subdivision).toBe('CA');
    expect(toLocation('US', null, 'District of Columbia').subdivision).toBe('DC');
    expect(toLocation('US', null, 'Atlantis').subdivision).toBeNull();
    expect(toLocation('US', null, 'ZZ').subdivision).toBeNull();
    expect(toLocation('CA', 'Montreal', 'Quebec').subdivision).toBeNull();
    expect(toLocation('GB', 'London', 'England').subdivision).toBeNull();
  });

  it('come from the CDN headers when the deployment sits behind one', async () => {
    const cloudflare = createGeoLocator('cloudflare');
    expect(await cloudflare.locate('8.8.8.8', { 'cf-ipcountry': 'US', 'cf-region-code': 'CA', 'cf-ipcity': 'Fresno' })).toEqual({
      country: 'US',
      city: 'Fresno',
      subdivision: 'CA',
    });
    const cloudfront = createGeoLocator('cloudfront');
    expect((await cloudfront.locate(null, { 'cloudfront-viewer-country': 'US', 'cloudfront-viewer-country-region': 'VA' })).subdivision).toBe('VA');
    const vercel = createGeoLocator('vercel');
    expect((await vercel.locate(null, { 'x-vercel-ip-country': 'US', 'x-vercel-ip-country-region': 'CO' })).subdivision).toBe('CO');
  });
});
