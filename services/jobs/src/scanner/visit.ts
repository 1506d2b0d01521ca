// One visit to one page in a fresh browser context: load it, let it settle, optionally answer the
// Consentry banner (Accept All or Reject All, clicked by the widget's structure, not its texts,
// which owners can change), reload, and record what the browser holds and whom it contacted.
// All its traffic goes through its own guard proxy (guard-proxy.ts); the visit is bounded in time
// and ends early when the scan is aborted.
import type { Browser, BrowserContext, BrowserContextOptions, Page, Request } from 'playwright-core';
import type { AddressGuard } from './address-guard';
import { isSameSite } from './crawl';
import { startGuardProxy, type GuardProxy } from './guard-proxy';
import type { ConsentModeSignal, ObservedCookie, PageVisit, VisitMode } from './observation';

/**
 * The widget's first layer: `#b` inside the `consentry-widget` element's open shadow root, with its
 * buttons in `.a` as [Customize, Reject All, Accept All, Close]. Playwright's CSS pierces open
 * shadow roots.
 */
export const bannerSelector = 'consentry-widget #b';
export const bannerButtonSelector = 'consentry-widget #b .a > button';
const buttonIndex = { acceptAll: 2, rejectAll: 1 } as const;

export interface VisitSettings {
  /** The website's domain: hosts outside it are third parties. */
  domain: string;
  guard: AddressGuard;
  /** Bounds the visit: navigation, settling, the choice, the reload. */
  pageTimeoutMs: number;
  /** The network counts as settled after this long without a request starting or ending. */
  quietMs: number;
  /** The longest a page may take to settle (pages that poll never do). */
  maxSettleMs: number;
  /** How long to wait for the banner once the page has settled. */
  bannerWaitMs: number;
  userAgent?: string;
  /** Requests answered locally with an empty 204 and never sent (Consentry's own consent beacons). */
  muteRequest?: (url: string) => boolean;
  /** Aborting closes the visit's context at once. */
  signal?: AbortSignal;
}

const maxItems = 1000;
const maxNameLength = 256;
const maxLinks = 2000;

// In-page scripts are strings, not functions: a bundler's helpers (esbuild's __name) would be
// missing in the page. They read the page's own origin and never throw.
const readStateScript = `(() => {
  const keys = (name) => {
    try {
      const store = window[name];
      const out = [];
      for (let i = 0; i < store.length && out.length < ${maxItems}; i++) {
        const key = store.key(i);
        if (key !== null) out.push(key.slice(0, ${maxNameLength}));
      }
      return out;
    } catch (e) {
      return [];
    }
  };
  const signals = [];
  try {
    const layer = window.dataLayer;
    if (Array.isArray(layer)) {
      for (const entry of layer.slice(0, 1000)) {
        if (!entry || typeof entry !== 'object' || typeof entry.length !== 'number') continue;
        if (entry[0] !== 'consent' || (entry[1] !== 'default' && entry[1] !== 'update')) continue;
        const given = entry[2];
        const params = {};
        if (given && typeof given === 'object') {
          for (const key of Object.keys(given).slice(0, 50)) {
            if (typeof given[key] === 'string') params[key.slice(0, 100)] = given[key].slice(0, 100);
          }
        }
        signals.push({ command: entry[1], params });
      }
    }
  } catch (e) {}
  return { localStorage: keys('localStorage'), sessionStorage: keys('sessionStorage'), signals };
})()`;

const readLinksScript = `(() => {
  const out = [];
  for (const a of document.querySelectorAll('a[href], area[href]')) {
    if (out.length >= ${maxLinks}) break;
    if (typeof a.href === 'string') out.push(a.href);
  }
  return out;
})()`;

interface PageState {
  localStorage: string[];
  sessionStorage: string[];
  signals: ConsentModeSignal[];
}

/**
 * Options every scanning context shares: all traffic through the guard proxy (loopback included:
 * Chromium bypasses proxies for loopback unless told not to), no service workers (they fetch
 * outside the page's view), no downloads.
 */
export function scanningContextOptions(proxy: GuardProxy, userAgent: string | undefined): BrowserContextOptions {
  return {
    proxy: { server: proxy.url, bypass: '<-loopback>' },
    serviceWorkers: 'block',
    acceptDownloads: false,
    ...(userAgent ? { userAgent } : {}),
  };
}

function expiresIso(expires: number): string | null {
  if (expires === -1 || !Number.isFinite(expires)) return null;
  const date = new Date(Math.min(expires * 1000, 253402300799000)); // at most 9999-12-31
  return date.toISOString();
}

function cookieDomainIsSameSite(cookieDomain: string, domain: string): boolean {
  return isSameSite(cookieDomain.replace(/^\./, ''), domain);
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // Playwright's messages carry a call log after the first line, and name the call first
  // ("page.goto: net::ERR_EMPTY_RESPONSE at …"): what happened is in between.
  return text
    .split('\n')[0]!
    .replace(/^[a-z]+\.[a-zA-Z]+: /, '')
    .replace(/ at \S+$/, '')
    .slice(0, 500);
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `work`'s outcome, or `signal`'s reason as soon as it aborts. Closing a context does not settle
 * every call on it (Playwright 1.65 never settles a newPage() in flight when its context closes), so
 * a stopped visit or scan must stop waiting for its browser calls rather than rely on the close.
 */
export function unlessAborted<T>(signal: AbortSignal | undefined, work: Promise<T>): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Visits `url` once in a fresh context. Never throws for what the page does (a failed navigation,
 * a timeout): that is the visit's `error`, and whatever was recorded until then is kept.
 * `links` are the page's link targets (absolute, unfiltered), read on `before` visits only.
 */
export async function visitPage(
  browser: Browser,
  url: string,
  mode: VisitMode,
  settings: VisitSettings,
): Promise<{ visit: PageVisit; links: string[]; contentType: string | null }> {
  const visit: PageVisit = {
    mode,
    finalUrl: null,
    status: null,
    bannerShown: false,
    choiceMade: false,
    cookies: [],
    localStorage: [],
    sessionStorage: [],
    thirdPartyHosts: [],
    refusedHosts: [],
    consentSignals: [],
    error: null,
  };
  let links: string[] = [];
  let contentType: string | null = null;
  if (settings.signal?.aborted) return { visit: { ...visit, error: 'aborted' }, links, contentType };

  const deadline = Date.now() + settings.pageTimeoutMs;
  const remaining = (): number => Math.max(1, deadline - Date.now());

  const proxy = await startGuardProxy(settings.guard);
  let context: BrowserContext;
  try {
    context = await browser.newContext({ ...scanningContextOptions(proxy, settings.userAgent), locale: 'en-US' });
  } catch (error) {
    await proxy.close();
    throw error;
  }
  let stoppedBy: 'timeout' | 'aborted' | null = null;
  // Aborted when the visit stops (the scan's abort, or the backstop): the context closes, and the
  // visit stops waiting for calls the close leaves pending.
  const stopped = new AbortController();
  const stop = (why: 'timeout' | 'aborted'): void => {
    stoppedBy ??= why;
    stopped.abort();
    context.close().catch(() => {});
  };
  // A backstop for a browser call that hangs: every wait below is bounded by `remaining()`, a hung call is not.
  const backstop = setTimeout(() => stop('timeout'), settings.pageTimeoutMs + 2000);
  const onAbort = (): void => stop('aborted');
  settings.signal?.addEventListener('abort', onAbort, { once: true });
  // The signal may have fired while the context was being made.
  if (settings.signal?.aborted) stop('aborted');

  const network = watchNetwork(context, settings, () => stoppedBy != null);
  const record = async (): Promise<void> => {
    if (settings.muteRequest) {
      const mute = settings.muteRequest;
      await context.route(
        (address) => mute(address.toString()),
        (route) => route.fulfill({ status: 204, body: '' }).catch(() => {}),
      );
    }
    const page = await context.newPage();
    const response = await navigate(page, remaining, settings.maxSettleMs, (p, t) => p.goto(url, { waitUntil: 'domcontentloaded', timeout: t }));
    visit.status = response?.status() ?? null;
    contentType = response?.headers()['content-type'] ?? null;
    visit.finalUrl = page.url();
    await network.settle(Math.min(settings.maxSettleMs, remaining()));
    visit.bannerShown = await waitForBanner(page, Math.min(settings.bannerWaitMs, remaining()), () => stoppedBy != null);
    if (mode === 'before') {
      links = await page.evaluate<string[]>(readLinksScript).catch(() => []);
    } else if (visit.bannerShown) {
      const button = page.locator(bannerButtonSelector).nth(buttonIndex[mode]);
      // A notice-only banner (regions that grant by default) shows Close alone.
      if (await button.isVisible().catch(() => false)) {
        network.phase = 'afterChoice';
        await button.click({ timeout: Math.min(5000, remaining()) }).catch(() => button.dispatchEvent('click', undefined, { timeout: Math.min(2000, remaining()) }));
        visit.choiceMade = true;
        await network.settle(Math.min(settings.maxSettleMs, remaining()));
        const afterClick = await readState(page);
        visit.consentSignals.push(...afterClick.signals);
        await navigate(page, remaining, settings.maxSettleMs, (p, t) => p.reload({ waitUntil: 'domcontentloaded', timeout: t }));
        visit.finalUrl = page.url();
        await network.settle(Math.min(settings.maxSettleMs, remaining()));
      }
    }
    if (!visit.choiceMade) network.phase = 'whole';
    // Cookies first: they are read from the browser, the rest needs the page's (maybe busy) script thread.
    visit.cookies = (await context.cookies()).slice(0, maxItems).map(
      (cookie): ObservedCookie => ({
        name: cookie.name.slice(0, maxNameLength),
        domain: cookie.domain,
        path: cookie.path,
        expires: expiresIso(cookie.expires),
        httpOnly: cookie.httpOnly,
        secure: cookie.secure,
        sameSite: cookie.sameSite,
        firstParty: cookieDomainIsSameSite(cookie.domain, settings.domain),
      }),
    );
    const state = await readState(page);
    visit.localStorage = [...state.localStorage].sort();
    visit.sessionStorage = [...state.sessionStorage].sort();
    visit.consentSignals.push(...state.signals);
  };
  try {
    await unlessAborted(stopped.signal, record());
  } catch (error) {
    visit.error = stoppedBy ?? messageOf(error);
  } finally {
    clearTimeout(backstop);
    settings.signal?.removeEventListener('abort', onAbort);
    if (stoppedBy && visit.error == null) visit.error = stoppedBy;
    // A refused host was never reached: it is no third party the page contacted.
    visit.refusedHosts = [...proxy.refused].sort();
    visit.thirdPartyHosts = network.thirdPartyHosts().filter((host) => !proxy.refused.has(host));
    await context.close().catch(() => {});
    await proxy.close();
  }
  // A copy: a call left pending when the visit stopped may still settle, and `record` go on writing.
  return { visit: structuredClone(visit), links: [...links], contentType };
}

/**
 * Navigates, then waits for `load` a bounded time; a page whose `load` never comes (a hanging
 * resource) is still recorded as it stands. Throws only when no page was committed (a refused or
 * failed connection, a download).
 */
async function navigate<T>(
  page: Page,
  remaining: () => number,
  maxLoadMs: number,
  go: (page: Page, timeout: number) => Promise<T>,
): Promise<T | null> {
  let response: T | null = null;
  try {
    response = await go(page, remaining());
  } catch (error) {
    if (!/^https?:/.test(page.url())) throw error;
  }
  await page.waitForLoadState('load', { timeout: Math.min(maxLoadMs, remaining()) }).catch(() => {});
  return response;
}

/**
 * Polls for the banner's first layer. Playwright's own waiting backs off to half-second polls, which
 * misses a banner that appears just after the page settled when the wait is short.
 */
async function waitForBanner(page: Page, maxMs: number, stopped: () => boolean): Promise<boolean> {
  const banner = page.locator(bannerSelector).first();
  const until = Date.now() + maxMs;
  for (;;) {
    if (await banner.isVisible().catch(() => false)) return true;
    if (Date.now() >= until || stopped()) return false;
    await delay(Math.min(50, until - Date.now()));
  }
}

async function readState(page: Page): Promise<PageState> {
  return page.evaluate<PageState>(readStateScript).catch(() => ({ localStorage: [], sessionStorage: [], signals: [] }));
}

interface NetworkWatch {
  /** Which phase requests count towards: before the visit's choice, after it, or (no choice) the whole visit. */
  phase: 'beforeChoice' | 'afterChoice' | 'whole';
  thirdPartyHosts(): string[];
  /** Waits until no request started or ended for `quietMs` and none is open, `maxMs` passed, or the visit stopped. */
  settle(maxMs: number): Promise<void>;
}

/**
 * Watches the context's requests (every redirect hop is a request here): which hosts outside the
 * website it contacts, and when the network goes quiet.
 */
function watchNetwork(context: BrowserContext, settings: VisitSettings, stopped: () => boolean): NetworkWatch {
  const hosts = { beforeChoice: new Set<string>(), afterChoice: new Set<string>() };
  const open = new Set<Request>();
  let lastActivity = Date.now();

  const watch: NetworkWatch = {
    phase: 'beforeChoice',
    thirdPartyHosts() {
      const chosen = watch.phase === 'afterChoice' ? hosts.afterChoice : new Set([...hosts.beforeChoice, ...hosts.afterChoice]);
      return [...chosen].sort();
    },
    async settle(maxMs) {
      const until = Date.now() + maxMs;
      while (Date.now() < until && !stopped()) {
        if (open.size === 0 && Date.now() - lastActivity >= settings.quietMs) return;
        await delay(Math.min(50, Math.max(1, until - Date.now())));
      }
    },
  };

  context.on('request', (request) => {
    lastActivity = Date.now();
    open.add(request);
    const from = request.redirectedFrom();
    if (from) open.delete(from);
    let target: URL;
    try {
      target = new URL(request.url());
    } catch {
      return;
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:' && target.protocol !== 'ws:' && target.protocol !== 'wss:') return;
    if (settings.muteRequest?.(request.url())) return;
    const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (!isSameSite(host, settings.domain)) hosts[watch.phase === 'afterChoice' ? 'afterChoice' : 'beforeChoice'].add(host);
  });
  const done = (request: Request): void => {
    lastActivity = Date.now();
    open.delete(request);
  };
  context.on('requestfinished', done);
  context.on('requestfailed', done);
  return watch;
}
