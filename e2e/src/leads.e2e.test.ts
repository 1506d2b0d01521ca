/// <reference lib="dom" />
// Consent-based identification end to end (issue 13), in real headless Chromium against the whole
// system: a third-party page embeds the snippet and has a contact form. A visitor who allows
// identification and sends the form appears on the owner's open /leads page without a reload, is
// enriched by a provider speaking our signed contract on loopback, and a webhook receiver on loopback
// gets correctly signed deliveries. A visitor who did not allow it sends the same form and no table
// of the database holds their email. Withdrawing removes the lead from the next audience file.
// UPDATE_SCREENSHOTS=1 rewrites docs/screens/desktop/leads*.png, lead.png, dashboard-leads.png and webhooks.png.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStaticPages, tablesHolding, waitFor, type TestDatabase } from '@consentry/infra/testing';
import { TestProvider } from '@consentry/jobs/testing';
import { verifyWebhook } from '@consentry/jobs';
import { addWebsite, registerOwner, setOwnerPlan, signInAdmin, startWebSystem, type CreatedWebsite, type WebSystem } from './web-harness';

const screensDir = fileURLToPath(new URL('../../docs/screens/desktop/', import.meta.url));
const viewport = { width: 1280, height: 800 };
const shots = process.env.UPDATE_SCREENSHOTS === '1';

interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly verified: boolean;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** A CRM's webhook receiver: records every delivery and checks its Standard Webhooks signature. */
class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  secret = '';
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let verified = true;
        try {
          verifyWebhook(this.secret, request.headers as Record<string, string>, body);
        } catch {
          verified = false;
        }
        const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
        this.deliveries.push({ headers: request.headers, body, verified, type: parsed.type, data: parsed.data });
        response.writeHead(verified ? 204 : 401).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/consentry`;
  }

  of(type: string, email: string): Delivery[] {
    return this.deliveries.filter((delivery) => delivery.type === type && JSON.stringify(delivery.data).includes(email));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const site = { name: 'Northwind Tools', domain: 'northwind.example.test' };
const leadEmail = 'Grace.Hopper@Northwind-Customer.example ';
const normalisedLead = 'grace.hopper@northwind-customer.example';
const refuserEmail = 'alan.refuser@elsewhere.example';

const contactPage = (embedCode: string, serviceUrl: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Contact Northwind</title></head>
  <body>
    <h1>Talk to sales</h1>
    <form id="contact">
      <label>Email <input type="email" name="email" id="email" /></label>
      <label>Name <input name="full_name" id="name" autocomplete="name" /></label>
      <label>Company <input name="company" id="company" /></label>
      <label>Password <input type="password" name="password" id="password" /></label>
      <button type="submit">Send</button>
    </form>
    <p id="thanks" hidden>Thanks, we will be in touch.</p>
    <script>
      document.getElementById('contact').addEventListener('submit', function (event) {
        event.preventDefault();
        document.getElementById('thanks').hidden = false;
      });
    </script>
    <script src="${serviceUrl}/widget.js" data-embed-code="${embedCode}" defer></script>
  </body>
</html>`;

let web: WebSystem;
let db: TestDatabase;
let url: string;
let browser: Browser;
let ownerContext: BrowserContext;
let website: CreatedWebsite;
let pages: { port: number; close(): Promise<void> };
const provider = new TestProvider();
const receiver = new WebhookReceiver();

beforeAll(async () => {
  await provider.start();
  provider.script(normalisedLead, [
    {
      kind: 'found',
      details: {
        name: 'Grace Hopper',
        title: 'Head of Procurement',
        company: 'Northwind Customer Ltd',
        domain: 'northwind-customer.example',
        industry: 'Wholesale',
        size: '201-500',
        linkedinUrl: 'https://www.linkedin.com/in/grace-hopper-example',
        location: 'Arlington, United States',
      },
    },
  ]);
  await receiver.start();
  web = await startWebSystem('leads_e2e', {
    ENRICHMENT_PROVIDER: 'http',
    ENRICHMENT_URL: provider.url,
    ENRICHMENT_SECRET: provider.secret,
    // The receiver runs on loopback, which webhooks may reach only when allowed.
    VERIFY_ALLOWED_HOSTS: '127.0.0.1',
  });
  ({ db, url } = web);
  browser = await launchChromium();
  ownerContext = await browser.newContext({ viewport });
  ownerContext.setDefaultTimeout(15_000);
  const owner = await registerOwner(ownerContext.request, url, { email: 'nora@northwind.example.test', firstName: 'Nora', lastName: 'North' });
  const admin = await browser.newContext();
  await signInAdmin(admin.request, url);
  await setOwnerPlan(admin.request, url, owner.id, { subscriptionTier: 'pro', maxWebsites: 10, maxConsentsPerMonth: 100_000 });
  await admin.close();
  website = await addWebsite(ownerContext.request, url, site);
  const settings = await ownerContext.request.patch(`${url}/api/websites/${website.id}/settings`, { data: { identification: true } });
  expect(settings.status(), await settings.text()).toBe(200);
  const added = await ownerContext.request.post(`${url}/api/websites/${website.id}/webhooks`, {
    data: { url: receiver.url, description: 'Northwind CRM', eventTypes: ['lead.identified', 'lead.enriched', 'consent.withdrawn'] },
  });
  expect(added.status(), await added.text()).toBe(201);
  receiver.secret = ((await added.json()) as { secret: string }).secret;
  pages = await serveStaticPages({ '/contact': contactPage(website.embedCode, url) });
  if (shots) await mkdir(screensDir, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await web?.stop();
  await receiver.close();
});

/** A visitor on the owner's contact page; every request the page sends to the product is noted. */
async function visitor(): Promise<{ context: BrowserContext; page: Page; sent: string[] }> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(url)) sent.push(new URL(request.url()).pathname);
  });
  await page.goto(`http://www.${site.domain}:${pages.port}/contact`);
  return { context, page, sent };
}

async function fillAndSend(page: Page, email: string): Promise<void> {
  await page.fill('#email', email);
  await page.fill('#name', 'Grace Hopper');
  await page.fill('#company', 'Northwind Customer Ltd');
  await page.fill('#password', 'correct horse battery staple');
  await page.click('button[type="submit"]');
  await page.locator('#thanks').waitFor();
}

const banner = (page: Page) => page.locator('consentry-widget #b');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function audience(format: string): Promise<string> {
  const response = await ownerContext.request.get(`${url}/api/leads/audience.csv?websiteId=${website.id}&format=${format}`);
  expect(response.status(), await response.text()).toBe(200);
  return response.text();
}

describe('a visitor who allows identification', () => {
  let leadsPage: Page;
  let visitorPage: Page;

  it('sends the contact form and appears on the open /leads page without a reload', async () => {
    leadsPage = await ownerContext.newPage();
    await leadsPage.goto(`${url}/leads`);
    await leadsPage.getByRole('heading', { name: 'Leads' }).waitFor();

    const { page, sent } = await visitor();
    visitorPage = page;
    await banner(page).getByRole('button', { name: 'Accept All' }).click();
    await fillAndSend(page, leadEmail);
    await waitFor(() => sent.includes('/api/collect/identify'), { timeoutMs: 10_000, message: 'the identify request' });
    expect(sent).toContain('/identify.js');

    // Live: the SSE notice refreshes the list; no reload.
    await leadsPage.getByText(normalisedLead).waitFor({ timeout: 20_000 });
    const { rows } = await db.pool.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM events WHERE type = 'VisitorIdentified' AND data->>'email' = $1`,
      [normalisedLead],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toMatchObject({ source: 'form', name: 'Grace Hopper', company: 'Northwind Customer Ltd' });
    // Never a password, anywhere.
    expect(await tablesHolding(db.pool, 'correct horse battery staple')).toEqual({});
    if (shots) await leadsPage.screenshot({ path: `${screensDir}leads.png`, fullPage: true });
  });

  it('is enriched by the provider, and the lead’s page shows what it found and the consent proof', async () => {
    await waitFor(() => provider.requestsFor(normalisedLead).length > 0, { timeoutMs: 20_000, message: 'an enrichment request' });
    expect(provider.requestsFor(normalisedLead)[0]).toMatchObject({ verified: true, domain: 'northwind-customer.example' });
    await leadsPage.getByText('Head of Procurement').first().waitFor({ timeout: 20_000 });
    await leadsPage.getByText(normalisedLead).click();
    await leadsPage.getByText('Wholesale').first().waitFor();
    await leadsPage.getByRole('link', { name: /receipt/i }).first().waitFor();
    if (shots) await leadsPage.screenshot({ path: `${screensDir}lead.png`, fullPage: true });
  });

  it("opens the consent's receipt, which this browser checks against the seal and the published key", async () => {
    await leadsPage.getByRole('link', { name: 'Consent receipt' }).click();
    await leadsPage.getByRole('heading', { name: 'Consent receipt' }).waitFor();
    // Sealed within SEAL_INTERVAL_SECONDS (5 s); the page asks again by itself until then.
    const verified = leadsPage.getByRole('heading', { name: /^Verified against seal \d+, signed by key / });
    await verified.waitFor({ timeout: 30_000 });
    const { rows } = await web.db.pool.query<{ key_id: string }>("SELECT data->>'keyId' AS key_id FROM events WHERE type = 'LedgerSealed' ORDER BY position DESC LIMIT 1");
    expect(await verified.textContent()).toContain(rows[0]!.key_id);
    await leadsPage.getByText('Identification of the visitor as a business lead').or(leadsPage.getByText(/identif/i)).first().waitFor();
    expect(await leadsPage.getByRole('button', { name: 'Download JSON' }).isVisible()).toBe(true);
    if (shots) await leadsPage.screenshot({ path: `${screensDir}receipt.png`, fullPage: true });
    await leadsPage.goBack();
  });

  it('reaches the webhook receiver, signed as Standard Webhooks says', async () => {
    await waitFor(() => receiver.of('lead.identified', normalisedLead).length > 0 && receiver.of('lead.enriched', normalisedLead).length > 0, {
      timeoutMs: 30_000,
      message: 'lead.identified and lead.enriched deliveries',
    });
    for (const delivery of [...receiver.of('lead.identified', normalisedLead), ...receiver.of('lead.enriched', normalisedLead)]) {
      expect(delivery.verified).toBe(true);
      expect(delivery.headers['webhook-id']).toMatch(/^msg_/);
      expect(delivery.headers['webhook-signature']).toMatch(/^v1,/);
    }
    expect(receiver.of('lead.identified', normalisedLead)).toHaveLength(1);
    // The delivery log shows it.
    const settingsPage = await ownerContext.newPage();
    await settingsPage.goto(`${url}/website-analytics?website=${website.id}&tab=webhooks`);
    await settingsPage.getByText('Northwind CRM').first().waitFor();
    await settingsPage.getByRole('button', { name: 'Delivery log' }).click();
    await settingsPage.getByText('Lead identified').first().waitFor();
    await settingsPage.getByRole('button', { name: /send again/i }).first().waitFor();
    if (shots) await settingsPage.screenshot({ path: `${screensDir}webhooks.png`, fullPage: true });
    await settingsPage.close();
  });

  it('counts on the dashboard: identified visitors and the identification rate', async () => {
    const dashboard = await ownerContext.newPage();
    await dashboard.goto(`${url}/dashboard`);
    await dashboard.getByText('Identified visitors').first().waitFor();
    const summary = (await (await ownerContext.request.get(`${url}/api/leads/summary?websiteId=${website.id}`)).json()) as { identified: number; allowed: number };
    expect(summary).toMatchObject({ identified: 1, allowed: 1 });
    if (shots) await dashboard.screenshot({ path: `${screensDir}dashboard-leads.png`, fullPage: true });
    await dashboard.close();
  });

  it('once withdrawn, is gone from the next audience file, and the CRM is told', async () => {
    for (const format of ['google', 'meta', 'linkedin']) expect(await audience(format)).toContain(sha256(normalisedLead));
    await visitorPage.evaluate(() => (window as unknown as { Consentry: { open(): void } }).Consentry.open());
    await visitorPage.locator('consentry-widget [aria-modal="true"]').getByRole('button', { name: 'Reject All' }).click();
    await waitFor(async () => !(await audience('meta')).includes(sha256(normalisedLead)), { timeoutMs: 20_000, message: 'the lead leaving the audience' });
    for (const format of ['google', 'linkedin']) expect(await audience(format)).not.toContain(sha256(normalisedLead));
    await waitFor(() => receiver.of('consent.withdrawn', normalisedLead).length > 0 || receiver.deliveries.some((d) => d.type === 'consent.withdrawn'), {
      timeoutMs: 30_000,
      message: 'a consent.withdrawn delivery',
    });
    expect(receiver.deliveries.filter((d) => d.type === 'consent.withdrawn').every((d) => d.verified)).toBe(true);
    // A form sent after the withdrawal identifies nobody.
    const before = (await db.pool.query(`SELECT count(*)::int AS n FROM events WHERE type = 'VisitorIdentified'`)).rows[0].n as number;
    await visitorPage.locator('#thanks').evaluate((element) => ((element as HTMLElement).hidden = true));
    await fillAndSend(visitorPage, 'second.address@northwind-customer.example');
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM events WHERE type = 'VisitorIdentified'`)).rows[0].n).toBe(before);
  });
});

describe('a visitor who did not allow identification', () => {
  it('sends the same form, and no table of the database holds their email', async () => {
    const { page, sent } = await visitor();
    await banner(page).getByRole('button', { name: 'Reject All' }).click();
    await fillAndSend(page, refuserEmail);
    // Everything the page sends has arrived and been projected: its choice is in the log and read models.
    await waitFor(
      async () => (await db.pool.query(`SELECT 1 FROM consent_records WHERE website_id = $1 AND choice = 'declined'`, [website.id])).rowCount! > 0,
      { timeoutMs: 15_000, message: 'the declined choice projected' },
    );
    expect(sent).not.toContain('/identify.js');
    expect(sent).not.toContain('/api/collect/identify');
    expect(await tablesHolding(db.pool, refuserEmail)).toEqual({});
    expect(await tablesHolding(db.pool, refuserEmail.split('@')[0]!)).toEqual({});
  });
});
