// Scans through app.inject() on a real database: an owner queues a scan of their website (one at a
// time), the runner's queue claims it and reports progress, its result becomes the report, and the
// owner's purpose assignments are recorded; nobody else's website or scan is ever visible.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleEventData } from '@consentry/events/examples';
import { appendToStream } from '@consentry/infra';
import { createTestDatabase, type TestDatabase } from '@consentry/infra/testing';
import { claimNextScan, reportScanProgress, scansProjection } from '@consentry/projections';
import { saveAdmin } from '../auth/admins';
import { createPasswordHasher } from '../auth/passwords';
import { addWebsiteAs, buildTestApi, registerOwner, signInAdmin, type Client, type TestApi } from '../testing/api-app';
import { maxOpenScansPerOwner } from './scan-limit';

let db: TestDatabase;
let api: TestApi;
let admin: Client;

beforeAll(async () => {
  db = await createTestDatabase('api_scans', { poolSize: 8 });
  api = await buildTestApi(db.pool);
  await saveAdmin(db.pool, 'root', 'admin password 1', createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
  admin = await signInAdmin(api.app, 'root', 'admin password 1');
});
afterAll(async () => {
  await api?.close();
  await db?.drop();
});

async function complete(scanId: string, websiteId: string) {
  await appendToStream(
    db.pool,
    `scan-${scanId}`,
    [{ type: 'ScanCompleted', data: { ...exampleEventData.ScanCompleted, scanId, websiteId } }],
    { inlineProjections: [scansProjection] },
  );
}

describe('when an owner scans their website', () => {
  it('queues one scan at a time, shows its progress while it runs and its report once done', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Bakery');
    const started = await owner.request({ method: 'POST', url: `/api/websites/${website.id}/scans`, payload: { maxPages: 10 } });
    expect(started.statusCode).toBe(202);
    const scan = started.json();
    expect(scan).toMatchObject({ websiteId: website.id, status: 'queued', trigger: 'owner', requestedBy: owner.id, maxPages: 10, findingCount: 0 });
    const { rows } = await db.pool.query('SELECT type FROM events WHERE stream_id = $1', [`scan-${scan.scanId}`]);
    expect(rows).toEqual([{ type: 'ScanRequested' }]);

    const again = await owner.request({ method: 'POST', url: `/api/websites/${website.id}/scans` });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: { code: 'SCAN_IN_PROGRESS', message: 'A scan of this website is already waiting or running' } });

    const claimed = await claimNextScan(db.pool, 'runner-1', new Date(), 60_000);
    expect(claimed).toMatchObject({ scanId: scan.scanId, status: 'running' });
    expect(await claimNextScan(db.pool, 'runner-2', new Date(), 60_000)).toBeNull();
    await reportScanProgress(db.pool, scan.scanId, 'runner-1', { pagesDone: 3, pagesPlanned: 10, currentUrl: 'https://shop.example.com/menu' }, new Date());
    const running = (await owner.request({ method: 'GET', url: `/api/scans/${scan.scanId}` })).json();
    expect(running).toMatchObject({ status: 'running', progress: { pagesDone: 3, pagesPlanned: 10, currentUrl: 'https://shop.example.com/menu' }, items: [], findings: [] });

    await complete(scan.scanId, website.id);
    const report = (await owner.request({ method: 'GET', url: `/api/scans/${scan.scanId}` })).json();
    expect(report).toMatchObject({
      status: 'completed',
      pagesScanned: 12,
      findingCount: 1,
      items: exampleEventData.ScanCompleted.items,
      findings: exampleEventData.ScanCompleted.findings,
    });
    const history = (await owner.request({ method: 'GET', url: `/api/websites/${website.id}/scans` })).json();
    expect(history.map((entry: { scanId: string }) => entry.scanId)).toEqual([scan.scanId]);
    // Done: the next scan may start.
    expect((await owner.request({ method: 'POST', url: `/api/websites/${website.id}/scans` })).statusCode).toBe(202);
  });

  it('hands a scan whose runner went quiet to another runner', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Cafe');
    const scan = (await owner.request({ method: 'POST', url: `/api/websites/${website.id}/scans` })).json();
    const longAgo = new Date(Date.now() - 10 * 60_000);
    // Claim everything queued so far with an old clock, as a runner that then died.
    let claimed;
    while ((claimed = await claimNextScan(db.pool, 'dead-runner', longAgo, 60_000)) && claimed.scanId !== scan.scanId);
    expect(claimed?.scanId).toBe(scan.scanId);
    // Everything the dead runner held is stale now: a live runner takes it all over, ours included.
    const taken: string[] = [];
    for (let next; (next = await claimNextScan(db.pool, 'live-runner', new Date(), 60_000)); ) taken.push(next.scanId);
    expect(taken).toContain(scan.scanId);
    // The dead runner's late progress is ignored.
    await reportScanProgress(db.pool, scan.scanId, 'dead-runner', { pagesDone: 9, pagesPlanned: 9, currentUrl: null }, new Date());
    expect((await owner.request({ method: 'GET', url: `/api/scans/${scan.scanId}` })).json().progress.pagesDone).toBe(0);
  });

  it(`lets an owner have at most ${maxOpenScansPerOwner} scans waiting or running, so one owner cannot fill the queue`, async () => {
    const owner = await registerOwner(api.app);
    const neighbour = await registerOwner(api.app);
    await admin.request({
      method: 'PUT',
      url: `/api/admin/users/${owner.id}`,
      payload: { subscriptionTier: 'pro', subscriptionStatus: 'active', maxWebsites: 10, maxConsentsPerMonth: 100_000, isActive: true },
    });
    const websites = [];
    for (let index = 0; index <= maxOpenScansPerOwner; index++) websites.push(await addWebsiteAs(owner, `Chain shop ${index}`, `shop${index}.example.com`));
    const scan = (website: { id: string }, client: Client = owner) => client.request({ method: 'POST', url: `/api/websites/${website.id}/scans`, payload: { maxPages: 1 } });
    // Every website but the last gets one, several at once (the check cannot be raced).
    const started = await Promise.all(websites.slice(0, maxOpenScansPerOwner).map((website) => scan(website)));
    expect(started.map((response) => response.statusCode)).toEqual(websites.slice(0, maxOpenScansPerOwner).map(() => 202));

    const refused = await scan(websites[maxOpenScansPerOwner]!);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: { code: 'SCAN_QUEUE_FULL', message: 'You already have 3 scans waiting or running; wait for one to finish, then start this one.' },
    });
    // An admin asking for the owner's website is held to the owner's limit too; nothing was queued.
    expect((await scan(websites[maxOpenScansPerOwner]!, admin)).statusCode).toBe(429);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM scans WHERE website_id = $1', [websites[maxOpenScansPerOwner]!.id]);
    expect(rows[0].n).toBe(0);
    // A website whose scan is open still hears that, not the limit.
    expect((await scan(websites[0]!)).json().error.code).toBe('SCAN_IN_PROGRESS');
    // Another owner is not held back by this one.
    expect((await scan(await addWebsiteAs(neighbour, 'Next door'), neighbour)).statusCode).toBe(202);

    // A running scan still counts; once one ends, the next may be queued.
    const first = started[0]!.json();
    await db.pool.query(`UPDATE scans SET status = 'running', claimed_by = 'runner-1', claimed_at = now() WHERE scan_id = $1`, [first.scanId]);
    expect((await scan(websites[maxOpenScansPerOwner]!)).statusCode).toBe(429);
    await complete(first.scanId, first.websiteId);
    expect((await scan(websites[maxOpenScansPerOwner]!)).statusCode).toBe(202);
  });

  it('refuses a bad page count with a clear message', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Deli');
    for (const maxPages of [0, 201, 2.5]) {
      const response = await owner.request({ method: 'POST', url: `/api/websites/${website.id}/scans`, payload: { maxPages } });
      expect(response.statusCode, String(maxPages)).toBe(400);
      expect(response.json().error.message).toContain('Max pages must be');
    }
  });

  it("never shows or scans another owner's website", async () => {
    const owner = await registerOwner(api.app);
    const stranger = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Bistro');
    const scan = (await owner.request({ method: 'POST', url: `/api/websites/${website.id}/scans` })).json();
    expect((await stranger.request({ method: 'POST', url: `/api/websites/${website.id}/scans` })).statusCode).toBe(404);
    expect((await stranger.request({ method: 'GET', url: `/api/websites/${website.id}/scans` })).statusCode).toBe(404);
    expect((await stranger.request({ method: 'GET', url: `/api/scans/${scan.scanId}` })).statusCode).toBe(404);
    expect((await owner.request({ method: 'GET', url: `/api/scans/${randomUUID()}` })).statusCode).toBe(404);
    expect((await api.app.inject({ method: 'GET', url: `/api/scans/${scan.scanId}` })).statusCode).toBe(401);
    // An admin sees every website's scans.
    expect((await admin.request({ method: 'GET', url: `/api/scans/${scan.scanId}` })).statusCode).toBe(200);
  });
});

describe("an owner's purpose for a cookie", () => {
  it('is recorded as an event, listed, replaced, and cleared with null', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Grocer');
    const url = `/api/websites/${website.id}/item-purposes`;
    const assigned = await owner.request({ method: 'POST', url, payload: { kind: 'cookie', name: 'cart_id', purpose: 'necessary' } });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json()).toEqual([{ kind: 'cookie', name: 'cart_id', purpose: 'necessary' }]);
    await owner.request({ method: 'POST', url, payload: { kind: 'cookie', name: 'cart_id', purpose: 'preferences' } });
    await owner.request({ method: 'POST', url, payload: { kind: 'localStorage', name: 'recent', purpose: 'analytics' } });
    expect((await owner.request({ method: 'GET', url })).json()).toEqual([
      { kind: 'cookie', name: 'cart_id', purpose: 'preferences' },
      { kind: 'localStorage', name: 'recent', purpose: 'analytics' },
    ]);
    const cleared = await owner.request({ method: 'POST', url, payload: { kind: 'cookie', name: 'cart_id', purpose: null } });
    expect(cleared.json()).toEqual([{ kind: 'localStorage', name: 'recent', purpose: 'analytics' }]);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM events WHERE type = $1 AND data->>$2 = $3', ['ItemPurposeAssigned', 'websiteId', website.id]);
    expect(rows[0].n).toBe(4);
  });

  it('refuses an unknown purpose or kind, and a blank name', async () => {
    const owner = await registerOwner(api.app);
    const website = await addWebsiteAs(owner, 'Florist');
    const url = `/api/websites/${website.id}/item-purposes`;
    for (const payload of [
      { kind: 'cookie', name: 'x', purpose: 'identification' },
      { kind: 'indexedDB', name: 'x', purpose: 'analytics' },
      { kind: 'cookie', name: '  ', purpose: 'analytics' },
    ]) {
      expect((await owner.request({ method: 'POST', url, payload })).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
