/// <reference lib="dom" />
// (DOM types: parts of this file run inside the browser through page.evaluate.)
// Consent capture end to end, in real headless Chromium against the whole system (ingest, the
// ledger on the machine's Postgres, relay and projectors): an owner's page on its own origin embeds
// the snippet exactly as the spec writes it, and what the visitor does lands in the log and in the
// consent stats. Set UPDATE_SCREENSHOTS=1 to rewrite the banner screenshots under docs/screenshots.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToStream, loadConfig } from '@consentry/infra';
import { createTestDatabase, freePort, launchChromium, serveStaticPages, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, type TestWebsite } from '@consentry/ingest/testing';
import { getConsentStats, websitesProjection } from '@consentry/projections';
import { startSystem, type RunningSystem } from '@consentry/server';

const fixture = fileURLToPath(new URL('../../widget/test/fixtures/host-page.html', import.meta.url));
const screenshotsDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

let db: TestDatabase;
let system: RunningSystem;
let browser: Browser;
let site: { port: number; close(): Promise<void> };
let website: TestWebsite;
let serviceUrl: string;

beforeAll(async () => {
  db = await createTestDatabase('capture_e2e');
  const port = await freePort();
  serviceUrl = `http://localhost:${port}`;
  system = await startSystem(
    loadConfig({ DATABASE_URL: db.connectionString, PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: '0', PUBLIC_URL: serviceUrl, LOG_LEVEL: 'warn', GEOIP: 'none' }),
  );
  website = await addTestWebsite(db.pool, { companyName: 'Trattoria Example' });
  await appendToStream(db.pool, `website-${website.id}`, [
    { type: 'WebsiteSettingsChanged', data: { websiteId: website.id, privacyPolicyUrl: `http://www.${website.domain}/privacy`, changedAt: new Date().toISOString() } },
  ], { inlineProjections: [websitesProjection] });
  const html = await readFile(fixture, 'utf8');
  const snippet = (attributes: string) => `<script src="${serviceUrl}/widget.js" ${attributes} defer></script>`;
  site = await serveStaticPages({
    '/': html.replace('{{SNIPPET}}', snippet(`data-embed-code="${website.embedCode}" data-position="bottom" data-theme="light"`)),
    '/alias': html.replace('{{SNIPPET}}', snippet(`data-consentry-id="${website.embedCode}"`)),
    '/dark-top': html.replace('{{SNIPPET}}', snippet(`data-embed-code="${website.embedCode}" data-position="top" data-theme="dark"`)),
    '/dark-bottom': html.replace('{{SNIPPET}}', snippet(`data-embed-code="${website.embedCode}" data-position="bottom" data-theme="dark"`)),
    '/light-top': html.replace('{{SNIPPET}}', snippet(`data-embed-code="${website.embedCode}" data-position="top" data-theme="light"`)),
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await system?.stop();
  await db?.drop();
});

const pageUrl = (path = '/') => `http://www.${website.domain}:${site.port}${path}`;

async function openPage(context: BrowserContext, path = '/'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(pageUrl(path));
  return page;
}

const banner = (page: Page) => page.locator('consentry-widget #b');
const centre = (page: Page) => page.locator('consentry-widget [aria-modal="true"]');
const settingsButton = (page: Page) => page.getByRole('button', { name: 'Cookie settings' });

async function consentEventsOf(type?: string) {
  const { rows } = await db.pool.query<{ type: string; data: { visitorId: string; source: string } }>(
    `SELECT type, data FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined') AND ($1::text IS NULL OR type = $1) ORDER BY position`,
    [type ?? null],
  );
  return rows;
}

/** The widget's visitor id (JSON in first-party storage), created at the visitor's first decision. */
async function visitorIdOf(page: Page): Promise<string> {
  return waitFor(
    () => page.evaluate(() => JSON.parse(localStorage.getItem('consentry:visitor') ?? 'null') as string | null),
    { timeoutMs: 5_000, message: 'the widget to create a visitor id' },
  );
}

async function eventsOfVisitor(visitorId: string) {
  return (await consentEventsOf()).filter((event) => event.data.visitorId === visitorId);
}

describe('a visitor on the owner’s site', () => {
  it('accepts: ConsentGiven lands in the log and in consent stats, blocked scripts run, a reload asks nothing, and the floating button changes the choice', async () => {
    const context = await browser.newContext();
    const page = await openPage(context);
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    await expect.poll(() => banner(page).textContent()).toContain('Trattoria Example');
    expect(await page.evaluate(() => (window as { __fixtureAnalyticsRuns?: number }).__fixtureAnalyticsRuns)).toBeUndefined();

    await banner(page).getByRole('button', { name: 'Accept All' }).click();
    const visitorId = await visitorIdOf(page);
    await waitFor(async () => (await eventsOfVisitor(visitorId)).length === 1, { timeoutMs: 10_000, message: 'the consent in the log' });
    expect((await eventsOfVisitor(visitorId))[0]).toMatchObject({ type: 'ConsentGiven', data: { source: 'banner' } });
    await waitFor(async () => (await getConsentStats(db.pool, { websiteIds: [website.id] })).acceptedConsents >= 1, {
      timeoutMs: 10_000,
      message: 'the consent in consent stats',
    });
    await expect.poll(() => page.evaluate(() => (window as { __fixtureAnalyticsRuns?: number }).__fixtureAnalyticsRuns)).toBe(1);
    await expect.poll(() => page.evaluate(() => (window as { __fixtureMarketingRuns?: number }).__fixtureMarketingRuns)).toBe(1);

    await page.reload();
    await expect.poll(() => settingsButton(page).isVisible()).toBe(true);
    expect(await banner(page).isVisible()).toBe(false);

    await settingsButton(page).click();
    await expect.poll(() => centre(page).isVisible()).toBe(true);
    await centre(page).getByRole('button', { name: 'Reject All' }).click();
    await waitFor(async () => (await eventsOfVisitor(visitorId)).length === 2, { timeoutMs: 10_000, message: 'the changed choice' });
    expect((await eventsOfVisitor(visitorId))[1]).toMatchObject({ type: 'ConsentDeclined', data: { source: 'reopened' } });
    await context.close();
  });

  it('declines through the data-consentry-id alias: ConsentDeclined, and blocked scripts never run', async () => {
    const context = await browser.newContext();
    const page = await openPage(context, '/alias');
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    await banner(page).getByRole('button', { name: 'Reject All' }).click();
    const visitorId = await visitorIdOf(page);
    await waitFor(async () => (await eventsOfVisitor(visitorId)).length === 1, { timeoutMs: 10_000, message: 'the decline in the log' });
    expect((await eventsOfVisitor(visitorId))[0]).toMatchObject({ type: 'ConsentDeclined', data: { source: 'banner' } });
    expect(await page.evaluate(() => (window as { __fixtureAnalyticsRuns?: number }).__fixtureAnalyticsRuns)).toBeUndefined();
    await context.close();
  });

  it('with Global Privacy Control: declines without showing a banner, and can still opt in', async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
    const page = await openPage(context);
    await expect.poll(() => settingsButton(page).isVisible()).toBe(true);
    expect(await banner(page).isVisible()).toBe(false);
    const visitorId = await visitorIdOf(page);
    await waitFor(async () => (await eventsOfVisitor(visitorId)).length === 1, { timeoutMs: 10_000, message: 'the GPC decline' });
    expect((await eventsOfVisitor(visitorId))[0]).toMatchObject({ type: 'ConsentDeclined', data: { source: 'gpc' } });
    await settingsButton(page).click();
    await centre(page).getByRole('button', { name: 'Accept All' }).click();
    await waitFor(async () => (await eventsOfVisitor(visitorId)).length === 2, { timeoutMs: 10_000, message: 'the opt-in' });
    expect((await eventsOfVisitor(visitorId))[1]).toMatchObject({ type: 'ConsentGiven', data: { source: 'reopened' } });
    await context.close();
  });

  it('works with the keyboard alone: notice link, Customize, Reject All, Accept All, in that order', async () => {
    const context = await browser.newContext();
    const page = await openPage(context);
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    const focusedLabels: string[] = [];
    for (let index = 0; index < 4; index++) {
      await page.keyboard.press('Tab');
      focusedLabels.push(
        await page.evaluate(() => {
          const host = document.activeElement;
          const inner = host?.shadowRoot?.activeElement ?? host;
          return inner?.textContent?.trim() ?? '';
        }),
      );
    }
    expect(focusedLabels).toEqual(['Privacy policy', 'Customize', 'Reject All', 'Accept All']);
    await page.keyboard.press('Enter');
    const visitorId = await visitorIdOf(page);
    await waitFor(async () => (await eventsOfVisitor(visitorId)).length === 1, { timeoutMs: 10_000, message: 'the keyboard consent' });
    expect((await eventsOfVisitor(visitorId))[0]?.type).toBe('ConsentGiven');
    await context.close();
  });

  it('offline: the choice is queued, delivered when the network returns, and stored once', async () => {
    const context = await browser.newContext();
    const page = await openPage(context);
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    await context.setOffline(true);
    await banner(page).getByRole('button', { name: 'Accept All' }).click();
    const visitorId = await visitorIdOf(page);
    await expect.poll(() => page.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('consentry:queue:') && (localStorage.getItem(key) ?? '').includes('"consent"')))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await eventsOfVisitor(visitorId)).toHaveLength(0);
    await context.setOffline(false);
    await waitFor(async () => (await eventsOfVisitor(visitorId)).length === 1, { timeoutMs: 20_000, message: 'the queued consent delivered' });
    // A reload retries whatever is still queued; nothing is stored twice.
    await page.reload();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await eventsOfVisitor(visitorId)).toHaveLength(1);
    await context.close();
  });
});

describe('the banner in both themes and positions', () => {
  it.each(['/', '/light-top', '/dark-bottom', '/dark-top'])('renders %s', async (path) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await openPage(context, path);
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    const box = await banner(page).boundingBox();
    expect(box).not.toBeNull();
    // Top banners sit at the top of the viewport, bottom banners at the bottom.
    if (path.endsWith('top')) expect(box!.y).toBeLessThan(100);
    else expect(box!.y + box!.height).toBeGreaterThan(700);
    if (process.env.UPDATE_SCREENSHOTS) {
      const name = path === '/' ? 'light-bottom' : path.slice(1);
      await page.screenshot({ path: `${screenshotsDir}banner-${name}.png` });
    }
    await context.close();
  });
});
