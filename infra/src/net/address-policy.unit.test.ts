// The address policy's judgement (SSRF): only public ones are fetched. Private, reserved and
// special-purpose ranges are refused in every spelling, and an IPv4 address carried inside IPv6
// (mapped, NAT64) is judged as that IPv4 address, while tunnels whose endpoint cannot be judged
// (6to4, Teredo, local-use NAT64) are refused outright.
import { describe, expect, it } from 'vitest';
import { isBlockedAddress } from './address-policy';

describe('when an address is not a public one', () => {
  it.each([
    // IPv4 special-purpose ranges.
    ['0.0.0.0', 'this network'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'shared address space (CGN)'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link-local, cloud metadata'],
    ['172.16.0.1', 'private'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['203.0.113.7', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    // IPv6 outside global unicast.
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, written in full'],
    ['::7f00:1', 'IPv4-compatible (::/96) loopback'],
    ['::127.0.0.1', 'IPv4-compatible (::/96) loopback, dotted'],
    ['::8.8.8.8', 'IPv4-compatible (::/96), deprecated even for a public IPv4'],
    ['::ffff:0:7f00:1', 'SIIT IPv4-translated (::ffff:0:0:0/96)'],
    ['64:ff9b:1::7f00:1', 'local-use NAT64 (64:ff9b:1::/48)'],
    ['64:ff9b:1:ffff::808:808', 'local-use NAT64 (64:ff9b:1::/48), any embedding'],
    ['100::1', 'discard-only'],
    ['5f00::1', 'SRv6 SIDs'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone id'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'unassigned'],
    // IPv4 carried in IPv6, judged as that IPv4 address.
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'IPv4-mapped loopback, written in full'],
    ['::FFFF:A9FE:A9FE', 'IPv4-mapped metadata, upper case'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private IPv4'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['64:ff9b:0:0:0:0:7f00:1', 'NAT64 of loopback, written in full'],
    // Tunnels into IPv4 and other special ranges inside 2000::/3.
    ['2002:7f00:1::1', '6to4 of loopback (2002::/16)'],
    ['2002:808:808::1', '6to4, even of a public IPv4 (a relay decides where it goes)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (2001::/32)'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['not-an-ip', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });
});

describe('when an address is public', () => {
  it.each([
    ['93.184.216.34', 'IPv4'],
    ['8.8.8.8', 'IPv4'],
    ['2606:4700::6810:84e5', 'global unicast IPv6'],
    ['2a00:1450:4001:82a::200e', 'global unicast IPv6'],
    ['::ffff:93.184.216.34', 'IPv4-mapped public IPv4'],
    ['64:ff9b::5db8:d822', 'NAT64 of a public IPv4, as DNS64 answers on IPv6-only networks'],
    ['64:ff9b::93.184.216.34', 'NAT64 of a public IPv4, dotted'],
  ])('allows %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});
