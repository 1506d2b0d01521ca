/// <reference lib="dom" />
// The scan runner end to end: the whole product runs (with its own runner off), an owner's site on
// loopback embeds the real widget — one analytics script loaded without blocking, one marketing
// script correctly blocked — and a queued scan is run by the runner with the real engine in headless
// Chromium. The report in the ledger and the read model names the violation, and the product's own
// beacons were never sent (no consent counted for the scan).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream, loadConfig } from '@consentry/infra';
import { createTestDatabase, freePort, serveStaticPages, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, type TestWebsite } from '@consentry/ingest/testing';
import { getScanReport, scansProjection } from '@consentry/projections';
import { startSystem, type RunningSystem } from '../system';
import { launchScannerBrowser } from './browser';
import { runNextScan, type ScanRunnerOptions } from './scan-runner';

let db: TestDatabase;
let system: RunningSystem;
let site: { port: number; close(): Promise<void> };
let website: TestWebsite;
let serviceUrl: string;

const page = (embedCode: string, title: string, links: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<script>window.dataLayer = window.dataLayer || []; function gtag() { dataLayer.push(arguments); }</script>
<script>document.cookie = 'PHPSESSID=abc123; path=/';</script>
<script>document.cookie = '_ga=GA1.1.123.456; path=/; max-age=63072000';</script>
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
  site = await serveStaticPages({
    '/': page(website.embedCode, 'Home', '<a href="/menu">Menu</a>'),
    '/menu': page(website.embedCode, 'Menu', '<a href="/">Home</a>'),
  });
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
});
