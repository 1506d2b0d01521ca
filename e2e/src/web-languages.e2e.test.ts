// The banner's languages and rules by region in the web app end to end, in real headless Chromium
// against the whole system (api, ingest, the ledger on the machine's Postgres, relay, projectors):
// an owner makes German the default language, writes their own German wording (our text shown as
// each field's default, a dropped placeholder warned about), adds a rule for a US state and saves;
// after a reload the form shows it all and the settings api answers it. On the Installation page the
// Preview tab keeps the sample banner and previews the preference centre from the real widget config:
// in German with the owner's title and our German buttons, and in Arabic right to left.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@consentry/infra/testing';
import { addWebsite, assertWebAppBuilt, registerOwner, startWebSystem, type CreatedWebsite, type WebSystem } from './web-harness';

let web: WebSystem;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
let website: CreatedWebsite;

const site = { name: 'Lindenhof Bakery', domain: 'lindenhof-bakery.example.test' };
const germanTitle = 'Willkommen bei {company}';
const germanCentreTitle = 'Ihre Cookie-Wahl bei {company}';

beforeAll(async () => {
  assertWebAppBuilt();
  web = await startWebSystem('web_languages_e2e');
  browser = await launchChromium();
  owner = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  owner.setDefaultTimeout(10_000);
  await registerOwner(owner.request, web.url, { email: 'greta@lindenhof-bakery.example.test', firstName: 'Greta', lastName: 'Lindenhof' });
  website = await addWebsite(owner.request, web.url, site);
  page = await owner.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

const toast = (title: string) => page.getByRole('region', { name: /Notifications/ }).getByText(title, { exact: true });

/** Opens a Radix select by its accessible name and picks an option. */
async function choose(scope: Page | Locator, combobox: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => scope.getByRole('combobox', { name: combobox, exact: true }).textContent()).toBe(option);
}

describe('an owner whose banner speaks German by default', () => {
  it('sets the default language, their own German wording and a rule by region, and finds them after a reload', async () => {
    await page.goto(`${web.url}/websites/${website.id}/banner`);
    const languages = page.getByRole('region', { name: 'Languages & texts' });
    await expect.poll(() => languages.getByRole('combobox', { name: 'Default language' }).textContent()).toBe('English');
    // Our English text is each field's default until the owner types their own.
    await expect.poll(() => languages.getByLabel('Banner title', { exact: true }).getAttribute('placeholder')).toBe('{company} uses cookies');
    await choose(languages, 'Default language', 'German (Deutsch)');
    await choose(languages, 'Language to edit', 'German (Deutsch)');
    const title = languages.getByLabel('Banner title', { exact: true });
    await expect.poll(() => title.getAttribute('placeholder')).toBe('{company} verwendet Cookies');
    expect(await languages.getByLabel('Preference centre title', { exact: true }).getAttribute('placeholder')).toBe('Datenschutzeinstellungen');

    const save = page.getByRole('region', { name: 'Website settings' }).getByRole('button', { name: 'Save Changes' });
    await title.fill('Wir verwenden Cookies');
    const dropped = languages.getByText('Our text has {company}, which the banner fills in; yours leaves it out.');
    await expect.poll(() => dropped.isVisible()).toBe(true);
    // A warning, not a refusal.
    expect(await save.isEnabled()).toBe(true);
    await title.fill(germanTitle);
    await expect.poll(() => dropped.count()).toBe(0);
    const centreTitle = languages.getByLabel('Preference centre title', { exact: true });
    await centreTitle.fill('   ');
    await expect.poll(() => languages.getByText('Enter a text, or leave it empty to use ours.').isVisible()).toBe(true);
    expect(await save.isDisabled()).toBe(true);
    await centreTitle.fill(germanCentreTitle);
    await expect.poll(() => languages.getByText('Your own wording: German (2).').isVisible()).toBe(true);

    const regions = page.getByRole('region', { name: 'Regions', exact: true });
    expect(await regions.getByText(/opt-out in US states with privacy laws, such as California/).isVisible()).toBe(true);
    expect(await regions.getByRole('switch', { name: 'Ask for consent everywhere (opt-in)' }).getAttribute('aria-checked')).toBe('false');
    await regions.getByRole('button', { name: 'Add region' }).click();
    const region = regions.getByLabel('Region 1', { exact: true });
    await region.fill('USA');
    await expect.poll(() => regions.getByText('Enter EU, a country code such as GB or a US state such as US-CA.').isVisible()).toBe(true);
    expect(await save.isDisabled()).toBe(true);
    await region.fill('us-ny');
    await choose(regions, 'Rule for region 1', 'Opt-out');
    await save.click();
    await expect.poll(() => toast('Settings Updated').isVisible()).toBe(true);

    const answer = await owner.request.get(`${web.url}/api/websites/${website.id}/settings`);
    expect(await answer.json()).toMatchObject({
      defaultLanguage: 'de',
      textOverrides: { de: { title: germanTitle, centreTitle: germanCentreTitle } },
      regionRules: { 'US-NY': 'opt_out' },
      forceOptIn: false,
    });
    // Only what changed was sent: one event, with the whole map of own wording.
    const { rows } = await web.db.pool.query(`SELECT data FROM events WHERE type = 'WebsiteSettingsChanged'`);
    expect(rows.map((stored) => stored.data)).toEqual([
      {
        websiteId: website.id,
        defaultLanguage: 'de',
        textOverrides: { de: { title: germanTitle, centreTitle: germanCentreTitle } },
        regionRules: { 'US-NY': 'opt_out' },
        changedAt: expect.any(String),
      },
    ]);

    await page.reload();
    const reloaded = page.getByRole('region', { name: 'Languages & texts' });
    await expect.poll(() => reloaded.getByRole('combobox', { name: 'Default language' }).textContent()).toBe('German (Deutsch)');
    expect(await reloaded.getByRole('combobox', { name: 'Language to edit' }).textContent()).toBe('German (Deutsch)');
    await expect.poll(() => reloaded.getByLabel('Banner title', { exact: true }).inputValue()).toBe(germanTitle);
    expect(await reloaded.getByLabel('Preference centre title', { exact: true }).inputValue()).toBe(germanCentreTitle);
    const reloadedRegions = page.getByRole('region', { name: 'Regions', exact: true });
    expect(await reloadedRegions.getByLabel('Region 1', { exact: true }).inputValue()).toBe('US-NY');
    expect(await reloadedRegions.getByRole('combobox', { name: 'Rule for region 1' }).textContent()).toBe('Opt-out');
    // Nothing differs from the saved settings: no save bar.
    expect(await page.getByRole('region', { name: 'Unsaved changes' }).count()).toBe(0);
  });

  it('previews the preference centre in German with their title and our German buttons, and in Arabic right to left', async () => {
    await page.goto(`${web.url}/websites/${website.id}/installation`);
    await page.getByRole('tab', { name: 'Preview' }).click();
    // The sample banner stays as it was.
    const banner = page.getByRole('region', { name: 'Banner preview' });
    await expect.poll(() => banner.getByRole('button', { name: 'Accept All' }).isVisible()).toBe(true);
    expect(await banner.getByRole('button', { name: 'Decline' }).isVisible()).toBe(true);

    const centre = page.getByRole('region', { name: 'Preference centre preview' });
    const heading = () => centre.getByRole('heading', { level: 4 }).textContent();
    const buttons = () => centre.getByRole('button').allTextContents();
    // First the website's default language, German.
    await expect.poll(heading).toBe(`Ihre Cookie-Wahl bei ${site.name}`);
    expect(await page.getByRole('combobox', { name: 'Preview language' }).textContent()).toBe('German (Deutsch)');

    await choose(page, 'Preview language', 'English');
    await expect.poll(heading).toBe('Privacy preferences');
    expect(await buttons()).toEqual(['Reject All', 'Save choices', 'Accept All']);

    await choose(page, 'Preview language', 'German (Deutsch)');
    await expect.poll(heading).toBe(`Ihre Cookie-Wahl bei ${site.name}`);
    expect(await buttons()).toEqual(['Alle ablehnen', 'Auswahl speichern', 'Alle akzeptieren']);
    expect(await centre.getAttribute('dir')).toBe('ltr');
    expect(await centre.getAttribute('lang')).toBe('de');
    // One row per purpose the website asks for (preferences, analytics, marketing), each with a switch.
    expect(await centre.getByRole('switch').count()).toBe(3);

    await choose(page, 'Preview language', 'Arabic (العربية)');
    await expect.poll(() => centre.getAttribute('dir')).toBe('rtl');
    expect(await heading()).toBe('تفضيلات الخصوصية');
    expect(await buttons()).toEqual(['رفض الكل', 'حفظ الاختيارات', 'قبول الكل']);
  });
});
