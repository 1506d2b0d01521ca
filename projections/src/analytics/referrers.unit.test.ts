// Referrer grouping of docs/analytics.md: Direct, self-referrals, search engines by name whatever
// their country domain, and plain hosts.
import { describe, expect, it } from 'vitest';
import { directReferrer, referrerDomainOf } from './referrers';

const page = 'https://www.shop.example.com/menu';

describe('referrerDomainOf', () => {
  it.each([
    [null, directReferrer],
    ['', directReferrer],
    ['not a url', directReferrer],
    ['https://www.shop.example.com/', directReferrer],
    ['https://shop.example.com/other', directReferrer],
    ['https://blog.shop.example.com/post', directReferrer],
    ['https://example.com/', directReferrer],
    ['https://www.google.com/', 'google'],
    ['https://www.google.de/', 'google'],
    ['https://google.co.uk/search?q=x', 'google'],
    ['https://www.google.com.br/', 'google'],
    ['https://www.bing.com/search?q=x', 'bing'],
    ['https://cn.bing.com/', 'bing'],
    ['https://search.yahoo.com/', 'yahoo'],
    ['https://de.search.yahoo.com/', 'yahoo'],
    ['https://yahoo.co.jp/', 'yahoo'],
    ['https://duckduckgo.com/', 'duckduckgo'],
    ['https://html.duckduckgo.com/html', 'duckduckgo'],
    ['https://www.facebook.com/some/page', 'facebook.com'],
    ['https://News.YCombinator.com/item?id=1', 'news.ycombinator.com'],
    ['https://google.example.org/', 'google.example.org'],
    ['https://notgoogle.com/', 'notgoogle.com'],
  ])('%s → %s', (referrer, domain) => {
    expect(referrerDomainOf(referrer, page)).toBe(domain);
  });
});
