// The scanner's address guard: public addresses pass, anything else (by the installation check's
// rules) is refused unless the caller's allowance lets it through; each host is resolved once.
import { describe, expect, it, vi } from 'vitest';
import type { HostLookup } from '@consentry/infra';
import { createAddressGuard } from './address-guard';

const table: Record<string, string[]> = {
  'www.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'intranet.example.com': ['10.0.0.5'],
  'split.example.com': ['93.184.216.34', '127.0.0.1'],
  'shop.example.test': ['127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
};
const lookup: HostLookup = async (host) => (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('without an allowance', () => {
  const guard = createAddressGuard({ lookup });

  it('lets hosts whose every address is public through', async () => {
    expect(await guard.check('www.example.com')).toEqual({ allowed: true, addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    expect(await guard.check('WWW.Example.com')).toMatchObject({ allowed: true });
  });

  it('refuses private, loopback and link-local hosts, and a host with any such address', async () => {
    for (const host of ['intranet.example.com', 'split.example.com', 'shop.example.test', 'metadata.example.com']) {
      expect(await guard.check(host)).toMatchObject({ allowed: false, reason: 'private' });
    }
  });

  it('judges IP literals without a lookup, IPv6 in brackets too', async () => {
    expect(await guard.check('127.0.0.1')).toEqual({ allowed: false, reason: 'private', addresses: ['127.0.0.1'] });
    expect(await guard.check('[::1]')).toMatchObject({ allowed: false, reason: 'private' });
    expect(await guard.check('[::ffff:10.0.0.1]')).toMatchObject({ allowed: false, reason: 'private' });
    expect(await guard.check('8.8.8.8')).toMatchObject({ allowed: true });
  });

  it('refuses hosts that do not resolve, or whose lookup fails', async () => {
    expect(await guard.check('nowhere.example.com')).toEqual({ allowed: false, reason: 'unresolvable', addresses: [] });
    const failing = createAddressGuard({ lookup: () => Promise.reject(new Error('ENOTFOUND')) });
    expect(await failing.check('www.example.com')).toMatchObject({ allowed: false, reason: 'unresolvable' });
  });
});

describe('with an allowance for test hosts on loopback', () => {
  const guard = createAddressGuard({ lookup, isAllowedAddress: (host, address) => host.endsWith('.example.test') && address === '127.0.0.1' });

  it('lets exactly those through', async () => {
    expect(await guard.check('shop.example.test')).toMatchObject({ allowed: true, addresses: ['127.0.0.1'] });
    expect(await guard.check('127.0.0.1')).toMatchObject({ allowed: false });
    expect(await guard.check('intranet.example.com')).toMatchObject({ allowed: false });
  });
});

describe('resolving', () => {
  it('happens once per host for the guard’s lifetime', async () => {
    const counted = vi.fn(lookup);
    const guard = createAddressGuard({ lookup: counted });
    await Promise.all([guard.check('www.example.com'), guard.check('www.example.com'), guard.check('WWW.EXAMPLE.COM')]);
    await guard.check('intranet.example.com');
    expect(counted).toHaveBeenCalledTimes(2);
  });
});
