// What a visitor's Chromium asks the product for before the banner shows, on an owner's page with the
// snippet, the product serving widget.js as built: the script compressed, then the config and the
// visitor's rule asked at once (one round trip after the script, not two). Proven without timings:
// both requests are held by the DevTools protocol as they start, and neither is let through until
// both were made; a widget that waited for one answer before asking the other would never make the
// second.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@consentry/infra/testing';
import { widgetScriptPath } from '@consentry/server';
import { startWebSystem, type WebSystem } from './web-harness';

let web: WebSystem;
let browser: Browser;
let site: Server;
let siteOrigin: string;
let embedCode: string;

beforeAll(async () => {
  web = await startWebSystem('widget_requests');
  if (!web.system.http) throw new Error('startSystem served no HTTP');
  const registered = await web.system.http.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: { origin: web.url },
    payload: { email: 'rita@requests.example.test', password: 'owner-password-e2e', firstName: 'Rita', lastName: 'Requests' },
  });
  expect(registered.statusCode).toBeLessThan(300);
  const cookie = registered.cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
  const website = await web.system.http.inject({ method: 'POST', url: '/api/websites', headers: { origin: web.url, cookie }, payload: { name: 'Request Bakery', domain: 'localhost' } });
  embedCode = (website.json() as { embedCode: string }).embedCode;
  // The owner's site: another origin, the snippet in its body as the Installation screen gives it.
  site = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bakery</title></head><body><h1>Fresh bread</h1>
<script src="${web.url}/widget.js" data-embed-code="${embedCode}" data-position="bottom" data-theme="light"></script></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await web?.stop();
});

interface Held {
  readonly requestId: string;
  readonly url: string;
}

/** Holds every request for the config and the rule as it starts (Fetch domain, request stage). */
async function holdWidgetRequests(cdp: CDPSession): Promise<Held[]> {
  const held: Held[] = [];
  cdp.on('Fetch.requestPaused', (event) => held.push({ requestId: event.requestId, url: event.request.url }));
  await cdp.send('Fetch.enable', {
    patterns: [
      { urlPattern: '*/api/widget/config/*', requestStage: 'Request' },
      { urlPattern: '*/api/widget/rule/*', requestStage: 'Request' },
    ],
  });
  return held;
}

describe("a visitor's first page view", () => {
  it('asks for the config and the rule at once, each started before either finished', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      /** Network events for the product's requests, in the order Chromium reported them. */
      const log: { event: 'sent' | 'finished'; url: string }[] = [];
      const urls = new Map<string, string>();
      const encodings = new Map<string, { encoding: string | undefined; encoded: number }>();
      cdp.on('Network.requestWillBeSent', (event) => {
        if (!event.request.url.startsWith(web.url)) return;
        urls.set(event.requestId, event.request.url);
        log.push({ event: 'sent', url: event.request.url });
      });
      cdp.on('Network.responseReceived', (event) => {
        const headers = Object.fromEntries(Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), value]));
        encodings.set(event.response.url, { encoding: headers['content-encoding'], encoded: 0 });
      });
      cdp.on('Network.loadingFinished', (event) => {
        const url = urls.get(event.requestId);
        if (!url) return;
        log.push({ event: 'finished', url });
        const seen = encodings.get(url);
        if (seen) encodings.set(url, { ...seen, encoded: event.encodedDataLength });
      });
      const held = await holdWidgetRequests(cdp);

      await page.goto(siteOrigin);
      // Both are made while both are held: neither can have finished.
      await expect.poll(() => held.map((request) => new URL(request.url).pathname.split('/')[3]).sort(), { timeout: 20_000 }).toEqual(['config', 'rule']);
      expect(log.filter((entry) => entry.event === 'finished' && /\/api\/widget\//.test(entry.url))).toEqual([]);
      // And nothing else was asked for before them: the script, then these two.
      const path = (url: string) => new URL(url).pathname.replace(embedCode, ':embedCode');
      expect(log.filter((entry) => entry.event === 'sent').map((entry) => path(entry.url))).toEqual(['/widget.js', '/api/widget/config/:embedCode', '/api/widget/rule/:embedCode']);
      for (const request of held) await cdp.send('Fetch.continueRequest', { requestId: request.requestId });

      await expect.poll(() => page.locator('consentry-widget #b').isVisible(), { timeout: 20_000 }).toBe(true);
      // In the network's own order too: both sent before the first of them finished.
      const widgetRequests = log.filter((entry) => /\/api\/widget\/(config|rule)\//.test(entry.url));
      expect(widgetRequests.map((entry) => entry.event).slice(0, 2)).toEqual(['sent', 'sent']);
      // The script arrived compressed: the visitor downloaded less than half its bytes.
      const script = encodings.get(`${web.url}/widget.js`);
      expect(['br', 'gzip']).toContain(script?.encoding);
      expect(script!.encoded).toBeLessThan(readFileSync(widgetScriptPath()).byteLength / 2);
    } finally {
      await context.close();
    }
  });
});
