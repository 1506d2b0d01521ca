// Which Origins may record events for a website: its domain and subdomains, over http(s), whatever
// port the page is served on or the domain names.
import { describe, expect, it } from 'vitest';
import { isOriginAllowed } from './origin';

describe('the Origin check', () => {
  it.each([
    ['https://shop.example', 'shop.example'],
    ['https://www.shop.example', 'shop.example'],
    ['http://shop.example:8080', 'shop.example'],
    ['http://shop.lan:8080', 'shop.lan:8080'],
    ['http://blog.shop.lan:9000', 'shop.lan:8080'],
  ])('allows %s for %s', (origin, domain) => {
    expect(isOriginAllowed(origin, domain)).toBe(true);
  });

  it.each([
    ['https://other.example', 'shop.example'],
    ['https://evilshop.example', 'shop.example'],
    ['http://other.lan:8080', 'shop.lan:8080'],
    ['ftp://shop.lan:8080', 'shop.lan:8080'],
    [undefined, 'shop.lan:8080'],
  ])('refuses %s for %s', (origin, domain) => {
    expect(isOriginAllowed(origin, domain)).toBe(false);
  });
});
