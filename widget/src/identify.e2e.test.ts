// @vitest-environment node
// Lead identification in real headless Chromium (docs/identification.md): an owner's page with a contact
// form, the widget and identify.js as shipped, and a Consentry host on loopback that records every
// request. identify.js is fetched only once the visitor allowed identification by their own act; then a
// form sends who they said they are, once, never a password or a hidden field; Consentry.identify
// works for signed-in visitors; a withdrawal stops it at once.
//
// "Nothing sent" is checked behind a barrier that would have come after it: the outbox sends in order,
// so once a later identification (or consent) has arrived, an earlier one would have arrived too.
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium, startConsentryHost, startSite, type LoopbackServer } from './host.test-helper';
import { UUID_PATTERN } from './ids';

// A real browser and a build of both bundles: more than unit tests' 5 s.
vi.setConfig({ testTimeout: 60_000 });

let browser: Browser;
let host: LoopbackServer;
let site: LoopbackServer;

const contactPage = (embedCode: string): string => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Bakery</title></head>
  <body>
    <h1>Contact us</h1>
    <form id="contact" action="thanks" method="post">
      <input type="hidden" name="email" value="owner@bakery.example" />
      <input type="password" name="email-confirm" />
      <input type="text" name="email_password" autocomplete="current-password" />
      <input type="email" name="your-email" />
      <input name="first_name" autocomplete="given-name" />
      <input name="last_name" autocomplete="family-name" />
      <input name="username" />
      <input name="company" />
      <input type="password" name="password" autocomplete="new-password" />
      <button>Send</button>
    </form>
    <form id="newsletter"><input type="email" name="newsletter" /><button>Subscribe</button></form>
    <form id="private" data-consentry-identify="off"><input name="email" /><button>Send</button></form>
    <form id="field-off"><input name="email" data-consentry-identify="off" /><button>Send</button></form>
    <form id="marked" data-consentry-identify><input name="E-Mail" /><input name="fullname" /><input name="org" autocomplete="organization" /><button>Send</button></form>
    <script>
      // Every form but the contact form is sent by the page itself, as AJAX forms are.
      document.addEventListener('submit', (e) => { if (e.target.id !== 'contact') e.preventDefault(); });
    </script>
    <script src="${host.origin}/widget.js" data-embed-code="${embedCode}" defer></script>
    <script type="module">
      // Right after widget.js ran, before its config arrived: a signed-in visitor's page.
      if (location.hash === '#early') window.__early = Consentry.identify('early@example.com');
    </script>
  </body>
</html>`;

let embedCounter = 0;
/** An embed code of its own for each visit, starting with the word that picks its config. */
const newEmbedCode = (kind: 'all' | 'marked' | 'region' | 'broken' | 'plain'): string => `${kind}-${++embedCounter}`;

beforeAll(async () => {
  host = await startConsentryHost();
  site = await startSite((path) => {
    const m = /^\/p\/([\w-]+)\/(thanks)?$/.exec(path);
    if (!m) return undefined;
    // The thank-you page has the widget too, as a site has it on every page.
    return m[2]
      ? `<!doctype html><title>Thanks</title><p>Thank you!</p><script src="${host.origin}/widget.js" data-embed-code="${m[1]}" defer></script>`
      : contactPage(m[1] as string);
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await host?.close();
});

type Body = Record<string, unknown>;

/**
 * The events of one embed code sent to a collect path, in the order the host first received them. A
 * request the page sent as it left may be sent again by the next page's outbox (it never saw the
 * answer): the same event, which ingest stores once, so it counts once here.
 */
const collected = (embedCode: string, path: 'consent' | 'identify'): Body[] => {
  const seen = new Set<unknown>();
  return host.requests
    .filter((r) => r.method === 'POST' && r.url === `/api/collect/${path}`)
    .map((r) => JSON.parse(r.body) as Body)
    .filter((b) => b.embedCode === embedCode && !seen.has(b.eventId) && seen.add(b.eventId));
};
const rawIdentifyBodies = (): string[] => host.requests.filter((r) => r.url === '/api/collect/identify').map((r) => r.body);
const identifyScriptRequests = (): number => host.requests.filter((r) => r.url === '/identify.js').length;

async function waitForCount(what: () => unknown[], count: number): Promise<void> {
  await expect.poll(() => what().length, { timeout: 15_000 }).toBe(count);
}

async function visit(context: BrowserContext, embedCode: string, hash = ''): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${site.origin}/p/${embedCode}/${hash}`);
  return page;
}

const firstLayer = (p: Page) => p.locator('consentry-widget #b');
const centre = (p: Page) => p.locator('consentry-widget [aria-modal="true"]');

async function choose(p: Page, label: 'Accept All' | 'Reject All'): Promise<void> {
  await expect.poll(() => firstLayer(p).isVisible(), { timeout: 15_000 }).toBe(true);
  await firstLayer(p).getByRole('button', { name: label }).click();
}

/** A custom choice in the preference centre: exactly `on` switched on. */
async function chooseCustom(p: Page, on: string[]): Promise<void> {
  await p.evaluate(() => (window as unknown as { Consentry: { open(): void } }).Consentry.open());
  await expect.poll(() => centre(p).isVisible(), { timeout: 15_000 }).toBe(true);
  for (const name of ['Preferences', 'Analytics', 'Marketing', 'Identification']) {
    await centre(p).getByRole('switch', { name }).setChecked(on.includes(name));
  }
  await centre(p).getByRole('button', { name: 'Save choices' }).click();
}

const identify = (p: Page, email: unknown, details?: unknown): Promise<boolean> =>
  p.evaluate(
    ([e, d]) => (window as unknown as { Consentry: { identify(e: unknown, d: unknown): Promise<boolean> } }).Consentry.identify(e, d),
    [email, details] as const,
  );

/** Whether identify.js is anywhere on the page: its element, or a fetch of it. */
const identifyOnPage = (p: Page) =>
  p.evaluate(
    () =>
      !!document.querySelector('script[src*="identify"]') ||
      performance.getEntriesByType('resource').some((e) => e.name.includes('identify')),
  );

/** Sends one of the page's AJAX forms with `value` in its first field. */
async function submit(p: Page, formId: string, value: string): Promise<void> {
  await p.locator(`#${formId} input`).first().fill(value);
  await p.locator(`#${formId} button`).click();
}

describe('a visitor who allows identification', () => {
  it('gets identify.js only then; a contact form sends who they are, once, without passwords or hidden fields', async () => {
    const embedCode = newEmbedCode('all');
    const context = await browser.newContext();
    const p = await visit(context, embedCode);
    // Before any choice, a form with an email field is sent: nothing reads it.
    await submit(p, 'newsletter', 'before@example.com');
    await choose(p, 'Accept All');
    await waitForCount(() => collected(embedCode, 'consent'), 1);
    const [consent] = collected(embedCode, 'consent') as [Body];
    expect(consent).toMatchObject({ method: 'accept_all', purposes: { identification: true } });
    // identify.js has taken over Consentry.identify once it resolves (false: not an address).
    expect(await identify(p, 'not an address')).toBe(false);
    expect(identifyScriptRequests()).toBeGreaterThan(0);

    // Forms marked off, as a whole or the field, are never read; the contact form is, and posts on.
    await submit(p, 'private', 'private@example.com');
    await submit(p, 'field-off', 'fieldoff@example.com');
    await p.locator('#contact [name="email-confirm"]').fill('pw@example.com');
    await p.locator('#contact [name="email_password"]').fill('secret@example.com');
    await p.locator('#contact [name="your-email"]').fill('Ada.Lovelace@Example.COM');
    await p.locator('#contact [name="first_name"]').fill('Ada');
    await p.locator('#contact [name="last_name"]').fill('Lovelace');
    await p.locator('#contact [name="username"]').fill('ada1815');
    await p.locator('#contact [name="company"]').fill('  Analytical Engines Ltd ');
    await p.locator('#contact [name="password"]').fill('hunter2-secret');
    await Promise.all([p.waitForURL(/\/thanks$/), p.locator('#contact button').click()]);
    // The submit went through untouched: the site got the whole form, password included.
    const posted = site.requests.filter((r) => r.method === 'POST' && r.url === `/p/${embedCode}/thanks`);
    expect(posted.at(-1)?.body).toContain('password=hunter2-secret');

    await waitForCount(() => collected(embedCode, 'identify'), 1);
    const [identified] = collected(embedCode, 'identify') as [Body];
    expect(identified).toEqual({
      embedCode,
      visitorId: consent.visitorId,
      consentEventId: consent.eventId,
      eventId: expect.stringMatching(UUID_PATTERN),
      source: 'form',
      email: 'ada.lovelace@example.com',
      name: 'Ada Lovelace',
      company: 'Analytical Engines Ltd',
      pageUrl: `${site.origin}/p/${embedCode}/`,
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(identified.eventId).not.toBe(consent.eventId);
    const raw = rawIdentifyBodies().join('\n');
    for (const never of ['hunter2', 'secret@', 'pw@', 'owner@bakery', 'ada1815', 'private@', 'fieldoff@', 'before@']) {
      expect(raw).not.toContain(never);
    }
    // Sent after the consent it names had its answer: ingest checks it against the log.
    const order = host.requests.map((r) => r.body);
    expect(order.findIndex((b) => b.includes(identified.eventId as string))).toBeGreaterThan(
      order.findIndex((b) => b.includes(consent.eventId as string)),
    );
    await context.close();
  });

  it('loads identify.js on the next page from the stored choice; each address goes once, forms added later count', async () => {
    const embedCode = newEmbedCode('all');
    const context = await browser.newContext();
    const first = await visit(context, embedCode);
    await choose(first, 'Accept All');
    await waitForCount(() => collected(embedCode, 'consent'), 1);
    const [consent] = collected(embedCode, 'consent') as [Body];
    await first.close();

    const before = identifyScriptRequests();
    const p = await visit(context, embedCode);
    expect(await identify(p, 'not an address')).toBe(false);
    expect(identifyScriptRequests()).toBe(before + 1);
    // No new consent: the stored one stands, and it is the proof.
    expect(collected(embedCode, 'consent')).toHaveLength(1);

    await submit(p, 'newsletter', 'grace@example.com');
    await submit(p, 'newsletter', ' GRACE@example.com');
    await p.evaluate(() => {
      const form = document.createElement('form');
      form.id = 'later';
      form.innerHTML = '<input name="email"><input name="your_name"><button>Go</button>';
      document.body.append(form);
    });
    await submit(p, 'later', 'Linus@Example.com');
    await submit(p, 'marked', '  Mary@Example.com ');
    await waitForCount(() => collected(embedCode, 'identify'), 3);
    const bodies = collected(embedCode, 'identify');
    expect(bodies.map((b) => b.email)).toEqual(['grace@example.com', 'linus@example.com', 'mary@example.com']);
    expect(bodies.every((b) => b.consentEventId === consent.eventId && b.source === 'form')).toBe(true);
    await context.close();
  });
});

describe('a visitor who did not allow identification', () => {
  const checkNothing = async (p: Page, embedCode: string): Promise<void> => {
    await submit(p, 'newsletter', 'nobody@example.com');
    expect(await identify(p, 'nobody@example.com')).toBe(false);
    expect(await identifyOnPage(p)).toBe(false);
    expect(collected(embedCode, 'identify')).toEqual([]);
  };

  it('rejecting all: identify.js is never fetched and nothing is read', async () => {
    const embedCode = newEmbedCode('all');
    const context = await browser.newContext();
    const before = identifyScriptRequests();
    const p = await visit(context, embedCode);
    await choose(p, 'Reject All');
    await waitForCount(() => collected(embedCode, 'consent'), 1);
    await checkNothing(p, embedCode);
    expect(identifyScriptRequests()).toBe(before);
    await context.close();
  });

  it('a custom choice without identification: identify.js is never fetched', async () => {
    const embedCode = newEmbedCode('all');
    const context = await browser.newContext();
    const before = identifyScriptRequests();
    const p = await visit(context, embedCode);
    await expect.poll(() => firstLayer(p).isVisible(), { timeout: 15_000 }).toBe(true);
    await chooseCustom(p, ['Preferences', 'Analytics', 'Marketing']);
    await waitForCount(() => collected(embedCode, 'consent'), 1);
    expect(collected(embedCode, 'consent')[0]).toMatchObject({ method: 'custom', purposes: { analytics: true, identification: false } });
    await checkNothing(p, embedCode);
    expect(identifyScriptRequests()).toBe(before);
    await context.close();
  });

  it("an opt-out region's default grants identification but never allows it", async () => {
    const embedCode = newEmbedCode('region');
    const context = await browser.newContext();
    const before = identifyScriptRequests();
    const p = await visit(context, embedCode);
    await waitForCount(() => collected(embedCode, 'consent'), 1);
    expect(collected(embedCode, 'consent')[0]).toMatchObject({ method: 'jurisdiction_default', purposes: { identification: true } });
    await checkNothing(p, embedCode);
    // And on the next page, from the stored default.
    const next = await visit(context, embedCode);
    await checkNothing(next, embedCode);
    expect(identifyScriptRequests()).toBe(before);
    await context.close();
  });

  it('Consentry.identify made before the choice resolves false once the banner asks', async () => {
    const embedCode = newEmbedCode('all');
    const context = await browser.newContext();
    const p = await visit(context, embedCode, '#early');
    expect(await p.evaluate(() => (window as unknown as { __early: Promise<boolean> }).__early)).toBe(false);
    expect(await identifyOnPage(p)).toBe(false);
    await context.close();
  });

  it('a website whose host offers no capture: nothing loads even with the purpose granted', async () => {
    const embedCode = newEmbedCode('plain');
    const context = await browser.newContext();
    const before = identifyScriptRequests();
    const p = await visit(context, embedCode);
    await choose(p, 'Accept All');
    await waitForCount(() => collected(embedCode, 'consent'), 1);
    await checkNothing(p, embedCode);
    expect(identifyScriptRequests()).toBe(before);
    await context.close();
  });
});

describe("marked mode: only forms marked data-consentry-identify", () => {
  it('reads the marked form, and no other', async () => {
    const embedCode = newEmbedCode('marked');
    const context = await browser.newContext();
    const p = await visit(context, embedCode);
    await choose(p, 'Accept All');
    expect(await identify(p, 'not an address')).toBe(false);
    await submit(p, 'newsletter', 'unmarked@example.com');
    await submit(p, 'private', 'private@example.com');
    await p.locator('#marked [name="E-Mail"]').fill('  Mary.Jackson@NASA.example ');
    await p.locator('#marked [name="fullname"]').fill('Mary Jackson');
    await p.locator('#marked [name="org"]').fill('NASA');
    await p.locator('#marked button').click();
    await waitForCount(() => collected(embedCode, 'identify'), 1);
    expect(collected(embedCode, 'identify')[0]).toMatchObject({
      source: 'form',
      email: 'mary.jackson@nasa.example',
      name: 'Mary Jackson',
      company: 'NASA',
    });
    await context.close();
  });
});

describe('Consentry.identify for signed-in visitors', () => {
  it('resolves false before the grant, then sends source call with name and company, each address once', async () => {
    const embedCode = newEmbedCode('all');
    const context = await browser.newContext();
    const p = await visit(context, embedCode);
    await expect.poll(() => firstLayer(p).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await identify(p, 'grace@example.com')).toBe(false);

    // Called in the same moment as the click: queued until identify.js runs.
    const sent = await p.evaluate(() => {
      const accept = Array.from(document.querySelector('consentry-widget')?.shadowRoot?.querySelectorAll('button') ?? []).find(
        (b) => b.textContent === 'Accept All',
      ) as HTMLButtonElement;
      accept.click();
      const api = (window as unknown as { Consentry: { identify(e: unknown, d?: unknown): Promise<boolean> } }).Consentry;
      return Promise.all([
        api.identify(' Grace.Hopper@Example.com ', { name: 'Grace Hopper', company: 'US Navy' }),
        api.identify('grace.hopper@example.com'),
        api.identify('grace@'),
        api.identify(42),
      ]);
    });
    expect(sent).toEqual([true, true, false, false]);
    await waitForCount(() => collected(embedCode, 'identify'), 1);
    const [consent] = collected(embedCode, 'consent') as [Body];
    expect(collected(embedCode, 'identify')[0]).toMatchObject({
      source: 'call',
      email: 'grace.hopper@example.com',
      name: 'Grace Hopper',
      company: 'US Navy',
      consentEventId: consent.eventId,
      visitorId: consent.visitorId,
    });

    // A call made on a later page before the config arrived waits for the stored choice.
    const next = await visit(context, embedCode, '#early');
    expect(await next.evaluate(() => (window as unknown as { __early: Promise<boolean> }).__early)).toBe(true);
    await waitForCount(() => collected(embedCode, 'identify'), 2);
    expect(collected(embedCode, 'identify')[1]).toMatchObject({ source: 'call', email: 'early@example.com', name: null, company: null });
    await context.close();
  });

  it('resolves false, rather than waiting for ever, when identify.js cannot be loaded', async () => {
    const embedCode = newEmbedCode('broken');
    const context = await browser.newContext();
    const p = await visit(context, embedCode);
    await expect.poll(() => firstLayer(p).isVisible(), { timeout: 15_000 }).toBe(true);
    // Called in the same moment as the click, so queued while identify.js is on its way; then again.
    const answers = await p.evaluate(async () => {
      const accept = Array.from(document.querySelector('consentry-widget')?.shadowRoot?.querySelectorAll('button') ?? []).find(
        (b) => b.textContent === 'Accept All',
      ) as HTMLButtonElement;
      accept.click();
      const api = (window as unknown as { Consentry: { identify(e: unknown): Promise<boolean> } }).Consentry;
      return [await api.identify('ada@example.com'), await api.identify('ada@example.com')];
    });
    expect(answers).toEqual([false, false]);
    expect(host.requests.filter((r) => r.url === '/missing.js').length).toBeGreaterThan(0);
    expect(collected(embedCode, 'identify')).toEqual([]);
    await context.close();
  });
});

describe('a withdrawal', () => {
  it('stops identification on the same page at once; a new grant names the new consent', async () => {
    const embedCode = newEmbedCode('all');
    const context = await browser.newContext();
    const p = await visit(context, embedCode);
    await choose(p, 'Accept All');
    expect(await identify(p, 'not an address')).toBe(false);

    await chooseCustom(p, ['Analytics']);
    await waitForCount(() => collected(embedCode, 'consent'), 2);
    expect(collected(embedCode, 'consent')[1]).toMatchObject({ method: 'custom', purposes: { identification: false } });
    await submit(p, 'newsletter', 'withdrawn@example.com');
    expect(await identify(p, 'withdrawn-call@example.com')).toBe(false);

    // Allowed again: the next address goes, naming the new consent; the one sent while withdrawn never does.
    await chooseCustom(p, ['Identification']);
    await waitForCount(() => collected(embedCode, 'consent'), 3);
    await submit(p, 'newsletter', 'again@example.com');
    await waitForCount(() => collected(embedCode, 'identify'), 1);
    const regrant = collected(embedCode, 'consent')[2] as Body;
    expect(regrant).toMatchObject({ method: 'custom', purposes: { identification: true } });
    expect(collected(embedCode, 'identify')).toEqual([expect.objectContaining({ email: 'again@example.com', consentEventId: regrant.eventId })]);

    // Withdrawn by Reject All, then the same form again: nothing.
    await p.evaluate(() => (window as unknown as { Consentry: { open(): void } }).Consentry.open());
    await centre(p).getByRole('button', { name: 'Reject All' }).click();
    await waitForCount(() => collected(embedCode, 'consent'), 4);
    await submit(p, 'newsletter', 'rejected@example.com');
    expect(await identify(p, 'rejected-call@example.com')).toBe(false);
    // The barrier: a grant and a later address; what came before it would have arrived first.
    await chooseCustom(p, ['Identification']);
    await submit(p, 'newsletter', 'last@example.com');
    await waitForCount(() => collected(embedCode, 'identify'), 2);
    expect(collected(embedCode, 'identify').map((b) => b.email)).toEqual(['again@example.com', 'last@example.com']);
    await context.close();
  });
});

describe('the field rules, in the browser', () => {
  // Each form says what it should give (`data-expect`, JSON; null: nothing); readForm is bundled on its own.
  const forms = `
    <form data-expect='{"email":"ada@example.com","name":null,"company":null}'><input type="email" value="Ada@Example.com"></form>
    <form data-expect='{"email":"ada@example.com","name":null,"company":null}'><input name="your-e-mail" value=" ada@example.com "></form>
    <form data-expect='{"email":"ada@example.com","name":null,"company":null}'><input id="Contact_EMail" value="ada@example.com"></form>
    <form data-expect='{"email":"ada@example.com","name":null,"company":null}'><input name="f1" autocomplete="section-a work email" value="ada@example.com"></form>
    <form data-expect='{"email":"ada@example.com","name":"Ada Lovelace","company":"Engines"}'>
      <input name="email" value="not an address"><input name="email2" value="ada@example.com"><input name="email3" value="other@example.com">
      <input name="firstName" value="Ada"><input name="f2" autocomplete="family-name" value=" Lovelace ">
      <input name="username" value="ada1815"><input name="nickname" value="Countess"><input name="org_name" value="x">
      <input name="company_name" value="Engines"><input name="organisation" value="Second">
    </form>
    <form data-expect='{"email":"ada@example.com","name":null,"company":"Engines"}'><input type="email" value="ada@example.com"><input name="x" autocomplete="organization" value="Engines"></form>
    <form data-expect='{"email":"ada@example.com","name":null,"company":null}'>
      <input type="hidden" name="email" value="hidden@example.com"><input name="email" hidden value="attr@example.com">
      <input name="email" disabled value="disabled@example.com"><input type="password" name="email" value="pw@example.com">
      <input name="email_pass" value="text-pw@example.com"><input name="e" autocomplete="current-password" value="cp@example.com">
      <input name="login" autocomplete="new-password" value="np@example.com"><input type="checkbox" name="email_optin" value="box@example.com" checked>
      <textarea name="email">area@example.com</textarea><input name="email" data-consentry-identify="off" value="off@example.com">
      <input name="name" autocomplete="cc-name" value="Card Holder"><input name="card_name" value="Card Holder">
      <input name="email" value="ada@example.com">
    </form>
    <form data-expect='null'><input name="email" value="ada@example"></form>
    <form data-expect='null'><input name="name" value="Ada"></form>
    <form data-expect='null' data-consentry-identify="off"><input name="email" value="ada@example.com"></form>
    <div data-consentry-identify="off"><form data-expect='null'><input name="email" value="ada@example.com"></form></div>
    <form id="outside" data-expect='{"email":"ada@example.com","name":null,"company":null}'></form>
    <input form="outside" name="email" value="ada@example.com">
  `;

  it('reads the email, name and company fields, and never a secret, hidden, disabled or opted-out one', async () => {
    const { build } = await import('esbuild');
    const harness = await build({
      stdin: { contents: "import { readForm } from './identify'; (window as any).readForm = readForm;", loader: 'ts', resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
      bundle: true,
      format: 'iife',
      write: false,
    });
    const context = await browser.newContext();
    const p = await context.newPage();
    await p.setContent(`<!doctype html><body>${forms}</body>`);
    await p.addScriptTag({ content: harness.outputFiles[0]?.text });
    const results = await p.evaluate(() =>
      Array.from(document.querySelectorAll('form')).map((form, i) => ({
        i,
        all: (window as unknown as { readForm(f: HTMLFormElement, m: string): unknown }).readForm(form, 'all'),
        marked: (window as unknown as { readForm(f: HTMLFormElement, m: string): unknown }).readForm(form, 'marked'),
        expected: JSON.parse(form.getAttribute('data-expect') as string) as unknown,
      })),
    );
    expect(results.length).toBe(12);
    for (const r of results) {
      expect({ i: r.i, got: r.all }).toEqual({ i: r.i, got: r.expected });
      // None is marked, so marked mode reads none.
      expect({ i: r.i, got: r.marked }).toEqual({ i: r.i, got: null });
    }
    await p.setContent(
      '<form data-consentry-identify><input name="email" value="ada@example.com"></form>' +
        '<form data-consentry-identify="yes"><input name="email" value="ada@example.com"></form>',
    );
    await p.addScriptTag({ content: harness.outputFiles[0]?.text });
    expect(
      await p.evaluate(() =>
        Array.from(document.querySelectorAll('form')).map((f) => (window as unknown as { readForm(f: HTMLFormElement, m: string): unknown }).readForm(f, 'marked')),
      ),
    ).toEqual([
      { email: 'ada@example.com', name: null, company: null },
      { email: 'ada@example.com', name: null, company: null },
    ]);
    await context.close();
  });
});
