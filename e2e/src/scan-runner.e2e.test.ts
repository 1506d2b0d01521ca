/// <reference lib="dom" />
// The scan runner end to end: the whole product runs (with its own runner off), an owner's site on
// loopback embeds the real widget — one analytics script loaded without blocking, one marketing
// script correctly blocked — and a queued scan is run by the runner with the real engine in headless
// Chromium. The report in the ledger and the read model names the violation, and the product's own
// beacons were never sent (no consent counted for the scan). Several runners share the queue fairly:
// one owner's tarpit scans never hold another owner's scan back.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream, loadConfig } from '@consentry/infra';
import { createTestDatabase, freePort, serveStaticPages, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, type TestWebsite } from '@consentry/ingest/testing';
import { getScanReport, listScans, scansProjection } from '@consentry/projections';
import { startSystem, type RunningSystem } from '@consentry/server';
import { launchScannerBrowser } from '@consentry/jobs';
import { runNextScan, scheduleDueScans, startScanRunner, type ScanRunnerOptions } from '@consentry/jobs';
import { serveTestSite, siteDomain, type TestSite } from '@consentry/jobs/testing';

let db: TestDatabase;
let system: RunningSystem;
let site: { port: number; close(): Promise<void> };
let website: TestWebsite;
let serviceUrl: string;
/** Added to every page's head: lets a test change the site between two scans. */
let pageExtra = '';
/** The site's pages, served by reference: re-rendered, they change what the next scan sees. */
const sitePages: Record<string, string> = {};
function renderPages(): void {
  sitePages['/'] = page(website.embedCode, 'Home', '<a href="/menu">Menu</a>');
  sitePages['/menu'] = page(website.embedCode, 'Menu', '<a href="/">Home</a>');
}

const page = (embedCode: string, title: string, links: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<script>window.dataLayer = window.dataLayer || []; function gtag() { dataLayer.push(arguments); }</script>
<script>document.cookie = 'PHPSESSID=abc123; path=/';</script>
<script>document.cookie = '_ga=GA1.1.123.456; path=/; max-age=63072000';</script>
${pageExtra}
</head><body><h1>${title}</h1>${links}
<script type="text/plain" data-consentry-category="marketing">document.cookie = '_fbp=fb.1.123.456; path=/; max-age=7776000';</script>
<script src="${serviceUrl}/widget.js" data-embed-code="${embedCode}" defer></script>
</body></html>`;

beforeAll(async () => {
  db = await createTestDatabase('scan_runner_e2e');
  const port = await freePort();
  serviceUrl = `http://localhost:${port}`;
  system = await startSystem(
    loadConfig({ DATABASE_URL: db.connectionString, PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: '0', PUBLIC_URL: serviceUrl, LOG_LEVEL: 'warn', GEOIP: 'none', SCANNER: 'off' }),
  );
  website = await addTestWebsite(db.pool, {
    domain: 'scan.example.test',
    companyName: 'Scanned Shop',
    settings: { services: [{ purpose: 'marketing', name: 'Meta Pixel', description: 'Ad measurement', cookies: ['_fbp'] }] },
  });
  renderPages();
  site = await serveStaticPages(sitePages);
}, 120_000);

afterAll(async () => {
  await site?.close();
  await system?.stop();
  await db?.drop();
});

const loopback = async () => [{ address: '127.0.0.1', family: 4 }];

function runnerOptions(): ScanRunnerOptions {
  return {
    pool: db.pool,
    runnerId: 'test-runner',
    launchBrowser: () => launchScannerBrowser(),
    rootUrlOf: (target) => `http://www.${target.domain}:${site.port}/`,
    // The test hosts all live on loopback, which the scanner refuses unless allowed.
    lookup: loopback,
    isAllowedAddress: (host) => host.endsWith('.example.test') || host === 'localhost',
    muteRequest: (url) => url.startsWith(`${serviceUrl}/api/collect/`) || url.startsWith(`${serviceUrl}/api/widget/rule/`),
    timing: { quietMs: 150, maxSettleMs: 2_000, bannerWaitMs: 3_000 },
  };
}

describe('the scan runner', () => {
  it('runs a queued scan with the real widget and records the violation it finds', async () => {
    const scanId = crypto.randomUUID();
    await appendToStream(
      db.pool,
      `scan-${scanId}`,
      [{ type: 'ScanRequested', data: { scanId, websiteId: website.id, trigger: 'owner', requestedBy: 'owner-1', maxPages: 5, requestedAt: new Date().toISOString() } }],
      { inlineProjections: [scansProjection] },
    );
    const outcome = await runNextScan(runnerOptions());
    expect(outcome).toMatchObject({ status: 'completed', scan: { scanId } });
    expect(await runNextScan(runnerOptions())).toBeNull();

    const report = await getScanReport(db.pool, scanId);
    expect(report).toMatchObject({ status: 'completed', pagesScanned: 2, truncated: false });
    const item = (name: string) => report!.items.find((candidate) => candidate.kind === 'cookie' && candidate.name === name);
    expect(item('_ga')).toMatchObject({ purpose: 'analytics', source: 'database', firstParty: true, seenBefore: true });
    expect(item('_fbp')).toMatchObject({ purpose: 'marketing', seenBefore: false, seenAfterAccept: true, seenAfterReject: false });
    expect(item('PHPSESSID')).toMatchObject({ purpose: 'necessary', seenBefore: true });
    // The widget's own choice cookie is ours, and necessary.
    expect(item(`consentry_${website.embedCode}`)).toMatchObject({ purpose: 'necessary' });

    const before = report!.findings.filter((finding) => finding.code === 'set_before_consent');
    expect(before.map((finding) => finding.subject)).toEqual(['_ga']);
    expect(before[0]).toMatchObject({ severity: 'critical', pageCount: 2 });
    expect(report!.findings.some((finding) => finding.subject === '_fbp' && finding.code !== 'set_after_reject')).toBe(false);
    expect(report!.findings.some((finding) => finding.code === 'banner_missing')).toBe(false);

    const { rows } = await db.pool.query('SELECT type FROM events WHERE stream_id = $1 ORDER BY position', [`scan-${scanId}`]);
    expect(rows.map((row) => row.type)).toEqual(['ScanRequested', 'ScanCompleted']);
    // The scan's own clicks on Accept All and Reject All were never recorded as consents.
    const consents = await db.pool.query(`SELECT count(*)::int AS n FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined')`);
    expect(consents.rows[0].n).toBe(0);
  }, 120_000);

  it("publishes the site's cookie declaration from that scan, readable in a browser", async () => {
    const browser = await launchScannerBrowser();
    try {
      const tab = await browser.newPage({ viewport: { width: 1100, height: 800 } });
      await tab.goto(`${serviceUrl}/cookies/${website.embedCode}`);
      expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Cookies on scan.example.test');
      const analytics = tab.locator('section', { has: tab.getByRole('heading', { name: 'Analytics' }) });
      expect(await analytics.getByRole('row').filter({ hasText: '_ga' }).count()).toBe(1);
      const marketing = tab.locator('section', { has: tab.getByRole('heading', { name: 'Marketing' }) });
      expect(await marketing.getByRole('row').filter({ hasText: '_fbp' }).count()).toBe(1);
      if (process.env.UPDATE_SCREENSHOTS) await tab.screenshot({ path: fileURLToPath(new URL('../../docs/screens/desktop/cookie-declaration.png', import.meta.url)), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('records a scan it cannot run as failed, with a reason the owner can act on', async () => {
    const scanId = crypto.randomUUID();
    const unreachable = await addTestWebsite(db.pool, { domain: 'gone.example.test' });
    await appendToStream(
      db.pool,
      `scan-${scanId}`,
      [{ type: 'ScanRequested', data: { scanId, websiteId: unreachable.id, trigger: 'owner', requestedBy: 'owner-1', maxPages: 5, requestedAt: new Date().toISOString() } }],
      { inlineProjections: [scansProjection] },
    );
    // Nothing listens on this port.
    const closedPort = await freePort();
    const outcome = await runNextScan({ ...runnerOptions(), rootUrlOf: (target) => `http://www.${target.domain}:${closedPort}/` });
    expect(outcome?.status).toBe('failed');
    const report = await getScanReport(db.pool, scanId);
    expect(report?.status).toBe('failed');
    expect(report?.failureReason).toMatch(/www\.gone\.example\.test/);
    expect(report?.failureReason).not.toMatch(/at .*\.ts:\d+/);
  }, 60_000);

  it('scans a test site on a LAN at the port its domain names, over http when https does not answer', async () => {
    const scanId = crypto.randomUUID();
    const lan = await addTestWebsite(db.pool, { domain: `lan.example.test:${site.port}` });
    await appendToStream(
      db.pool,
      `scan-${scanId}`,
      [{ type: 'ScanRequested', data: { scanId, websiteId: lan.id, trigger: 'owner', requestedBy: 'owner-1', maxPages: 1, requestedAt: new Date().toISOString() } }],
      { inlineProjections: [scansProjection] },
    );
    // Where the product starts it: from the website's domain alone.
    const { rootUrlOf: _ignored, ...fromDomain } = runnerOptions();
    const outcome = await runNextScan(fromDomain);
    expect(outcome).toMatchObject({ status: 'completed', scan: { scanId } });
    const report = await getScanReport(db.pool, scanId);
    expect(report).toMatchObject({ status: 'completed', pagesScanned: 1 });
    expect(report!.items.find((item) => item.name === 'PHPSESSID')).toMatchObject({ firstParty: true });
  }, 60_000);
});

describe('scheduled scans', () => {
  const installed = async (websiteId: string) =>
    db.pool.query('INSERT INTO website_activity (website_id, last_event_at) VALUES ($1, now()) ON CONFLICT (website_id) DO NOTHING', [websiteId]);

  it('are queued for installed, active websites whose interval has passed, once', async () => {
    const due = await addTestWebsite(db.pool, { domain: 'due.example.test' });
    const neverInstalled = await addTestWebsite(db.pool, { domain: 'never.example.test' });
    const off = await addTestWebsite(db.pool, { domain: 'off.example.test', settings: { scanIntervalDays: 0 } });
    const inactive = await addTestWebsite(db.pool, { domain: 'inactive.example.test', active: false });
    for (const site of [due, off, inactive]) await installed(site.id);
    // The website of the other tests was scanned just now: not due.
    await installed(website.id);

    const now = new Date();
    expect(await scheduleDueScans(db.pool, now)).toBeGreaterThanOrEqual(1);
    const [scan] = await listScans(db.pool, due.id);
    expect(scan).toMatchObject({ trigger: 'schedule', status: 'queued', requestedBy: null, maxPages: 25 });
    for (const site of [neverInstalled, off, inactive, website]) {
      expect((await listScans(db.pool, site.id)).filter((entry) => entry.trigger === 'schedule'), site.domain).toEqual([]);
    }
    // Asked again: the queued one stands.
    await scheduleDueScans(db.pool, now);
    expect(await listScans(db.pool, due.id)).toHaveLength(1);
    // Thirty days on, after it ran, the next one is due.
    await db.pool.query(`UPDATE scans SET status = 'failed' WHERE website_id = $1`, [due.id]);
    await scheduleDueScans(db.pool, new Date(now.getTime() + 31 * 86_400_000));
    expect(await listScans(db.pool, due.id)).toHaveLength(2);
    // What the far-future round queued is not for the next test to run.
    await db.pool.query(`DELETE FROM scans WHERE status = 'queued'`);
  });

  it('tell the owner what a scheduled scan found that the previous scan did not, and only that', async () => {
    const told: string[][] = [];
    const options: ScanRunnerOptions = {
      ...runnerOptions(),
      notifyNewFindings: async (_site, findings) => {
        told.push(findings.map((finding) => `${finding.code} ${finding.subject}`));
      },
    };
    const schedule = async () => {
      const scanId = crypto.randomUUID();
      await appendToStream(
        db.pool,
        `scan-${scanId}`,
        [{ type: 'ScanRequested', data: { scanId, websiteId: website.id, trigger: 'schedule', requestedBy: null, maxPages: 5, requestedAt: new Date().toISOString() } }],
        { inlineProjections: [scansProjection] },
      );
      expect(await runNextScan(options)).toMatchObject({ status: 'completed', scan: { scanId } });
    };
    // A first scheduled scan sets what is known (it may be new against an earlier one: not the point).
    await schedule();
    told.length = 0;
    // Scanned again unchanged: nothing new, nobody told.
    await schedule();
    expect(told).toEqual([]);
    // The site changes: a new tracker appears before consent.
    pageExtra = '<script>document.cookie = "_gcl_au=1.1.1; path=/; max-age=7776000";</script>';
    renderPages();
    await schedule();
    expect(told).toEqual([expect.arrayContaining(['set_before_consent _gcl_au'])]);
    expect(told[0]!.some((line) => line.includes('_ga '))).toBe(false);
  }, 120_000);
});

describe('several runners and several owners', () => {
  let tarpit: TestSite;
  beforeAll(async () => {
    // Its home page and a few others answer; the 200 pages it links to under /p/ never do, so a scan
    // of it runs until its time limit (each of those pages takes the whole page timeout).
    tarpit = await serveTestSite({ hangExtraPages: true, extraPages: 200 });
  });
  afterAll(async () => {
    await tarpit?.close();
  });

  const queueScan = async (websiteId: string, maxPages: number): Promise<string> => {
    const scanId = randomUUID();
    await appendToStream(
      db.pool,
      `scan-${scanId}`,
      [{ type: 'ScanRequested', data: { scanId, websiteId, trigger: 'owner', requestedBy: null, maxPages, requestedAt: new Date().toISOString() } }],
      { expectedVersion: 'no_stream', inlineProjections: [scansProjection] },
    );
    return scanId;
  };
  const statusOf = async (scanIds: readonly string[]): Promise<string[]> => {
    const { rows } = await db.pool.query<{ scan_id: string; status: string }>('SELECT scan_id, status FROM scans WHERE scan_id = ANY($1::uuid[])', [scanIds]);
    return scanIds.map((scanId) => rows.find((row) => row.scan_id === scanId)?.status ?? 'missing');
  };
  const tarpitOr = (target: { domain: string }) => (target.domain === siteDomain ? tarpit.url('/') : `http://www.${target.domain}:${site.port}/`);

  it("run another owner's 1-page scan to its end while one owner's tarpit scans still run", async () => {
    const ownerA = randomUUID();
    const tarpits: TestWebsite[] = [];
    for (let index = 0; index < 3; index++) tarpits.push(await addTestWebsite(db.pool, { ownerId: ownerA, domain: siteDomain }));
    const bakery = await addTestWebsite(db.pool, { domain: 'bakery.example.test' });
    const finished: string[] = [];
    const runner = startScanRunner({
      ...runnerOptions(),
      runnerId: 'fair-runner',
      runners: 2,
      pollMs: 100,
      rootUrlOf: tarpitOr,
      onOutcome: (outcome) => finished.push(outcome.scan.scanId),
    });
    try {
      // Owner A queues a 200-page scan of each of three tarpit websites…
      const scansOfA: string[] = [];
      for (const website of tarpits) scansOfA.push(await queueScan(website.id, 200));
      await waitFor(async () => (await statusOf(scansOfA)).includes('running'), { timeoutMs: 30_000, message: "a runner to take one of A's scans" });
      // …and owner B a 1-page scan a moment later.
      const scanOfB = await queueScan(bakery.id, 1);
      await waitFor(() => finished.length > 0, { timeoutMs: 120_000, message: "the first scan to end (B's, while A's run)" });
      expect(finished).toEqual([scanOfB]);
      expect(await getScanReport(db.pool, scanOfB)).toMatchObject({ status: 'completed', pagesScanned: 1 });
      // A holds one runner; the other was kept for owners with nothing running.
      expect((await statusOf(scansOfA)).sort()).toEqual(['queued', 'queued', 'running']);
    } finally {
      await runner.stop();
    }
    // Stopping handed A's scan back to the queue, unrecorded, for the next runner to start afresh.
    expect(finished).toHaveLength(1);
    const { rows } = await db.pool.query(`SELECT status, claimed_by FROM scans s JOIN websites w ON w.id = s.website_id WHERE w.owner_id = $1`, [ownerA]);
    expect(rows).toEqual(tarpits.map(() => ({ status: 'queued', claimed_by: null })));
    await db.pool.query(`DELETE FROM scans WHERE status = 'queued'`);
  }, 180_000);

  it('keep the claim of a scan stuck on pages that never load, so no other runner takes it over', async () => {
    const website = await addTestWebsite(db.pool, { domain: siteDomain });
    const staleAfterMs = 2_000;
    const runner = startScanRunner({ ...runnerOptions(), runnerId: 'slow-runner', pollMs: 100, staleAfterMs, rootUrlOf: tarpitOr });
    try {
      const scanId = await queueScan(website.id, 200);
      // Sampled until the claim is renewed while no page finished (pages done unchanged): a heartbeat,
      // not a progress report. Without one, a page that takes longer than staleAfterMs loses the claim.
      let last: { pages_done: number; claimed_at: Date } | undefined;
      await waitFor(
        async () => {
          const { rows } = await db.pool.query<{ pages_done: number; claimed_at: Date; status: string }>(
            'SELECT pages_done, claimed_at, status FROM scans WHERE scan_id = $1',
            [scanId],
          );
          const now = rows[0]!;
          if (now.status !== 'running') return false;
          const renewed = last !== undefined && now.pages_done === last.pages_done && now.claimed_at.getTime() > last.claimed_at.getTime();
          last = now;
          return renewed;
        },
        { timeoutMs: 90_000, intervalMs: staleAfterMs / 8, message: 'the claim renewed while no page finished' },
      );
      // Another runner that waits several renewal intervals before taking over finds the claim
      // fresh (its own staleAfterMs leaves room for a loaded machine's late renewal).
      expect(await runNextScan({ ...runnerOptions(), runnerId: 'other-runner', staleAfterMs: staleAfterMs * 8 })).toBeNull();
    } finally {
      await runner.stop();
      await db.pool.query(`DELETE FROM scans WHERE status = 'queued'`);
    }
  }, 120_000);
});
