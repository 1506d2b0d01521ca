// The compliance commands as an operator runs them: `consentry seal`, `verify` (naming a tampered
// event and exiting 1), `purge --dry-run`, `receipt` and `subject`, with their argument errors, and
// what they do on a machine without the seal key.
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupCommitAppender, loadConfig, loadOrCreateSealSigner, readLatestSeal, type Config } from '@consentry/infra';
import { consentAppendRequest, createTestDatabase, freePort, type TestDatabase } from '@consentry/infra/testing';
import { addWebsiteAs, buildTestApi, registerOwner } from '@consentry/api/testing';
import type { JobIo } from './job';
import { runReceipt, runSeal, runVerify } from './ledger';
import { runPurge } from './purge';
import { runSubject } from './subject';
import { startSystem } from '../system';

let db: TestDatabase;
let config: Config;
let websiteId: string;
const eventIds: string[] = [];

function capture(): JobIo & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (text) => void (out += text), err: (text) => void (err += text), interactive: false, stdout: () => out, stderr: () => err };
}

beforeAll(async () => {
  db = await createTestDatabase('compliance_cli');
  const dir = await mkdtemp(path.join(tmpdir(), 'consentry-cli-'));
  config = loadConfig({ DATABASE_URL: db.connectionString, LOG_LEVEL: 'silent', SEAL_KEY_FILE: path.join(dir, 'seal-key.pem') });
  const api = await buildTestApi(db.pool);
  const owner = await registerOwner(api.app);
  websiteId = (await addWebsiteAs(owner, 'CLI shop')).id;
  await api.close();
  const appender = createGroupCommitAppender(db.pool);
  const requests = Array.from({ length: 25 }, () => consentAppendRequest({ websiteId }));
  await Promise.all(requests.map((request) => appender.append(request)));
  await appender.close();
  eventIds.push(...requests.map((request) => request.event.eventId!));
});
afterAll(async () => {
  await db?.drop();
});

describe('consentry seal and verify', () => {
  it('seals, verifies, then names an event altered behind the application’s back', async () => {
    const seal = capture();
    expect(await runSeal(config, [], seal)).toBe(0);
    expect(seal.stdout()).toMatch(/^Sealed \d+ events in 1 seals \(key [A-Za-z0-9_-]{43}\)\.\n$/);

    const clean = capture();
    expect(await runVerify(config, [], clean)).toBe(0);
    expect(clean.stdout()).toContain('The ledger verifies');

    const { rows } = await db.pool.query<{ position: number }>('SELECT position FROM events WHERE event_id = $1', [eventIds[7]]);
    const client = await db.pool.connect();
    await client.query('BEGIN; SET LOCAL session_replication_role = replica');
    await client.query(`UPDATE events SET data = jsonb_set(data, '{choice}', '"accepted"') WHERE event_id = $1`, [eventIds[7]]);
    await client.query('COMMIT');
    client.release();

    const tampered = capture();
    expect(await runVerify(config, [], tampered)).toBe(1);
    expect(tampered.stdout()).toContain('The ledger does NOT verify. First mismatch:');
    expect(tampered.stdout()).toContain(`event at position ${rows[0]!.position} (id ${eventIds[7]}) was altered`);

    const json = capture();
    expect(await runVerify(config, ['--json'], json)).toBe(1);
    expect(JSON.parse(json.stdout())).toMatchObject({ ok: false, findings: [{ kind: 'altered', eventId: eventIds[7] }] });
  });
});

describe('without the seal key (another machine, or a lost key)', () => {
  it('verify and seal refuse once the ledger has seals, and make no key of their own', async () => {
    // Sealed by the test above, with config's key.
    const elsewhere = loadConfig({ DATABASE_URL: db.connectionString, LOG_LEVEL: 'silent', SEAL_KEY_FILE: path.join(await mkdtemp(path.join(tmpdir(), 'consentry-nokey-')), 'seal-key.pem') });
    await runSeal(config, [], capture());
    for (const run of [() => runVerify(elsewhere, [], capture()), () => runSeal(elsewhere, [], capture()), () => runReceipt(elsewhere, [eventIds[0]!], capture())]) {
      await expect(run()).rejects.toThrow(`SEAL_KEY_FILE ${elsewhere.sealKeyFile} does not exist: copy the seal key from the machine that runs the jobs role`);
    }
    expect(existsSync(elsewhere.sealKeyFile)).toBe(false);
  });

  it('consentry start refuses to seal on too, naming the key the seals were signed with', async () => {
    const ledgerKeyId = (await readLatestSeal(db.pool))!.data.keyId;
    const elsewhere = loadConfig({ DATABASE_URL: db.connectionString, LOG_LEVEL: 'silent', PORT: String(await freePort()), SEAL_KEY_FILE: path.join(await mkdtemp(path.join(tmpdir(), 'consentry-nokey-')), 'seal-key.pem') });
    for (const roles of [['jobs'], undefined] as const) {
      await expect(startSystem(elsewhere, { roles, bootstrap: false, metricsServer: false })).rejects.toThrow(
        `The ledger's seals are signed with key ${ledgerKeyId}; if that key is lost, \`consentry seal --new-key\` makes a new one`,
      );
    }
    expect(existsSync(elsewhere.sealKeyFile)).toBe(false);
  });

  it('seal --new-key makes a new key where the old one is lost, and seals on with it', async () => {
    const replaced = await createTestDatabase('compliance_cli_new_key');
    try {
      const keyDir = async (label: string) => path.join(await mkdtemp(path.join(tmpdir(), `consentry-${label}-`)), 'seal-key.pem');
      const original = loadConfig({ DATABASE_URL: replaced.connectionString, LOG_LEVEL: 'silent', SEAL_KEY_FILE: await keyDir('original') });
      const lost = loadConfig({ DATABASE_URL: replaced.connectionString, LOG_LEVEL: 'silent', SEAL_KEY_FILE: await keyDir('lost') });
      const appendOne = async () => {
        const appender = createGroupCommitAppender(replaced.pool);
        await appender.append(consentAppendRequest({ websiteId }));
        await appender.close();
      };
      await appendOne();
      const before = capture();
      expect(await runSeal(original, [], before)).toBe(0);
      const oldKey = /key ([A-Za-z0-9_-]{43})/.exec(before.stdout())![1];
      await appendOne();

      const sealed = capture();
      expect(await runSeal(lost, ['--new-key'], sealed)).toBe(0);
      expect(sealed.stdout()).toMatch(/^Sealed [1-9]\d* events in 1 seals/);
      expect(existsSync(lost.sealKeyFile)).toBe(true);
      const newKey = /key ([A-Za-z0-9_-]{43})/.exec(sealed.stdout())![1]!;
      expect(newKey).not.toBe(oldKey);
      // From now on the new key is the one in use: a plain seal with it needs no flag, and the old
      // key (a machine that was not told) seals nothing more.
      await appendOne();
      expect(await runSeal(lost, [], capture())).toBe(0);
      await appendOne();
      await expect(runSeal(original, [], capture())).rejects.toThrow(`is not the one the ledger's seals are signed with (${newKey})`);
    } finally {
      await replaced.drop();
    }
  });

  it('refuses a key file that holds another key than the ledger’s seals: the jobs, and start with jobs or api', async () => {
    const ledgerKeyId = (await readLatestSeal(db.pool))!.data.keyId;
    const other = loadConfig({ DATABASE_URL: db.connectionString, LOG_LEVEL: 'silent', PORT: String(await freePort()), SEAL_KEY_FILE: path.join(await mkdtemp(path.join(tmpdir(), 'consentry-other-')), 'seal-key.pem') });
    const { keyId } = await loadOrCreateSealSigner(other.sealKeyFile); // a key of its own, made before it knew the ledger's
    const refusal = `this seal key (${keyId}) is not the one the ledger's seals are signed with (${ledgerKeyId})`;
    await expect(runSeal(other, [], capture())).rejects.toThrow(refusal);
    await expect(runReceipt(other, [eventIds[0]!], capture())).rejects.toThrow(refusal);
    for (const roles of [['jobs'], ['api']] as const) {
      await expect(startSystem(other, { roles, bootstrap: false, metricsServer: false })).rejects.toThrow(refusal);
    }
  });

  it('verify passes an unsealed ledger without making a key; the first seal makes one', async () => {
    const unsealed = await createTestDatabase('compliance_cli_unsealed');
    try {
      const fresh = loadConfig({ DATABASE_URL: unsealed.connectionString, LOG_LEVEL: 'silent', SEAL_KEY_FILE: path.join(await mkdtemp(path.join(tmpdir(), 'consentry-fresh-')), 'seal-key.pem') });
      const verified = capture();
      expect(await runVerify(fresh, [], verified)).toBe(0);
      expect(verified.stdout()).toContain('Checked 0 seals');
      expect(existsSync(fresh.sealKeyFile)).toBe(false);
      expect(await runSeal(fresh, [], capture())).toBe(0);
      expect(existsSync(fresh.sealKeyFile)).toBe(true);
    } finally {
      await unsealed.drop();
    }
  });
});

describe('consentry purge', () => {
  it('reports what a dry run would remove and changes nothing', async () => {
    const io = capture();
    expect(await runPurge(config, ['--dry-run', '--website', websiteId], io)).toBe(0);
    expect(io.stdout()).toContain('CLI shop');
    expect(io.stdout()).toContain('retention 24 months');
    expect(io.stdout()).toContain('Dry run: would remove 0 events from 1 website.');
  });

  it('refuses a website that is not an id, and names one that does not exist', async () => {
    const bad = capture();
    expect(await runPurge(config, ['--website', 'shop'], bad)).toBe(2);
    expect(bad.stderr()).toContain('--website must be a website id');
    const missing = capture();
    expect(await runPurge(config, ['--website', '00000000-0000-4000-8000-000000000000'], missing)).toBe(1);
    expect(missing.stderr()).toContain('No website with id');
  });
});

describe('consentry receipt and subject', () => {
  it('prints a sealed receipt', async () => {
    const io = capture();
    expect(await runReceipt(config, [eventIds[3]!], io)).toBe(0);
    expect(JSON.parse(io.stdout())).toMatchObject({ consentReceiptId: eventIds[3], proofStatus: 'sealed', controller: { name: 'CLI shop' } });
    const usage = capture();
    expect(await runReceipt(config, ['nope'], usage)).toBe(2);
    expect(usage.stderr()).toContain('Usage: consentry receipt CONSENT_ID');
  });

  it('explains each argument mistake of subject', async () => {
    const cases: [string[], string][] = [
      [['export', '--website', websiteId], 'give exactly one of --visitor and --ip'],
      [['export', '--website', websiteId, '--visitor', 'a', '--ip', '203.0.113.7'], 'give exactly one of --visitor and --ip'],
      [['forget', '--website', websiteId, '--visitor', 'a'], 'say export or erase'],
      [['erase', '--website', websiteId, '--ip', '203.0.113.999'], '--ip must be an IPv4 or IPv6 address'],
      [['erase', '--website', websiteId, '--visitor', 'a', '--out', 'x.json'], '--out goes with export'],
    ];
    for (const [args, message] of cases) {
      const io = capture();
      expect(await runSubject(config, args, io), args.join(' ')).toBe(2);
      expect(io.stderr()).toContain(message);
    }
  });

  it('says when nothing is held about a visitor', async () => {
    const io = capture();
    expect(await runSubject(config, ['erase', '--website', websiteId, '--ip', '192.0.2.200'], io)).toBe(0);
    expect(io.stdout()).toContain('Nothing is held about this visitor on this website');
    expect(io.stderr()).toContain('keeps IP addresses truncated');
  });
});
