// Fetching an owner's web page without becoming a way into private networks (SSRF): the host is
// resolved here, every address must be a public one (IPv4 outside IANA's special-purpose ranges,
// IPv6 global unicast outside its special ranges, an IPv4 carried in IPv6 judged as that IPv4), and
// the connection is pinned to the checked address (so DNS cannot answer differently a moment later).
// Redirects are followed by hand and each hop is checked again. A timeout and a size cap bound the
// work. `allowHosts` exempts hosts for tests.
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

// IPv4: every special-purpose range of IANA's registry that is not a public website (private,
// loopback, link-local and cloud metadata, shared CGN space, documentation, benchmarking, the
// deprecated 6to4 relay anycast, multicast, reserved and broadcast).
const blockedIpv4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  blockedIpv4.addSubnet(network, prefix, 'ipv4');
}

// IPv6 is judged by an allow-list, not a list of bad ranges: a public website's address is global
// unicast (2000::/3), so everything outside it is refused at once: ::/96 (unspecified, loopback,
// IPv4-compatible), ::ffff:0:0:0/96 (SIIT), 64:ff9b:1::/48 (local-use NAT64, RFC 8215), 100::/64
// (discard), 5f00::/16 (SRv6), unique-local fc00::/7, link-local, site-local, multicast, and any range
// IANA has yet to assign. Two prefixes outside it carry an IPv4 address in their last 32 bits and
// reach that IPv4 host, so they are judged as that address (`ipv4CarriedBy`).
const globalUnicastIpv6 = new BlockList();
globalUnicastIpv6.addSubnet('2000::', 3, 'ipv6');
// Inside 2000::/3, what is not a website, or is a tunnel into IPv4 whose endpoint cannot be judged.
const blockedGlobalIpv6 = new BlockList();
for (const [network, prefix] of [
  // IETF protocol assignments: Teredo (2001::/32, an obfuscated IPv4 behind a relay), benchmarking,
  // ORCHID identifiers, anycast services. None serves a website.
  ['2001::', 23],
  // Documentation (RFC 3849, RFC 9637).
  ['2001:db8::', 32], ['3fff::', 20],
  // 6to4 (RFC 3056): the next 32 bits are an IPv4 address reached through a relay.
  ['2002::', 16],
] as const) {
  blockedGlobalIpv6.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of a textual IPv6 address (isIP-valid; a zone id is ignored). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  // A trailing dotted IPv4 (::ffff:127.0.0.1) is the last two groups.
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16));
}

/**
 * The IPv4 address an IPv6 address stands for, if it is one that reaches an IPv4 host: IPv4-mapped
 * (::ffff:0:0/96, what a dual-stack socket connects to as IPv4) or NAT64's well-known prefix
 * (64:ff9b::/96, which DNS64 networks answer for every IPv4-only website, so it must not be refused
 * as a whole).
 */
function ipv4CarriedBy(groups: readonly number[]): string | null {
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (!mapped && !nat64) return null;
  const [high, low] = [groups[6]!, groups[7]!];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True for addresses a server-side fetch must never reach; anything but a public address is refused. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedIpv4.check(address, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  const carried = ipv4CarriedBy(groups);
  if (carried !== null) return isBlockedAddress(carried);
  // The full form without a zone id: what BlockList reads the same on every Node version.
  const full = groups.map((group) => group.toString(16)).join(':');
  return !globalUnicastIpv6.check(full, 'ipv6') || blockedGlobalIpv6.check(full, 'ipv6');
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
