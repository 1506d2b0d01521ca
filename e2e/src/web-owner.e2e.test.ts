/// <reference lib="dom" />
// (DOM types: parts of this file run inside the browser through page.evaluate.)
// The web app end to end for a website owner, in real headless Chromium against the whole system
// (api, ingest, the ledger on the machine's Postgres, relay, projectors, live updates): create an
// account, add a website, copy its snippet onto a page of another origin, watch a visitor's Accept
// arrive on the open dashboard without a reload, export it, verify the installation, brand the
// banner, and hit the free plan's website limit. Everything about the website is a tab of its page,
// reached from Websites: each tab by clicking, on a desktop and a phone, and old URLs land on the tab.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStaticPages, waitFor } from '@consentry/infra/testing';
import { assertWebAppBuilt, startWebSystem, type WebSystem } from './web-harness';

let web: WebSystem;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
let shop: { port: number; close(): Promise<void> } | undefined;

const account = { firstName: 'Olivia', lastName: 'Owner', email: 'olivia@shop.example.test', password: 'correct horse battery' };
const website = { name: 'Example Shop', domain: 'shop.example.test' };
/** What the clipboard held after "Copy": the snippet the owner pastes into their site. */
let copiedSnippet = '';

beforeAll(async () => {
  assertWebAppBuilt();
  web = await startWebSystem('web_owner_e2e');
  browser = await launchChromium();
  owner = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await owner.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.url });
  owner.setDefaultTimeout(10_000);
  page = await owner.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await web?.stop();
});

const mainNav = (target: Page) => target.getByRole('navigation', { name: 'Main' });
const websiteTabs = (target: Page) => target.getByRole('navigation', { name: 'Website sections' });

/** The way a newcomer goes: Websites in the sidebar, the website, then one of its tabs. */
async function openWebsiteTab(target: Page, tab: string, slug: string): Promise<void> {
  await mainNav(target).getByRole('link', { name: 'Websites' }).click();
  await target.getByRole('link', { name: `Open ${website.name}` }).click();
  await target.waitForURL(/\/websites\/[0-9a-f-]+\/overview$/);
  await websiteTabs(target).getByRole('link', { name: tab, exact: true }).click();
  await target.waitForURL(new RegExp(`/websites/[0-9a-f-]+/${slug}$`));
  await expect.poll(() => target.getByRole('heading', { level: 2, name: tab, exact: true }).isVisible()).toBe(true);
}
const toast = (target: Page, title: string) => target.getByRole('region', { name: /Notifications/ }).getByText(title, { exact: true });

async function rowsOf(sql: string, values: unknown[] = []) {
  return (await web.db.pool.query(sql, values)).rows;
}

describe('a new owner', () => {
  it('creates an account at /login and lands on the Overview of all websites', async () => {
    await page.goto(`${web.url}/login`);
    await page.getByRole('tab', { name: 'Create account' }).click();
    await page.getByLabel('First name').fill(account.firstName);
    await page.getByLabel('Last name').fill(account.lastName);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(`${web.url}/dashboard`);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Overview' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No consent data yet').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('banner').getByText('Olivia Owner').isVisible()).toBe(true);
    expect(await rowsOf('SELECT email, subscription_tier FROM users')).toEqual([{ email: account.email, subscription_tier: 'free' }]);
  });

  it('adds a website in the Add Website dialog', async () => {
    await mainNav(page).getByRole('link', { name: 'Websites' }).click();
    await expect.poll(() => page.getByText('No websites yet').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Add Your First Website' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Website' });
    await dialog.getByLabel('Website Name').fill(website.name);
    await dialog.getByLabel('Domain').fill(`https://${website.domain}/`);
    await dialog.getByRole('button', { name: 'Add Website' }).click();

    await expect.poll(() => toast(page, 'Website added').isVisible()).toBe(true);
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const card = page.getByRole('article', { name: website.name });
    await expect.poll(() => card.getByText(website.domain, { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => card.getByText('Active', { exact: true }).isVisible()).toBe(true);
    const [stored] = await rowsOf('SELECT name, domain FROM websites');
    expect(stored).toEqual({ name: website.name, domain: website.domain });
  });

  it("copies the snippet: 'Copied!' for 2 seconds and the snippet in the clipboard", async () => {
    const card = page.getByRole('article', { name: website.name });
    const [{ embed_code: embedCode }] = await rowsOf('SELECT embed_code FROM websites');
    await card.getByRole('button', { name: 'Copy website body code' }).click();
    const copiedAt = Date.now();
    await expect.poll(() => card.getByRole('button', { name: 'Copied!' }).isVisible()).toBe(true);
    await expect.poll(() => toast(page, 'Copied!').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Website body code copied to clipboard.').isVisible()).toBe(true);

    copiedSnippet = await page.evaluate(() => navigator.clipboard.readText());
    expect(copiedSnippet).toBe(
      `<script src="${web.url}/widget.js" data-embed-code="${embedCode}" data-position="bottom" data-theme="light" defer></script>`,
    );

    await waitFor(() => card.getByRole('button', { name: 'Copy website body code' }).isVisible(), { timeoutMs: 5_000, message: "'Copied!' to end" });
    // Shown for its two seconds, then gone (the wait above); how much later it goes depends on the
    // machine's load, so only the lower bound is asserted.
    expect(Date.now() - copiedAt).toBeGreaterThanOrEqual(1_900);
  });

  it("brands its banner on the website's Banner tab", async () => {
    await openWebsiteTab(page, 'Banner', 'banner');
    const branding = page.getByRole('region', { name: 'Banner branding' });
    await expect.poll(() => branding.getByLabel('Company name').inputValue()).toBe('Consentry');
    await branding.getByLabel('Company name').fill('Example Shop GmbH');
    await branding.getByLabel('Primary color', { exact: true }).fill('#0f766e');
    await branding.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => toast(page, 'Settings Updated').isVisible()).toBe(true);
    const saved = await owner.request.get(`${web.url}/api/branding`);
    expect(await saved.json()).toEqual({ companyName: 'Example Shop GmbH', primaryColor: '#0f766e', logoUrl: null });
    // The installation's branding (the app's own name) is not the owner's to change.
    await expect.poll(() => page.getByRole('complementary').getByText('Consentry', { exact: true }).isVisible()).toBe(true);
  });

  it("shows a visitor's Accept on the dashboard already open in another tab, without a reload", async () => {
    const dashboard = await owner.newPage();
    await dashboard.goto(`${web.url}/dashboard`);
    await expect.poll(() => dashboard.getByText('No consent data yet').isVisible()).toBe(true);
    await expect.poll(() => dashboard.getByLabel('Total Consents: 0').isVisible()).toBe(true);
    // A reload would lose this marker.
    await dashboard.evaluate(() => Object.assign(window, { __openedOnce: true }));

    shop = await serveStaticPages({ '/': `<!doctype html><html lang="en"><head><title>Example Shop</title></head><body><h1>Example Shop</h1>${copiedSnippet}</body></html>` });
    const visitor = await browser.newContext();
    const shopPage = await visitor.newPage();
    await shopPage.goto(`http://${website.domain}:${shop.port}/`);
    const banner = shopPage.locator('consentry-widget #b');
    await expect.poll(() => banner.isVisible()).toBe(true);
    await expect.poll(() => banner.textContent()).toContain('Example Shop GmbH');
    await banner.getByRole('button', { name: 'Accept All' }).click();

    const activity = dashboard.getByRole('region', { name: 'Recent Consent Activity' });
    await expect.poll(() => activity.getByRole('row').filter({ hasText: website.name }).filter({ hasText: 'Accepted' }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => dashboard.getByLabel('Total Consents: 1').isVisible()).toBe(true);
    await expect.poll(() => dashboard.getByLabel('Consent Rate: 100.0%').isVisible()).toBe(true);
    expect(await dashboard.evaluate(() => (window as { __openedOnce?: boolean }).__openedOnce)).toBe(true);
    await visitor.close();
    await dashboard.close();
  });

  it('exports a CSV that contains the visitor’s record and lists it under Recent Exports', async () => {
    const [record] = await rowsOf(`SELECT event_id, choice FROM consent_records`);
    expect(record).toMatchObject({ choice: 'accepted' });

    // Export is a section of the website's Consent tab, with this website chosen first.
    await openWebsiteTab(page, 'Consent', 'consent');
    const recent = page.getByRole('region', { name: 'Recent Exports' });
    await expect.poll(() => recent.getByText('No exports yet').isVisible()).toBe(true);
    const websiteChoice = page.getByRole('combobox', { name: 'Website', exact: true });
    expect(await websiteChoice.textContent()).toBe(`${website.name} (${website.domain})`);
    await websiteChoice.click();
    await page.getByRole('option', { name: 'All Websites' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^consentry-consents-all-websites-\d{4}-\d{2}-\d{2}\.csv$/);
    // Saved through the connection: the run's shared browser keeps downloads on its side.
    const saved = path.join(await mkdtemp(path.join(tmpdir(), 'consentry-export-')), download.suggestedFilename());
    await download.saveAs(saved);
    const csv = await readFile(saved, 'utf8');
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    expect(header).toBe('consentId,timestamp,websiteId,websiteName,websiteDomain,consentChoice,source,policyVersion,ipAddress,userAgent,deviceClass,country,city,email,pageUrl,offeredPurposes,grantedPurposes,method,rule,region');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`${record!.event_id},`);
    expect(rows[0]).toContain(`,${website.name},${website.domain},accepted,banner,`);

    await expect.poll(() => toast(page, 'Export successful').isVisible()).toBe(true);
    await expect.poll(() => recent.getByRole('listitem').count()).toBe(1);
    expect(await recent.getByRole('listitem').textContent()).toMatch(/^All WebsitesCSV · 1 record · [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  });

  it('verifies the installation by the events arriving, and says second that the page could not be fetched', async () => {
    await openWebsiteTab(page, 'Installation', 'installation');
    await expect.poll(() => page.getByText(`Install on ${website.name}`).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Verify Installation' }).click();
    const result = page.getByRole('status', { name: 'Verification result' });
    // The api fetches https://shop.example.test/ itself; .test names do not resolve outside the browser,
    // but the consent recorded above came through the snippet.
    await expect.poll(() => result.getByText('The snippet works: events from this website are arriving.').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => result.getByText(/^Last event received: [A-Z][a-z]{2} \d{1,2}, \d{4}/).isVisible()).toBe(true);
    await expect.poll(() => result.getByText(`${website.domain} could not be resolved`).isVisible()).toBe(true);
    expect(await result.locator('p').first().textContent()).toBe('The snippet works: events from this website are arriving.');
    await expect.poll(() => toast(page, 'Verification Complete').isVisible()).toBe(true);
  });

  it("is refused a second website on the free plan: 'Subscription Limit Reached' with an Upgrade Plan link", async () => {
    await mainNav(page).getByRole('link', { name: 'Websites' }).click();
    await page.getByRole('button', { name: 'Add Website' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Website' });
    await dialog.getByLabel('Website Name').fill('Second Shop');
    await dialog.getByLabel('Domain').fill('second.example.test');
    await dialog.getByRole('button', { name: 'Add Website' }).click();

    await expect.poll(() => toast(page, 'Subscription Limit Reached').isVisible()).toBe(true);
    await expect.poll(() => toast(page, 'Website limit reached').isVisible()).toBe(true);
    const upgrade = page.getByRole('region', { name: /Notifications/ }).getByRole('link', { name: 'Upgrade Plan' });
    expect(await upgrade.getAttribute('href')).toBe('/pricing');
    expect(await rowsOf('SELECT name FROM websites')).toEqual([{ name: website.name }]);
    await upgrade.click();
    await page.waitForURL(`${web.url}/pricing`);
  });

  it('signs out, and signs in again with email and password', async () => {
    await page.goto(`${web.url}/dashboard`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${web.url}/`);
    expect((await owner.request.get(`${web.url}/api/auth/user`)).status()).toBe(401);

    await page.goto(`${web.url}/dashboard`);
    await page.waitForURL(/\/login\?redirect=/);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid email or password');

    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${web.url}/dashboard`);
    await expect.poll(() => page.getByLabel('Total Consents: 1').isVisible()).toBe(true);
  });
});

describe("the owner's website page", () => {
  const tabs = [
    ['Overview', 'overview'],
    ['Consent', 'consent'],
    ['Traffic', 'traffic'],
    ['Leads', 'leads'],
    ['Banner', 'banner'],
    ['Cookie scan', 'scan'],
    ['Installation', 'installation'],
    ['Webhooks', 'webhooks'],
  ] as const;

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`opens Websites, the website and each of its tabs by clicking, at ${viewport.width}×${viewport.height}`, async () => {
      const phone = viewport.width < 1024;
      const context = await browser.newContext({ viewport, storageState: await owner.storageState() });
      context.setDefaultTimeout(10_000);
      const tab = await context.newPage();
      try {
        const [{ id: websiteId }] = await rowsOf('SELECT id FROM websites');
        await tab.goto(`${web.url}/dashboard`);
        // On a phone the sidebar waits behind the menu button.
        if (phone) await tab.getByRole('button', { name: 'Open menu' }).click();
        await mainNav(tab).getByRole('link', { name: 'Websites' }).click();
        await tab.waitForURL(`${web.url}/websites`);
        await tab.getByRole('link', { name: `Open ${website.name}` }).click();
        await tab.waitForURL(`${web.url}/websites/${websiteId}/overview`);
        await expect.poll(() => tab.getByRole('heading', { level: 1, name: website.name }).isVisible()).toBe(true);
        expect(await tab.title()).toBe('Overview · Website · Consentry');

        for (const [label, slug] of tabs) {
          const link = websiteTabs(tab).getByRole('link', { name: label, exact: true });
          await link.click();
          await tab.waitForURL(`${web.url}/websites/${websiteId}/${slug}`);
          await expect.poll(() => tab.getByRole('heading', { level: 2, name: label, exact: true }).isVisible()).toBe(true);
          expect(await link.getAttribute('aria-current')).toBe('page');
          expect(await websiteTabs(tab).locator('[aria-current="page"]').count()).toBe(1);
          // The tab bar scrolls on its own; the page itself never gets wider than the screen.
          expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        }

        // Old URLs of the spec land on the tab with the same content.
        await tab.goto(`${web.url}/website-analytics?websiteId=${websiteId}&tab=settings`);
        await tab.waitForURL(`${web.url}/websites/${websiteId}/banner`);
        await expect.poll(() => tab.getByRole('heading', { level: 2, name: 'Banner', exact: true }).isVisible()).toBe(true);
        await tab.goto(`${web.url}/website-analytics?website=${websiteId}&tab=scan`);
        await tab.waitForURL(`${web.url}/websites/${websiteId}/scan`);
        await tab.goto(`${web.url}/user/installation`);
        await tab.waitForURL(`${web.url}/websites/${websiteId}/installation`);
        await expect.poll(() => tab.getByRole('heading', { level: 2, name: 'Installation', exact: true }).isVisible()).toBe(true);
      } finally {
        await context.close();
      }
    });
  }
});
