// The scan queue's claim on a real database: owners take turns whatever each has queued, an owner with
// a scan running waits behind owners with none, a runner kept for others takes none of a busy
// owner's scans, a dead runner's scan is taken over, and two claims at once never get the same scan.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendToStream } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite } from '@consentry/projections/testing';
import { getScanReport, scansProjection } from '@consentry/projections';
import { claimNextScanFairly, type ClaimScanOptions } from './scan-queue';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('scan_queue', { poolSize: 8 });
});
afterAll(async () => {
  await db?.drop();
});
beforeEach(async () => {
  await db.pool.query('TRUNCATE scans, queue_turns');
});

const start = Date.parse('2031-05-01T10:00:00Z');
const at = (seconds: number) => new Date(start + seconds * 1000);

/** An owner with one website per scan, each scan queued at the given second. */
async function ownerQueuing(...seconds: number[]): Promise<string[]> {
  const ownerId = randomUUID();
  const scanIds: string[] = [];
  for (const second of seconds) {
    const website = await addTestWebsite(db.pool, { ownerId });
    scanIds.push(await queueScan(website.id, second));
  }
  return scanIds;
}

async function queueScan(websiteId: string, second: number): Promise<string> {
  const scanId = randomUUID();
  await appendToStream(
    db.pool,
    `scan-${scanId}`,
    [{ type: 'ScanRequested', data: { scanId, websiteId, trigger: 'owner', requestedBy: null, maxPages: 1, requestedAt: at(second).toISOString() } }],
    { expectedVersion: 'no_stream', inlineProjections: [scansProjection] },
  );
  return scanId;
}

async function finish(scanId: string, second: number): Promise<void> {
  const scan = await getScanReport(db.pool, scanId);
  await appendToStream(
    db.pool,
    `scan-${scanId}`,
    [{ type: 'ScanFailed', data: { scanId, websiteId: scan!.websiteId, reason: 'Done for the test.', failedAt: at(second).toISOString() } }],
    { inlineProjections: [scansProjection] },
  );
}

const claim = (second: number, options: Partial<ClaimScanOptions> = {}) =>
  claimNextScanFairly(db.pool, { runner: 'runner-1', now: at(second), staleAfterMs: 120_000, ownersRunningToo: true, ...options }).then((scan) => scan?.scanId ?? null);

describe('claiming the next scan', () => {
  it("gives another owner's scan the second turn, not the fourth, while the first owner's scan runs", async () => {
    const [a1, a2, a3] = await ownerQueuing(0, 1, 2);
    const [b1] = await ownerQueuing(3);
    // Several runners, none finishing: A's first, then B's (A has one running), then A's others.
    expect([await claim(10), await claim(11), await claim(12), await claim(13)]).toEqual([a1, b1, a2, a3]);
    expect(await claim(14)).toBeNull();
  });

  it('takes turns between owners when one runner finishes each scan before the next', async () => {
    const [a1, a2, a3] = await ownerQueuing(0, 1, 2);
    const [b1, b2] = await ownerQueuing(3, 4);
    const order: (string | null)[] = [];
    for (let second = 10; second < 16; second++) {
      const scanId = await claim(second);
      order.push(scanId);
      if (scanId) await finish(scanId, second);
    }
    // Round-robin: nobody running, so the owner whose last turn is oldest goes next.
    expect(order).toEqual([a1, b1, a2, b2, a3, null]);
  });

  it('keeps a runner free for owners with nothing running when told to', async () => {
    const [a1, a2] = await ownerQueuing(0, 1);
    expect(await claim(10)).toBe(a1);
    // The last idle runner of a process takes nothing of an owner already running one…
    expect(await claim(11, { ownersRunningToo: false })).toBeNull();
    // …so it is there the moment another owner asks.
    const [b1] = await ownerQueuing(12);
    expect(await claim(13, { ownersRunningToo: false })).toBe(b1);
    expect(await claim(14)).toBe(a2);
  });

  it("takes over a dead runner's scan, and does not count the dead claim as the owner running one", async () => {
    const [a1] = await ownerQueuing(0);
    const [b1] = await ownerQueuing(1);
    expect(await claim(10, { runner: 'dead-runner' })).toBe(a1);
    // Two minutes on with no progress from it: A's scan is stale, A counts as running nothing.
    expect(await claim(200, { ownersRunningToo: false, runner: 'live-runner' })).toBe(b1);
    expect(await claim(201, { ownersRunningToo: false, runner: 'live-runner' })).toBe(a1);
    const { rows } = await db.pool.query('SELECT claimed_by FROM scans WHERE scan_id = $1', [a1]);
    expect(rows[0].claimed_by).toBe('live-runner');
  });

  it('still claims the scan of a website removed while it waited (to fail it saying so)', async () => {
    const [a1] = await ownerQueuing(0);
    await db.pool.query('DELETE FROM websites WHERE id = (SELECT website_id FROM scans WHERE scan_id = $1)', [a1]);
    expect(await claim(10, { ownersRunningToo: false })).toBe(a1);
  });

  it('never hands one scan to two runners claiming at once', async () => {
    const queued = [...(await ownerQueuing(0, 1, 2)), ...(await ownerQueuing(3, 4)), ...(await ownerQueuing(5))];
    const claimed = await Promise.all(queued.map((_, index) => claim(10, { runner: `runner-${index}` })));
    expect(claimed.filter((scanId) => scanId !== null).sort()).toEqual([...queued].sort());
  });
});
