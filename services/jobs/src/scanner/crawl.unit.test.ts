// Which pages a scan visits: same-site links without fragments or files, sitemap addresses, and a
// breadth-first queue that never yields an address twice.
import { describe, expect, it } from 'vitest';
import { createCrawlQueue, isSameSite, maxPageUrlLength, pageUrlOf, parseSitemap } from './crawl';

describe('same-site hosts', () => {
  it('are the domain and its subdomains, whatever the case or a leading dot', () => {
    expect(isSameSite('example.com', 'example.com')).toBe(true);
    expect(isSameSite('www.shop.example.com', 'example.com')).toBe(true);
    expect(isSameSite('.Example.COM', 'example.com')).toBe(true);
    expect(isSameSite('WWW.example.com.', 'example.com')).toBe(true);
  });

  it('are not another domain that merely ends the same way, nor the parent domain', () => {
    expect(isSameSite('notexample.com', 'example.com')).toBe(false);
    expect(isSameSite('example.com.evil.net', 'example.com')).toBe(false);
    expect(isSameSite('example.com', 'shop.example.com')).toBe(false);
    expect(isSameSite('example.com', '')).toBe(false);
  });
});

describe('following a link', () => {
  const base = 'https://www.example.com/shop/index.html';
  const follow = (href: string) => pageUrlOf(href, base, 'example.com');

  it('resolves it against the page and drops the fragment and any credentials', () => {
    expect(follow('about')).toBe('https://www.example.com/shop/about');
    expect(follow('/about#team')).toBe('https://www.example.com/about');
    expect(follow('https://user:secret@blog.example.com/post?id=3#top')).toBe('https://blog.example.com/post?id=3');
    expect(follow('http://EXAMPLE.com')).toBe('http://example.com/');
  });

  it('keeps the query string, which can select another page', () => {
    expect(follow('/list?page=2')).toBe('https://www.example.com/list?page=2');
  });

  it('skips other schemes, other sites and files', () => {
    for (const href of ['mailto:shop@example.com', 'tel:+100', 'javascript:void(0)', 'ftp://www.example.com/x', 'data:text/html,hi']) {
      expect(follow(href)).toBeNull();
    }
    expect(follow('https://www.example.org/')).toBeNull();
    expect(follow('https://cdn.example.net/about')).toBeNull();
    for (const file of ['/terms.pdf', '/photo.JPG', '/a/b.zip', '/feed.xml', '/t.pdf?download=1', '/app.js', '/logo.svg']) {
      expect(follow(file)).toBeNull();
    }
    expect(follow('http://[::1')).toBeNull();
  });

  it('skips addresses too long to be a page', () => {
    expect(follow(`/${'a'.repeat(maxPageUrlLength)}`)).toBeNull();
    expect(follow(`/${'a'.repeat(100)}`)).not.toBeNull();
  });
});

describe('reading a sitemap', () => {
  it('lists the pages of a urlset', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>https://www.example.com/</loc><lastmod>2024-01-01</lastmod></url>
        <url>
          <loc>
            https://www.example.com/a?x=1&amp;y=2
          </loc>
        </url>
        <url><loc><![CDATA[https://www.example.com/b?x=1&y=2]]></loc></url>
        <url><loc>https://www.example.com/caf&#233;</loc></url>
        <url><priority>1</priority></url>
      </urlset>`;
    expect(parseSitemap(xml)).toEqual({
      pages: ['https://www.example.com/', 'https://www.example.com/a?x=1&y=2', 'https://www.example.com/b?x=1&y=2', 'https://www.example.com/café'],
      sitemaps: [],
    });
  });

  it('lists the sitemaps of an index, with namespace prefixes', () => {
    const xml = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sm:sitemap><sm:loc>https://www.example.com/pages.xml</sm:loc></sm:sitemap>
      <sm:sitemap><sm:loc>https://www.example.com/posts.xml</sm:loc></sm:sitemap>
    </sm:sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({ pages: [], sitemaps: ['https://www.example.com/pages.xml', 'https://www.example.com/posts.xml'] });
  });

  it('finds nothing in what is no sitemap', () => {
    expect(parseSitemap('<!doctype html><html><body>Not found</body></html>')).toEqual({ pages: [], sitemaps: [] });
    expect(parseSitemap('')).toEqual({ pages: [], sitemaps: [] });
  });
});

describe('the crawl queue', () => {
  it('yields each address once, oldest first', () => {
    const queue = createCrawlQueue();
    expect(queue.add('https://a.example/', 'root')).toBe(true);
    expect(queue.add('https://a.example/x', 'link')).toBe(true);
    expect(queue.add('https://a.example/', 'sitemap')).toBe(false);
    expect(queue.pending).toBe(2);
    expect(queue.next()).toEqual({ url: 'https://a.example/', foundBy: 'root' });
    expect(queue.add('https://a.example/y', 'sitemap')).toBe(true);
    expect(queue.next()).toEqual({ url: 'https://a.example/x', foundBy: 'link' });
    expect(queue.next()).toEqual({ url: 'https://a.example/y', foundBy: 'sitemap' });
    expect(queue.next()).toBeUndefined();
    expect(queue.pending).toBe(0);
  });

  it('never queues an address marked as seen (where a page redirected to)', () => {
    const queue = createCrawlQueue();
    expect(queue.markSeen('https://a.example/final')).toBe(true);
    expect(queue.markSeen('https://a.example/final')).toBe(false);
    expect(queue.add('https://a.example/final', 'link')).toBe(false);
    expect(queue.pending).toBe(0);
  });
});
