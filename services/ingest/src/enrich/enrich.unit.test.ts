// The server-side enrichment of collected events: IP minimisation, device class and location.
import { describe, expect, it } from 'vitest';
import { deviceClassOf } from './device-class';
import { toLocation } from './geo';
import { ipForStorage, normaliseIp, truncateIp } from './ip-address';
import { isOriginAllowed } from '../origin';

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
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/126.0 Safari/537.36', 'bot'],
    ['', 'unknown'],
  ])('%s is %s', (userAgent, deviceClass) => {
    expect(deviceClassOf(userAgent || undefined)).toBe(deviceClass);
  });
});

describe('origins', () => {
  it.each([
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
  ])('%s for example.com: %s', (origin, allowed) => {
    expect(isOriginAllowed(origin || undefined, 'example.com')).toBe(allowed);
  });
});

describe('locations', () => {
  it('keeps real country codes and cities, drops placeholders', () => {
    expect(toLocation('de', 'Berlin')).toEqual({ country: 'DE', city: 'Berlin' });
    expect(toLocation('XX', '')).toEqual({ country: null, city: null });
    expect(toLocation('T1', 'x')).toEqual({ country: null, city: 'x' });
    expect(toLocation('US', 'San%20Francisco')).toEqual({ country: 'US', city: 'San Francisco' });
    expect(toLocation(undefined, 'a'.repeat(300)).city).toHaveLength(128);
  });
});
