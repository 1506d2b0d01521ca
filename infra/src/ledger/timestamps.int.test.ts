// RFC 3161 time-stamps against a real authority on loopback (OpenSSL's responder with a test CA):
// a good token verifies; an authority that stamps another hash, signs with a certificate nobody
// trusts or one that expired, or is down, is caught and named.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTimeStampingAuthority, type TestTimeStampingAuthority } from '../testing/time-stamping-authority';
import { loadTrustAnchors, requestTimestamp, TimestampRequestError, verifyTimestampToken } from './timestamps';

let tsa: TestTimeStampingAuthority;
// A seal's canonical header stands in for the datum; its SHA-256 is the seal hash.
const datum = Buffer.from('{"sequence":1}');
const sealHash = createHash('sha256').update(datum).digest('hex');

beforeAll(async () => {
  tsa = await startTestTimeStampingAuthority();
}, 60_000);
afterAll(async () => {
  await tsa?.close();
});

describe('a token from a good authority', () => {
  it('stamps the seal hash, at about now, and verifies against the authority’s CA', async () => {
    tsa.behave('good');
    const before = Date.now();
    const obtained = await requestTimestamp(tsa.url, sealHash);
    expect(Math.abs(Date.parse(obtained.genTime) - before)).toBeLessThan(60_000);
    expect(obtained.serialNumber).toMatch(/^[0-9a-f]+$/);
    const check = await verifyTimestampToken(obtained.token, datum, await loadTrustAnchors(tsa.caPem));
    expect(check).toMatchObject({ ok: true, genTime: obtained.genTime, serialNumber: obtained.serialNumber });
    expect(check.tsa).toContain('CN=Consentry Test TSA');
  });

  it('does not verify for another seal hash, nor against the public roots alone, nor when a byte of it changes', async () => {
    tsa.behave('good');
    const { token } = await requestTimestamp(tsa.url, sealHash);
    expect(await verifyTimestampToken(token, Buffer.from('{"sequence":2}'), await loadTrustAnchors(tsa.caPem))).toMatchObject({ ok: false, problem: 'wrong-imprint' });
    expect(await verifyTimestampToken(token, datum, await loadTrustAnchors())).toMatchObject({ ok: false, problem: 'untrusted-tsa' });
    // The token's last bytes are the signature: one flipped bit there breaks it.
    const bytes = Buffer.from(token, 'base64');
    bytes[bytes.length - 3]! ^= 0x01;
    const tampered = await verifyTimestampToken(bytes.toString('base64'), datum, await loadTrustAnchors(tsa.caPem));
    expect(tampered.ok).toBe(false);
    expect(['bad-signature', 'malformed']).toContain(tampered.problem);
  });
});

describe('an authority that misbehaves', () => {
  it('stamping another hash: the request is refused as wrong-imprint', async () => {
    tsa.behave('wrong-imprint');
    const refusal = await requestTimestamp(tsa.url, sealHash).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TimestampRequestError);
    expect((refusal as TimestampRequestError).problem).toBe('wrong-imprint');
  });

  it('signing with a certificate from a CA nobody trusts: the token is untrusted', async () => {
    tsa.behave('untrusted');
    const { token } = await requestTimestamp(tsa.url, sealHash);
    const check = await verifyTimestampToken(token, datum, await loadTrustAnchors(tsa.caPem));
    expect(check).toMatchObject({ ok: false, problem: 'untrusted-tsa' });
    expect(check.message).toContain('Untrusted TSA');
  });

  it('signing with a certificate that expired before the time it states: the token is refused as expired', async () => {
    tsa.behave('expired');
    const { token } = await requestTimestamp(tsa.url, sealHash);
    const check = await verifyTimestampToken(token, datum, await loadTrustAnchors(tsa.caPem));
    expect(check).toMatchObject({ ok: false, problem: 'tsa-certificate-expired' });
  });

  it('down: the request fails as unavailable, to be retried', async () => {
    tsa.behave('down');
    const refusal = await requestTimestamp(tsa.url, sealHash).catch((error: unknown) => error);
    expect((refusal as TimestampRequestError).problem).toBe('unavailable');
    tsa.behave('good');
  });

  it('not there at all: unavailable', async () => {
    const refusal = await requestTimestamp('http://127.0.0.1:9/tsr', sealHash, { timeoutMs: 2_000 }).catch((error: unknown) => error);
    expect((refusal as TimestampRequestError).problem).toBe('unavailable');
  });
});
