// What an owner types as their website's domain, reduced to the hostname the widget's Origin check
// compares against (ingest allows the domain and its subdomains):
//   - a URL or a bare host are both accepted: the scheme, credentials, path, query and fragment are
//     dropped (`https://Shop.Example.com/menu?x` → `shop.example.com`);
//   - a port other than the default ones (80, 443) is kept (`shop.lan:8080`, `https://x.example:8443/`
//     → `x.example:8443`): installation checks and scans fetch the site there, while the Origin check
//     and the choice cookie use the hostname alone;
//   - letters are lower-cased and international names become punycode (`bücher.example` →
//     `xn--bcher-kva.example`), a trailing dot is dropped;
//   - a leading `www.` is dropped when a registrable name remains (`www.example.com` → `example.com`):
//     the bare domain also covers www and every other subdomain, while a stored `www.` would refuse
//     the bare domain's visitors.
// Anything that is not then a plain hostname with an optional port (`websiteDomain`) is refused.
import { websiteDomain } from '@consentry/events';

export const maxDomainInputLength = 2048;

/** The ports of https and http: the ones every fetch of the site tries anyway. */
const defaultPorts = new Set(['80', '443']);

export function normaliseDomain(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > maxDomainInputLength || /\s/.test(trimmed)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `http://${trimmed}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  let host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('www.') && host.slice(4).includes('.')) host = host.slice(4);
  const domain = url.port === '' || defaultPorts.has(url.port) ? host : `${host}:${url.port}`;
  return websiteDomain.safeParse(domain).success ? domain : null;
}
