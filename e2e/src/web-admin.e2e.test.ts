// The web app end to end for an admin, in real headless Chromium against the whole system: sign in
// at /admin/login, see every owner's websites, add one for an owner in the Add Website dialog and see a
// visitor's consent on its dashboard, edit the landing page in the Website Editor and see it on `/`, change an owner's
// tier in User Management (and the owner may then add more websites), brand the installation, and
// sign out.
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStaticPages } from '@consentry/infra/testing';
import { adminCredentials, addWebsite, assertWebAppBuilt, registerOwner, startWebSystem, type Owner, type WebSystem } from './web-harness';

let web: WebSystem;
let browser: Browser;
let admin: BrowserContext;
let ownerContext: BrowserContext;
let ownerApi: APIRequestContext;
let page: Page;
let owner: Owner;
let shop: { port: number; close(): Promise<void> } | undefined;

beforeAll(async () => {
  assertWebAppBuilt();
  web = await startWebSystem('web_admin_e2e');
  browser = await launchChromium();
  ownerContext = await browser.newContext();
  ownerApi = ownerContext.request;
  owner = await registerOwner(ownerApi, web.url, { email: 'bob@bakery.example.test', firstName: 'Bob', lastName: 'Baker' });
  await addWebsite(ownerApi, web.url, { name: "Bob's Bakery", domain: 'bakery.example.test' });
  admin = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  admin.setDefaultTimeout(10_000);
  page = await admin.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await web?.stop();
});

const mainNav = () => page.getByRole('navigation', { name: 'Main' });
const toast = (title: string) => page.getByRole('region', { name: /Notifications/ }).getByText(title, { exact: true });

describe('an admin', () => {
  it('signs in at /admin/login and lands on every owner’s websites', async () => {
    await page.goto(`${web.url}/admin/login`);
    await page.getByLabel('Username').fill(adminCredentials.username);
    await page.getByLabel('Password').fill(adminCredentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect.poll(() => toast('Login successful').isVisible()).toBe(true);
    await page.waitForURL(`${web.url}/admin/websites`);
    await expect.poll(() => page.getByRole('article', { name: "Bob's Bakery" }).getByText('bakery.example.test', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('banner').getByText(adminCredentials.username, { exact: true }).isVisible()).toBe(true);
    // Admin mode: the admin-only screens are in the navigation; a website's own screens are tabs of its page.
    expect(await mainNav().getByRole('link').allTextContents()).toEqual([
      'Dashboard',
      'Websites',
      'Leads',
      'Settings',
      'Website Editor',
      'User Management',
    ]);
  });

  it('refuses a wrong password with the server’s message', async () => {
    const other = await browser.newContext();
    const loginPage = await other.newPage();
    await loginPage.goto(`${web.url}/admin/login`);
    await loginPage.getByLabel('Username').fill(adminCredentials.username);
    await loginPage.getByLabel('Password').fill('not the password');
    await loginPage.getByRole('button', { name: 'Sign in' }).click();
    const notifications = loginPage.getByRole('region', { name: /Notifications/ });
    await expect.poll(() => notifications.getByText('Login failed', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => notifications.getByText('Invalid credentials', { exact: true }).isVisible()).toBe(true);
    expect(new URL(loginPage.url()).pathname).toBe('/admin/login');
    await other.close();
  });

  it('edits the landing page in the Website Editor and sees it on /', async () => {
    await mainNav().getByRole('link', { name: 'Website Editor' }).click();
    const heroTitle = page.getByLabel('Hero title');
    await expect.poll(() => heroTitle.inputValue()).toBe('Turn anonymous visitors into consented leads');
    await heroTitle.fill('Consent that converts');
    await page.getByLabel('Call to action button text').fill('Start for free');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => toast('Website content updated successfully!').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Preview' }).getAttribute('href')).toBe('/');

    const landing = await admin.newPage();
    await landing.goto(`${web.url}/`);
    await expect.poll(() => landing.getByRole('heading', { level: 1 }).textContent()).toBe('Consent that converts');
    await expect.poll(() => landing.getByRole('link', { name: 'Start for free' }).getAttribute('href')).toBe('/api/login');
    await landing.close();
  });

  it("changes an owner's tier in User Management, and the owner may then add more websites", async () => {
    const secondWebsite = { name: 'Bakery Blog', domain: 'blog.bakery.example.test' };
    const refused = await ownerApi.post(`${web.url}/api/websites`, { data: secondWebsite });
    expect(refused.status()).toBe(403);

    await mainNav().getByRole('link', { name: 'User Management' }).click();
    const row = page.getByRole('row').filter({ hasText: owner.email });
    await expect.poll(() => row.getByText('Free', { exact: true }).isVisible()).toBe(true);
    await row.getByRole('button', { name: 'Edit Bob Baker' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit user' });
    await dialog.getByRole('combobox', { name: 'Subscription tier' }).click();
    await page.getByRole('option', { name: 'Pro', exact: true }).click();
    // Choosing a tier copies the plan's limits into the form.
    await expect.poll(() => dialog.getByLabel('Max websites').inputValue()).toBe('10');
    expect(await dialog.getByLabel('Max consents per month').inputValue()).toBe('100000');
    await dialog.getByRole('button', { name: 'Save' }).click();

    await expect.poll(() => toast('User updated successfully').isVisible()).toBe(true);
    await expect.poll(() => row.getByText('Pro', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => row.getByText('1 of 10', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => row.getByText('limit 100,000/mo', { exact: true }).isVisible()).toBe(true);
    const { rows } = await web.db.pool.query('SELECT subscription_tier, max_websites FROM users WHERE id = $1', [owner.id]);
    expect(rows).toEqual([{ subscription_tier: 'pro', max_websites: 10 }]);

    const accepted = await ownerApi.post(`${web.url}/api/websites`, { data: secondWebsite });
    expect(accepted.status()).toBe(201);
  });

  it('adds a website for an owner in the Add Website dialog; its snippet records a visitor’s consent, shown on the dashboard', async () => {
    await mainNav().getByRole('link', { name: 'Websites' }).click();
    await page.waitForURL(`${web.url}/admin/websites`);
    await page.getByRole('button', { name: 'Add Website' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Owner' }).click();
    await page.getByRole('option', { name: 'Bob Baker (bob@bakery.example.test)' }).click();
    await dialog.getByLabel('Website Name').fill('Bakery Shop');
    await dialog.getByLabel('Domain').fill('shop.bakery.example.test');
    await dialog.getByRole('button', { name: 'Add Website' }).click();
    await expect.poll(() => toast('Website added').isVisible()).toBe(true);

    const card = page.getByRole('article', { name: 'Bakery Shop' });
    await expect.poll(() => card.getByText('shop.bakery.example.test', { exact: true }).isVisible()).toBe(true);
    const snippet = (await card.locator('pre code').textContent())!;
    expect(snippet).toContain('data-embed-code=');
    const { rows } = await web.db.pool.query(`SELECT owner_id FROM websites WHERE name = 'Bakery Shop'`);
    expect(rows).toEqual([{ owner_id: owner.id }]);

    shop = await serveStaticPages({ '/': `<!doctype html><html lang="en"><head><title>Bakery Shop</title></head><body><h1>Bakery Shop</h1>${snippet}</body></html>` });
    const visitor = await browser.newContext();
    try {
      const shopPage = await visitor.newPage();
      await shopPage.goto(`http://shop.bakery.example.test:${shop.port}/`);
      const banner = shopPage.locator('consentry-widget #b');
      await expect.poll(() => banner.isVisible()).toBe(true);
      await banner.getByRole('button', { name: 'Accept All' }).click();
    } finally {
      await visitor.close();
    }
    await mainNav().getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${web.url}/admin`);
    const activity = page.getByRole('region', { name: 'Recent Consent Activity' });
    await expect.poll(() => activity.getByRole('row').filter({ hasText: 'Bakery Shop' }).filter({ hasText: 'Accepted' }).count(), { timeout: 15_000 }).toBe(1);
  });

  it("opens an owner's website through the same website page as owners, its consent on the Consent tab", async () => {
    await mainNav().getByRole('link', { name: 'Websites' }).click();
    await page.waitForURL(`${web.url}/admin/websites`);
    await page.getByRole('link', { name: 'Open Bakery Shop' }).click();
    await page.waitForURL(/\/websites\/[0-9a-f-]+\/overview$/);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: /Bakery Shop/ }).isVisible()).toBe(true);
    await page.getByRole('navigation', { name: 'Website sections' }).getByRole('link', { name: 'Consent', exact: true }).click();
    await page.waitForURL(/\/websites\/[0-9a-f-]+\/consent$/);
    await expect.poll(() => page.getByLabel('Total Consents: 1').isVisible()).toBe(true);
    // Back to the admin's own list.
    await page.getByRole('link', { name: 'All websites' }).click();
    await page.waitForURL(`${web.url}/admin/websites`);
  });

  it('invites someone in User Management; only the link it shows completes their sign-up', async () => {
    await mainNav().getByRole('link', { name: 'User Management' }).click();
    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill('carol@florist.example.test');
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    // No SMTP here: the dialog shows the link (once) and says to send it; no toast claims it was sent.
    await expect.poll(() => dialog.getByText(/Email is not set up on this server: send this link to carol@florist\.example\.test yourself/).isVisible()).toBe(true);
    const link = dialog.getByText(/\/invitation#/);
    await expect.poll(() => link.isVisible()).toBe(true);
    expect(await page.getByText('Invitation sent to carol@florist.example.test', { exact: true }).count()).toBe(0);
    const inviteUrl = (await link.textContent())!.trim();
    expect(inviteUrl).toMatch(new RegExp(`^${web.url}/invitation#[A-Za-z0-9_-]{43}$`));
    await dialog.getByRole('button', { name: 'Done' }).click();

    const invitee = await browser.newContext();
    try {
      const squatter = await invitee.request.post(`${web.url}/api/auth/register`, { data: { email: 'carol@florist.example.test', password: 'first come first served' } });
      expect(squatter.status()).not.toBe(201);
      const carol = await invitee.newPage();
      await carol.goto(inviteUrl);
      await expect.poll(() => carol.getByLabel('Email').inputValue()).toBe('carol@florist.example.test');
      await carol.getByLabel('First name').fill('Carol');
      await carol.getByLabel('Password').fill('carol’s own password');
      await carol.getByRole('button', { name: 'Create account' }).click();
      await carol.waitForURL(`${web.url}/dashboard`);
      const me = await invitee.request.get(`${web.url}/api/auth/user`);
      expect(await me.json()).toMatchObject({ email: 'carol@florist.example.test', firstName: 'Carol', subscriptionTier: 'free' });

      // Used once: the same link now says so.
      const again = await invitee.newPage();
      await again.goto(inviteUrl);
      await expect.poll(() => again.getByRole('alert').textContent()).toMatch(/not valid any more/);
    } finally {
      await invitee.close();
    }
  });

  it("hands an owner a password reset link; it sets their new password once and signs them out elsewhere", async () => {
    await mainNav().getByRole('link', { name: 'User Management' }).click();
    const row = page.getByRole('row').filter({ hasText: owner.email });
    await row.getByRole('button', { name: 'Password reset link for Bob Baker' }).click();
    const dialog = page.getByRole('dialog', { name: 'Password reset link for Bob Baker' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const link = dialog.getByText(/\/reset-password#/);
    await expect.poll(() => link.isVisible()).toBe(true);
    const resetUrl = (await link.textContent())!.trim();
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect((await ownerApi.get(`${web.url}/api/auth/user`)).status()).toBe(200);

    const otherDevice = await browser.newContext();
    try {
      const bob = await otherDevice.newPage();
      await bob.goto(resetUrl);
      await expect.poll(() => bob.getByText(`For ${owner.email}. Your other devices will be signed out.`).isVisible()).toBe(true);
      await bob.getByLabel('New password', { exact: true }).fill('rye loaves rise at dawn');
      await bob.getByLabel('Repeat the new password').fill('rye loaves rise at dawn');
      await bob.getByRole('button', { name: 'Set new password' }).click();
      await bob.waitForURL(`${web.url}/dashboard`);
      // The session Bob had is over; the new password works; the link works once.
      expect((await ownerApi.get(`${web.url}/api/auth/user`)).status()).toBe(401);
      const signIn = await otherDevice.request.post(`${web.url}/api/auth/login`, { data: { email: owner.email, password: 'rye loaves rise at dawn' } });
      expect(signIn.status()).toBe(200);
      const again = await otherDevice.newPage();
      await again.goto(resetUrl);
      await expect.poll(() => again.getByRole('alert').isVisible()).toBe(true);
    } finally {
      await otherDevice.close();
    }
  });

  it('brands the installation in Settings: the public site shows the company name', async () => {
    await mainNav().getByRole('link', { name: 'Settings' }).click();
    const branding = page.getByRole('region', { name: 'Installation branding' });
    await expect.poll(() => branding.getByLabel('Company name').inputValue()).toBe('Consentry');
    expect(await page.getByRole('region', { name: 'Banner branding' }).count()).toBe(0);
    await branding.getByLabel('Company name').fill('Acme Consent');
    await branding.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => toast('Settings Updated').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('complementary').getByText('Acme Consent', { exact: true }).isVisible()).toBe(true);

    const landing = await admin.newPage();
    await landing.goto(`${web.url}/`);
    await expect.poll(() => landing.getByRole('banner').getByText('Acme Consent', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => landing.getByRole('contentinfo').getByText(`© ${new Date().getFullYear()} Acme Consent. All rights reserved.`).isVisible()).toBe(true);
    await landing.close();
  });

  it('signs out and is sent to /admin/login', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect.poll(() => toast('You have been successfully logged out.').isVisible()).toBe(true);
    await page.waitForURL(`${web.url}/admin/login`);
    const me = await admin.request.get(`${web.url}/api/admin/me`);
    expect(me.status()).toBe(401);
  });
});
