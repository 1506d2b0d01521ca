// A client's IP address as Consentry keeps it anywhere it is kept (the ledger, the logs): IPv4-mapped
// IPv6 unwrapped, and truncated to what cannot name one subscriber: last IPv4 octet, last 80 bits of
// IPv6 set to zero. Ingest stores the full address only for websites set to keep it.
import { isIPv4, isIPv6 } from 'node:net';

export function normaliseIp(ip: string | undefined): string | null {
  if (!ip) return null;
  const unwrapped = ip.toLowerCase().startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  return isIPv4(unwrapped) || isIPv6(unwrapped) ? unwrapped : null;
}

export function truncateIp(ip: string): string {
  if (isIPv4(ip)) return ip.replace(/\.\d+$/, '.0');
  if (!isIPv6(ip)) return ip;
  // Keep the first 48 bits (three groups), zero the remaining 80.
  const groups = expandIpv6(ip);
  return `${groups.slice(0, 3).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::`;
}

export function expandIpv6(ip: string): string[] {
  let address = ip.split('%')[0]!;
  // An embedded IPv4 tail (::ffff:1.2.3.4 is handled by normaliseIp; others, e.g. 64:ff9b::1.2.3.4).
  const ipv4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (ipv4Tail) {
    const octets = ipv4Tail[1]!.split('.').map(Number);
    const tail = [((octets[0]! << 8) | octets[1]!).toString(16), ((octets[2]! << 8) | octets[3]!).toString(16)].join(':');
    address = address.slice(0, -ipv4Tail[1]!.length) + tail;
  }
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array.from({ length: missing }, () => '0'), ...tailGroups].map((group) => group.padStart(4, '0'));
}

/**
 * An address for a log line: normalised and truncated; anything that is not an address is dropped
 * (null), since it could be anything.
 */
export function ipForLog(ip: string | undefined): string | null {
  const normalised = normaliseIp(ip);
  return normalised === null ? null : truncateIp(normalised);
}
