// Which pages a scan visits: same-site http(s) pages found from the root, its links and its
// sitemap, breadth-first, each once. Pure functions and a small queue; the browser work is elsewhere.

/** True when `host` is `domain` or one of its subdomains. */
export function isSameSite(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/^\.+|\.+$/g, '');
  const d = domain.toLowerCase().replace(/^\.+|\.+$/g, '');
  return d !== '' && (h === d || h.endsWith(`.${d}`));
}

/** Longer addresses are skipped: they are rarely pages, and the scan's events bound their length. */
export const maxPageUrlLength = 2048;

// Links to files rather than pages: opening them downloads or shows media, never a banner.
const fileExtension =
  /\.(?:pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|mov|avi|mkv|webm|ogg|wav|flac|docx?|xlsx?|pptx?|odt|ods|csv|json|xml|txt|rss|atom|exe|dmg|msi|apk|iso|css|js|woff2?|ttf|eot)$/i;

/**
 * The page address a link points to, or null when the crawl should not follow it: not http(s), on
 * another site, a file, or unparseable. Fragments are dropped (`/about#team` is `/about`), so are
 * credentials; the query string is kept, since it can select a different page.
 */
export function pageUrlOf(href: string, base: string, domain: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!isSameSite(url.hostname, domain)) return null;
  if (fileExtension.test(url.pathname)) return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  const page = url.toString();
  return page.length <= maxPageUrlLength ? page : null;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(text);
  if (cdata) return cdata[1]!.trim();
  return text
    .replace(/&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos));/gi, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
      if (dec) return String.fromCodePoint(Number.parseInt(dec, 10));
      return entities[name!.toLowerCase()] ?? whole;
    })
    .trim();
}

/**
 * The addresses in a sitemap (sitemaps.org): page addresses from `<url><loc>`, and further sitemaps
 * from a sitemap index's `<sitemap><loc>`. Tolerant of namespaces prefixes and CDATA; anything that
 * is not a sitemap yields nothing.
 */
export function parseSitemap(xml: string): { pages: string[]; sitemaps: string[] } {
  const pages: string[] = [];
  const sitemaps: string[] = [];
  const block = /<(?:[\w-]+:)?(url|sitemap)\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?\1\s*>/gi;
  const loc = /<(?:[\w-]+:)?loc\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?loc\s*>/i;
  for (const match of xml.matchAll(block)) {
    const found = loc.exec(match[2]!);
    if (!found) continue;
    const address = decodeXmlText(found[1]!);
    if (address === '') continue;
    (match[1]!.toLowerCase() === 'sitemap' ? sitemaps : pages).push(address);
  }
  return { pages, sitemaps };
}

export type FoundBy = 'root' | 'link' | 'sitemap';

export interface CrawlQueue {
  /** Queues a page unless it was queued before; false when it was. */
  add(url: string, foundBy: FoundBy): boolean;
  /** The next page, oldest first; undefined when none is left. */
  next(): { url: string; foundBy: FoundBy } | undefined;
  /** Marks an address as seen without queueing it (where a page redirected to). */
  markSeen(url: string): boolean;
  readonly pending: number;
}

/** A breadth-first queue that never yields the same address twice. */
export function createCrawlQueue(): CrawlQueue {
  const seen = new Set<string>();
  const queue: { url: string; foundBy: FoundBy }[] = [];
  let head = 0;
  return {
    add(url, foundBy) {
      if (seen.has(url)) return false;
      seen.add(url);
      queue.push({ url, foundBy });
      return true;
    },
    next() {
      return head < queue.length ? queue[head++] : undefined;
    },
    markSeen(url) {
      if (seen.has(url)) return false;
      seen.add(url);
      return true;
    },
    get pending() {
      return queue.length - head;
    },
  };
}
