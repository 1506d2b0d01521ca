/// <reference lib="dom" />
// (DOM types: part of this file runs inside the browser through page.evaluate.)
// A new user in real Chromium who opens the app under another name than the one `npm start`
// printed (PUBLIC_URL is http://localhost:PORT; they typed http://127.0.0.1:PORT): creating an
// account, signing out and in again all work, because a same-origin request is not cross-site. A page
// of another origin still cannot change anything with their session.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStaticPages } from '@consentry/infra/testing';
import { assertWebAppBuilt, startWebSystem, type WebSystem } from './web-harness';

let web: WebSystem;
let browser: Browser;
let page: Page;
let appUrl: string;
let elsewhere: { port: number; close(): Promise<void> } | undefined;

beforeAll(async () => {
  assertWebAppBuilt();
  web = await startWebSystem('web_host_e2e');
  appUrl = web.url.replace('//localhost:', '//127.0.0.1:');
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await elsewhere?.close();
  await web?.stop();
});

describe('the app opened at 127.0.0.1 while PUBLIC_URL says localhost', () => {
  it('creates an account and lands on the dashboard', async () => {
    expect(appUrl).not.toBe(web.url);
    await page.goto(`${appUrl}/login`);
    await page.getByRole('tab', { name: 'Create account' }).click();
    await page.getByLabel('First name').fill('Lan');
    await page.getByLabel('Last name').fill('User');
    await page.getByLabel('Email').fill('lan.user@example.test');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${appUrl}/dashboard`);
    await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).isVisible()).toBe(true);
  });

  it('adds a website with that session (a write)', async () => {
    const status = await page.evaluate(async () => {
      const response = await fetch('/api/websites', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Loopback Shop', domain: 'loopback-shop.example.test' }),
      });
      return response.status;
    });
    expect(status).toBe(201);
  });

  it('still refuses a write sent from a page of another origin', async () => {
    // 127.0.0.1 on another port is the same site, so the session cookie goes along: only the Origin
    // check stands between this form and the account.
    elsewhere = await serveStaticPages({
      '/': `<!doctype html><title>Elsewhere</title>
        <form method="post" enctype="text/plain" action="${appUrl}/api/websites">
          <input name='{"name":"Forged","domain":"forged.example.test","x":"' value='"}'>
          <button>Send</button>
        </form>`,
    });
    const foreign = await page.context().newPage();
    await foreign.goto(`http://127.0.0.1:${elsewhere.port}/`);
    await foreign.getByRole('button', { name: 'Send' }).click();
    await foreign.waitForURL(`${appUrl}/api/websites`);
    expect(await foreign.textContent('body')).toContain('FOREIGN_ORIGIN');
    const { rows } = await web.db.pool.query<{ name: string }>('SELECT name FROM websites ORDER BY name');
    expect(rows.map((row) => row.name)).toEqual(['Loopback Shop']);
  });
});
