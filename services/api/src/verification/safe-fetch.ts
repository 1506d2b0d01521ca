// Fetching an owner's web page without becoming a way into private networks (SSRF): the host is
// resolved here, every address is checked against loopback, private, link-local, shared, reserved
// and metadata ranges, and the connection is pinned to the checked address (so DNS cannot answer
// differently a moment later). Redirects are followed by hand and each hop is checked again. A
// timeout and a size cap bound the work. `allowHosts` exempts hosts for tests.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

export type Lookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export interface SafeFetchOptions {
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  readonly maxRedirects?: number;
  /** Hostnames or IP literals that may be fetched even if they resolve to blocked addresses. */
  readonly allowHosts?: readonly string[];
  readonly lookup?: Lookup;
}

export interface FetchedPage {
  readonly url: string;
  readonly status: number;
  readonly body: string;
}

/**
 * Why a target was not fetched. `address` and `unresolvable` hold for every URL of the host (trying
 * another scheme is pointless); the others may not.
 */
export type RefusalKind = 'address' | 'unresolvable' | 'scheme' | 'redirects' | 'timeout';

export class RefusedTargetError extends Error {
  readonly code = 'TARGET_REFUSED';
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
    this.name = 'RefusedTargetError';
  }
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** True for addresses a server-side fetch must never reach. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  // IPv4 embedded in IPv6 (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d, or the hex forms) is
  // judged by its IPv4 address.
  const embedded = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (embedded) return isBlockedAddress(embedded[1]!);
  const hexMapped = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped) {
    const high = Number.parseInt(hexMapped[1]!, 16);
    const low = Number.parseInt(hexMapped[2]!, 16);
    return isBlockedAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return blocked.check(address, 'ipv6');
}

const defaultLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

async function resolveTarget(url: URL, options: SafeFetchOptions): Promise<{ address: string; family: number }> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = options.allowHosts?.includes(hostname) ?? false;
  const literal = isIP(hostname);
  const addresses = literal ? [{ address: hostname, family: literal }] : await (options.lookup ?? defaultLookup)(hostname).catch(() => []);
  if (addresses.length === 0) throw new RefusedTargetError('unresolvable', `${hostname} could not be resolved`);
  if (!allowed && addresses.some((entry) => isBlockedAddress(entry.address))) {
    throw new RefusedTargetError('address', `${hostname} resolves to a private or reserved address; only public websites can be verified`);
  }
  return addresses[0]!;
}

/** GET `url` safely; follows up to `maxRedirects` redirects, checking each hop. */
export async function safeFetch(url: string, options: SafeFetchOptions = {}): Promise<FetchedPage> {
  const maxRedirects = options.maxRedirects ?? 3;
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw new RefusedTargetError('scheme', `Only http and https addresses can be fetched (got ${current.protocol})`);
    }
    const target = await resolveTarget(current, options);
    const page = await fetchOnce(current, target, options);
    if (page.redirect === undefined) return { url: current.toString(), status: page.status, body: page.body };
    if (hop >= maxRedirects) throw new RefusedTargetError('redirects', `More than ${maxRedirects} redirects`);
    current = new URL(page.redirect, current);
  }
}

function fetchOnce(
  url: URL,
  target: { address: string; family: number },
  options: SafeFetchOptions,
): Promise<{ status: number; body: string; redirect?: string }> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        headers: { 'user-agent': 'ConsentryVerifier/1.0 (+installation check)', accept: 'text/html,*/*;q=0.5' },
        // Pin the connection to the address that was checked. Node asks for all addresses when it
        // races address families (autoSelectFamily), for one otherwise.
        lookup: ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
          else callback(null, target.address, target.family);
        }) as unknown as NonNullable<http.RequestOptions['lookup']>,
        timeout: timeoutMs,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          resolve({ status, body: '', redirect: location });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            // Enough to find a snippet; the rest is not needed.
            chunks.push(chunk.subarray(0, Math.max(0, chunk.length - (size - maxBytes))));
            response.destroy();
            resolve({ status, body: Buffer.concat(chunks).toString('utf8') });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    const deadline = setTimeout(() => request.destroy(new RefusedTargetError('timeout', `No answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('timeout', () => request.destroy(new RefusedTargetError('timeout', `No answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.on('close', () => clearTimeout(deadline));
    request.end();
  });
}
