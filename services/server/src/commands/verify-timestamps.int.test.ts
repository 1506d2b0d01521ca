// `consentry verify` with time-stamped seals (RFC 3161, a real authority on loopback): it says how
// far the chain is dated and by whom, says so when nothing is dated yet, trusts the authority only
// through TSA_CA_FILE (or --tsa-ca), and exits 1 naming a token that does not prove its seal.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, loadConfig, timestampLatestSeal, type Config } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, startTestTimeStampingAuthority, type TestDatabase, type TestTimeStampingAuthority } from '@consentry/infra/testing';
import type { JobIo } from './job';
import { runSeal, runVerify } from './ledger';

let db: TestDatabase;
let tsa: TestTimeStampingAuthority;
let config: Config;

function capture(): JobIo & { stdout: () => string } {
  let out = '';
  return { out: (text) => void (out += text), err: () => undefined, interactive: false, stdout: () => out };
}

beforeAll(async () => {
  [db, tsa] = await Promise.all([createTestDatabase('verify_timestamps'), startTestTimeStampingAuthority()]);
  const dir = await mkdtemp(path.join(tmpdir(), 'consentry-verify-ts-'));
  config = loadConfig({ DATABASE_URL: db.connectionString, LOG_LEVEL: 'silent', SEAL_KEY_FILE: path.join(dir, 'seal-key.pem'), TSA_URL: tsa.url, TSA_CA_FILE: tsa.caFile });
  const appender = createGroupCommitAppender(db.pool);
  await Promise.all(Array.from({ length: 12 }, () => appender.append(consentAppendRequest({ websiteId: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e' }))));
  await appender.close();
  expect(await runSeal(config, [], capture())).toBe(0);
}, 60_000);
afterAll(async () => {
  await Promise.all([db?.drop(), tsa?.close()]);
});

describe('consentry verify and the time-stamps', () => {
  it('says when no seal is dated yet, then how far the chain is dated and by whom', async () => {
    const before = capture();
    expect(await runVerify(config, [], before)).toBe(0);
    expect(before.stdout()).toContain('Time-stamps: none yet (TSA_URL is set;');

    const token = (await timestampLatestSeal(db.pool, tsa.url))!;
    const after = capture();
    expect(await runVerify(config, [], after)).toBe(0);
    expect(after.stdout()).toContain(`Time-stamps: 1 of 1 tokens verify: seals 1 to 1 existed by ${token.genTime} (CN=Consentry Test TSA`);
    expect(after.stdout()).toContain('The ledger verifies');
  });

  it('trusts the authority only through its CA: without TSA_CA_FILE the token does not verify, and verify exits 1', async () => {
    const untrusting = { ...config, TSA_CA_FILE: undefined };
    const io = capture();
    expect(await runVerify(untrusting, [], io)).toBe(1);
    expect(io.stdout()).toContain('Time-stamps: 0 of 1 tokens verify: no seal is dated by a token that verifies');
    expect(io.stdout()).toMatch(/seal 1, token [0-9a-f]+ from http:\/\/127\.0\.0\.1:\d+\/tsr: untrusted-tsa/);
    // --tsa-ca names the CA on the command line instead.
    expect(await runVerify(untrusting, ['--tsa-ca', tsa.caFile], capture())).toBe(0);
  });
});
