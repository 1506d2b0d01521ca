// The visitor's IP address as stored: normalised and truncated by infra's one rule (also the logs'),
// kept in full only when the website says so.
import { truncateIp } from '@consentry/infra';

export { expandIpv6, normaliseIp, truncateIp } from '@consentry/infra';

/** The address to store for a website's setting. */
export function ipForStorage(ip: string | null, mode: 'full' | 'truncated'): string | null {
  if (ip === null) return null;
  return mode === 'truncated' ? truncateIp(ip) : ip;
}
