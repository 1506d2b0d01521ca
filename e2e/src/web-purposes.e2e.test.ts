// Granular consent in the web app end to end, in real headless Chromium against the whole system
// (api, ingest, the ledger on the machine's Postgres, relay, the consent projectors): an owner
// chooses the purposes their banner asks for, lists a service with its cookies and shortens the
// consent lifetime in a website's settings; visitors then choose through the real ingest endpoint
// (Accept All, Reject All, two customized choices and a GPC decline, as widget.js sends them), and
// the owner and an admin read the acceptance per purpose, the split by method and the partial
// consents on the Dashboard and on the website's Consent tab.
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, waitFor } from '@consentry/infra/testing';
import { addWebsite, assertWebAppBuilt, registerOwner, signInAdmin, startWebSystem, type CreatedWebsite, type WebSystem } from './web-harness';

let web: WebSystem;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
let website: CreatedWebsite;

const site = { name: 'Lighthouse Books', domain: 'lighthouse-books.example.test' };
const siteOrigin = `https://www.${site.domain}`;
const asked = ['analytics', 'marketing', 'identification'] as const;
const service = { purpose: 'analytics', name: 'Plausible', description: 'Counts visits and page views', cookies: ['_pk_id', '_pk_ses'] };

beforeAll(async () => {
  assertWebAppBuilt();
  web = await startWebSystem('web_purposes_e2e');
  browser = await launchChromium();
  owner = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  owner.setDefaultTimeout(10_000);
  await registerOwner(owner.request, web.url, { email: 'lena@lighthouse-books.example.test', firstName: 'Lena', lastName: 'Lighthouse' });
  website = await addWebsite(owner.request, web.url, site);
  page = await owner.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

const toast = (title: string) => page.getByRole('region', { name: /Notifications/ }).getByText(title, { exact: true });

type Purpose = (typeof asked)[number] | 'preferences';
type Method = 'accept_all' | 'reject_all' | 'custom' | 'gpc';

/** One choice, POSTed to the ingest endpoint as widget.js sends it from a page of the website. */
async function choose(granted: readonly Purpose[], method: Method, policyVersion: string, occurredAt: Date): Promise<void> {
  const purposes = { preferences: false, analytics: false, marketing: false, identification: false };
  for (const purpose of granted) purposes[purpose] = true;
  const response = await fetch(`${web.url}/api/collect/consent`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: siteOrigin },
    body: JSON.stringify({
      embedCode: website.embedCode,
      eventId: randomUUID(),
      visitorId: randomUUID(),
      offered: asked,
      purposes,
      method,
      source: method === 'gpc' ? 'gpc' : 'banner',
      policyVersion,
      pageUrl: `${siteOrigin}/`,
      language: 'en-US',
      occurredAt: occurredAt.toISOString(),
    }),
  });
  if (response.status !== 201) throw new Error(`POST /api/collect/consent answered ${response.status}: ${await response.text()}`);
}

/** The Consent column of a records table (`column`: its index), in the order shown. */
async function consentColumn(region: Locator, column: number): Promise<string[]> {
  const rows = region.getByRole('table').getByRole('row');
  const cells = await rows.evaluateAll((elements, index) => elements.slice(1).map((row) => row.querySelectorAll('td')[index]?.textContent ?? ''), column);
  return cells.sort();
}

/** The card's two lists: acceptance per purpose and the split by method, as text. */
async function purposeCard(target: Page) {
  const card = target.getByRole('region', { name: 'Consent by purpose' });
  // A deadline, not a duration: the dashboard loads several queries at once.
  await expect.poll(() => card.getByRole('region', { name: 'How visitors chose' }).isVisible(), { timeout: 10_000 }).toBe(true);
  return {
    rates: await card.getByRole('region', { name: 'Acceptance rate' }).getByRole('listitem').allTextContents(),
    split: await card.getByRole('region', { name: 'How visitors chose' }).getByRole('listitem').allTextContents(),
  };
}

const expectedRates = ['PreferencesNot asked', 'Analytics60.0% · 3 of 5', 'Marketing20.0% · 1 of 5', 'Identification40.0% · 2 of 5'];
const expectedSplit = ['Accept All1 · 20.0%', 'Reject All1 · 20.0%', 'Customized2 · 40.0%', 'GPC1 · 20.0%'];

describe('an owner whose banner asks for purposes one by one', () => {
  it('chooses the purposes, lists a service with its cookies and sets the consent lifetime in the website settings', async () => {
    await page.goto(`${web.url}/websites/${website.id}/banner`);
    const purposes = page.getByRole('group', { name: 'Consent purposes' });
    const checkbox = (name: string) => purposes.getByRole('checkbox', { name, exact: true });
    await expect.poll(() => checkbox('Preferences').isChecked()).toBe(true);
    expect(await checkbox('Analytics').isChecked()).toBe(true);
    expect(await checkbox('Marketing').isChecked()).toBe(true);
    expect(await checkbox('Identification').isChecked()).toBe(false);
    // Identification is not ticked on its own: the Lead identification switch decides it.
    expect(await checkbox('Identification').isDisabled()).toBe(true);
    expect(await checkbox('Necessary').isDisabled()).toBe(true);
    const lifetime = page.getByLabel('Consent lifetime (months)');
    expect(await lifetime.inputValue()).toBe('12');
    const save = page.getByRole('region', { name: 'Website settings' }).getByRole('button', { name: 'Save Changes' });

    for (const name of ['Preferences', 'Analytics', 'Marketing']) await checkbox(name).uncheck();
    await expect.poll(() => purposes.getByText('Choose at least one purpose to ask for.').isVisible()).toBe(true);
    expect(await save.isDisabled()).toBe(true);
    for (const name of ['Analytics', 'Marketing']) await checkbox(name).check();
    await page.getByRole('switch', { name: 'Identify visitors who allow it' }).click();
    await expect.poll(() => checkbox('Identification').isChecked()).toBe(true);
    await expect.poll(() => purposes.getByText('Choose at least one purpose to ask for.').count()).toBe(0);

    await page.getByRole('button', { name: 'Add service' }).click();
    const row = page.getByRole('group', { name: 'Service 1' });
    await expect.poll(() => row.getByText('Enter the name of the service.').isVisible()).toBe(true);
    expect(await save.isDisabled()).toBe(true);
    expect(await row.getByRole('combobox', { name: 'Purpose' }).textContent()).toBe('Analytics');
    await row.getByLabel('Name').fill(service.name);
    await row.getByLabel('Description').fill(service.description);
    await row.getByLabel('Cookies').fill(' _pk_id,  _pk_ses, ');

    await lifetime.fill('25');
    await expect.poll(() => page.getByRole('region', { name: 'Consent lifetime', exact: true }).getByText('Enter a whole number of months from 1 to 24.').isVisible()).toBe(true);
    expect(await save.isDisabled()).toBe(true);
    await lifetime.fill('6');
    await save.click();
    await expect.poll(() => toast('Settings Updated').isVisible()).toBe(true);

    const saved = await owner.request.get(`${web.url}/api/websites/${website.id}/settings`);
    expect(await saved.json()).toMatchObject({ purposes: [...asked], services: [service], consentLifetimeMonths: 6, retentionMonths: 24 });
    const { rows } = await web.db.pool.query(`SELECT data FROM events WHERE type = 'WebsiteSettingsChanged'`);
    expect(rows.map((stored) => stored.data)).toEqual([
      { websiteId: website.id, purposes: [...asked], services: [service], consentLifetimeMonths: 6, changedAt: expect.any(String) },
    ]);

    await page.reload();
    await expect.poll(() => page.getByRole('group', { name: 'Consent purposes' }).getByRole('checkbox', { name: 'Identification' }).isChecked()).toBe(true);
    expect(await page.getByRole('group', { name: 'Consent purposes' }).getByRole('checkbox', { name: 'Preferences' }).isChecked()).toBe(false);
    expect(await page.getByRole('group', { name: 'Service 1' }).getByLabel('Cookies').inputValue()).toBe('_pk_id, _pk_ses');
    expect(await page.getByLabel('Consent lifetime (months)').inputValue()).toBe('6');
  });

  it('reads the acceptance per purpose, the split by method and the partial consents on the Dashboard', async () => {
    const { policyVersion } = (await (await owner.request.get(`${web.url}/api/websites/${website.id}/settings`)).json()) as { policyVersion: string };
    const start = Date.now() - 60_000;
    await choose(asked, 'accept_all', policyVersion, new Date(start));
    await choose([], 'reject_all', policyVersion, new Date(start + 1_000));
    await choose(['analytics'], 'custom', policyVersion, new Date(start + 2_000));
    await choose(['analytics', 'identification'], 'custom', policyVersion, new Date(start + 3_000));
    await choose([], 'gpc', policyVersion, new Date(start + 4_000));
    // The read models are projected asynchronously: wait until the api has every choice.
    await waitFor(
      async () => {
        const [purposes, consents, stats] = await Promise.all(
          ['/api/stats/purposes', '/api/consents?limit=10', '/api/stats/consents'].map(async (url) => (await owner.request.get(`${web.url}${url}`)).json()),
        );
        return purposes.choices === 5 && consents.length === 5 && stats.totalConsents === 5;
      },
      { timeoutMs: 30_000, intervalMs: 200, message: 'the consent read models to have every choice' },
    );

    await page.goto(`${web.url}/dashboard`);
    // The four stat cards are as before: 2 of the 5 choices granted nothing.
    await expect.poll(() => page.getByLabel('Total Consents: 5', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByLabel('Consent Rate: 60.0%', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByLabel('Declined: 2', { exact: true }).isVisible()).toBe(true);
    expect(await purposeCard(page)).toEqual({ rates: expectedRates, split: expectedSplit });

    const activity = page.getByRole('region', { name: 'Recent Consent Activity' });
    await expect.poll(() => activity.getByRole('table').getByRole('row').count()).toBe(6);
    expect(await consentColumn(activity, 2)).toEqual(['Accepted', 'Declined', 'Declined', 'Partial · Analytics', 'Partial · Analytics, Identification']);
  });

  it("reads the same on the website's Consent tab", async () => {
    await page.goto(`${web.url}/websites/${website.id}/consent`);
    expect(await purposeCard(page)).toEqual({ rates: expectedRates, split: expectedSplit });
    const records = page.getByRole('region', { name: 'Recent Consent Records' });
    await expect.poll(() => records.getByRole('table').getByRole('row').count()).toBe(6);
    expect(await consentColumn(records, 1)).toEqual(['Accepted', 'Declined', 'Declined', 'Partial · Analytics', 'Partial · Analytics, Identification']);
  });
});

describe('an admin', () => {
  it('reads the consent by purpose of every website on /admin', async () => {
    const admin = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    admin.setDefaultTimeout(10_000);
    try {
      await signInAdmin(admin.request, web.url);
      const adminPage = await admin.newPage();
      await adminPage.goto(`${web.url}/admin`);
      expect(await purposeCard(adminPage)).toEqual({ rates: expectedRates, split: expectedSplit });
    } finally {
      await admin.close();
    }
  });
});
