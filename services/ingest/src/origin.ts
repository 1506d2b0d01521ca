// Which pages may record events for a website: its own domain and its subdomains, over http(s).
// Browsers always send Origin on the cross-origin POSTs the widget makes (sendBeacon, fetch).
// The hostname decides: a domain's explicit port (`shop.lan:8080`) says where the site is fetched.
import { getDomainHostname } from '@consentry/events';

export function isOriginAllowed(origin: string | undefined, websiteDomain: string): boolean {
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const domain = getDomainHostname(websiteDomain.toLowerCase());
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * isOriginAllowed with its answers remembered. Parsing the Origin as a URL was ~7 µs of every
 * collection request in the bench's profile, and a website's pages send a handful of distinct
 * origins. Bounded: emptied when full, and an origin longer than any real one is checked every
 * time, never kept.
 */
export function createOriginCheck(options: { maxEntries?: number; maxOriginLength?: number } = {}) {
  const maxEntries = options.maxEntries ?? 10_000;
  const maxOriginLength = options.maxOriginLength ?? 255;
  const answers = new Map<string, boolean>();
  return (origin: string | undefined, websiteDomain: string): boolean => {
    if (!origin || origin.length > maxOriginLength) return isOriginAllowed(origin, websiteDomain);
    // A domain has no spaces, so the first one separates the two parts.
    const key = `${websiteDomain} ${origin}`;
    let allowed = answers.get(key);
    if (allowed === undefined) {
      allowed = isOriginAllowed(origin, websiteDomain);
      if (answers.size >= maxEntries) answers.clear();
      answers.set(key, allowed);
    }
    return allowed;
  };
}
