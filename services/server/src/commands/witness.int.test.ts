// A witness outside the installation (`consentry witness URL`) against the api's public seal feed,
// over real HTTP: the first run keeps the head; later runs accept seals that extend it; and an
// operator who rewrites an event and seals the whole log again with the real key — which
// `consentry verify` on the server then accepts — is caught by the witness, which exits 1 with the
// evidence and keeps its state. A chain cut short, and a server that is not there, are named too.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, sealAll, signerFromPrivateKey, verifyLedger, type WitnessState } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { buildTestApi, type TestApi } from '@consentry/api/testing';
import type { JobIo } from './job';
import { runWitness } from './witness';

const signer = signerFromPrivateKey(generateKeyPairSync('ed25519').privateKey);
const websiteId = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
let db: TestDatabase;
let api: TestApi;
let url: string;
let stateFile: string;

function capture(): JobIo & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (text) => void (out += text), err: (text) => void (err += text), interactive: false, stdout: () => out, stderr: () => err };
}

async function appendAndSeal(count: number): Promise<string[]> {
  const appender = createGroupCommitAppender(db.pool);
  const requests = Array.from({ length: count }, () => consentAppendRequest({ websiteId }));
  await Promise.all(requests.map((request) => appender.append(request)));
  await appender.close();
  await sealAll(db.pool, signer, { maxEvents: 10 });
  return requests.map((request) => request.event.eventId!);
}

/** As someone with the database and the key would: past the append-only trigger. */
async function asSuperuser(statements: readonly [string, unknown[]][]): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    for (const [sql, values] of statements) await client.query(sql, values);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

beforeAll(async () => {
  db = await createTestDatabase('witness');
  api = await buildTestApi(db.pool, { sealKey: { keyId: signer.keyId, publicKeyPem: signer.publicKey.export({ type: 'spki', format: 'pem' }).toString() } });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  stateFile = path.join(await mkdtemp(path.join(tmpdir(), 'consentry-witness-')), 'state.json');
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

describe('consentry witness', () => {
  let ids: string[] = [];

  it('first run: checks the chain from its first seal and keeps the head', async () => {
    ids = await appendAndSeal(25);
    const io = capture();
    expect(await runWitness([url, '--state', stateFile], io)).toBe(0);
    expect(io.stdout()).toMatch(/^First run: checked 3 seals of http:\/\/127\.0\.0\.1:\d+; the head is seal 3 \([0-9a-f]{64}\)\./);
    expect(JSON.parse(await readFile(stateFile, 'utf8'))).toMatchObject({ url, keyId: signer.keyId, sequence: 3 });
  });

  it('later runs accept seals that extend what it saw', async () => {
    await appendAndSeal(12);
    const io = capture();
    expect(await runWitness([url, '--state', stateFile], io)).toBe(0);
    expect(io.stdout()).toContain('2 new seals checked; the head is seal 5');
  });

  it('catches an operator who rewrote an event and sealed the whole log again with the real key, which verify on the server accepts', async () => {
    const before = JSON.parse(await readFile(stateFile, 'utf8')) as WitnessState;
    // Rewrite: change one consent, throw the seals away, and seal everything again with the same key.
    await asSuperuser([
      [`UPDATE events SET data = jsonb_set(data, '{choice}', '"declined"') WHERE event_id = $1`, [ids[3]]],
      [`DELETE FROM events WHERE stream_id = 'ledger-seals'`, []],
      ['DELETE FROM seal_leaves', []],
    ]);
    await sealAll(db.pool, signer, { maxEvents: 10 });
    const onServer = await verifyLedger(db.pool, { publicKey: signer.publicKey });
    expect(onServer.ok).toBe(true);

    const io = capture();
    expect(await runWitness([url, '--state', stateFile], io)).toBe(1);
    expect(io.stdout()).toContain(`The history of ${url} is NOT the one this witness saw (rewritten):`);
    expect(io.stdout()).toContain(`seal 5 is not the one this witness saw`);
    expect(io.stdout()).toContain(before.sealHash);
    // The evidence stays: the state is what it saw, not the new history.
    expect(JSON.parse(await readFile(stateFile, 'utf8'))).toEqual(before);
    expect(await runWitness([url, '--state', stateFile], capture())).toBe(1);
  });

  it('names a chain cut short, a server that is not there, and bad arguments', async () => {
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as WitnessState;
    const ahead = path.join(path.dirname(stateFile), 'ahead.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(ahead, JSON.stringify({ ...state, sequence: state.sequence + 50 })));
    const cut = capture();
    expect(await runWitness([url, '--state', ahead], cut)).toBe(1);
    expect(cut.stdout()).toContain('(truncated)');

    const away = capture();
    expect(await runWitness(['http://127.0.0.1:9', '--state', path.join(path.dirname(stateFile), 'away.json')], away)).toBe(69);
    expect(away.stderr()).toContain('could not be reached');

    expect(await runWitness(['not a url'], capture())).toBe(2);
    expect(await runWitness([url.replace('127.0.0.1', 'localhost'), '--state', stateFile], capture())).toBe(2);
  });
});
