// The backup and restore of an embedded installation, as docs/deploy.md tells an operator to do
// them: its two shell blocks, run as written, on a sealed ledger; the restored cluster holds the
// same events and seals, verifies, and keeps counting transactions past the restored log's.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGroupCommitAppender,
  createPool,
  loadConfig,
  migrateDatabase,
  readLatestSeal,
  sealAll,
  startEmbeddedPostgres,
  verifyLedger,
  type Db,
  type RunningEmbeddedPostgres,
} from '@consentry/infra';
import { consentAppendRequest, freePort } from '@consentry/infra/testing';
import { ownSealPublicKey, sealSignerFor } from '@consentry/server';

const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');

/** The fenced shell block that starts with this comment line. */
function shellBlock(comment: string): string {
  const block = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!).find((text) => text.startsWith(`${comment}\n`));
  if (!block) throw new Error(`docs/deploy.md has no sh block starting with "${comment}"`);
  return block;
}

function runShell(script: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('sh', ['-euc', script], { cwd, env: { PATH: process.env.PATH ?? '', ...env } }, (error, _stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
    );
  });
}

interface LedgerFacts {
  readonly events: number;
  readonly lastSeal: unknown;
  readonly maxTransaction: string;
}

async function factsOf(pool: Db): Promise<LedgerFacts> {
  const { rows } = await pool.query<{ events: number; max: string }>('SELECT count(*)::int AS events, max(transaction_id)::text AS max FROM events');
  return { events: rows[0]!.events, lastSeal: await readLatestSeal(pool), maxTransaction: rows[0]!.max };
}

describe('backing up and restoring an embedded installation as docs/deploy.md says', () => {
  let work: string;
  const servers: RunningEmbeddedPostgres[] = [];
  const pools: Db[] = [];

  async function open(dataDir: string): Promise<Db> {
    const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), mode: 'start' });
    servers.push(server);
    const pool = createPool(server.connectionString, { max: 2 });
    pools.push(pool);
    return pool;
  }
  async function close(pool: Db): Promise<void> {
    const index = pools.indexOf(pool);
    await pool.end();
    await servers[index]!.stop();
    pools.splice(index, 1);
    servers.splice(index, 1);
  }

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'consentry-embedded-backup-'));
    // As root the server runs as the system user postgres, which must traverse to each DATA_DIR.
    await chmod(work, 0o711);
  });
  afterAll(async () => {
    for (const pool of pools) await pool.end().catch(() => undefined);
    for (const server of servers) await server.stop().catch(() => undefined);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('restores the same sealed log into a fresh DATA_DIR, which verifies and goes on appending after it', async () => {
    const original = path.join(work, 'original');
    const config = loadConfig({ DATA_DIR: original, LOG_LEVEL: 'silent' });
    let pool = await open(original);
    await migrateDatabase(pool);
    const websiteId = '7d1f0c2e-3b4a-4c5d-8e6f-9a0b1c2d3e4f';
    const appender = createGroupCommitAppender(pool);
    await Promise.all(Array.from({ length: 20 }, () => appender.append(consentAppendRequest({ websiteId }))));
    await appender.close();
    const signer = await sealSignerFor(config, pool);
    await sealAll(pool, signer);
    const publicKey = await ownSealPublicKey(config, pool);
    const before = await factsOf(pool);
    expect(before.events).toBeGreaterThan(20);
    expect(before.lastSeal).not.toBeNull();
    // "Stop npm start": the server goes down, as with the product.
    await close(pool);

    await runShell(shellBlock('# back up the embedded database (Consentry stopped)'), work, { DATA_DIR: original });
    const archives = (await readdir(work)).filter((name) => /^consentry-\d{4}-\d\d-\d\d\.tar\.gz$/.test(name));
    expect(archives).toHaveLength(1);

    const restored = path.join(work, 'restored');
    const restore = shellBlock('# restore the embedded database (Consentry stopped)').replace(/^BACKUP=.*$/m, `BACKUP="${path.join(work, archives[0]!)}"`);
    await runShell(restore, work, { DATA_DIR: restored });
    pool = await open(restored);
    const after = await factsOf(pool);
    expect(after).toEqual(before);
    expect(await verifyLedger(pool, { publicKey })).toMatchObject({ ok: true });

    // The cluster's transaction counter came with it: what is appended now sorts after the restored log.
    const next = createGroupCommitAppender(pool);
    await next.append(consentAppendRequest({ websiteId }));
    await next.close();
    const { rows } = await pool.query<{ later: boolean }>('SELECT max(transaction_id) > $1::xid8 AS later FROM events', [before.maxTransaction]);
    expect(rows[0]!.later).toBe(true);
    await close(pool);

    // Restoring over an installation keeps the cluster that was there beside it.
    await runShell(restore, work, { DATA_DIR: restored });
    expect((await readdir(restored)).filter((name) => name.startsWith('postgres.before-restore-'))).toHaveLength(1);
  }, 240_000);
});
