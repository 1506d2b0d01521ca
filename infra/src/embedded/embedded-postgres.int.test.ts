// The embedded PostgreSQL's lifecycle where the package alone would hang: a postmaster that died
// before it was asked to stop.
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitFor } from '../testing';
import { startEmbeddedPostgres } from './embedded-postgres';

describe('the embedded PostgreSQL', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'consentry-embedded-'));
    // As root the server runs as the system user postgres, which must traverse to DATA_DIR.
    await chmod(work, 0o711);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('stops at once when its server was killed before (the package waited forever for an exit already past)', async () => {
    const server = await startEmbeddedPostgres({ dataDir: work, port: await freePort(), mode: 'start' });
    const postmaster = Number(readFileSync(path.join(work, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(postmaster).toBeGreaterThan(0);
    process.kill(postmaster, 'SIGKILL');
    await waitFor(() => {
      try {
        process.kill(postmaster, 0);
        return false;
      } catch {
        return true;
      }
    });
    // Let the child's exit be reported before stop() is called, as when it died long before.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const outcome = await Promise.race([server.stop().then(() => 'stopped'), new Promise((resolve) => setTimeout(() => resolve('still waiting after 10 s'), 10_000))]);
    expect(outcome).toBe('stopped');
  }, 120_000);
});
