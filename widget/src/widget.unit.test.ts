import { afterEach, describe, expect, it, vi } from 'vitest';
import { UUID_PATTERN } from './ids';
import {
  BLOCKED,
  BLOCKED_MARKETING,
  button,
  centre,
  CONFIG,
  dialog,
  EMBED_CODE,
  HOST,
  isShown,
  openPage,
  purposeSwitch,
  settingsButton,
  settle,
  widgetRoot,
  type TestPage,
} from './page.test-helper';
import { startWidget } from './widget';

const signals = (state: 'denied' | 'granted') => ({
  ad_storage: state,
  analytics_storage: state,
  ad_user_data: state,
  ad_personalization: state,
  functionality_storage: state,
  personalization_storage: state,
  security_storage: 'granted',
});
const CONFIG_URL = `${HOST}/api/widget/config/${EMBED_CODE}?lang=en`;
const DENIED = signals('denied');
const GRANTED = signals('granted');
const ALL = { preferences: true, analytics: true, marketing: true, identification: false };
const NONE = { preferences: false, analytics: false, marketing: false, identification: false };

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
    expect(page.requests[0]).toMatchObject({ method: 'GET', url: CONFIG_URL });
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
    expect(notice?.textContent).toContain('only for the purposes you allow');
    const link = notice?.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://shop.example.com/privacy');
    expect(link?.textContent).toBe('Privacy policy');
    expect(root.querySelector('img')?.getAttribute('src')).toBe(CONFIG.logoUrl);
    expect(root.querySelector('img')?.getAttribute('alt')).toBe('');
    expect(settingsButton(page).hidden).toBe(true);
  });

  it('offers Reject All and Accept All with identical styling, in a sensible keyboard order', async () => {
    const page = openPage();
    await start(page);
    const focusable = Array.from(dialog(page).querySelectorAll('a[href],button')).filter(isShown).map((e) => e.textContent);
    expect(focusable).toEqual(['Privacy policy', 'Customize', 'Reject All', 'Accept All']);
    const decline = button(page, 'Reject All');
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
      CONFIG_URL,
      `${HOST}/api/widget/rule/${EMBED_CODE}`,
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
        offered: ['preferences', 'analytics', 'marketing'],
        purposes: ALL,
        method: 'accept_all',
        source: 'banner',
        policyVersion: '3',
        pageUrl: 'https://shop.example.com/',
        language: 'en-US',
        shownLanguage: 'en',
        textsHash: CONFIG.textsHash,
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
    expect(JSON.parse(page.win.localStorage.getItem(`consentry:choice:${EMBED_CODE}`) as string)).toEqual({
      offered: ['preferences', 'analytics', 'marketing'],
      purposes: ALL,
      method: 'accept_all',
      policyVersion: '3',
      decidedAt: consents[0]?.occurredAt,
      // The consent event's id, the proof an identification names.
      eventId: consents[0]?.eventId,
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
    expect(changes).toEqual([{ consent: 'accepted', purposes: { necessary: true, ...ALL } }]);
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
    button(next, 'Reject All').click();
    await settle();
    expect(next.collected('consent')).toEqual([
      expect.objectContaining({ purposes: NONE, method: 'reject_all', source: 'banner', policyVersion: '4' }),
    ]);
  });
});

describe('when the visitor declines', () => {
  it('records the decline, keeps scripts blocked, sends no analytics', async () => {
    const page = openPage({ bodyHtml: BLOCKED + '<a href="tel:+15551234">Call</a>' });
    (page.win as unknown as { dataLayer: unknown[] }).dataLayer = [];
    await start(page);
    button(page, 'Reject All').click();
    await settle();
    page.doc.querySelector('a')?.dispatchEvent(new page.win.MouseEvent('click', { bubbles: true, cancelable: true }));
    await settle();
    expect(page.collected('consent')).toEqual([expect.objectContaining({ purposes: NONE, method: 'reject_all', source: 'banner' })]);
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
  it('reopens the preference centre with focus in it; the new choice is a separate "reopened" event', async () => {
    const page = openPage({ bodyHtml: '<a href="tel:+15551234">Call</a>' });
    await start(page);
    button(page, 'Accept All').click();
    await settle();
    settingsButton(page).click();
    expect(isShown(centre(page))).toBe(true);
    expect(dialog(page).hidden).toBe(true);
    expect(widgetRoot(page).activeElement).toBe(centre(page));
    expect(settingsButton(page).getAttribute('aria-expanded')).toBe('true');
    button(page, 'Reject All').click();
    await settle();

    const consents = page.collected('consent');
    expect(consents.map((c) => [c.method, c.source])).toEqual([
      ['accept_all', 'banner'],
      ['reject_all', 'reopened'],
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

  it('Escape closes a reopened preference centre without recording anything; the first banner stays', async () => {
    const page = openPage();
    await start(page);
    const escape = (el: HTMLElement) => el.dispatchEvent(new page.win.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    escape(dialog(page));
    expect(dialog(page).hidden).toBe(false);
    button(page, 'Accept All').click();
    await settle();
    settingsButton(page).click();
    escape(centre(page));
    expect(isShown(centre(page))).toBe(false);
    expect(dialog(page).hidden).toBe(true);
    expect(settingsButton(page).hidden).toBe(false);
    await settle();
    expect(page.collected('consent')).toHaveLength(1);
  });

  it('Consentry.open() called before the config arrived opens the preference centre once it is ready', async () => {
    const first = openPage();
    await start(first);
    button(first, 'Reject All').click();
    await settle();
    const next = openPage({ storageFrom: first });
    const started = startWidget(next.win, next.doc.querySelector('script[src$="widget.js"]'));
    next.win.Consentry?.open();
    await started;
    expect(isShown(centre(next))).toBe(true);
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
    expect(page.collected('consent')).toEqual([
      expect.objectContaining({ purposes: NONE, method: 'gpc', source: 'gpc', policyVersion: '3' }),
    ]);
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
    expect(page.collected('consent').map((c) => [c.method, c.source])).toEqual([
      ['gpc', 'gpc'],
      ['accept_all', 'reopened'],
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
    expect(urls.slice(0, 3)).toEqual([CONFIG_URL, `${HOST}/api/widget/rule/${EMBED_CODE}`, `${HOST}/api/collect/consent`]);
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

describe('the preference centre', () => {
  it('opens from Customize as a labelled modal dialog: necessary always on, one switch per purpose, off', async () => {
    const page = openPage();
    await start(page);
    button(page, 'Customize').click();
    const c = centre(page);
    expect(isShown(c)).toBe(true);
    expect(dialog(page).hidden).toBe(true);
    const root = widgetRoot(page);
    expect(root.getElementById(c.getAttribute('aria-labelledby') as string)?.textContent).toBe('Privacy preferences');
    expect(root.activeElement).toBe(c);
    expect(c.textContent).toContain('Always on');
    for (const purpose of ['preferences', 'analytics', 'marketing']) {
      const s = purposeSwitch(page, purpose);
      expect(s.getAttribute('role')).toBe('switch');
      expect(s.checked).toBe(false);
      // Labelled by its name and described by its description.
      expect(root.querySelector(`label[for="s${purpose}"]`)?.textContent).toBe(purpose[0]?.toUpperCase() + purpose.slice(1));
      expect(root.getElementById(s.getAttribute('aria-describedby') as string)?.textContent).not.toBe('');
    }
    // Only the purposes the website asks for.
    expect(purposeSwitch(page, 'identification')).toBeNull();
    // The services under each purpose, with their cookies.
    expect(c.textContent).toContain('Google Ads: Ad measurement (_gcl_au, IDE)');
  });

  it('records a custom choice of analytics only: only analytics runs, Consent Mode grants only analytics_storage', async () => {
    const page = openPage({ bodyHtml: BLOCKED + BLOCKED_MARKETING });
    (page.win as unknown as { dataLayer: unknown[] }).dataLayer = [];
    await start(page);
    button(page, 'Customize').click();
    purposeSwitch(page, 'analytics').click();
    button(page, 'Save choices').click();
    await settle();

    expect(page.collected('consent')).toEqual([
      expect.objectContaining({
        offered: ['preferences', 'analytics', 'marketing'],
        purposes: { ...NONE, analytics: true },
        method: 'custom',
        source: 'banner',
      }),
    ]);
    expect(page.doc.getElementById('analytics')?.hasAttribute('type')).toBe(false);
    expect(page.doc.getElementById('ads')?.getAttribute('type')).toBe('text/plain');
    expect(page.doc.getElementById('video')?.hasAttribute('src')).toBe(false);
    expect(dataLayerEntries(page)).toEqual([
      ['consent', 'default', DENIED],
      ['consent', 'update', { ...DENIED, analytics_storage: 'granted' }],
    ]);
    expect(page.collected('pageview')).toHaveLength(1);
    expect(page.win.Consentry?.getConsent()).toBe('accepted');
    expect(page.win.Consentry?.allows('analytics')).toBe(true);
    expect(page.win.Consentry?.allows('marketing')).toBe(false);
    expect(page.win.Consentry?.allows('necessary')).toBe(true);
  });

  it('shows the switches as granted when reopened; a preferences-only choice starts no page-view tracking', async () => {
    const page = openPage();
    await start(page);
    button(page, 'Customize').click();
    purposeSwitch(page, 'preferences').click();
    button(page, 'Save choices').click();
    await settle();
    expect(page.collected('pageview')).toEqual([]);
    settingsButton(page).click();
    expect(purposeSwitch(page, 'preferences').checked).toBe(true);
    expect(purposeSwitch(page, 'analytics').checked).toBe(false);
  });

  it('Escape with nothing decided goes back to the first layer, recording nothing', async () => {
    const page = openPage();
    await start(page);
    button(page, 'Customize').click();
    centre(page).dispatchEvent(new page.win.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(isShown(centre(page))).toBe(false);
    expect(dialog(page).hidden).toBe(false);
    await settle();
    expect(page.collected('consent')).toEqual([]);
  });

  it('keeps Tab inside the dialog', async () => {
    const page = openPage();
    await start(page);
    button(page, 'Customize').click();
    const root = widgetRoot(page);
    const controls = Array.from(centre(page).querySelectorAll<HTMLElement>('button,input,summary,a[href]'));
    const last = controls[controls.length - 1] as HTMLElement;
    last.focus();
    const tab = new page.win.KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    last.dispatchEvent(tab);
    expect(tab.defaultPrevented).toBe(true);
    expect(root.activeElement).toBe(controls[0]);
    const back = new page.win.KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true, cancelable: true });
    (controls[0] as HTMLElement).dispatchEvent(back);
    expect(root.activeElement).toBe(last);
  });
});

describe('blocked embeds', () => {
  it('show a placeholder that allows their purpose; allowing it loads the embed and records the grant', async () => {
    const page = openPage({ bodyHtml: BLOCKED_MARKETING });
    await start(page);
    const placeholder = page.doc.querySelector('consentry-placeholder') as HTMLElement;
    expect(placeholder.nextElementSibling?.id).toBe('video');
    const inner = placeholder.shadowRoot as ShadowRoot;
    expect(inner.textContent).toContain('This content is blocked until you allow Marketing.');
    (inner.querySelector('button') as HTMLButtonElement).click();
    await settle();
    expect(page.doc.getElementById('video')?.getAttribute('src')).toBe('https://video.example.net/embed/1');
    expect(page.doc.querySelector('consentry-placeholder')).toBeNull();
    expect(page.collected('consent')).toEqual([
      expect.objectContaining({ purposes: { ...NONE, marketing: true }, method: 'custom', source: 'placeholder' }),
    ]);
  });
});

describe('asking again', () => {
  const acceptOn = async (config = CONFIG): Promise<TestPage> => {
    const page = openPage({ config });
    await start(page);
    button(page, 'Accept All').click();
    await settle();
    return page;
  };

  it('asks when the website asks for other purposes than those chosen on', async () => {
    const first = await acceptOn();
    const next = openPage({ storageFrom: first, config: { ...CONFIG, purposes: ['analytics', 'marketing'] } });
    await start(next);
    expect(dialog(next).hidden).toBe(false);
    expect(next.win.Consentry?.getChoice()).toBeNull();
  });

  it('asks when the choice is older than the consent lifetime', async () => {
    const first = await acceptOn({ ...CONFIG, consentLifetimeMonths: 1 });
    const key = `consentry:choice:${EMBED_CODE}`;
    const stored = JSON.parse(first.win.localStorage.getItem(key) as string) as { decidedAt: string };
    stored.decidedAt = new Date(Date.now() - 40 * 86_400_000).toISOString();
    first.win.localStorage.setItem(key, JSON.stringify(stored));
    const next = openPage({ storageFrom: first, config: { ...CONFIG, consentLifetimeMonths: 1 } });
    await start(next);
    expect(dialog(next).hidden).toBe(false);
    // The same age stands under a 12-month lifetime.
    const later = openPage({ storageFrom: first });
    await start(later);
    expect(dialog(later).hidden).toBe(true);
  });

  it('keeps a choice stored by widget 1 when the website still asks for its three purposes', async () => {
    const page = openPage();
    page.win.localStorage.setItem(
      `consentry:choice:${EMBED_CODE}`,
      JSON.stringify({ choice: 'accepted', policyVersion: '3', decidedAt: new Date().toISOString() }),
    );
    await start(page);
    expect(dialog(page).hidden).toBe(true);
    expect(page.win.Consentry?.getChoice()).toEqual({ necessary: true, ...ALL });
  });

  it('shares the choice with the other subdomains of the website through a cookie on its domain', async () => {
    const first = await acceptOn();
    const cookie = first.doc.cookie.split('; ').find((c) => c.startsWith(`consentry_${EMBED_CODE}=`)) as string;
    expect(JSON.parse(decodeURIComponent(cookie.split('=')[1] as string))).toMatchObject({ purposes: ALL, policyVersion: '3' });
    // A page on another subdomain, with nothing in its own localStorage.
    const other = openPage({ url: 'https://blog.example.com/', cookie });
    await start(other);
    expect(dialog(other).hidden).toBe(true);
    expect(other.win.Consentry?.getConsent()).toBe('accepted');
  });
});

describe('the public API', () => {
  it('tells subscribers and the DOM event the purposes of each change; unsubscribing stops it', async () => {
    const page = openPage();
    await start(page);
    const seen: unknown[] = [];
    const stop = page.win.Consentry?.onChange((choice) => seen.push(choice));
    button(page, 'Customize').click();
    purposeSwitch(page, 'marketing').click();
    button(page, 'Save choices').click();
    expect(seen).toEqual([{ necessary: true, ...NONE, marketing: true }]);
    stop?.();
    settingsButton(page).click();
    button(page, 'Reject All').click();
    expect(seen).toHaveLength(1);
    expect(page.win.Consentry?.getConsent()).toBe('declined');
    expect(page.win.Consentry?.getChoice()).toEqual({ necessary: true, ...NONE });
  });
});

describe('languages', () => {
  it("asks for the first of the visitor's languages it has texts for, and shows the texts of the answer", async () => {
    const page = openPage({
      languages: ['xx-YY', 'ar-EG', 'en'],
      config: { ...CONFIG, language: 'ar', dir: 'rtl', texts: { ...CONFIG.texts, title: 'ملفات {company}' } },
    });
    await start(page);
    expect(page.requests[0]?.url).toBe(`${HOST}/api/widget/config/${EMBED_CODE}?lang=ar`);
    const wrap = widgetRoot(page).querySelector('.w') as HTMLElement;
    expect(wrap.getAttribute('dir')).toBe('rtl');
    expect(wrap.getAttribute('lang')).toBe('ar');
    expect(widgetRoot(page).querySelector('h2')?.textContent).toBe('ملفات Acme Bakery');
  });

  it("lets the website's default apply when none of the visitor's languages is supported", async () => {
    const page = openPage({ languages: ['xx', 'yy-ZZ'] });
    await start(page);
    expect(page.requests[0]?.url).toBe(`${HOST}/api/widget/config/${EMBED_CODE}`);
  });
});

describe('rules by region', () => {
  const regional = { ...CONFIG, regional: true };
  const withRule = (rule: string, options: Parameters<typeof openPage>[0] = {}): TestPage => {
    const page = openPage({ config: regional, ...options });
    page.ruleResponse = () => Response.json({ region: 'US-CA', rule });
    return page;
  };

  it('asks for the rule beside the config (not after it), and follows it only when the website has rules by region', async () => {
    const page = openPage();
    page.ruleResponse = () => Response.json({ region: 'US-CA', rule: 'opt_out' });
    let answerConfig: (response: Response) => void = () => {};
    page.configResponse = () => new Promise<Response>((resolve) => (answerConfig = resolve));
    const started = startWidget(page.win, page.doc.querySelector('script[src$="widget.js"]'));
    await settle();
    // Both requests are out while the config is still on its way.
    expect(page.requests.map((r) => r.url)).toEqual([CONFIG_URL, `${HOST}/api/widget/rule/${EMBED_CODE}`]);
    answerConfig(Response.json(CONFIG));
    await started;
    await settle();
    // This website asks everyone (regional: false): the opt-out answer is ignored.
    expect(dialog(page).hidden).toBe(false);
    expect(page.collected('consent')).toEqual([]);
  });

  it('in an opt-out region shows no banner, records the default grant once, and adds a working opt-out link', async () => {
    const page = withRule('opt_out', { bodyHtml: BLOCKED });
    await start(page);
    expect(dialog(page).hidden).toBe(true);
    expect(page.collected('impression')).toEqual([]);
    expect(page.collected('consent')).toEqual([
      expect.objectContaining({ purposes: ALL, method: 'jurisdiction_default', source: 'jurisdiction' }),
    ]);
    expect(page.doc.getElementById('analytics')?.hasAttribute('type')).toBe(false);
    const link = Array.from(widgetRoot(page).querySelectorAll('button')).find(
      (b) => b.textContent === 'Do Not Sell or Share My Personal Information',
    ) as HTMLButtonElement;
    expect(isShown(link)).toBe(true);
    link.click();
    await settle();
    expect(page.collected('consent').map((c) => [c.method, c.source])).toEqual([
      ['jurisdiction_default', 'jurisdiction'],
      ['reject_all', 'opt_out_link'],
    ]);
    expect(link.textContent).toBe('You have opted out of the sale and sharing of your personal information.');
    expect(page.win.Consentry?.getConsent()).toBe('declined');

    const next = withRule('opt_out', { storageFrom: page });
    await start(next);
    expect(next.collected('consent')).toEqual([]);
    expect(next.win.Consentry?.getConsent()).toBe('declined');
  });

  it('takes Global Privacy Control as the opt-out in an opt-out region', async () => {
    const page = withRule('opt_out', { gpc: true });
    await start(page);
    expect(page.collected('consent')).toEqual([expect.objectContaining({ purposes: NONE, method: 'gpc', source: 'gpc' })]);
  });

  it('in a notice-only region records the default and shows a notice with Customize and Close', async () => {
    const page = withRule('notice_only');
    await start(page);
    expect(page.collected('consent')).toEqual([expect.objectContaining({ method: 'jurisdiction_default' })]);
    const shown = Array.from(dialog(page).querySelectorAll('button')).filter(isShown).map((b) => b.textContent);
    expect(shown).toEqual(['Customize', 'Close']);
    button(page, 'Close').click();
    expect(dialog(page).hidden).toBe(true);
  });

  it('falls back to opt-in when the rule cannot be had', async () => {
    const page = withRule('opt_out');
    page.ruleResponse = () => new Response('nope', { status: 500 });
    await start(page);
    expect(dialog(page).hidden).toBe(false);
    expect(page.collected('consent')).toEqual([]);
  });
});
