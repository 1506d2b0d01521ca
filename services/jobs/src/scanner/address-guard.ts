// The scanner's SSRF guard: the browser may only reach hosts whose every address is public, by the
// address policy as installation verification and webhooks (infra/src/net/address-policy.ts), unless the
// caller's `isAllowedAddress` lets a host through (tests serve sites on loopback). Hosts are resolved
// here with node:dns (all addresses) or an injected lookup, once per scan.
import { isIP } from 'node:net';
import { isBlockedAddress, systemLookup, type HostLookup } from '@consentry/infra';

/** Decides whether `host`, resolving to the non-public `address`, may still be reached. */
export type AddressAllowance = (host: string, address: string) => boolean;

export type AddressVerdict =
  | { allowed: true; addresses: string[] }
  | { allowed: false; reason: 'private' | 'unresolvable'; addresses: string[] };

export interface AddressGuard {
  check(host: string): Promise<AddressVerdict>;
}

/** A guard that remembers each host's verdict for its lifetime (one scan). */
export function createAddressGuard(options: { lookup?: HostLookup; isAllowedAddress?: AddressAllowance } = {}): AddressGuard {
  const lookup = options.lookup ?? systemLookup;
  const isAllowed = options.isAllowedAddress ?? (() => false);
  const verdicts = new Map<string, Promise<AddressVerdict>>();

  const judge = async (host: string): Promise<AddressVerdict> => {
    const literal = isIP(host);
    let addresses: string[];
    if (literal) addresses = [host];
    else {
      try {
        addresses = (await lookup(host)).map((entry) => entry.address);
      } catch {
        addresses = [];
      }
    }
    if (addresses.length === 0) return { allowed: false, reason: 'unresolvable', addresses };
    // Every address must pass: the browser may connect to any of them.
    const refused = addresses.some((address) => isBlockedAddress(address) && !isAllowed(host, address));
    return refused ? { allowed: false, reason: 'private', addresses } : { allowed: true, addresses };
  };

  return {
    check(rawHost) {
      const host = rawHost.toLowerCase().replace(/^\[|\]$/g, '');
      let verdict = verdicts.get(host);
      if (!verdict) verdicts.set(host, (verdict = judge(host)));
      return verdict;
    },
  };
}
