// safeFetch refuses a host whose address the policy refuses (infra/src/net/address-policy.ts, whose
// unit test covers every range), in every spelling a URL can carry.
import { describe, expect, it } from 'vitest';
import { safeFetch } from './safe-fetch';

describe('when a host resolves to a refused address', () => {
  it.each(['64:ff9b::7f00:1', '2002:a00:1::', '::ffff:0:a00:1', '::a00:1'])('refuses a name resolving to %s without connecting', async (address) => {
    const lookup = async () => [{ address, family: 6 }];
    await expect(safeFetch('http://shop.example.test/', { lookup })).rejects.toMatchObject({ code: 'TARGET_REFUSED', kind: 'address' });
  });

  it('refuses the address written as a URL literal', async () => {
    await expect(safeFetch('http://[2002:7f00:1::1]/')).rejects.toMatchObject({ kind: 'address' });
    await expect(safeFetch('http://[::127.0.0.1]/')).rejects.toMatchObject({ kind: 'address' });
  });
});
