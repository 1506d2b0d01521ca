// The first start's admin in real Chromium: the password generated and shown once signs in, but
// the app asks for a new one at once (every admin screen sends the admin back there) and the api
// refuses everything else until it is chosen; then the admin lands on /admin/websites, and the
// generated password no longer works.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureInitialAdmin } from '@consentry/api';
import { launchChromium } from '@consentry/infra/testing';
import { assertWebAppBuilt, startWebSystem, type WebSystem } from './web-harness';

let web: WebSystem;
let browser: Browser;
let page: Page;
let generated = '';

beforeAll(async () => {
  assertWebAppBuilt();
  web = await startWebSystem('web_first_admin_e2e');
  // As on a first start with no ADMIN_USERNAME/ADMIN_PASSWORD: no admin yet, one is generated.
  await web.db.pool.query('DELETE FROM admin_credentials');
  const printed: string[] = [];
  expect(await ensureInitialAdmin(web.db.pool, { print: (text) => printed.push(text) })).toBe('generated');
  generated = /password: (\S+)/.exec(printed.join(''))?.[1] ?? '';
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
});

async function signIn(password: string): Promise<void> {
  await page.goto(`${web.url}/admin/login`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the first admin, with the generated password', () => {
  it('is taken to Choose a new password after signing in, and kept there', async () => {
    await signIn(generated);
    await page.waitForURL(`${web.url}/admin/password`);
    await expect.poll(() => page.getByRole('heading', { name: 'Choose a new password' }).isVisible()).toBe(true);
    await page.goto(`${web.url}/admin/websites`);
    await page.waitForURL(`${web.url}/admin/password`);
    const status = await page.evaluate(async () => (await fetch('/api/admin/users')).status);
    expect(status).toBe(403);
  });

  it('chooses a new password and lands on the websites', async () => {
    await page.getByLabel('Current password', { exact: true }).fill(generated);
    await page.getByLabel('New password', { exact: true }).fill('my own admin password');
    await page.getByLabel('Repeat the new password').fill('my own admin passwrd');
    await expect.poll(() => page.getByText('The two new passwords differ.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save new password' }).isDisabled()).toBe(true);
    await page.getByLabel('Repeat the new password').fill('my own admin password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.waitForURL(`${web.url}/admin/websites`);
    await expect.poll(() => page.getByRole('heading', { name: 'Websites' }).first().isVisible()).toBe(true);
    const status = await page.evaluate(async () => (await fetch('/api/admin/users')).status);
    expect(status).toBe(200);
  });

  it('can no longer sign in with the generated password', async () => {
    await page.context().clearCookies();
    await signIn(generated);
    await expect.poll(() => page.getByText('Login failed', { exact: true }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
  });
});
