// Analytics, recommendations and website settings end to end, in real headless Chromium against the
// whole system (ingest, the ledger on the machine's Postgres, relay, the analytics and
// consent-dimension projectors, the api): visitors of an owner's website answer the banner, view
// pages, stay a while and tap things, all sent to the real ingest endpoints exactly as widget.js sends
// them (docs/ingest-protocol.md). The owner then reads the right figures on the website's Traffic tab,
// is told on the Overview and the website's Overview tab what a 25% consent rate calls for, and
// changes the retention period and the privacy policy on its Banner tab.
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, waitFor } from '@consentry/infra/testing';
import { addWebsite, assertWebAppBuilt, registerOwner, startWebSystem, type CreatedWebsite, type WebSystem } from './web-harness';

let web: WebSystem;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
let website: CreatedWebsite;

const site = { name: 'Harbour Bakery', domain: 'harbour-bakery.example.test' };
const siteOrigin = `https://www.${site.domain}`;
const longPath = '/blog/2024/our-sourdough-starter-and-the-secrets-behind-it';

const userAgents = {
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  mobile: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
} as const;
type Device = keyof typeof userAgents;
type EngagementKind = 'location_map_view' | 'opening_hours_view' | 'contact_form_submit' | 'tap_to_call';

interface AcceptingVisitor {
  readonly device: Device;
  readonly referrer: string;
  readonly pages: readonly string[];
  /** What they did on their last page. */
  readonly engagement?: EngagementKind;
}

/**
 * 15 visitors accept and browse; 45 decline (25 on desktop, 20 on phones). So: 60 choices, 25.0%
 * accepted (phones 5 of 25 = 20.0%, desktops 10 of 35 = 28.6%); 15 visits and unique visitors, 35 page
 * views (2.33 a visit); every page visible 30 s (70 s a visit); the 5 one-page visits without
 * engagement bounce (33.3%); landing referrers Google 5, DuckDuckGo 3, Direct 4, news.ycombinator.com 3.
 */
const accepting: AcceptingVisitor[] = Array.from({ length: 15 }, (_, index) => ({
  device: index < 10 ? 'desktop' : 'mobile',
  referrer:
    index < 5 ? 'https://www.google.com/search?q=sourdough+bakery' : index < 8 ? 'https://duckduckgo.com/' : index < 12 ? '' : 'https://news.ycombinator.com/item?id=4242',
  pages: index < 5 ? ['/'] : ['/', '/menu', index < 7 ? longPath : '/contact'],
  engagement:
    index < 5 ? undefined : index < 9 ? 'location_map_view' : index < 12 ? 'contact_form_submit' : index < 14 ? 'tap_to_call' : 'opening_hours_view',
}));
const declining: Device[] = [...Array<Device>(25).fill('desktop'), ...Array<Device>(20).fill('mobile')];

beforeAll(async () => {
  assertWebAppBuilt();
  web = await startWebSystem('web_analytics_e2e');
  browser = await launchChromium();
  owner = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  owner.setDefaultTimeout(10_000);
  await registerOwner(owner.request, web.url, { email: 'hanna@harbour-bakery.example.test', firstName: 'Hanna', lastName: 'Harbour' });
  website = await addWebsite(owner.request, web.url, site);
  await recordVisitors();
  page = await owner.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

/** One POST to an ingest endpoint, as widget.js sends it from a page of the website. */
async function collect(endpoint: 'consent' | 'impression' | 'pageview' | 'pagehide' | 'engagement', body: Record<string, unknown>, device: Device) {
  const response = await fetch(`${web.url}/api/collect/${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: siteOrigin, 'user-agent': userAgents[device] },
    body: JSON.stringify({ embedCode: website.embedCode, eventId: randomUUID(), ...body }),
  });
  const expected = endpoint === 'consent' ? 201 : 202;
  if (response.status !== expected) throw new Error(`POST /api/collect/${endpoint} answered ${response.status}: ${await response.text()}`);
}

async function recordVisitors(): Promise<void> {
  const config = await fetch(`${web.url}/api/widget/config/${website.embedCode}`, { headers: { origin: siteOrigin } });
  const { policyVersion } = (await config.json()) as { policyVersion: string };
  const choose = (visitorId: string, choice: 'accepted' | 'declined', device: Device, path = '/') =>
    collect(
      'consent',
      { visitorId, choice, source: 'banner', policyVersion, pageUrl: `${siteOrigin}${path}`, language: 'en-US', occurredAt: new Date().toISOString() },
      device,
    );

  for (const visitor of accepting) {
    const visitorId = randomUUID();
    await collect('impression', { position: 'bottom', theme: 'light' }, visitor.device);
    await choose(visitorId, 'accepted', visitor.device);
    let referrer = visitor.referrer;
    for (const [index, path] of visitor.pages.entries()) {
      const pageviewId = randomUUID();
      await collect('pageview', { visitorId, pageviewId, url: `${siteOrigin}${path}`, referrer, title: `Harbour Bakery ${path}` }, visitor.device);
      if (index === visitor.pages.length - 1 && visitor.engagement) {
        await collect('engagement', { visitorId, pageviewId, kind: visitor.engagement }, visitor.device);
      }
      // The widget sends the running total each time the tab is hidden: 12 s, then 30 s in all.
      if (index === 0) await collect('pagehide', { visitorId, pageviewId, visibleMs: 12_000 }, visitor.device);
      await collect('pagehide', { visitorId, pageviewId, visibleMs: 30_000 }, visitor.device);
      referrer = `${siteOrigin}${path}`;
    }
  }
  for (const device of declining) {
    await collect('impression', { position: 'bottom', theme: 'light' }, device);
    await choose(randomUUID(), 'declined', device);
  }

  // The read models are projected asynchronously: wait until the api has every event.
  await waitFor(
    async () => {
      const response = await owner.request.get(`${web.url}/api/analytics/website/${website.id}`);
      const analytics = (await response.json()) as { totalPageviews: number; mobileEngagement: Record<string, number> };
      return analytics.totalPageviews === 35 && Object.values(analytics.mobileEngagement).reduce((sum, count) => sum + count, 0) === 10;
    },
    { timeoutMs: 30_000, intervalMs: 200, message: 'the analytics read model to have every page view and engagement' },
  );
  await waitFor(
    async () => {
      const response = await owner.request.get(`${web.url}/api/recommendations/website/${website.id}?days=30`);
      return ((await response.json()) as { totalConsents: number }).totalConsents === 60;
    },
    { timeoutMs: 30_000, intervalMs: 200, message: 'the consent-dimensions read model to have every choice' },
  );
}

const mainNav = () => page.getByRole('navigation', { name: 'Main' });
const toast = (title: string) => page.getByRole('region', { name: /Notifications/ }).getByText(title, { exact: true });
const label = (text: string) => page.getByLabel(text, { exact: true });
const websiteTabs = () => page.getByRole('navigation', { name: 'Website sections' });

/** Websites in the sidebar, the website, then one of its tabs, as a newcomer clicks their way there. */
async function openWebsiteTab(tab: string, slug: string) {
  await mainNav().getByRole('link', { name: 'Websites' }).click();
  await page.getByRole('link', { name: `Open ${site.name}` }).click();
  await page.waitForURL(`${web.url}/websites/${website.id}/overview`);
  await websiteTabs().getByRole('link', { name: tab, exact: true }).click();
  await page.waitForURL(`${web.url}/websites/${website.id}/${slug}`);
}

async function chooseOption(combobox: string, option: string) {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option }).click();
}

describe('an owner whose website has visitors', () => {
  it("opens the website's Traffic tab and reads its figures for the last 30 days", async () => {
    await page.goto(`${web.url}/dashboard`);
    await openWebsiteTab('Traffic', 'traffic');
    await expect.poll(() => label('Unique Visitors: 15').isVisible()).toBe(true);
    expect(await label('Total Pageviews: 35').isVisible()).toBe(true);
    expect(await label('Pages per Visit: 2.33').isVisible()).toBe(true);
    expect(await label('Avg. Time on Site: 1m 10s').isVisible()).toBe(true);
    expect(await label('Bounce Rate: 33.3%').isVisible()).toBe(true);

    const topPages = page.getByRole('region', { name: 'Top Pages' });
    expect(await topPages.getByRole('listitem').allTextContents()).toEqual([
      '/15 views',
      '/menu10 views',
      '/contact8 views',
      `${longPath.slice(0, 40)}…2 views`,
    ]);

    const sources = page.getByRole('region', { name: 'Traffic Sources' });
    const sourceRows = await sources.getByRole('listitem').allTextContents();
    expect(sourceRows).toEqual([
      'Direct4 visits · 26.7%',
      'Search engines8 visits · 53.3%',
      'Other websites3 visits · 20.0%',
      'Google5 visits',
      'Direct4 visits',
      'DuckDuckGo3 visits',
      'news.ycombinator.com3 visits',
    ]);
    expect(await page.getByRole('region', { name: 'Devices' }).getByRole('listitem').allTextContents()).toEqual([
      'Desktop10 visits · 66.7%',
      'Mobile5 visits · 33.3%',
    ]);
    // The chart is drawn once chart.js has loaded (it is not part of the app's first download).
    await expect.poll(() => page.getByRole('img', { name: 'Visits by device: Desktop 10, Mobile 5' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('img', { name: 'Visits by source: Direct 4, Search engines 8, Other websites 3' }).isVisible()).toBe(true);

    const engagement = page.getByRole('region', { name: 'Mobile Engagement' });
    for (const [name, count] of [
      ['Location map views', 4],
      ['Opening hours views', 1],
      ['Contact form submissions', 3],
      ['Tap-to-call actions', 2],
    ] as const) {
      expect(await engagement.getByLabel(`${name}: ${count}`, { exact: true }).isVisible()).toBe(true);
    }

    // A range before any visit has nothing in it.
    await page.getByLabel('Start date').fill('2024-01-01');
    await page.getByLabel('End date').fill('2024-01-31');
    await expect.poll(() => label('Unique Visitors: 0').isVisible()).toBe(true);
    expect(await topPages.getByText('No data available').isVisible()).toBe(true);
    await page.getByRole('button', { name: '30 days' }).click();
    await expect.poll(() => label('Unique Visitors: 15').isVisible()).toBe(true);
  });

  it("is told on the Overview and the website's Overview tab what a 25% consent rate calls for, and never to hide Reject All", async () => {
    await mainNav().getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL(`${web.url}/dashboard`);
    const overview = page.getByRole('article', { name: site.name });
    await expect.poll(() => overview.getByText('Consent rate is low').isVisible()).toBe(true);
    expect(await overview.getByText('25.0%', { exact: true }).isVisible()).toBe(true);

    await overview.getByRole('button', { name: 'View details' }).click();
    await page.waitForURL(`${web.url}/websites/${website.id}/overview`);
    expect(await websiteTabs().getByRole('link', { name: 'Overview', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('combobox', { name: 'Period' }).textContent()).toBe('Last 30 days');
    await expect.poll(() => label('Consent Rate: 25.0%').isVisible()).toBe(true);
    expect(await label('Total Consents: 60').isVisible()).toBe(true);
    expect(await label('Mobile Consent Rate: 20.0%').isVisible()).toBe(true);
    expect(await label('Desktop Consent Rate: 28.6%').isVisible()).toBe(true);

    // Most urgent first: the compliance warning ranks above the low-rate advice it accompanies.
    const titles = await page.getByRole('article').getByRole('heading', { level: 3 }).allTextContents();
    expect(titles).toEqual(['Keep Reject All as easy as Accept All', 'Consent rate is low', 'The banner does not link to a privacy policy']);
    const lowRate = page.getByRole('article', { name: 'Consent rate is low' });
    expect(await lowRate.getByText('High', { exact: true }).isVisible()).toBe(true);
    expect(await lowRate.getByText('25.0% of the 60 choices in the last 30 days were Accept.', { exact: false }).isVisible()).toBe(true);
    expect(await lowRate.getByText('Consent rate: 25.0%').isVisible()).toBe(true);
    expect(await lowRate.getByText('30 minutes', { exact: true }).isVisible()).toBe(true);
    const keepDecline = page.getByRole('article', { name: 'Keep Reject All as easy as Accept All' });
    expect(await keepDecline.getByText('Never block the site until visitors accept (no cookie walls).').isVisible()).toBe(true);

    await chooseOption('Period', 'Last 7 days');
    await expect.poll(() => page.getByText('Last 7 days, most urgent first').isVisible()).toBe(true);
    expect(await lowRate.getByText('25.0% of the 60 choices in the last 7 days were Accept.', { exact: false }).isVisible()).toBe(true);
  });

  it("changes the retention period to 12 months on the website's Banner tab, and the api then answers 12", async () => {
    await openWebsiteTab('Banner', 'banner');
    const privacy = page.getByRole('region', { name: 'Website settings' });
    const retention = privacy.getByLabel('Retention period (months)');
    await expect.poll(() => retention.inputValue()).toBe('24');
    expect(await privacy.getByRole('switch', { name: 'Keep IP addresses truncated' }).isChecked()).toBe(true);
    expect(await page.getByRole('heading', { level: 1, name: site.name }).isVisible()).toBe(true);
    expect(await page.getByText(site.domain, { exact: true }).isVisible()).toBe(true);

    await retention.fill('121');
    await expect.poll(() => privacy.getByRole('region', { name: 'Consent lifetime', exact: true }).getByText('Enter a whole number of months from 1 to 120.').isVisible()).toBe(true);
    expect(await privacy.getByRole('button', { name: 'Save Changes' }).isDisabled()).toBe(true);

    await retention.fill('12');
    await privacy.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => toast('Settings Updated').isVisible()).toBe(true);
    const saved = await owner.request.get(`${web.url}/api/websites/${website.id}/settings`);
    expect(await saved.json()).toMatchObject({ retentionMonths: 12, ipAddressMode: 'truncated' });
    const { rows } = await web.db.pool.query(`SELECT data FROM events WHERE type = 'WebsiteSettingsChanged'`);
    expect(rows.map((row) => row.data)).toEqual([{ websiteId: website.id, retentionMonths: 12, changedAt: expect.any(String) }]);

    await page.reload();
    await expect.poll(() => page.getByRole('region', { name: 'Website settings' }).getByLabel('Retention period (months)').inputValue()).toBe('12');
  });

  it("opens the website's page, reads its consent, links its privacy policy, and the recommendation goes away", async () => {
    await openWebsiteTab('Consent', 'consent');
    const records = page.getByRole('region', { name: 'Recent Consent Records' });
    await expect.poll(() => records.getByRole('row').count()).toBe(51);
    expect(await label('Total Consents: 60').isVisible()).toBe(true);
    expect(await label('Consent Rate: 25.0%').isVisible()).toBe(true);

    await websiteTabs().getByRole('link', { name: 'Traffic', exact: true }).click();
    await page.waitForURL(`${web.url}/websites/${website.id}/traffic`);
    await expect.poll(() => label('Unique Visitors: 15').isVisible()).toBe(true);

    await websiteTabs().getByRole('link', { name: 'Banner', exact: true }).click();
    await page.waitForURL(`${web.url}/websites/${website.id}/banner`);
    await expect.poll(() => page.getByLabel('Retention period (months)').inputValue()).toBe('12');
    await page.getByLabel('Privacy policy URL').fill(`${siteOrigin}/privacy`);
    await page.getByRole('region', { name: 'Website settings' }).getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => toast('Settings Updated').isVisible()).toBe(true);
    const settings = await owner.request.get(`${web.url}/api/websites/${website.id}/settings`);
    expect(await settings.json()).toMatchObject({ retentionMonths: 12, privacyPolicyUrl: `${siteOrigin}/privacy` });

    await websiteTabs().getByRole('link', { name: 'Overview', exact: true }).click();
    await page.waitForURL(`${web.url}/websites/${website.id}/overview`);
    await expect.poll(() => label('Consent Rate: 25.0%').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('article').getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Keep Reject All as easy as Accept All',
      'Consent rate is low',
    ]);
  });
});
