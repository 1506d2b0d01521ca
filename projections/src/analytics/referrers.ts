// How a visit's referrer becomes the "domain" of top referrers (docs/analytics.md, "Referrers"):
// 'Direct' when there is none or it is the site itself, the search engine's name for the four
// engines of the spec whatever their country domain, otherwise the host without `www.`.

export const directReferrer = 'Direct';

export const searchEngines = ['google', 'bing', 'yahoo', 'duckduckgo'] as const;
export type SearchEngine = (typeof searchEngines)[number];

// The engine's name followed only by a public suffix: google.com, google.de, www.google.co.uk,
// google.com.br, de.search.yahoo.com, yahoo.co.jp, cn.bing.com, html.duckduckgo.com.
const searchEngineHost = /(?:^|\.)(google|bing|yahoo|duckduckgo)\.(?:[a-z]{2,3}|(?:co|com)\.[a-z]{2})$/;

const maxDomainLength = 253;

/** The host of an http(s) URL, lowercased, without a trailing dot or a leading `www.`; null otherwise. */
export function hostOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.hostname === '') return null;
  let host = parsed.hostname.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.startsWith('www.')) host = host.slice(4);
  return host === '' ? null : host;
}

/** Whether one host is the other or a subdomain of it (shop.example.com and example.com). */
function isSameSite(a: string, b: string): boolean {
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

/**
 * The referrer domain a visit is counted under. `pageUrl` is the visit's landing page: a referrer on
 * the same host (or a parent or subdomain of it) is a self-referral, hence 'Direct'.
 */
export function referrerDomainOf(referrer: string | null, pageUrl: string): string {
  if (referrer == null || referrer === '') return directReferrer;
  const host = hostOf(referrer);
  if (host == null) return directReferrer;
  const pageHost = hostOf(pageUrl);
  if (pageHost != null && isSameSite(host, pageHost)) return directReferrer;
  const engine = searchEngineHost.exec(host);
  if (engine?.[1] != null) return engine[1];
  return host.slice(0, maxDomainLength);
}
