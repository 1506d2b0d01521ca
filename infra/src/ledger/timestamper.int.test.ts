// Time-stamped seals on a real database and a real RFC 3161 authority on loopback: the timestamper
// dates the head of the chain, once per authority and seal, however many processes ask; an authority
// that is down leaves nothing behind and is asked again; `verifyLedger` checks every token and says
// how far the chain is dated, and names a token that does not prove its seal.
import { generateKeyPairSync } from 'node:crypto';
import { sealTimestampStreamId } from '@consentry/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream } from '../event-store/append';
import { createGroupCommitAppender } from '../event-store/group-commit';
import { consentAppendRequest, createTestDatabase, waitFor, type TestDatabase } from '../testing';
import { startTestTimeStampingAuthority, type TestTimeStampingAuthority } from '../testing/time-stamping-authority';
import { readLatestSeal, sealAll } from './seals';
import { signerFromPrivateKey } from './signing-key';
import { readSealTimestamps, startTimestamper, timestampLatestSeal } from './timestamper';
import { loadTrustAnchors, requestTimestamp, TimestampRequestError } from './timestamps';
import { verifyLedger } from './verify';

const signer = signerFromPrivateKey(generateKeyPairSync('ed25519').privateKey);
const websiteId = '7a1c2b7e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
let db: TestDatabase;
let tsa: TestTimeStampingAuthority;

beforeAll(async () => {
  [db, tsa] = await Promise.all([createTestDatabase('ledger_timestamps'), startTestTimeStampingAuthority()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([db?.drop(), tsa?.close()]);
});

async function appendAndSeal(count: number): Promise<number> {
  const appender = createGroupCommitAppender(db.pool);
  await Promise.all(Array.from({ length: count }, () => appender.append(consentAppendRequest({ websiteId }))));
  await appender.close();
  await sealAll(db.pool, signer);
  return (await readLatestSeal(db.pool))!.data.sequence;
}

const verify = async () => verifyLedger(db.pool, { publicKey: signer.publicKey, tsaTrustAnchors: await loadTrustAnchors(tsa.caPem) });

describe('time-stamping the seals', () => {
  it('with no token yet, verify says no seal is dated', async () => {
    const sequence = await appendAndSeal(20);
    const report = await verify();
    expect(report.ok).toBe(true);
    expect(report.timestamps).toEqual({ tokens: 0, verified: 0, stampedThrough: null, sealsNotStamped: sequence });
  });

  it('dates the newest seal once per authority, however often and by however many it is asked', async () => {
    tsa.behave('good');
    const sequence = (await readLatestSeal(db.pool))!.data.sequence;
    const [first, second] = await Promise.all([timestampLatestSeal(db.pool, tsa.url), timestampLatestSeal(db.pool, tsa.url)]);
    expect(first ?? second).toMatchObject({ sequence, tsa: tsa.url });
    expect(await timestampLatestSeal(db.pool, tsa.url)).toBeNull();
    const tokens = await readSealTimestamps(db.pool);
    expect(tokens.map((token) => token.sequence)).toEqual([sequence]);
    const report = await verify();
    expect(report.ok).toBe(true);
    expect(report.timestamps).toMatchObject({ tokens: 1, verified: 1, stampedThrough: { sequence, genTime: tokens[0]!.genTime }, sealsNotStamped: 0 });
    expect(report.timestamps.stampedThrough?.tsa).toContain('Consentry Test TSA');
  });

  it('an authority that is down: nothing is recorded, newer seals wait, and the next round dates the head', async () => {
    tsa.behave('down');
    const before = (await readSealTimestamps(db.pool)).length;
    const sequence = await appendAndSeal(10);
    await expect(timestampLatestSeal(db.pool, tsa.url)).rejects.toBeInstanceOf(TimestampRequestError);
    expect(await readSealTimestamps(db.pool)).toHaveLength(before);
    const report = await verify();
    expect(report.ok).toBe(true);
    expect(report.timestamps.sealsNotStamped).toBe(sequence - report.timestamps.stampedThrough!.sequence);
    expect(report.timestamps.sealsNotStamped).toBeGreaterThan(0);

    // The running timestamper keeps asking (sooner after a failure than its interval) until the
    // authority is back; 100 ms here rather than 5 s, so the test waits for the rounds, not the clock.
    const errors: unknown[] = [];
    const timestamper = startTimestamper(db.pool, { tsaUrls: [tsa.url], intervalMs: 60_000, retryAfterMs: 100, onError: (error) => void errors.push(error) });
    try {
      await waitFor(() => errors.length >= 1, { timeoutMs: 20_000, message: 'a failed round' });
      tsa.behave('good');
      await waitFor(async () => (await readSealTimestamps(db.pool)).some((token) => token.sequence === sequence), { timeoutMs: 30_000, message: `seal ${sequence} to be dated` });
    } finally {
      await timestamper.stop();
    }
    expect((await verify()).timestamps).toMatchObject({ verified: before + 1, stampedThrough: { sequence }, sealsNotStamped: 0 });
  });

  it('a token that does not prove its seal fails verify, naming the seal and why', async () => {
    // A token from an authority whose certificate nobody here trusts, recorded as if it were good.
    tsa.behave('untrusted');
    const latest = (await readLatestSeal(db.pool))!.data;
    const obtained = await requestTimestamp(tsa.url, latest.sealHash);
    tsa.behave('good');
    await appendToStream(db.pool, sealTimestampStreamId, [{ type: 'SealTimestamped', data: { sequence: latest.sequence, sealHash: latest.sealHash, tsa: 'https://elsewhere.example/tsr', ...obtained } }]);
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(report.findings).toEqual([
      expect.objectContaining({ kind: 'bad-timestamp', seal: latest.sequence, message: expect.stringContaining('untrusted-tsa') }),
    ]);
    // The good token of that seal still dates it.
    expect(report.timestamps.stampedThrough?.sequence).toBe(latest.sequence);
  });
});
