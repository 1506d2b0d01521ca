// Which pages may record events for a website: its own domain and its subdomains, over http(s).
// Browsers always send Origin on the cross-origin POSTs the widget makes (sendBeacon, fetch).

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
  const domain = websiteDomain.toLowerCase();
  return host === domain || host.endsWith(`.${domain}`);
}
