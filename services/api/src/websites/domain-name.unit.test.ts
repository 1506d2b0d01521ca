import { describe, expect, it } from 'vitest';
import { normaliseDomain } from './domain-name';

describe('a domain as an owner types it', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM ', 'example.com'],
    ['www.example.com', 'example.com'],
    ['https://www.Example.com/', 'example.com'],
    ['http://shop.example.com/menu?x=1#top', 'shop.example.com'],
    ['http://shop.example.com:8080/menu?x=1#top', 'shop.example.com:8080'],
    ['localhost:8080', 'localhost:8080'],
    ['https://WWW.Shop.Lan:8443', 'shop.lan:8443'],
    ['example.com:80', 'example.com'],
    ['shop.example.com/menu', 'shop.example.com'],
    ['example.com:443', 'example.com'],
    ['example.com.', 'example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['www.com', 'www.com'],
    ['localhost', 'localhost'],
    ['blog.www.example.com', 'blog.www.example.com'],
  ])('reads %j as %s', (input, expected) => {
    expect(normaliseDomain(input)).toBe(expected);
  });

  it.each(['', '   ', 'exa mple.com', 'ftp://example.com', 'javascript:alert(1)', 'http://[::1]/', '-example.com', 'example..com', 'a'.repeat(64) + '.com', `${'a'.repeat(2049)}`])(
    'refuses %j',
    (input) => {
      expect(normaliseDomain(input)).toBeNull();
    },
  );
});
