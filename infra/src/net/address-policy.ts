// One address policy for every request the server makes to an address an owner typed in
// (installation verification, the cookie scanner, webhooks): only public addresses are reached, so
// none of them becomes a way into private networks (SSRF). IPv4 outside IANA's special-purpose
// ranges, IPv6 global unicast outside its special ranges, an IPv4 carried in IPv6 judged as that
// IPv4. Callers resolve a host once (`HostLookup`), judge every address, and pin the connection.
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Every address a host name resolves to (node:dns `lookup` with `all`, or a test's stand-in). */
export type HostLookup = (host: string) => Promise<readonly { address: string; family: number }[]>;

/** The system resolver: all addresses, in the order DNS gave them. */
export const systemLookup: HostLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

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
