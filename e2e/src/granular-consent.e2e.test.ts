/// <reference lib="dom" />
// (DOM types: parts of this file run inside the browser through page.evaluate.)
// Granular consent end to end, in real headless Chromium against the whole system: a third-party
// page embeds the snippet and blocks a script per purpose and a marketing embed; what the visitor
// chooses, purpose by purpose, is what runs, what Google Consent Mode is told and what the ledger
// records. Languages come from the browser (`--lang`), rules from the visitor's region (through the
// CDN headers this system trusts). Set UPDATE_SCREENSHOTS=1 to rewrite docs/screens/widget/.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsentReceipt } from '@consentry/api';
import { canonicalBannerTexts, shippedTexts } from '@consentry/events';
import { appendToStream, loadConfig } from '@consentry/infra';
import { createTestDatabase, freePort, launchChromium, serveStaticPages, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { addTestWebsite, type TestWebsite } from '@consentry/ingest/testing';
import { websitesProjection } from '@consentry/projections';
import { startSystem, type RunningSystem } from '@consentry/server';

const screensDir = fileURLToPath(new URL('../../docs/screens/widget/', import.meta.url));

let db: TestDatabase;
let system: RunningSystem;
let browser: Browser;
let site: { port: number; close(): Promise<void> };
let website: TestWebsite;
let policyWebsite: TestWebsite;

const page = (embedCode: string, theme = 'light') => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Bakery</title>
    <script>
      window.dataLayer = window.dataLayer || [];
      function gtag() { dataLayer.push(arguments); }
    </script>
  </head>
  <body>
    <h1>Fresh bread daily</h1>
    <p>Our bakery has baked bread by hand since 1952.</p>
    <iframe id="video" title="Our ovens" width="320" height="180"
      data-consentry-category="marketing" data-consentry-src="data:text/html,%3Cp%3Evideo%3C/p%3E"></iframe>
    <script type="text/plain" data-consentry-category="analytics">window.__analyticsRuns = (window.__analyticsRuns || 0) + 1;</script>
    <script type="text/plain" data-consentry-category="marketing">window.__marketingRuns = (window.__marketingRuns || 0) + 1;</script>
    <script type="text/plain" data-consentry-category="preferences">window.__preferencesRuns = (window.__preferencesRuns || 0) + 1;</script>
    <script src="${serviceUrl}/widget.js" data-embed-code="${embedCode}" data-theme="${theme}" defer></script>
  </body>
</html>`;

let serviceUrl: string;

beforeAll(async () => {
  db = await createTestDatabase('granular_e2e');
  const port = await freePort();
  serviceUrl = `http://localhost:${port}`;
  system = await startSystem(
    loadConfig({
      DATABASE_URL: db.connectionString,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      PUBLIC_URL: serviceUrl,
      LOG_LEVEL: 'warn',
      // As behind Cloudflare: the visitor's region comes from its headers, which the tests set.
      GEOIP: 'cloudflare',
    }),
  );
  website = await addTestWebsite(db.pool, {
    companyName: 'Bäckerei Example',
    settings: {
      services: [
        { purpose: 'analytics', name: 'Example Analytics', description: 'Counts visits', cookies: ['_ea'] },
        { purpose: 'marketing', name: 'Example Video', description: 'Videos of our ovens', cookies: ['vid'] },
      ],
    },
  });
  policyWebsite = await addTestWebsite(db.pool, { domain: 'policy.example.test' });
  site = await serveStaticPages({
    '/': page(website.embedCode),
    '/dark': page(website.embedCode, 'dark'),
    '/policy': page(policyWebsite.embedCode),
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await system?.stop();
  await db?.drop();
});

const firstLayer = (p: Page) => p.locator('consentry-widget #b');
const centre = (p: Page) => p.locator('consentry-widget [aria-modal="true"]');
const runs = (p: Page, name: '__analyticsRuns' | '__marketingRuns' | '__preferencesRuns') =>
  p.evaluate((key) => (window as unknown as Record<string, number | undefined>)[key] ?? 0, name);

async function open(context: BrowserContext, path = '/', host = website.domain): Promise<Page> {
  const p = await context.newPage();
  await p.goto(`http://www.${host}:${site.port}${path}`);
  return p;
}

interface ConsentRow {
  type: string;
  data: { visitorId: string; source: string; method: string; purposes: Record<string, boolean>; rule: { rule: string; region: string | null }; shownLanguage: string | null; textsHash: string | null; policyVersion: string };
}

async function consentsOf(p: Page): Promise<ConsentRow[]> {
  const visitorId = await waitFor(
    () => p.evaluate(() => JSON.parse(localStorage.getItem('consentry:visitor') ?? 'null') as string | null),
    { timeoutMs: 5_000, message: 'a visitor id' },
  );
  const { rows } = await db.pool.query<ConsentRow>(
    `SELECT type, data FROM events WHERE type IN ('ConsentGiven', 'ConsentDeclined') AND data->>'visitorId' = $1 ORDER BY position`,
    [visitorId],
  );
  return rows;
}

async function waitForConsents(p: Page, count: number): Promise<ConsentRow[]> {
  await waitFor(async () => (await consentsOf(p)).length >= count, { timeoutMs: 10_000, message: `${count} consent event(s)` });
  return consentsOf(p);
}

const none = { preferences: false, analytics: false, marketing: false, identification: false };
const consentModeUpdates = (p: Page) =>
  p.evaluate(() =>
    ((window as unknown as { dataLayer: ArrayLike<unknown>[] }).dataLayer ?? [])
      .map((entry) => Array.from(entry))
      .filter((entry) => entry[0] === 'consent'),
  );

/** The element focused inside the widget (or its placeholder), by its text or accessible name. */
const focusedName = (p: Page) =>
  p.evaluate(() => {
    const host = document.activeElement;
    const inner = (host?.shadowRoot?.activeElement ?? host) as HTMLElement | null;
    return inner?.getAttribute('aria-label') || inner?.textContent?.trim() || inner?.id || '';
  });

async function tabTo(p: Page, name: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await p.keyboard.press('Tab');
    if ((await focusedName(p)) === name) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

describe('a visitor who chooses purpose by purpose', () => {
  it('allowing analytics only runs only the analytics script and grants only analytics_storage', async () => {
    const context = await browser.newContext();
    const p = await open(context);
    await expect.poll(() => firstLayer(p).isVisible()).toBe(true);
    await firstLayer(p).getByRole('button', { name: 'Customize' }).click();
    await expect.poll(() => centre(p).isVisible()).toBe(true);
    expect(await centre(p).getByRole('switch', { name: 'Analytics' }).isChecked()).toBe(false);
    await centre(p).getByRole('switch', { name: 'Analytics' }).check();
    await centre(p).getByRole('button', { name: 'Save choices' }).click();

    const [event] = await waitForConsents(p, 1);
    expect(event).toMatchObject({ type: 'ConsentGiven', data: { purposes: { ...none, analytics: true }, method: 'custom', source: 'banner' } });
    await expect.poll(() => runs(p, '__analyticsRuns')).toBe(1);
    expect(await runs(p, '__marketingRuns')).toBe(0);
    expect(await runs(p, '__preferencesRuns')).toBe(0);
    expect(await p.locator('#video').getAttribute('src')).toBeNull();
    expect(await consentModeUpdates(p)).toEqual([
      ['consent', 'default', { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', functionality_storage: 'denied', personalization_storage: 'denied', security_storage: 'granted' }],
      ['consent', 'update', { ad_storage: 'denied', analytics_storage: 'granted', ad_user_data: 'denied', ad_personalization: 'denied', functionality_storage: 'denied', personalization_storage: 'denied', security_storage: 'granted' }],
    ]);
    expect(await p.evaluate(() => (window as unknown as { Consentry?: { getChoice(): unknown } }).Consentry?.getChoice())).toEqual({ necessary: true, ...none, analytics: true });
    await context.close();
  });

  it("a blocked embed's placeholder allows its purpose: the video loads and the grant is recorded", async () => {
    const context = await browser.newContext();
    const p = await open(context);
    const placeholder = p.locator('consentry-placeholder');
    await expect.poll(() => placeholder.isVisible()).toBe(true);
    expect(await placeholder.getByText('This content is blocked until you allow Marketing.').isVisible()).toBe(true);
    await placeholder.getByRole('button', { name: 'Allow Marketing' }).click();
    const [event] = await waitForConsents(p, 1);
    expect(event?.data).toMatchObject({ purposes: { ...none, marketing: true }, method: 'custom', source: 'placeholder' });
    await expect.poll(() => p.locator('#video').getAttribute('src')).toBe('data:text/html,%3Cp%3Evideo%3C/p%3E');
    expect(await placeholder.count()).toBe(0);
    expect(await runs(p, '__marketingRuns')).toBe(1);
    await context.close();
  });

  it('works by keyboard alone through the preference centre, with Tab kept inside it', async () => {
    const context = await browser.newContext();
    const p = await open(context);
    await expect.poll(() => firstLayer(p).isVisible()).toBe(true);
    await tabTo(p, 'Customize');
    await p.keyboard.press('Enter');
    await expect.poll(() => centre(p).isVisible()).toBe(true);
    await tabTo(p, 'sanalytics');
    await p.keyboard.press('Space');
    await tabTo(p, 'Accept All');
    // The last control: Tab wraps to the first (the close button), never to the page behind.
    await p.keyboard.press('Tab');
    expect(await focusedName(p)).toBe('Close');
    await tabTo(p, 'Save choices');
    await p.keyboard.press('Enter');
    const [event] = await waitForConsents(p, 1);
    expect(event?.data).toMatchObject({ purposes: { ...none, analytics: true }, method: 'custom' });
    // Focus is handed to the settings button; Enter reopens the centre, Escape closes it.
    expect(await focusedName(p)).toBe('Cookie settings');
    await p.keyboard.press('Enter');
    await expect.poll(() => centre(p).isVisible()).toBe(true);
    expect(await centre(p).getByRole('switch', { name: 'Analytics' }).isChecked()).toBe(true);
    await p.keyboard.press('Escape');
    await expect.poll(() => centre(p).isVisible()).toBe(false);
    await context.close();
  });
});

describe('languages', () => {
  it('a browser started in German (--lang=de) gets the German banner, and the event names the German texts', async () => {
    // Headless Chromium takes the web-facing languages from --accept-lang; --lang alone sets its UI.
    const german = await launchChromium(['--lang=de', '--accept-lang=de']);
    try {
      const context = await german.newContext();
      const p = await open(context);
      await expect.poll(() => firstLayer(p).isVisible()).toBe(true);
      expect(await firstLayer(p).getByRole('heading').textContent()).toBe('Bäckerei Example verwendet Cookies');
      expect(await p.locator('consentry-widget .w').getAttribute('lang')).toBe('de');
      await firstLayer(p).getByRole('button', { name: shippedTexts.de.acceptAll }).click();
      const [event] = await waitForConsents(p, 1);
      expect(event?.data).toMatchObject({
        shownLanguage: 'de',
        textsHash: createHash('sha256').update(canonicalBannerTexts('de', shippedTexts.de, 'Bäckerei Example')).digest('hex'),
      });
      // The receipt shows the visitor the words they read, in German.
      const { rows } = await db.pool.query<{ event_id: string }>(`SELECT event_id FROM events WHERE data->>'visitorId' = $1`, [event?.data.visitorId]);
      const receipt = await buildConsentReceipt(db.pool, rows[0]!.event_id, { publicUrl: serviceUrl, keyId: 'test' });
      expect(receipt?.notice).toMatchObject({
        language: 'de',
        heading: 'Bäckerei Example verwendet Cookies',
        text: shippedTexts.de.notice,
        buttons: [shippedTexts.de.customize, shippedTexts.de.rejectAll, shippedTexts.de.acceptAll],
      });
      expect(receipt?.notice.texts?.save).toBe(shippedTexts.de.save);
      await context.close();
    } finally {
      await german.close();
    }
  });

  it("a language we have no texts for falls back to the website's default", async () => {
    const context = await browser.newContext({ locale: 'ja-JP' });
    const p = await open(context);
    await expect.poll(() => firstLayer(p).isVisible()).toBe(true);
    expect(await firstLayer(p).getByRole('heading').textContent()).toBe('Bäckerei Example uses cookies');
    await context.close();
  });

  it('Arabic is laid out right to left, the settings button on the right', async () => {
    const context = await browser.newContext({ locale: 'ar-EG', viewport: { width: 1280, height: 800 } });
    const p = await open(context);
    await expect.poll(() => firstLayer(p).isVisible()).toBe(true);
    expect(await p.locator('consentry-widget .w').getAttribute('dir')).toBe('rtl');
    expect(await firstLayer(p).getByRole('heading').textContent()).toContain('Bäckerei Example');
    if (process.env.UPDATE_SCREENSHOTS) await shoot(p, 'rtl-first-layer');
    await firstLayer(p).getByRole('button', { name: shippedTexts.ar.customize }).click();
    if (process.env.UPDATE_SCREENSHOTS) await shoot(p, 'rtl-preference-centre');
    await centre(p).getByRole('button', { name: shippedTexts.ar.rejectAll }).click();
    const settings = p.getByRole('button', { name: shippedTexts.ar.settings });
    await expect.poll(() => settings.isVisible()).toBe(true);
    const box = await settings.boundingBox();
    expect(box!.x).toBeGreaterThan(1280 / 2);
    await context.close();
  });
});

/** Adds the CDN's location headers to what the browser sends to the product, as Cloudflare would. */
async function asVisitorFrom(context: BrowserContext, headers: Record<string, string>): Promise<void> {
  await context.route(`${serviceUrl}/**`, (route) => route.continue({ headers: { ...route.request().headers(), ...headers } }));
}

describe('rules by region', () => {
  it('a California visitor sees no banner, gets the default grant, and opts out through the link', async () => {
    const context = await browser.newContext();
    await asVisitorFrom(context, { 'cf-ipcountry': 'US', 'cf-region-code': 'CA' });
    const p = await open(context);
    const link = p.getByRole('button', { name: 'Do Not Sell or Share My Personal Information' });
    await expect.poll(() => link.isVisible()).toBe(true);
    expect(await firstLayer(p).isVisible()).toBe(false);
    const [first] = await waitForConsents(p, 1);
    expect(first).toMatchObject({
      type: 'ConsentGiven',
      data: { method: 'jurisdiction_default', source: 'jurisdiction', rule: { rule: 'opt_out', region: 'US-CA' } },
    });
    await expect.poll(() => runs(p, '__marketingRuns')).toBe(1);

    await link.click();
    const events = await waitForConsents(p, 2);
    expect(events[1]).toMatchObject({ type: 'ConsentDeclined', data: { purposes: none, source: 'opt_out_link', rule: { rule: 'opt_out', region: 'US-CA' } } });
    await expect.poll(() => p.getByText('You have opted out of the sale and sharing of your personal information.').isVisible()).toBe(true);
    // On the next page the opt-out holds: nothing runs, nothing new is recorded.
    await p.reload();
    await expect.poll(() => p.getByRole('button', { name: 'Cookie settings' }).isVisible()).toBe(true);
    expect(await runs(p, '__marketingRuns')).toBe(0);
    expect(await consentsOf(p)).toHaveLength(2);
    await context.close();
  });

  it('a visitor from the EU is asked first (opt-in)', async () => {
    const context = await browser.newContext();
    await asVisitorFrom(context, { 'cf-ipcountry': 'FR' });
    const p = await open(context);
    await expect.poll(() => firstLayer(p).isVisible()).toBe(true);
    expect(await runs(p, '__marketingRuns')).toBe(0);
    await firstLayer(p).getByRole('button', { name: 'Reject All' }).click();
    const [event] = await waitForConsents(p, 1);
    expect(event?.data.rule).toEqual({ rule: 'opt_in', region: 'EU' });
    await context.close();
  });
});

describe('asking again', () => {
  it('once the website changes its policy version, the visitor is asked again', async () => {
    const context = await browser.newContext();
    const p = await open(context, '/policy', policyWebsite.domain);
    await expect.poll(() => firstLayer(p).isVisible()).toBe(true);
    await firstLayer(p).getByRole('button', { name: 'Accept All' }).click();
    await waitForConsents(p, 1);
    await p.reload();
    await expect.poll(() => p.getByRole('button', { name: 'Cookie settings' }).isVisible()).toBe(true);
    expect(await firstLayer(p).isVisible()).toBe(false);

    await appendToStream(
      db.pool,
      `website-${policyWebsite.id}`,
      [{ type: 'WebsiteSettingsChanged', data: { websiteId: policyWebsite.id, policyVersion: '2', changedAt: new Date().toISOString() } }],
      { inlineProjections: [websitesProjection] },
    );
    const cdp = await context.newCDPSession(p);
    // The server reuses a rendered config for a few seconds and the browser caches it for a minute:
    // reload with an empty cache until the new version arrives.
    await waitFor(
      async () => {
        await cdp.send('Network.clearBrowserCache');
        await p.reload();
        return firstLayer(p).isVisible({ timeout: 1_000 }).catch(() => false);
      },
      { timeoutMs: 20_000, message: 'the banner asking again' },
    );
    await firstLayer(p).getByRole('button', { name: 'Reject All' }).click();
    const events = await waitForConsents(p, 2);
    expect(events.map((e) => [e.type, e.data.policyVersion])).toEqual([
      ['ConsentGiven', '1'],
      ['ConsentDeclined', '2'],
    ]);
    await context.close();
  });
});

describe('on every screen', () => {
  it.each([
    ['desktop-light', '/', { width: 1280, height: 800 }],
    ['desktop-dark', '/dark', { width: 1280, height: 800 }],
    ['phone-light', '/', { width: 390, height: 844 }],
    ['phone-dark', '/dark', { width: 390, height: 844 }],
  ] as const)('%s: the first layer and the preference centre fit the viewport with every button in reach', async (name, path, viewport) => {
    const context = await browser.newContext({ viewport });
    const p = await open(context, path);
    await expect.poll(() => firstLayer(p).isVisible()).toBe(true);
    for (const label of ['Customize', 'Reject All', 'Accept All']) {
      const box = await firstLayer(p).getByRole('button', { name: label }).boundingBox();
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(viewport.width);
      expect(box!.y + box!.height, label).toBeLessThanOrEqual(viewport.height);
    }
    if (process.env.UPDATE_SCREENSHOTS) await shoot(p, `${name}-first-layer`);
    await firstLayer(p).getByRole('button', { name: 'Customize' }).click();
    const dialog = await centre(p).boundingBox();
    expect(dialog!.width).toBeLessThanOrEqual(viewport.width);
    expect(dialog!.height).toBeLessThanOrEqual(viewport.height);
    await centre(p).getByRole('button', { name: 'Save choices' }).scrollIntoViewIfNeeded();
    expect(await centre(p).getByRole('button', { name: 'Save choices' }).isVisible()).toBe(true);
    if (process.env.UPDATE_SCREENSHOTS) {
      await centre(p).evaluate((el) => el.scrollTo(0, 0));
      await shoot(p, `${name}-preference-centre`);
    }
    await context.close();
  });
});

async function shoot(p: Page, name: string): Promise<void> {
  await mkdir(screensDir, { recursive: true });
  await p.screenshot({ path: `${screensDir}${name}.png` });
}
