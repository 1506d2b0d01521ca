// The Cookie scan tab end to end, in real headless Chromium against the whole system (api, ledger on
// the machine's Postgres, the inline scans read model) with the system's own scan runner off, so the
// test plays the runner: an owner clicks Scan now and sees the scan queued; the test claims it,
// reports progress and records ScanCompleted in the ledger exactly as the runner does, and the open
// page (polling while the scan is open) shows the report with its findings first and every item. The
// owner says what an Unclassified cookie is for, and after a second scan reads what changed.
// UPDATE_SCREENSHOTS=1 rewrites docs/screens/desktop/scan-report.png.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanFinding, ScannedItem } from '@consentry/events';
import { exampleEventData } from '@consentry/events/examples';
import { appendToStream } from '@consentry/infra';
import { launchChromium, type TestDatabase } from '@consentry/infra/testing';
import { claimNextScan, reportScanProgress, scansProjection } from '@consentry/projections';
import { addWebsite, registerOwner, startWebSystem, type CreatedWebsite, type WebSystem } from './web-harness';

const screensDir = fileURLToPath(new URL('../../docs/screens/desktop/', import.meta.url));
const viewport = { width: 1280, height: 800 };

let db: TestDatabase;
let web: WebSystem;
let url: string;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
let website: CreatedWebsite;
/** Console messages about the Content-Security-Policy (the tab's select and disclosures need none). */
const cspViolations: string[] = [];

const site = { name: 'Harbour Deli', domain: 'harbour-deli.example.test' };
const home = `https://www.${site.domain}/`;
const menu = `https://www.${site.domain}/menu`;

beforeAll(async () => {
  // The scan runner off: the test records each scan's result itself.
  web = await startWebSystem('web_scans_e2e', { SCANNER: 'off' });
  ({ db, url } = web);
  browser = await launchChromium();
  owner = await browser.newContext({ viewport });
  owner.setDefaultTimeout(10_000);
  owner.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await registerOwner(owner.request, url, { email: 'hana@harbour-deli.example.test', firstName: 'Hana', lastName: 'Harbour' });
  website = await addWebsite(owner.request, url, site);
  page = await owner.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

const cookie = (name: string, fields: Partial<ScannedItem>): ScannedItem => ({
  kind: 'cookie',
  name,
  domain: `.${site.domain}`,
  purpose: null,
  source: null,
  platform: null,
  controller: null,
  retention: null,
  firstParty: true,
  firstSeenUrl: home,
  seenBefore: false,
  seenAfterAccept: true,
  seenAfterReject: false,
  ...fields,
});

const ga = cookie('_ga', { purpose: 'analytics', source: 'database', platform: 'Google Analytics', controller: 'Google', retention: '2 years', seenBefore: true, seenAfterReject: true });
const deliSession = cookie('deli_session', { retention: 'session', firstSeenUrl: menu, seenBefore: true, seenAfterReject: true });
const recentDishes: ScannedItem = { ...cookie('recent_dishes', { purpose: 'preferences', source: 'database' }), kind: 'localStorage', domain: `www.${site.domain}` };
const fbp = cookie('_fbp', { purpose: 'marketing', source: 'database', platform: 'Meta Pixel', controller: 'Meta', retention: '3 months', firstParty: false, domain: '.facebook.com' });

const gaBeforeConsent: ScanFinding = {
  code: 'set_before_consent',
  severity: 'critical',
  subject: '_ga',
  message: '_ga (analytics, Google Analytics) is set before the visitor chooses, on 2 pages.',
  pages: [home, menu],
  pageCount: 2,
};
const sessionNotDeclared: ScanFinding = {
  code: 'seen_not_declared',
  severity: 'low',
  subject: 'deli_session',
  message: 'deli_session (Unclassified) is stored, but no service of the website declares it.',
  pages: [menu],
  pageCount: 1,
};
const fbpNotDeclared: ScanFinding = {
  code: 'seen_not_declared',
  severity: 'low',
  subject: '_fbp',
  message: '_fbp (marketing, Meta Pixel) is stored, but no service of the website declares it.',
  pages: [home],
  pageCount: 1,
};

/** Records a scan's result as the runner does: ScanCompleted on the scan's stream, projected inline. */
async function completeScan(scanId: string, items: ScannedItem[], findings: ScanFinding[]): Promise<void> {
  const startedAt = new Date(Date.now() - 60_000).toISOString();
  await appendToStream(
    db.pool,
    `scan-${scanId}`,
    [{ type: 'ScanCompleted', data: { ...exampleEventData.ScanCompleted, scanId, websiteId: website.id, startedAt, completedAt: new Date().toISOString(), pagesScanned: 2, items, findings } }],
    { inlineProjections: [scansProjection] },
  );
}

/** Clicks Scan now and answers the id of the scan it queued. */
async function startScanInPage(): Promise<string> {
  const button = page.getByRole('button', { name: 'Scan now' });
  await expect.poll(() => button.isEnabled()).toBe(true);
  await button.click();
  const progress = page.getByRole('status', { name: 'Scan progress' });
  await expect.poll(() => progress.getByText('Waiting for the scanner to start.').isVisible()).toBe(true);
  expect(await progress.getByText('Queued', { exact: true }).isVisible()).toBe(true);
  expect(await button.isDisabled()).toBe(true);
  const scans = (await (await owner.request.get(`${url}/api/websites/${website.id}/scans`)).json()) as { scanId: string; status: string }[];
  expect(scans[0]?.status).toBe('queued');
  return scans[0]!.scanId;
}

/** For what the page learns by polling (every 2 s while a scan is open), beyond expect.poll's 1 s default. */
const polled = { timeout: 10_000 };

const region = (name: string) => page.getByRole('region', { name, exact: true });

/** The item table's rows as the text of their cells. */
async function itemRows(): Promise<string[][]> {
  return region('Cookies and storage')
    .getByRole('table')
    .getByRole('row')
    .evaluateAll((rows) => rows.slice(1).map((row) => Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent ?? '')));
}

async function isAbove(upper: Locator, lower: Locator): Promise<boolean> {
  const [a, b] = [await upper.boundingBox(), await lower.boundingBox()];
  return a !== null && b !== null && a.y + a.height <= b.y;
}

describe("an owner scanning their website's cookies", () => {
  let firstScanId: string;

  it('starts a scan from the Cookie scan tab of the website and sees it queued', async () => {
    await page.goto(`${url}/websites/${website.id}/overview`);
    await page.getByRole('navigation', { name: 'Website sections' }).getByRole('link', { name: 'Cookie scan' }).click();
    await page.waitForURL(`${url}/websites/${website.id}/scan`);
    await expect.poll(() => page.getByText('This website has not been scanned yet.').isVisible()).toBe(true);
    firstScanId = await startScanInPage();
    const { rows } = await db.pool.query('SELECT type, data FROM events WHERE stream_id = $1', [`scan-${firstScanId}`]);
    expect(rows).toEqual([{ type: 'ScanRequested', data: expect.objectContaining({ websiteId: website.id, trigger: 'owner', maxPages: 25 }) }]);
  });

  it('follows the scan while it runs and reads its report, findings first, once it completes', async () => {
    // As the runner: claim the scan and report progress; the open page polls and shows it.
    expect(await claimNextScan(db.pool, 'e2e-runner', new Date(), 120_000)).toMatchObject({ scanId: firstScanId, status: 'running' });
    await reportScanProgress(db.pool, firstScanId, 'e2e-runner', { pagesDone: 1, pagesPlanned: 2, currentUrl: menu }, new Date());
    const progress = page.getByRole('status', { name: 'Scan progress' });
    await expect.poll(() => progress.getByText('1 of 2 pages scanned').isVisible(), polled).toBe(true);
    expect(await progress.getByText(menu).isVisible()).toBe(true);

    await completeScan(firstScanId, [ga, deliSession, recentDishes], [gaBeforeConsent, sessionNotDeclared]);
    const findings = region('Findings');
    await expect.poll(() => findings.isVisible(), polled).toBe(true);
    expect(await progress.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Scan now' }).isEnabled()).toBe(true);
    expect(await isAbove(findings, region('Cookies and storage'))).toBe(true);

    const entries = findings.getByRole('list', { name: 'Findings' }).locator(':scope > li');
    expect(await entries.count()).toBe(2);
    const critical = entries.first();
    expect(await critical.getByText('Critical', { exact: true }).isVisible()).toBe(true);
    expect(await critical.getByText('Set before consent', { exact: true }).isVisible()).toBe(true);
    expect(await critical.getByText(gaBeforeConsent.message).isVisible()).toBe(true);
    expect(await critical.getByText(menu, { exact: true }).isVisible()).toBe(false);
    await critical.getByText('Seen on 2 pages').click();
    expect(await critical.getByText(menu, { exact: true }).isVisible()).toBe(true);
    expect(await entries.nth(1).getByText('Low', { exact: true }).isVisible()).toBe(true);

    const seen = (before: boolean, accept: boolean, reject: boolean) =>
      `Before choice: ${before ? 'seen' : 'not seen'}After Accept: ${accept ? 'seen' : 'not seen'}After Reject: ${reject ? 'seen' : 'not seen'}`;
    const host = `www.${site.domain}`;
    expect(await itemRows()).toEqual([
      [`_ga.${site.domain}`, 'CookieFirst party', 'AnalyticsSet your purpose', 'Google Analytics', '2 years', `/${host}`, seen(true, true, true)],
      [`deli_session.${site.domain}`, 'CookieFirst party', 'UnclassifiedSet your purpose', '—', 'Session', `/menu${host}`, seen(true, true, true)],
      [`recent_dishes${host}`, 'localStorageFirst party', 'PreferencesSet your purpose', '—', '—', `/${host}`, seen(false, true, false)],
    ]);
    const history = region('Scan history').getByRole('row');
    expect(await history.count()).toBe(2);
    expect(await history.nth(1).locator('td').allTextContents()).toEqual([expect.any(String), 'Completed', '2', '2']);
  });

  it('says what an Unclassified cookie is for and sees it listed, applying from the next scan', async () => {
    const select = page.getByRole('combobox', { name: 'Your purpose for deli_session' });
    await expect.poll(() => select.isEnabled()).toBe(true);
    expect(await select.textContent()).toBe('Set your purpose');
    await select.click();
    await page.getByRole('option', { name: 'Necessary', exact: true }).click();
    await expect.poll(() => page.getByRole('region', { name: /Notifications/ }).getByText('Purpose saved', { exact: true }).isVisible()).toBe(true);
    expect(await select.textContent()).toBe('Yours: Necessary');
    expect(await page.getByText('From the next scan', { exact: true }).isVisible()).toBe(true);
    expect(await region('Your purposes').getByRole('listitem').allTextContents()).toEqual(['deli_session (Cookie): Necessary']);

    const saved = await owner.request.get(`${url}/api/websites/${website.id}/item-purposes`);
    expect(await saved.json()).toEqual([{ kind: 'cookie', name: 'deli_session', purpose: 'necessary' }]);
    const { rows } = await db.pool.query(`SELECT data FROM events WHERE type = 'ItemPurposeAssigned'`);
    expect(rows.map((stored) => stored.data)).toEqual([expect.objectContaining({ websiteId: website.id, kind: 'cookie', name: 'deli_session', purpose: 'necessary' })]);

    await page.reload();
    await expect.poll(() => page.getByRole('combobox', { name: 'Your purpose for deli_session' }).textContent()).toBe('Yours: Necessary');
    expect(await region('Your purposes').getByRole('listitem').allTextContents()).toEqual(['deli_session (Cookie): Necessary']);
  });

  it('schedules scans every 7 days from the Scheduled scans card', async () => {
    const schedule = region('Scheduled scans');
    const days = schedule.getByLabel('Scan automatically every');
    await expect.poll(() => days.inputValue()).toBe('30');
    await days.fill('7');
    await schedule.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('region', { name: /Notifications/ }).getByText('Schedule saved', { exact: true }).isVisible()).toBe(true);
    const settings = (await (await owner.request.get(`${url}/api/websites/${website.id}/settings`)).json()) as { scanIntervalDays: number };
    expect(settings.scanIntervalDays).toBe(7);
  });

  it('scans again once the site is fixed and reads what changed', async () => {
    const secondScanId = await startScanInPage();
    // _ga now waits for consent, deli_session is the owner's necessary cookie, recent_dishes is gone
    // and a Meta Pixel cookie appeared.
    const fixedGa = { ...ga, seenBefore: false, seenAfterReject: false };
    const ownedSession = { ...deliSession, purpose: 'necessary' as const, source: 'owner' as const };
    await completeScan(secondScanId, [fixedGa, ownedSession, fbp], [fbpNotDeclared]);

    const changes = region('What changed');
    await expect.poll(() => changes.isVisible(), polled).toBe(true);
    const section = (name: RegExp) => changes.getByRole('region', { name });
    await expect.poll(() => section(/^New findings/).textContent()).toContain(fbpNotDeclared.message);
    expect(await section(/^Resolved findings/).getByRole('listitem').allTextContents()).toEqual([`Critical${gaBeforeConsent.message}`, `Low${sessionNotDeclared.message}`]);
    expect(await section(/^New cookies and storage/).getByRole('listitem').allTextContents()).toEqual(['_fbpCookie · Marketing']);
    expect(await section(/^Gone cookies and storage/).getByRole('listitem').allTextContents()).toEqual(['recent_disheslocalStorage · Preferences']);

    // The owner's purpose is applied now.
    expect((await itemRows())[1]?.[2]).toBe('Necessary (yours)Yours: Necessary');
    expect(await page.getByText('From the next scan', { exact: true }).count()).toBe(0);
    const history = region('Scan history').getByRole('row');
    expect(await history.count()).toBe(3);
    expect(await history.evaluateAll((rows) => rows.slice(1).map((row) => row.querySelectorAll('td')[1]?.textContent))).toEqual(['Completed', 'Completed']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    expect(cspViolations).toEqual([]);

    // On a phone the history is a list, a line per scan: nothing cut off, nothing to scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const lines = region('Scan history').getByRole('listitem');
    await expect.poll(() => lines.count()).toBe(2);
    expect(await lines.first().textContent()).toMatch(/Pages: \d+ · Findings: \d+Completed$/);
    expect(await region('Scan history').evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await page.setViewportSize(viewport);

    if (process.env.UPDATE_SCREENSHOTS) {
      await page.reload();
      await expect.poll(() => region('What changed').getByRole('region', { name: /^New findings/ }).isVisible()).toBe(true);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      // A viewport as tall as the page, as the other screenshots are taken (e2e/src/screens.ts).
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
      await mkdir(screensDir, { recursive: true });
      await page.screenshot({ path: `${screensDir}scan-report.png` });
      await page.setViewportSize(viewport);
    }
  });
});
