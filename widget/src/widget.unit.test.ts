import { afterEach, describe, expect, it, vi } from 'vitest';
import { UUID_PATTERN } from './ids';
import {
  button,
  CONFIG,
  dialog,
  EMBED_CODE,
  HOST,
  openPage,
  settingsButton,
  settle,
  widgetRoot,
  type TestPage,
} from './page.test-helper';
import { startWidget } from './widget';

const DENIED = { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' };
const GRANTED = { ad_storage: 'granted', analytics_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted' };

const BLOCKED = '<script type="text/plain" data-consentry-category="analytics" id="analytics">window.__analytics = true;</script>';

async function start(page: TestPage): Promise<void> {
  await startWidget(page.win, page.doc.querySelector('script[src$="widget.js"]'));
  await settle();
}

const dataLayerEntries = (page: TestPage): unknown[][] =>
  ((page.win as unknown as { dataLayer: ArrayLike<unknown>[] }).dataLayer ?? []).map((e) => Array.from(e));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('a first visit (nothing stored, no GPC)', () => {
  it('fetches the config from {host} without credentials', async () => {
    const page = openPage();
    await start(page);
    expect(page.requests[0]).toMatchObject({ method: 'GET', url: `${HOST}/api/widget/config/${EMBED_CODE}` });
    expect(page.requests[0]?.init).toEqual({ credentials: 'omit' });
  });

  it('shows a labelled, non-modal banner first in the body, with the owner\'s branding', async () => {
    const page = openPage();
    await start(page);
    const host = page.doc.body.firstElementChild as HTMLElement;
    expect(host.tagName).toBe('CONSENTRY-WIDGET');
    const d = dialog(page);
    expect(d.hidden).toBe(false);
    expect(d.getAttribute('aria-modal')).toBe('false');
    const root = widgetRoot(page);
    const title = root.getElementById(d.getAttribute('aria-labelledby') as string);
    const notice = root.getElementById(d.getAttribute('aria-describedby') as string);
    expect(title?.textContent).toBe('Acme Bakery uses cookies');
    expect(notice?.textContent).toContain('only if you accept');
    const link = notice?.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://shop.example.com/privacy');
    expect(link?.textContent).toBe('Privacy policy');
    expect(root.querySelector('img')?.getAttribute('src')).toBe(CONFIG.logoUrl);
    expect(root.querySelector('img')?.getAttribute('alt')).toBe('');
    expect(settingsButton(page).hidden).toBe(true);
  });

  it('offers Decline and Accept All with identical styling, in a sensible keyboard order', async () => {
    const page = openPage();
    await start(page);
    const focusable = Array.from(dialog(page).querySelectorAll('a[href],button')).map((e) => e.textContent);
    expect(focusable).toEqual(['Privacy policy', 'Decline', 'Accept All']);
    const decline = button(page, 'Decline');
    const accept = button(page, 'Accept All');
    expect(decline.className).toBe('c');
    expect(accept.className).toBe(decline.className);
    expect(accept.getAttribute('style')).toBe(decline.getAttribute('style'));
    expect(decline.type).toBe('button');
  });

  it('sends one anonymous impression, and nothing about the visitor', async () => {
    const page = openPage();
    await start(page);
    expect(page.collected('impression')).toEqual([
      { embedCode: EMBED_CODE, eventId: expect.stringMatching(UUID_PATTERN), position: 'bottom', theme: 'light' },
    ]);
    expect(page.requests.map((r) => r.url)).toEqual([
      `${HOST}/api/widget/config/${EMBED_CODE}`,
      `${HOST}/api/collect/impression`,
    ]);
    expect(page.win.Consentry?.getConsent()).toBeNull();
  });

  it('reports position and theme from the snippet', async () => {
    const page = openPage({ snippetAttrs: `data-consentry-id="${EMBED_CODE}" data-position="top" data-theme="dark"` });
    await start(page);
    expect(dialog(page).className).toBe('b top');
    expect(page.collected('impression')[0]).toMatchObject({ position: 'top', theme: 'dark' });
    const wrap = widgetRoot(page).querySelector('.w') as HTMLElement;
    expect(wrap.style.getPropertyValue('--bg')).toBe('#111827');
  });

  it('keeps consent-requiring scripts blocked and Google tags denied', async () => {
    const page = openPage({ bodyHtml: BLOCKED });
    (page.win as unknown as { dataLayer: unknown[] }).dataLayer = [];
    await start(page);
    expect(page.doc.getElementById('analytics')?.getAttribute('type')).toBe('text/plain');
    expect(dataLayerEntries(page)).toEqual([['consent', 'default', DENIED]]);
  });
});

describe('when the visitor accepts', () => {
  it('records the consent once, remembers it, unblocks scripts, grants Google tags and counts the page', async () => {
    const page = openPage({ bodyHtml: BLOCKED });
    (page.win as unknown as { dataLayer: unknown[] }).dataLayer = [];
    const changes: unknown[] = [];
    page.win.addEventListener('consentry:change', (e) => changes.push((e as CustomEvent).detail));
    await start(page);
    const original = page.doc.getElementById('analytics');
    button(page, 'Accept All').click();
    await settle();

    const visitorId = JSON.parse(page.win.localStorage.getItem('consentry:visitor') as string) as string;
    expect(visitorId).toMatch(UUID_PATTERN);
    const consents = page.collected('consent');
    expect(consents).toEqual([
      {
        embedCode: EMBED_CODE,
        eventId: expect.stringMatching(UUID_PATTERN),
        visitorId,
        choice: 'accepted',
        source: 'banner',
        policyVersion: '3',
        pageUrl: 'https://shop.example.com/',
        language: 'en-US',
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
    expect(JSON.parse(page.win.localStorage.getItem(`consentry:choice:${EMBED_CODE}`) as string)).toEqual({
      choice: 'accepted',
      policyVersion: '3',
      decidedAt: consents[0]?.occurredAt,
    });
    // Delivered, so nothing is left queued.
    expect(page.win.localStorage.getItem(`consentry:queue:${EMBED_CODE}`)).toBeNull();

    const activated = page.doc.getElementById('analytics');
    expect(activated).not.toBe(original);
    expect(activated?.hasAttribute('type')).toBe(false);
    expect(dataLayerEntries(page)).toEqual([
      ['consent', 'default', DENIED],
      ['consent', 'update', GRANTED],
    ]);
    expect(page.collected('pageview')).toEqual([
      {
        embedCode: EMBED_CODE,
        eventId: expect.stringMatching(UUID_PATTERN),
        visitorId,
        pageviewId: expect.stringMatching(UUID_PATTERN),
        url: 'https://shop.example.com/',
        referrer: '',
        title: 'Acme Bakery — fresh bread daily',
      },
    ]);
    expect(dialog(page).hidden).toBe(true);
    expect(settingsButton(page).hidden).toBe(false);
    expect(page.win.Consentry?.getConsent()).toBe('accepted');
    expect(changes).toEqual([{ consent: 'accepted' }]);
  });

  it('does not ask again on the next page, and applies the choice there', async () => {
    const first = openPage({ bodyHtml: BLOCKED });
    await start(first);
    button(first, 'Accept All').click();
    await settle();

    const next = openPage({ bodyHtml: BLOCKED, url: 'https://shop.example.com/menu', storageFrom: first });
    (next.win as unknown as { dataLayer: unknown[] }).dataLayer = [];
    await start(next);
    expect(dialog(next).hidden).toBe(true);
    expect(settingsButton(next).hidden).toBe(false);
    expect(next.collected('impression')).toEqual([]);
    expect(next.collected('consent')).toEqual([]);
    expect(next.doc.getElementById('analytics')?.hasAttribute('type')).toBe(false);
    expect(dataLayerEntries(next)).toEqual([
      ['consent', 'default', DENIED],
      ['consent', 'update', GRANTED],
    ]);
    expect(next.collected('pageview')).toEqual([expect.objectContaining({ url: 'https://shop.example.com/menu' })]);
    expect(next.collected('pageview')[0]?.visitorId).toBe(first.collected('consent')[0]?.visitorId);
    expect(next.win.Consentry?.getConsent()).toBe('accepted');
  });

  it('asks again once the policy version changed', async () => {
    const first = openPage();
    await start(first);
    button(first, 'Accept All').click();
    await settle();

    const next = openPage({ storageFrom: first, config: { ...CONFIG, policyVersion: '4' } });
    await start(next);
    expect(dialog(next).hidden).toBe(false);
    expect(next.collected('impression')).toHaveLength(1);
    expect(next.win.Consentry?.getConsent()).toBeNull();
    button(next, 'Decline').click();
    await settle();
    expect(next.collected('consent')).toEqual([expect.objectContaining({ choice: 'declined', source: 'banner', policyVersion: '4' })]);
  });
});

describe('when the visitor declines', () => {
  it('records the decline, keeps scripts blocked, sends no analytics', async () => {
    const page = openPage({ bodyHtml: BLOCKED + '<a href="tel:+15551234">Call</a>' });
    (page.win as unknown as { dataLayer: unknown[] }).dataLayer = [];
    await start(page);
    button(page, 'Decline').click();
    await settle();
    page.doc.querySelector('a')?.dispatchEvent(new page.win.MouseEvent('click', { bubbles: true, cancelable: true }));
    await settle();
    expect(page.collected('consent')).toEqual([expect.objectContaining({ choice: 'declined', source: 'banner' })]);
    expect(page.collected('pageview')).toEqual([]);
    expect(page.collected('engagement')).toEqual([]);
    expect(page.doc.getElementById('analytics')?.getAttribute('type')).toBe('text/plain');
    expect(dataLayerEntries(page)).toEqual([
      ['consent', 'default', DENIED],
      ['consent', 'update', DENIED],
    ]);
    expect(page.win.Consentry?.getConsent()).toBe('declined');
  });
});

describe('the floating settings button', () => {
  it('reopens the banner with focus in it; the new choice is a separate "reopened" event', async () => {
    const page = openPage({ bodyHtml: '<a href="tel:+15551234">Call</a>' });
    await start(page);
    button(page, 'Accept All').click();
    await settle();
    settingsButton(page).click();
    expect(dialog(page).hidden).toBe(false);
    expect(widgetRoot(page).activeElement).toBe(dialog(page));
    expect(settingsButton(page).getAttribute('aria-expanded')).toBe('true');
    button(page, 'Decline').click();
    await settle();

    const consents = page.collected('consent');
    expect(consents.map((c) => [c.choice, c.source])).toEqual([
      ['accepted', 'banner'],
      ['declined', 'reopened'],
    ]);
    expect(consents[0]?.eventId).not.toBe(consents[1]?.eventId);
    expect(consents[0]?.visitorId).toBe(consents[1]?.visitorId);
    // Focus goes back to the settings button, not lost to <body>.
    expect(widgetRoot(page).activeElement).toBe(settingsButton(page));
    // Withdrawn: analytics stop at once.
    page.doc.querySelector('a')?.dispatchEvent(new page.win.MouseEvent('click', { bubbles: true, cancelable: true }));
    await settle();
    expect(page.collected('engagement')).toEqual([]);
  });

  it('Escape closes a reopened banner without recording anything; the first banner stays', async () => {
    const page = openPage();
    await start(page);
    const escape = () => dialog(page).dispatchEvent(new page.win.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    escape();
    expect(dialog(page).hidden).toBe(false);
    button(page, 'Accept All').click();
    await settle();
    settingsButton(page).click();
    escape();
    expect(dialog(page).hidden).toBe(true);
    await settle();
    expect(page.collected('consent')).toHaveLength(1);
  });

  it('Consentry.open() called before the config arrived opens the banner once it is ready', async () => {
    const first = openPage();
    await start(first);
    button(first, 'Decline').click();
    await settle();
    const next = openPage({ storageFrom: first });
    const started = startWidget(next.win, next.doc.querySelector('script[src$="widget.js"]'));
    next.win.Consentry?.open();
    await started;
    expect(dialog(next).hidden).toBe(false);
    expect(next.collected('impression')).toEqual([]);
  });
});

describe('with Global Privacy Control', () => {
  it('records a decline with source gpc and shows no banner', async () => {
    const page = openPage({ gpc: true, bodyHtml: BLOCKED });
    await start(page);
    expect(dialog(page).hidden).toBe(true);
    expect(settingsButton(page).hidden).toBe(false);
    expect(page.collected('impression')).toEqual([]);
    expect(page.collected('consent')).toEqual([expect.objectContaining({ choice: 'declined', source: 'gpc', policyVersion: '3' })]);
    expect(page.doc.getElementById('analytics')?.getAttribute('type')).toBe('text/plain');
  });

  it('records it once: the next page applies the stored decline', async () => {
    const first = openPage({ gpc: true });
    await start(first);
    const next = openPage({ gpc: true, storageFrom: first });
    await start(next);
    expect(next.collected('consent')).toEqual([]);
    expect(next.win.Consentry?.getConsent()).toBe('declined');
  });

  it('still lets the visitor opt in through the settings button', async () => {
    const page = openPage({ gpc: true });
    await start(page);
    settingsButton(page).click();
    button(page, 'Accept All').click();
    await settle();
    expect(page.collected('consent').map((c) => [c.choice, c.source])).toEqual([
      ['declined', 'gpc'],
      ['accepted', 'reopened'],
    ]);
    expect(page.collected('pageview')).toHaveLength(1);
  });
});

describe('when ingest cannot commit the consent', () => {
  it('keeps it queued and retries on `online` with the same eventId', async () => {
    const page = openPage();
    await start(page);
    page.collectStatus = 503;
    button(page, 'Accept All').click();
    await settle();
    const queued = JSON.parse(page.win.localStorage.getItem(`consentry:queue:${EMBED_CODE}`) as string) as {
      body: { eventId: string };
    }[];
    expect(queued.map((q) => q.body.eventId)).toContain(page.collected('consent')[0]?.eventId);

    page.collectStatus = 201;
    page.win.dispatchEvent(new page.win.Event('online'));
    await settle();
    const consents = page.collected('consent');
    expect(consents).toHaveLength(2);
    expect(consents[1]?.eventId).toBe(consents[0]?.eventId);
    expect(page.win.localStorage.getItem(`consentry:queue:${EMBED_CODE}`)).toBeNull();
  });

  it('retries on the next page load at once, without waiting for the config', async () => {
    const first = openPage();
    await start(first);
    first.collectStatus = 503;
    button(first, 'Accept All').click();
    await settle();
    const eventId = first.collected('consent')[0]?.eventId;

    const next = openPage({ storageFrom: first });
    // The config never answers on this page.
    next.configResponse = () => new Promise<Response>(() => {});
    void startWidget(next.win, next.doc.querySelector('script[src$="widget.js"]'));
    await settle();
    const urls = next.requests.map((r) => r.url);
    expect(urls[0]).toBe(`${HOST}/api/widget/config/${EMBED_CODE}`);
    expect(urls[1]).toBe(`${HOST}/api/collect/consent`);
    expect(next.collected('consent')[0]?.eventId).toBe(eventId);
  });
});

describe('the host page is never broken', () => {
  it('shows nothing and throws nothing for an unknown embed code (404) or an inactive site (403)', async () => {
    for (const status of [404, 403, 500]) {
      const page = openPage();
      page.configResponse = () => Response.json({ error: { code: 'x', message: 'y' } }, { status });
      await expect(start(page)).resolves.toBeUndefined();
      expect(page.doc.querySelector('consentry-widget')).toBeNull();
      vi.unstubAllGlobals();
    }
  });

  it('survives a network failure, a non-JSON config and a config without policy version', async () => {
    const answers = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => new Response('<html>', { status: 200 }),
      () => Response.json({ ...CONFIG, policyVersion: '' }),
    ];
    for (const answer of answers) {
      const page = openPage();
      page.configResponse = answer;
      await expect(start(page)).resolves.toBeUndefined();
      expect(page.doc.querySelector('consentry-widget')).toBeNull();
      vi.unstubAllGlobals();
    }
  });

  it('works without usable localStorage (asks on every page, still records)', async () => {
    const page = openPage();
    vi.spyOn(page.win.localStorage, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(page.win.localStorage, 'setItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    await start(page);
    expect(dialog(page).hidden).toBe(false);
    button(page, 'Accept All').click();
    await settle();
    expect(page.collected('consent')).toHaveLength(1);
    expect(page.collected('pageview')[0]?.visitorId).toBe(page.collected('consent')[0]?.visitorId);
  });

  it('warns instead of failing when the snippet has no embed code', async () => {
    const page = openPage({ snippetAttrs: 'data-position="top"' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await start(page);
    expect(warn).toHaveBeenCalledWith('Consentry: data-embed-code missing');
    expect(page.requests).toEqual([]);
  });

  it('runs once when the snippet is included twice', async () => {
    const page = openPage();
    await start(page);
    await start(page);
    expect(page.doc.querySelectorAll('consentry-widget')).toHaveLength(1);
    expect(page.collected('impression')).toHaveLength(1);
  });

  it('never turns an owner\'s javascript: URL into a link, nor a bad colour into CSS', async () => {
    const page = openPage({
      config: { ...CONFIG, privacyPolicyUrl: 'javascript:alert(1)', logoUrl: 'javascript:x', primaryColor: 'red;}*{x' },
    });
    await start(page);
    const root = widgetRoot(page);
    expect(root.querySelector('a')).toBeNull();
    expect(root.querySelector('img')).toBeNull();
    expect((root.querySelector('.w') as HTMLElement).style.getPropertyValue('--pb')).toBe('#2563eb');
  });

  it('names the site itself when the owner set no company name', async () => {
    const page = openPage({ config: { ...CONFIG, companyName: '' } });
    await start(page);
    expect(widgetRoot(page).querySelector('h2')?.textContent).toBe('shop.example.com uses cookies');
  });
});
