// Test helper: a fresh simulated page per test (happy-dom Window), with the browser globals the widget
// uses pointed at it, and a fake Consentry host answering the ingest protocol. A fresh page matters: the
// widget installs listeners on document and window that a shared page would carry into the next test.
import { Window as HappyWindow } from 'happy-dom';
import { afterEach, vi } from 'vitest';
// The server's own English texts, so the widget is tested with what the config really carries.
import { englishTexts } from '@consentry/events';

export const HOST = 'https://consent.example.net';
export const EMBED_CODE = 'emb_12345678';
export const PAGE_URL = 'https://shop.example.com/';

export const CONFIG = {
  websiteId: '6f1d0c2e-8a4b-4c3d-9e5f-1a2b3c4d5e6f',
  companyName: 'Acme Bakery',
  logoUrl: 'data:image/png;base64,iVBORw0KGgo=',
  primaryColor: '#2563eb',
  privacyPolicyUrl: 'https://shop.example.com/privacy',
  policyVersion: '3',
  purposes: ['preferences', 'analytics', 'marketing'],
  services: [
    { purpose: 'analytics', name: 'Plausible', description: 'Visit counts', cookies: [] },
    { purpose: 'marketing', name: 'Google Ads', description: 'Ad measurement', cookies: ['_gcl_au', 'IDE'] },
  ],
  consentLifetimeMonths: 12,
  domain: 'example.com',
  texts: englishTexts,
  language: 'en',
  dir: 'ltr',
  textsHash: 'a'.repeat(64),
  regional: false,
};

/** The analytics script, blocked until analytics is granted. */
export const BLOCKED = '<script type="text/plain" data-consentry-category="analytics" id="analytics">window.__analytics = true;</script>';
/** A marketing script and a marketing embed, blocked until marketing is granted. */
export const BLOCKED_MARKETING =
  '<script type="text/plain" data-consentry-category="marketing" id="ads">window.__ads = true;</script>' +
  '<embed id="video" data-consentry-category="marketing" data-consentry-src="https://video.example.net/embed/1">';

export interface SentRequest {
  method: string;
  url: string;
  init: RequestInit | undefined;
  body: Record<string, unknown> | undefined;
}

export interface TestPage {
  win: Window & typeof globalThis;
  doc: Document;
  requests: SentRequest[];
  beacons: { url: string; body: Record<string, unknown> }[];
  /** The status answered to collect requests (config is answered separately). */
  collectStatus: number;
  configResponse: () => Response | Promise<Response>;
  /** The answer to the per-visitor rule request (only made for a `regional` config). */
  ruleResponse: () => Response | Promise<Response>;
  /** POSTs to `{host}/api/collect/<path>`, bodies parsed. */
  collected(path: string): Record<string, unknown>[];
}

// Timers too: the widget's timers (the outbox's retry backoff) then belong to the page, and closing
// the page at the end of its test cancels them, so no retry of one test fires into the next one's fetch.
const STUBBED = ['window', 'document', 'location', 'navigator', 'localStorage', 'history', 'CustomEvent', 'CSSStyleSheet', 'setTimeout', 'clearTimeout'] as const;

const openPages: HappyWindow[] = [];

afterEach(async () => {
  for (const happy of openPages.splice(0)) await happy.happyDOM.close();
});

/**
 * A new page at `url` whose body is `bodyHtml` plus the snippet (with `snippetAttrs`), optionally with
 * the localStorage of an earlier page of the same site (a reload or the next page of the visit).
 */
export function openPage(
  options: {
    bodyHtml?: string;
    snippetAttrs?: string;
    url?: string;
    storageFrom?: TestPage;
    gpc?: boolean;
    config?: Record<string, unknown>;
    languages?: string[];
    cookie?: string;
  } = {},
): TestPage {
  const happy = new HappyWindow({
    url: options.url ?? PAGE_URL,
    settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true },
  });
  openPages.push(happy);
  const win = happy as unknown as Window & typeof globalThis;
  const doc = win.document;
  doc.title = 'Acme Bakery — fresh bread daily';
  doc.body.innerHTML =
    (options.bodyHtml ?? '<main><h1>Acme Bakery</h1></main>') +
    `<script src="${HOST}/widget.js" ${options.snippetAttrs ?? `data-embed-code="${EMBED_CODE}"`} defer></script>`;
  if (options.storageFrom) {
    const from = options.storageFrom.win.localStorage;
    for (let i = 0; i < from.length; i++) {
      const key = from.key(i) as string;
      win.localStorage.setItem(key, from.getItem(key) as string);
    }
  }
  if (options.languages) Object.defineProperty(win.navigator, 'languages', { value: options.languages, configurable: true });
  if (options.cookie) doc.cookie = options.cookie;
  if (options.gpc) Object.defineProperty(win.navigator, 'globalPrivacyControl', { value: true, configurable: true });

  const page: TestPage = {
    win,
    doc,
    requests: [],
    beacons: [],
    collectStatus: 201,
    configResponse: () => Response.json(options.config ?? CONFIG),
    ruleResponse: () => Response.json({ region: 'EU', rule: 'opt_in' }),
    collected: (path) =>
      page.requests
        .filter((r) => r.method === 'POST' && r.url === `${HOST}/api/collect/${path}`)
        .map((r) => r.body as Record<string, unknown>),
  };
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    page.requests.push({ method, url: input, init, body });
    if (input.startsWith(`${HOST}/api/widget/config/`)) return page.configResponse();
    if (input.startsWith(`${HOST}/api/widget/rule/`)) return page.ruleResponse();
    return new Response('{}', { status: page.collectStatus });
  });
  Object.defineProperty(win.navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, data: string) => {
      page.beacons.push({ url, body: JSON.parse(data) as Record<string, unknown> });
      return true;
    },
  });

  for (const name of STUBBED) vi.stubGlobal(name, win[name]);
  vi.stubGlobal('fetch', fetchMock);
  return page;
}

/** Lets pending promise callbacks (fetch answers, the outbox loop) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** The widget's shadow root on `page`. */
export function widgetRoot(page: TestPage): ShadowRoot {
  const host = page.doc.querySelector('consentry-widget');
  if (!host?.shadowRoot) throw new Error('the widget is not mounted');
  return host.shadowRoot;
}

/** The first layer. */
export function dialog(page: TestPage): HTMLElement {
  return widgetRoot(page).querySelector('[role="dialog"]') as HTMLElement;
}

/** The preference centre (a modal dialog). */
export function centre(page: TestPage): HTMLElement {
  return widgetRoot(page).querySelector('[aria-modal="true"]') as HTMLElement;
}

/** Whether `el` is shown (neither it nor an ancestor in the widget is hidden). */
export function isShown(el: Element): boolean {
  for (let e: Element | null = el; e; e = e.parentElement) if ((e as HTMLElement).hidden) return false;
  return true;
}

export type Label = 'Customize' | 'Reject All' | 'Accept All' | 'Save choices' | 'Close';

/** The shown button labelled `label` (first layer and centre both have Reject All and Accept All). */
export function button(page: TestPage, label: Label): HTMLButtonElement {
  const b = Array.from(widgetRoot(page).querySelectorAll('button')).find((x) => x.textContent === label && isShown(x));
  if (!b) throw new Error(`no ${label} button`);
  return b;
}

/** The switch of `purpose` in the preference centre. */
export function purposeSwitch(page: TestPage, purpose: string): HTMLInputElement {
  return widgetRoot(page).getElementById('s' + purpose) as HTMLInputElement;
}

export function settingsButton(page: TestPage): HTMLButtonElement {
  return widgetRoot(page).querySelector('button[aria-label="Cookie settings"]') as HTMLButtonElement;
}
