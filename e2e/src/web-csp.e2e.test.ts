/// <reference lib="dom" />
// (DOM types: the violation listener runs inside the browser.)
// The web app under its Content-Security-Policy, in real headless Chromium against the whole system:
// every screen of the spec's route list (section 2), as a visitor, an owner and an admin, renders its
// heading with no CSP violation reported (the routes that are now a website's tabs redirect there, and
// show that tab's heading), and so does each tab of a website's page, neither in the console nor to a `securitypolicyviolation`
// listener. The parts that need the policy's allowances are exercised too: signing in through the
// form, dialogs and selects (run-time <style> elements carrying the nonce), data: logos, the Website
// Editor's same-origin preview frame, and the API documentation (its own style hash).
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '@consentry/events';
import { examplePngDataUrl } from '@consentry/events/examples';
import { launchChromium } from '@consentry/infra/testing';
import { adminCredentials, addWebsite, assertWebAppBuilt, registerOwner, startWebSystem, type WebSystem } from './web-harness';

let web: WebSystem;
let browser: Browser;

const violationMarker = '[csp-violation]';

beforeAll(async () => {
  assertWebAppBuilt();
  web = await startWebSystem('web_csp_e2e');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

/** A browser context whose pages (and frames) report every CSP violation into `violations`. */
async function watchedContext(violations: string[]): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(10_000);
  await context.addInitScript((marker) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`${marker} ${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`);
    });
  }, violationMarker);
  context.on('console', (message: ConsoleMessage) => {
    const text = message.text();
    if (text.includes(violationMarker) || /Content[ -]Security[ -]Policy/i.test(text)) violations.push(`${message.page()?.url() ?? '?'}: ${text}`);
  });
  return context;
}

/** Opens `path` in a full page load and waits for its heading. */
async function visit(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(`${web.url}${path}`);
  await expect.poll(() => page.getByRole('heading', { name: heading, exact: true }).first().isVisible(), { message: `${path} shows '${heading}'`, timeout: 10_000 }).toBe(true);
}

/** The screens of spec section 2 and the heading each renders. */
const publicScreens = [
  ['/', defaultSiteContent.heroTitle],
  ['/pricing', 'Simple, transparent pricing'],
  ['/privacy', 'Privacy Policy and Cookie Notice'],
  ['/privacy-policy', 'Privacy Policy and Cookie Notice'],
  ['/login', 'Welcome'],
  ['/admin/login', 'Admin Login'],
  ['/invitation', 'Accept your invitation'],
  ['/confirm-email', 'Confirm your email'],
  ['/api/logout', 'Sign out?'],
  ['/no-such-page', '404 Page Not Found'],
] as const;

const ownerScreens = [
  ['/dashboard', 'Overview'],
  ['/websites', 'Websites'],
  ['/user/websites', 'Websites'],
  ['/export', 'Export Data'],
  ['/user/export', 'Export Data'],
  ['/installation', 'Installation'],
  ['/user/installation', 'Installation'],
  ['/settings', 'Banner'],
  ['/user/settings', 'Banner'],
  ['/setup-instructions', 'Setup Guide'],
  ['/user/setup-instructions', 'Setup Guide'],
  ['/subscription', 'Subscription'],
  ['/analytics', 'Traffic'],
  ['/website-analytics', 'Websites'],
  ['/recommendations', 'Overview'],
  ['/leads', 'Leads'],
  ['/account', 'Account'],
] as const;

/** The tabs of a website's page (/websites/$websiteId/<slug>) and the heading each renders. */
const websiteTabs = [
  ['overview', 'Overview'],
  ['consent', 'Consent'],
  ['traffic', 'Traffic'],
  ['leads', 'Leads'],
  ['banner', 'Banner'],
  ['scan', 'Cookie scan'],
  ['installation', 'Installation'],
  ['webhooks', 'Webhooks'],
] as const;

const adminScreens = [
  ['/admin', 'Dashboard'],
  ['/dashboard', 'Dashboard'],
  ['/admin/websites', 'Websites'],
  ['/admin/export', 'Export Data'],
  ['/admin/installation', 'Installation'],
  ['/admin/settings', 'Settings'],
  ['/admin/setup-instructions', 'Setup Guide'],
  ['/website-editor', 'Website Editor'],
  ['/user-management', 'User Management'],
  ['/analytics', 'Traffic'],
  ['/website-analytics', 'Websites'],
  ['/recommendations', 'Overview'],
  ['/leads', 'Leads'],
] as const;

describe('the violation listener', () => {
  it('reports an inline style the policy refuses (so a silent run means no violation)', async () => {
    const violations: string[] = [];
    const context = await watchedContext(violations);
    const page = await context.newPage();
    await visit(page, '/privacy', 'Privacy Policy and Cookie Notice');
    await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { color: red }';
      document.head.append(style);
    });
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(violations.join('\n')).toContain('style-src');
    await context.close();
  });
});

describe('a visitor', () => {
  it.each(publicScreens)('sees %s (%s) with no CSP violation', async (path, heading) => {
    const violations: string[] = [];
    const context = await watchedContext(violations);
    const page = await context.newPage();
    await visit(page, path, heading);
    await context.close();
    expect(violations).toEqual([]);
  });
});

describe('an owner', () => {
  const violations: string[] = [];
  let context: BrowserContext;
  let page: Page;
  let websiteId = '';

  beforeAll(async () => {
    context = await watchedContext(violations);
    await registerOwner(context.request, web.url, { email: 'cora@csp.example.test', firstName: 'Cora', lastName: 'Policy' });
    ({ id: websiteId } = await addWebsite(context.request, web.url, { name: 'Policy Bakery', domain: 'bakery.example.test' }));
    // A logo stored as a data: URL, shown in the sidebar and the banner preview.
    const branding = await context.request.put(`${web.url}/api/branding`, {
      data: { companyName: 'Policy Bakery', primaryColor: '#2563eb', logoUrl: examplePngDataUrl },
      headers: { origin: web.url },
    });
    expect(branding.ok()).toBe(true);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it.each(ownerScreens)('sees %s (%s) with no CSP violation', async (path, heading) => {
    await visit(page, path, heading);
    expect(violations).toEqual([]);
  });

  it.each(websiteTabs)("sees the website's %s tab (%s) with no CSP violation", async (slug, heading) => {
    await visit(page, `/websites/${websiteId}/${slug}`, heading);
    expect(violations).toEqual([]);
  });

  it('opens the Add Website dialog and a select (run-time styles with the nonce)', async () => {
    await visit(page, '/websites', 'Websites');
    await page.getByRole('button', { name: 'Add Website', exact: true }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Add Website' }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await visit(page, '/export', 'Export Data');
    await page.getByRole('combobox', { name: 'Website', exact: true }).click();
    await expect.poll(() => page.getByRole('option', { name: /Policy Bakery/ }).isVisible()).toBe(true);
    // The select's <style> element was applied (it carries the nonce): its viewport hides the scrollbar.
    expect(await page.locator('[data-radix-select-viewport]').evaluate((viewport) => getComputedStyle(viewport).scrollbarWidth)).toBe('none');
    await page.keyboard.press('Escape');
    expect(violations).toEqual([]);
  });

  it('sees the banner preview with its data: logo', async () => {
    await visit(page, `/websites/${websiteId}/installation`, 'Installation');
    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Banner preview' });
    await expect.poll(() => preview.getByRole('button', { name: 'Accept All' }).isVisible()).toBe(true);
    await expect.poll(() => preview.locator('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    expect(violations).toEqual([]);
  });
});

describe('an admin', () => {
  const violations: string[] = [];
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await watchedContext(violations);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('signs in through the form (a POST under the headers)', async () => {
    await visit(page, '/admin/login', 'Admin Login');
    await page.getByLabel('Username').fill(adminCredentials.username);
    await page.getByLabel('Password').fill(adminCredentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${web.url}/admin/websites`);
    expect(violations).toEqual([]);
  });

  it.each(adminScreens)('sees %s (%s) with no CSP violation', async (path, heading) => {
    await visit(page, path, heading);
    expect(violations).toEqual([]);
  });

  it('previews the landing page in the Website Editor’s frame (frame-ancestors allows our own origin there only)', async () => {
    await visit(page, '/website-editor', 'Website Editor');
    await page.getByRole('tab', { name: 'Design' }).click();
    const preview = page.frameLocator('iframe[title="Landing page preview"]');
    await expect.poll(() => preview.getByRole('heading', { name: defaultSiteContent.heroTitle }).isVisible()).toBe(true);
    expect(violations).toEqual([]);
  });

  it('reads the API documentation', async () => {
    await page.goto(`${web.url}/api/docs/`);
    await expect.poll(() => page.getByRole('heading', { name: /Consentry API/ }).first().isVisible()).toBe(true);
    expect(violations).toEqual([]);
  });
});
